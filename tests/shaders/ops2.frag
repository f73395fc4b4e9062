uniform vec4 u;
varying vec2 v_uv;
void main()
{
    vec2 p = v_uv * 4.0 + 0.1;
    float a = sqrt(p.x) + inversesqrt(p.y) + 1.0 / p.x;
    float b = exp2(p.x) * 0.01 + log2(p.y) + pow(p.x, u.y * 3.0);
    float c = sin(p.x * 3.0) + cos(p.y * 5.0 - 10.0) + tan(p.x * 0.3);
    float d = exp(p.y * 0.5) + log(p.x) + p.x / p.y + sqrt(p.x - v_uv.x * 4.0 - 0.1);
    gl_FragColor = vec4(a, b, c, d);
}
