// Per-pixel Blinn-Phong lighting with one directional light.
#version 110
uniform vec3 u_light_dir;     // towards the light, world space
uniform vec3 u_light_color;
uniform vec3 u_ambient;
uniform float u_shininess;
uniform sampler2D u_albedo;
varying vec3 v_normal;
varying vec3 v_view;          // towards the eye
varying vec2 v_uv;

const float SPECULAR = 0.5;

void main()
{
	vec3 n = normalize(v_normal);
	vec3 l = normalize(u_light_dir);
	vec3 h = normalize(l + normalize(v_view));
	float diffuse = max(dot(n, l), 0.0);
	float specular = pow(max(dot(n, h), 0.0), u_shininess) * SPECULAR;
	vec3 albedo = texture2D(u_albedo, v_uv).rgb;
	vec3 color = albedo * (u_ambient + u_light_color * diffuse) + u_light_color * specular;
	gl_FragColor = vec4(clamp(color, 0.0, 1.0), 1.0);
}
