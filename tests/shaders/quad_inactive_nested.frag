// Divergent IFs nested in a divergent IF (diagonals through the quads),
// with lookups whose coordinates are made partly by the outer IF's side
// and partly by the inner one's: all of them jump, and the outer IF's
// chains write the inactive neighbours too, through the inner IF's
// (backend/isel_inactive.c).  The values kept across both must survive.
uniform sampler2D tex;
uniform float k;
varying vec2 uv;

void main()
{
	vec2 base = uv * 1.5 + k;
	float w = base.x * base.y + 0.25;
	vec4 c;
	if (uv.x + 0.45 * uv.y < 0.7) {
		vec2 a = base * base + vec2(0.125, k); // made by the outer side
		vec4 t = vec4(a, base) * 0.5;
		if (uv.y - 0.3 * uv.x < 0.35) {
			vec2 s = a * 0.75 - base.yx * 0.25;
			c = texture2D(tex, s * a.y + 0.0625) * w;
			c = c.wzyx * 0.75 + vec4(s, a) * 0.25;
			c = c.yxwz * 0.5 + vec4(a, s) * 0.125;
			c = c.zwxy * 0.625 + c * 0.0625 + t;
			c = c.wzyx * 0.75 + vec4(s.yx, a) * 0.25;
			c = c.yxwz * 0.5 + c.zwxy * 0.125;
		} else {
			vec2 r = a.yx * 1.25 + base * w;
			c = texture2D(tex, r) + t;
			c = c.wzyx * 0.75 + vec4(r, a) * 0.25;
			c = c.yxwz * 0.5 + vec4(a, r) * 0.125;
			c = c.zwxy * 0.625 + c * 0.0625;
			c = c.wzyx * 0.75 + vec4(r.yx, a) * 0.25;
			c = c.yxwz * 0.5 + c.zwxy * 0.125;
		}
		c += texture2D(tex, a * 0.5) * 0.25;
	} else {
		c = texture2D(tex, uv) * w;
	}
	gl_FragColor = c + vec4(w, base, 1.0);
}
