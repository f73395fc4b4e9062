// Normal mapping: a texture holds the tangent-space normal.
uniform sampler2D u_normal_map;
uniform sampler2D u_albedo;
uniform vec3 u_light;

void main()
{
    vec2 uv = gl_TexCoord[0].xy;
    vec3 n = normalize(texture2D(u_normal_map, uv).rgb * 2.0 - 1.0);
    vec3 l = normalize(vec3(0.4, 0.5, 0.8) + u_light);
    float lambert = clamp(dot(n, l), 0.0, 1.0);
    vec3 albedo = texture2D(u_albedo, uv * 2.0).rgb;
    gl_FragColor = vec4(albedo * (0.2 + 0.8 * lambert), 1.0);
}
