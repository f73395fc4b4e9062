// From tests/gen (run-gen seed 66 of an early gen-shader), reduced by
// hand.  Writing a computed vec2 to .wx must put its y in x and its x in
// w: at v_uv = (0.25, 0.25) the product is (0.25, 0.5), so gl_FragColor =
// (0.5, 0, 0, 0.25).  The backend gave (0.5, 0, 0, 0.5) when this was found.
varying vec2 v_uv;

void main()
{
    gl_FragColor = vec4(0.0, 0.0, 0.0, 1.0);
    gl_FragColor.wx = v_uv * vec2(1.0, 2.0);
}
