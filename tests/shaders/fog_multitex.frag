// Two texture layers over the fixed-function varyings, with linear fog
// and an alpha test written as a discard.
uniform sampler2D u_base;
uniform sampler2D u_detail;
uniform vec4 u_fog_color;
uniform vec2 u_fog_range;     // start, end
uniform mat3 u_detail_xform;

void main()
{
	vec4 base = texture2D(u_base, gl_TexCoord[0].st);
	vec2 duv = (u_detail_xform * vec3(gl_TexCoord[1].st, 1.0)).xy;
	vec4 color = base * texture2D(u_detail, duv) * 2.0 * gl_Color;
	if (color.a < 0.1)
		discard;
	float depth = gl_FragCoord.z / gl_FragCoord.w;
	float fog = clamp((u_fog_range.y - depth) / (u_fog_range.y - u_fog_range.x), 0.0, 1.0);
	gl_FragColor = vec4(mix(u_fog_color.rgb, color.rgb, fog), color.a);
}
