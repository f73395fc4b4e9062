uniform sampler2D s0;
uniform sampler2D s1;
varying vec2 v_uv;
void main()
{
    vec4 a = texture2D(s0, v_uv);
    vec4 b = texture2D(s1, a.xy * 2.0);
    vec4 c = texture2DProj(s0, vec3(v_uv, 2.0));
    vec4 d = texture2D(s1, v_uv.yx, 0.5);
    if (a.x > 0.8) discard;
    gl_FragColor = a + b * 0.5 + c * 0.25 + d * 0.125;
}
