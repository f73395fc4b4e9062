// (Here, not in tests/shaders: derivatives under a divergent IF are
// undefined in GLSL, and the IR interpreter the differential judge
// uses leaves the inactive neighbours stale; llvmpipe runs them.)
// Derivatives inside a divergent IF nested in another, of values made
// partly by the outer IF's side: the outer IF's marks must go on through
// the ops the inner IF marked already (backend/isel_inactive.c).
uniform float k;
varying vec2 uv;

void main()
{
	vec2 base = uv * 1.5 + k;
	vec4 c;
	if (uv.x + 0.45 * uv.y < 0.7) {
		vec2 a = base * base + vec2(0.125, k); // made by the outer side
		a = a * a.yx + base;
		if (uv.y - 0.3 * uv.x < 0.35) {
			vec2 s = a * 0.75 - base.yx * 0.25;
			float m = s.x * s.y + a.x;
			c = vec4(dFdx(m), dFdy(m), dFdx(s.y), dFdy(s.x * m));
			c = c.wzyx * 0.75 + vec4(s, a) * 0.25;
			c = c.yxwz * 0.5 + vec4(a, s) * 0.125;
			c = c.zwxy * 0.625 + c * 0.0625;
			c = c.wzyx * 0.75 + vec4(s.yx, a) * 0.25;
			c = c.yxwz * 0.5 + c.zwxy * 0.125;
		} else {
			c = vec4(a, base) * 0.5;
		}
	} else {
		c = vec4(base, 0.5, 1.0);
	}
	gl_FragColor = c;
}
