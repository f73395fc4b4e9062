// A BREAK in the middle of a loop body: the frontend's jump flags put the
// rest of the body under `if (!c)` and the exit after it; break_hoist
// moves the test back in front (ir/opt_break_hoist.c).
uniform float n;
varying vec2 uv;

void main()
{
	float x = uv.x, i = 0.0;
	while (true) {
		x = x * 0.5 + uv.y;
		if (i >= n * 4.0 + 2.0)
			break;
		i += 1.0;
		x += i * 0.125;
	}
	gl_FragColor = vec4(fract(x), i * 0.1, uv.x, 1.0);
}
