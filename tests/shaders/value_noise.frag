// Value noise as Shadertoy writes it, with hash multipliers small enough
// that the R500's and the interpreter's last bits agree: the corner
// hashes (dot_offset, slp), fbm's m * p * 2.02 (scale_fold), a vec3 padded
// with 0.0 (lane_const), (p + e) * k and pow(2.0, i) (reassociate).
varying vec2 v_uv;
uniform float u_time;

const mat2 m = mat2(0.8, 0.6, -0.6, 0.8);

float rand(vec2 n) { return fract(sin(cos(dot(n, vec2(1.9898, 1.1414)))) * 3.5); }

float noise2(vec2 n)
{
	const vec2 d = vec2(0.0, 1.0);
	vec2 b = floor(n), f = smoothstep(vec2(0.0), vec2(1.0), fract(n));
	return mix(mix(rand(b), rand(b + d.yx), f.x), mix(rand(b + d.xy), rand(b + d.yy), f.x), f.y);
}

float hash(float n) { return fract(sin(n) * 2.5); }

float noise3(vec2 xx)
{
	vec3 x = vec3(xx, 0.0);
	vec3 p = floor(x), f = fract(x);
	f = f * f * (3.0 - 2.0 * f);
	float n = p.x + p.y * 57.0 + 113.0 * p.z;
	return mix(mix(hash(n), hash(n + 1.0), f.x), mix(hash(n + 57.0), hash(n + 58.0), f.x), f.y);
}

void main()
{
	vec2 p = v_uv * 4.0 + u_time;
	float f = 0.0;
	for (int i = 0; i < 3; i++) {
		f += noise2(p) / pow(2.0, float(i));
		p = m * p * 2.02;
	}
	float g = noise3((v_uv + 0.25) * 3.0);
	gl_FragColor = vec4(f, g, f * g, 1.0);
}
