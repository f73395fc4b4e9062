uniform vec3 ul;
varying vec3 v_n;
varying vec2 v_uv;
void main()
{
    vec3 n = normalize(v_n + vec3(0.2, -0.3, 0.5));
    float l = length(v_uv - 0.5);
    float dd = distance(v_uv, vec2(0.3, 0.7));
    vec3 r = reflect(-ul, n);
    vec3 cr = cross(n, ul);
    float d2 = dot(v_uv, vec2(2.0, -1.0));
    float d4 = dot(vec4(n, 1.0), vec4(ul, 0.5));
    gl_FragColor = vec4(r.x + cr.y, l + dd, d2 * d4, cr.z - r.z);
}
