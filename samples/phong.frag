// Per-pixel Phong lighting of a bumped sphere-like surface.
// The normal is built from the interpolated texture coordinate.
#version 110
uniform vec3 u_light_dir;     // direction towards the light (need not be unit)
uniform vec3 u_base_color;
uniform float u_shininess;
varying vec2 v_uv;

void main()
{
    vec2 p = v_uv * 2.0 - 1.0;
    vec3 n = normalize(vec3(p, 1.2 - 0.5 * dot(p, p)));
    vec3 l = normalize(u_light_dir + vec3(0.3, 0.4, 1.0));
    vec3 v = vec3(0.0, 0.0, 1.0);
    vec3 h = normalize(l + v);
    float diffuse = max(dot(n, l), 0.0);
    float specular = pow(max(dot(n, h), 0.0), 8.0 + 24.0 * u_shininess);
    vec3 color = u_base_color * 0.5 + vec3(0.2, 0.3, 0.6);
    gl_FragColor = vec4(color * (0.15 + 0.85 * diffuse) + vec3(specular), 1.0);
}
