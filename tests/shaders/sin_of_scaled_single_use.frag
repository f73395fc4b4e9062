// sin(p) where p = x * 2.0 is also read elsewhere and x has no other
// reader: the product's selection puts an OMOD (*2) on x's own op, so
// SIN must read p, not x scaled again (a shortcut once read x past it:
// sin(4x)).
varying vec2 v;
void main()
{
	float x = max(v.x, v.y);
	float p = x * 2.0;
	gl_FragColor = vec4(sin(p), p, cos(v.y * 3.0 + 0.5), 1.0);
}
