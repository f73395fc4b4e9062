// A loop with a uniform bound, summing a uniform array with the counter.
uniform vec4 u_weights[4];
uniform float u_count;
varying vec2 v_uv;
void main()
{
	vec4 acc = vec4(0.0);
	for (int i = 0; i < 4; i++) {
		if (float(i) >= u_count * 4.0)
			break;
		acc += u_weights[i] * v_uv.x;
	}
	gl_FragColor = acc;
}
