// An IF on a key read from a texture at a fixed place: all four pixels of
// a quad take the same side, so its implicit-LOD lookups may sit under real
// flow control (a branch this long: isel_cf.c), and the side not taken
// costs nothing (ir/quad_uniform.c).
uniform sampler2D keys;
uniform sampler2D tex;
varying vec2 uv;

void main()
{
	vec3 col;
	if (texture2D(keys, vec2(0.25, 0.75)).x > 0.5) {
		vec2 p = uv;
		for (int i = 0; i < 16; i++)
			p += 0.03 * texture2D(tex, p).xy;
		col = texture2D(tex, p).rgb;
	} else {
		col = texture2D(tex, uv).rgb * 0.5;
	}
	gl_FragColor = vec4(col, 1.0);
}
