// A uniform array read with an index computed per pixel (kept in range).
uniform vec4 u_palette[6];
varying vec2 v_uv;
void main()
{
	int i = int(clamp(v_uv.x, 0.0, 0.99) * 6.0);
	gl_FragColor = u_palette[i] * (0.5 + v_uv.y);
}
