uniform vec4 u;
varying vec2 v_uv;
void main()
{
    vec2 p = v_uv * 4.0 - 2.0;
    float a = floor(p.x) + ceil(p.y) * 0.25;
    float b = fract(p.x * 1.7) - sign(p.y) * 0.5 + abs(p.x) * 0.1;
    float c = min(p.x, p.y) + max(p.x, 0.3) + clamp(p.y, -0.5, 0.7);
    float d = mix(p.x, p.y, u.x) + step(0.1, p.x) + smoothstep(-1.0, 1.0, p.y);
    gl_FragColor = vec4(a, b, c, d);
}
