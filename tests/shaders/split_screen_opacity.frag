// A split-screen effect: both sides end multiplying by the opacity, which
// phi_sink does once after the IF (each side's own load of it made again
// there); the else-if side's sum differs in one operand only.
uniform sampler2D source;
uniform float dividerValue;
uniform float qt_Opacity;
varying vec2 uv;

void main()
{
	vec4 orig = texture2D(source, uv);
	vec4 c;
	if (uv.x < dividerValue)
		c = qt_Opacity * vec4(orig.rgb * 0.5, 1.0);
	else if (uv.y < 0.5)
		c = qt_Opacity * orig.bgra;
	else
		c = qt_Opacity * orig;
	gl_FragColor = c + vec4(0.25) * (uv.y < 0.25 ? orig.gbra : uv.xyxy);
}
