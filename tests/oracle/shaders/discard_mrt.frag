// Oracle self-check: discard (by a uniform threshold and by a checker
// texel) and two render targets through gl_FragData.
uniform sampler2D u_mask;
uniform float u_cut;
varying vec2 v_uv;
void main()
{
	if (v_uv.x + v_uv.y < u_cut)
		discard;
	vec4 m = texture2D(u_mask, v_uv * 3.0);
	if (m.r > 0.5 && v_uv.y > 0.75)
		discard;
	gl_FragData[0] = vec4(v_uv, m.g, 1.0);
	gl_FragData[1] = vec4(v_uv.yx * 2.0 - 1.0, u_cut, 0.5);
}
