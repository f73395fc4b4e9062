// (Here, not in tests/shaders: derivatives under a divergent IF are
// undefined in GLSL, and the IR interpreter the differential judge
// uses leaves the inactive neighbours stale; llvmpipe runs them.)
// An IF the pixels of a quad take differently (a diagonal in uv), with
// derivatives and lookups of values made inside it: it jumps, and the
// ops making those values write the inactive neighbours too
// (backend/isel_inactive.c), so dFdx / dFdy read them right.
uniform sampler2D tex;
uniform float k;
varying vec2 uv;

void main()
{
	vec4 c;
	float keep = uv.y * 0.75 + k; // live across the IF, read in the else
	if (uv.x + 0.37 * uv.y < 0.61) {
		vec2 p = uv * 3.0 + vec2(k, 0.25);
		float q = p.x * p.y + p.x * p.x * 0.5;
		float r = q * q - p.y * 0.25;
		vec2 t = p * 0.5 + vec2(r, q) * 0.125;
		vec4 a = texture2D(tex, t);
		vec4 b = texture2D(tex, t.yx + 0.0625);
		c = vec4(dFdx(q) + dFdy(r), dFdy(q) - dFdx(r), a.x * b.y, a.z + b.w);
		c.xy += vec2(dFdx(t.x), dFdy(t.y)) * 2.0;
	} else {
		c = texture2D(tex, uv) * keep;
	}
	gl_FragColor = c;
}
