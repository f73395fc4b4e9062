uniform float t;
varying vec2 v_uv;
void main()
{
    vec2 p = v_uv - 0.5;
    bool b1 = p.x < p.y;
    bool b2 = p.x >= 0.1;
    bool b3 = p.y == 0.03125;
    bool b4 = p.x != p.y;
    float s = b1 ? 1.0 : 0.25;
    if (b2 && !b3) s += 0.5;
    if (b1 || b4) s += 0.125;
    if (b1 ^^ b2) s += 2.0;
    bvec2 bv = lessThan(p, vec2(0.0));
    if (any(bv)) s += 4.0;
    if (all(bv)) s += 8.0;
    gl_FragColor = vec4(s, float(b2), vec2(p.x > t ? p : -p));
}
