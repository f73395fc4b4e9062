uniform vec4 tint;
uniform mat2 rot;
uniform sampler2D tex;
varying vec2 uv;
void main()
{
	vec2 c = rot * uv;
	gl_FragColor = texture2D(tex, c * 2.0) * tint + vec4(0.25, dFdy(uv.x), 0.5, 1.0);
}
