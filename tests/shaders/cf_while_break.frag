// A while loop whose trip count depends on the pixel, leaving by break
// (at most 16 iterations whatever the inputs).
varying vec2 v_uv;
void main()
{
	float x = abs(v_uv.x);
	float n = 0.0;
	while (n < 16.0) {
		x = x * 1.5 + 0.1;
		n += 1.0;
		if (x > 2.0 + abs(v_uv.y))
			break;
	}
	gl_FragColor = vec4(x * 0.25, n * 0.1, v_uv.y, 1.0);
}
