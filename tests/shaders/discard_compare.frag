// discard on a comparison with a constant: TEXKILL on the difference
// (x - k, or k - x), including a -0 that must not kill (-0 < 0 is false).
varying vec4 v;
void main()
{
	if (v.x < 0.3)
		discard;
	if (0.8 < v.y)
		discard;
	float negzero = v.z * -0.0;
	if (negzero < 0.0)
		discard;
	gl_FragColor = vec4(v.xy, negzero, 1.0);
}
