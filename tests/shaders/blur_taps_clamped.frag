// Nine clamped taps around uv (a 3x3 blur): opt_pair_vec2 packs the
// coordinates of two taps into one vec4 chain (add, min, max) and each
// lookup reads its half through the TEX swizzle.
uniform sampler2D tex;
uniform vec2 texel;
varying vec2 uv;

vec4 tap(float x, float y)
{
	vec2 p = uv + texel * vec2(x, y);
	return texture2D(tex, max(min(p, vec2(0.9, 0.8)), vec2(0.1, 0.05)));
}

void main()
{
	vec4 sum = tap(-1.0, -1.0) + 2.0 * tap(0.0, -1.0) + tap(1.0, -1.0)
		 + 2.0 * tap(-1.0, 0.0) + 4.0 * tap(0.0, 0.0) + 2.0 * tap(1.0, 0.0)
		 + tap(-1.0, 1.0) + 2.0 * tap(0.0, 1.0) + tap(1.0, 1.0);
	gl_FragColor = sum / 16.0;
}
