// From tests/gen (run-gen seed 101514), as generated.  The backend's sink
// stage tried a placed op in another slot; where it did not fit, the try
// had rewritten the op's address indices, so an alpha op read c13.x (a
// uniform) instead of c12.x (a constant-program output).  The debug build's
// validator reported it after 'sink'; the release build computed w wrong.
#version 110
uniform float u_f;
uniform float u_g;
uniform vec2 u_v2;
uniform vec3 u_v3;
uniform vec4 u_v4;
uniform mat2 u_m2;
uniform mat3 u_m3;
uniform mat4 u_m4;
uniform float u_n;
uniform vec4 u_arr[4];
uniform sampler2D tex0;
uniform sampler2D tex1;
varying vec2 v_uv;
varying vec3 v_pos;
varying vec4 v_color;

void main()
{
    gl_FragColor = vec4(0.0, 0.0, 0.0, 1.0);
    vec4 t1 = (vec4(v_pos, 0.5693) + vec4(greaterThan((mix(vec4(gl_FragCoord.xy / 16.0, (-0.1014), 0.1274), u_arr[2], clamp(v_color.x, 0.0, 1.0)) * 2.1130 + 0.2913), mod((vec4(0.9020, 0.7580, 0.5722, (-0.0477)) * 0.9170 + 0.0371), 0.8851))));
    for (int i2 = 0; i2 < 7; i2++) {
        if (float(i2) >= u_n) break;
        vec4 t3 = normalize(abs(v_color) + 0.25);
    }
    mat3 t4 = mat3(0.7101);
    for (float f5 = 0.0; f5 < u_n; f5 += 1.0) {
        t1 = u_arr[0];
        mat3 t6 = mat3(1.3209);
        if ((((v_uv.x / (abs(v_pos.z) + 0.5)) / (abs(step((-0.0756), (v_uv.x * 3.7100 + 0.1234))) + 0.5)) * 2.1130 + 0.0371) < clamp(ceil((u_f * 3.7100 + 0.0371)), (-2.0000), 2.0000)) {
            mat3 t7 = t6;
        } else {
            t1 = t1 * 0.5 + clamp((t1 / (abs(v_color) + 0.5)), (-2.0000), 2.0000) * 0.25;
            if ((step(v_color.z, (float(f5) * 3.7100 + 0.2913)) * 0.9170 + 0.0371) >= (((((-1.9165) * 1.3700 + 0.1234) <= u_g) && ((v_color.w * 1.3700 + 0.0371) < 0.0454)) ? v_color.z : v_uv.x)) {
                t1 = t1 * 0.5 + fract((t1 * 0.9170 + 0.4177)) * 0.25;
                vec3 t8 = clamp(vec3(gl_FragCoord.xy / 16.0, (-0.9698)), (-0.0947), 1.2965);
                float t9 = clamp(mix(float(f5), v_color.x, clamp(u_g, 0.0, 1.0)), (-4.0000), 4.0000);
            } else {
                if ((clamp((gl_FragCoord.y / 16.0), 0.1191, 0.7942) * 3.7100 + 0.2913) >= step(u_g, (v_pos.y * 0.9170 + 0.0371))) {
                    t1 = clamp(t1 - mix(t1, u_arr[1], clamp(vec4((-0.0584)), 0.0, 1.0)), -4.0, 4.0);
                    vec4 t10 = clamp(pow(abs(vec4(0.1846, (-0.7652), 0.6506, (-0.3644))) + 0.01, clamp(t1, -0.5, 2.0)), (-4.0000), 4.0000);
                }
            }
            int w11 = -1;
            while (w11 < 3) {
                w11++;
            }
        }
    }
    gl_FragColor.wzxy = mix(reflect(clamp(pow(abs(t1) + 0.01, clamp(t1, -0.5, 2.0)), (-1.0000), 1.0000), normalize(abs(sin(v_pos.yyzz)) + 0.25)), texture2D(tex1, (cos(u_v2) * 0.9170 + 0.4177)), clamp(u_v4, 0.0, 1.0));
    gl_FragColor.w = (smoothstep((-0.6521), (-0.3489), u_v3) * abs(u_g)).x;
    gl_FragColor = gl_FragColor * 0.5 + clamp(normalize(abs((u_m4 * u_v4)) + 0.25), (-0.2231), 0.1100) * 0.5;
}
