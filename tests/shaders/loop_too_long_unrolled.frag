// Unrolled, this loop passes the R500's 512 instruction slots (60 trips
// of four sines and cosines, each a few instructions after range
// reduction); kept as an R500 loop it fits.
varying vec2 v_uv;
void main()
{
	float x = v_uv.x;
	for (int i = 0; i < 60; i++)
		x = sin(x * 1.3) + cos(x + v_uv.y) * 0.5 + sin(x * 0.7) * 0.25 +
		    cos(x * 2.1) * 0.125;
	gl_FragColor = vec4(x, v_uv.y, 0.0, 1.0);
}
