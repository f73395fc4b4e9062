/* A uniform array of structs indexed by non-constants (issue 23.5): its
 * members laid out member-major, one indexed load per member read, at
 * the counter of a loop whose bound is a uniform (aL-relative), at an
 * index computed per pixel, at a uniform index, and whole structs passed
 * to a function; a member that is itself an array (w) member-major too,
 * each of its elements read at the struct index. */
struct Att { float k; bool on; };
struct Light { vec4 pos; vec3 color; mat2 m; Att att; vec2 w[2]; };
uniform Light lights[4];
uniform float n;
uniform int pick;
varying vec2 uv;

vec4 shade(Light l)
{
	vec2 p = l.m * uv;
	return vec4(p, l.att.k, l.att.on ? 1.0 : 0.5) * l.pos.w;
}

void main()
{
	int m = int(n * 4.0) + 1;
	vec4 acc = vec4(0.0);
	for (int i = 0; i < m; i++)
		acc += lights[i].pos * vec4(lights[i].color, 1.0) * lights[i].att.k;
	int j = int(clamp(uv.x, 0.0, 0.99) * 4.0);
	acc += shade(lights[j]) + vec4(lights[j].w[1], lights[3 - j].w[0]);
	acc.xy += lights[pick].m[1] + lights[3].color.xy;
	gl_FragColor = acc * 0.25;
}
