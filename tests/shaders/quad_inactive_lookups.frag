// A divergent IF (a diagonal through the quads) whose sides make lookup
// coordinates: it jumps, the ops making them writing the inactive
// neighbours too (backend/isel_inactive.c).  Those writes must clobber
// nothing the other pixels keep: values made before the IF and read on
// the other side or after it, and the first side's result.
uniform sampler2D tex;
uniform float k;
varying vec2 uv;

void main()
{
	vec2 base = uv * 1.5 + k;
	float w = base.x * base.y + 0.25;
	vec2 other = base.yx * 0.5 - k;
	vec4 c;
	if (uv.x + 0.45 * uv.y < 0.55) {
		vec2 p = base * base + vec2(0.125, k);
		vec2 s = p * 0.75 - base.yx * 0.25;
		float m = s.x * s.y + p.x;
		c = texture2D(tex, s + m * 0.03125) * w;
		c += texture2D(tex, p.yx * m) * 0.5;
		c.xy += s * m;
		c = c.wzyx * 0.75 + vec4(s, p) * 0.25;
		c = c.yxwz * 0.5 + vec4(p, s) * 0.125;
		c = c.zwxy * 0.625 + c * 0.0625;
	} else {
		vec2 q = other * other * 3.0 + base * 0.5;
		float n = q.x * q.y - w;
		c = texture2D(tex, q * n + 0.0625) + vec4(other, n, w);
		c.zw += q * 0.25;
		c = c.wzyx * 0.75 + vec4(q, other) * 0.25;
		c = c.yxwz * 0.5 + vec4(other, q) * 0.125;
		c = c.zwxy * 0.625 + c * 0.0625;
	}
	gl_FragColor = c + vec4(w, other, w * 0.5);
}
