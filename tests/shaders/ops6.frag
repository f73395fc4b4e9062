varying vec2 v_uv;
void main()
{
    vec2 p = v_uv * v_uv * 8.0;
    float dx = dFdx(p.x * p.y);
    vec2 dy = dFdy(p);
    float w = fwidth(p.x);
    gl_FragColor = vec4(dx, dy, w);
    gl_FragDepth = v_uv.x * 0.5;
}
