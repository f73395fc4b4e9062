// From tests/gen (run-gen seed 111 of an early gen-shader), reduced by
// hand.  Unrolling the outer loop must keep the SSA valid: the frontend's
// IR had a phi whose source is defined inside a closed if (the inner
// loop's counter of the previous unrolled iteration), which ir_validate
// rejects.  Every pixel is white.
varying vec2 v_uv;

void main()
{
    for (int i = 0; i < 3; i++) {
        if (v_uv.y > 0.1) {
            for (int j = 0; j < 5; j++) {
                if (float(i) > v_uv.x)
                    break;
            }
        }
    }
    gl_FragColor = vec4(1.0);
}
