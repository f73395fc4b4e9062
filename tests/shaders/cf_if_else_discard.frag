// if/else with a discard in one side and the colour written in both.
varying vec2 v_uv;
void main()
{
	if (v_uv.x < 0.5) {
		if (v_uv.y < 0.25)
			discard;
		gl_FragColor = vec4(v_uv, 0.0, 1.0);
	} else {
		gl_FragColor = vec4(1.0 - v_uv.x, v_uv.y * v_uv.x, 0.5, 1.0);
	}
}
