// From tests/gen (run-gen seed 67 of an early gen-shader), reduced.  A
// vector built from a scalar and a computed vec3 (here cross()) must keep
// the vec3's components in order in .yzw; the backend replicated one of
// them when this was found (the simplest form: vec4(0.5, v_color.xyz * 2.0)
// gave (0.5, 2x, 2x, 2x)).
varying vec2 v_uv;
varying vec3 v_pos;
varying vec4 v_color;

void main()
{
    gl_FragColor = vec4(inversesqrt(abs(v_uv.y) + 0.25), cross(v_color.wxz, v_pos));
}
