// Multiple render targets and a depth write.
varying vec2 v_uv;
void main()
{
	gl_FragData[0] = vec4(v_uv, 0.0, 1.0);
	gl_FragData[1] = vec4(v_uv.yx, 1.0, 1.0);
	gl_FragData[2] = vec4(v_uv.x * v_uv.y);
	gl_FragData[3] = vec4(0.25, v_uv, 0.75);
	gl_FragDepth = v_uv.x * 0.5 + 0.25;
}
