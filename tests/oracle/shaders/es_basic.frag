// Oracle self-check: a GLSL ES 1.00 shader (an ES vertex shader is made
// for it).
#version 100
precision mediump float;
uniform sampler2D u_tex;
uniform vec3 u_tint;
varying highp vec2 v_uv;
varying vec4 v_extra;
void main()
{
	vec4 t = texture2D(u_tex, v_uv * 2.0 + 0.1);
	gl_FragColor = vec4(t.rgb * u_tint + v_extra.xyz * 0.5, abs(v_extra.w - t.a));
}
