// The same IF on a key read where each pixel reads its own place: the
// pixels of a quad may differ, and the lookups need their neighbours
// running: the IF is if-converted (ir/quad_uniform.c).
uniform sampler2D keys;
uniform sampler2D tex;
varying vec2 uv;

void main()
{
	vec3 col;
	if (texture2D(keys, uv).x > 0.5) {
		vec2 p = uv;
		for (int i = 0; i < 16; i++)
			p += 0.03 * texture2D(tex, p).xy;
		col = texture2D(tex, p).rgb;
	} else {
		col = texture2D(tex, uv).rgb * 0.5;
	}
	gl_FragColor = vec4(col, 1.0);
}
