uniform mat3 m;
uniform vec4 arr[3];
varying vec4 v_c;
void main()
{
    vec3 x = m * v_c.xyz;
    vec4 y = arr[0] * v_c.x + arr[2] * v_c.w - arr[1];
    gl_FragData[0] = vec4(x, 1.0);
    gl_FragData[1] = y;
    gl_FragData[2] = vec4(-v_c.x, v_c.y, -2.5, 0.0);
}
