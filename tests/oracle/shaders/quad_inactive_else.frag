// (Here, not in tests/shaders: derivatives under a divergent IF are
// undefined in GLSL, and the IR interpreter the differential judge
// uses leaves the inactive neighbours stale; llvmpipe runs them.)
// A divergent IF (gl_FragCoord splits quads on a diagonal) whose ELSE
// makes a lookup's coordinates and a derivative: the ELSE's ops write
// the pixels that ran the THEN too, which must keep what they hold for
// after the IF (values made before it and the THEN's result).
uniform sampler2D tex;
uniform float k;
varying vec2 uv;

void main()
{
	vec4 c;
	vec2 base = uv * 1.5 + k;
	float w = base.x * base.y;
	if (gl_FragCoord.x + 0.5 * gl_FragCoord.y < 13.25) {
		c = vec4(w, base, 1.0) * 0.5;
	} else {
		vec2 p = base * base + vec2(0.125, k);
		vec2 s = p * 0.75 - base.yx * 0.25;
		float m = s.x * s.y + p.x;
		c = texture2D(tex, s + m * 0.03125);
		c.x += dFdx(m) * 4.0;
		c.y += dFdy(s.x + m);
		c.zw += texture2D(tex, p.yx).xy * w;
		c = c.wzyx * 0.75 + vec4(s, p) * 0.25;
		c = c.yxwz * 0.5 + vec4(p, s) * 0.125;
		c = c.zwxy * 0.625 + c * 0.0625;
	}
	gl_FragColor = c + vec4(w * 0.25);
}
