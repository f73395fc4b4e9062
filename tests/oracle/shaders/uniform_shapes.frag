// Oracle self-check: uniform arrays, matrices (square and not), ints and
// bools reach both renderers the same way.
#version 120
uniform vec4 u_arr[3];
uniform float u_f[2];
uniform mat4 u_m4;
uniform mat2 u_m2;
uniform mat2x3 u_m23;
uniform int u_i;
uniform bool u_b;
uniform ivec2 u_iv;
varying vec2 v_uv;
void main()
{
	vec4 p = vec4(v_uv, v_uv.x * v_uv.y, 1.0);
	vec4 a = u_m4 * p + u_arr[0] * u_f[1] - u_arr[2];
	vec2 b = u_m2 * v_uv + (u_m23 * v_uv).xz;
	float c = float(u_i) * 0.25 + float(u_iv.x - u_iv.y) * 0.125 + (u_b ? 0.5 : -0.5);
	gl_FragColor = vec4(a.x + a.w, a.y - a.z, b.x * b.y, c + u_arr[1].w * u_f[0]);
}
