// Procedural bricks: fract and step build the pattern, mix colours it.
uniform vec3 u_brick;
uniform vec3 u_mortar;
uniform vec2 u_size;          // brick size in texture units
varying vec2 v_uv;

#define MORTAR 0.08

void main()
{
	vec2 p = v_uv / u_size;
	// every other row is shifted by half a brick
	if (fract(p.y * 0.5) > 0.5)
		p.x += 0.5;
	vec2 f = fract(p);
	vec2 inside = step(vec2(MORTAR), f) * step(f, vec2(1.0 - MORTAR));
	float brick = inside.x * inside.y;
	float shade = smoothstep(0.0, 1.0, f.y) * 0.2 + 0.8;
	gl_FragColor = vec4(mix(u_mortar, u_brick * shade, brick), 1.0);
}
