// Toon shading: quantized diffuse bands with a rim light.
#version 110
varying vec2 v_uv;
uniform vec3 u_light_dir;

void main()
{
    vec2 p = v_uv * 2.0 - 1.0;
    vec3 n = normalize(vec3(p, 0.6));
    vec3 l = normalize(vec3(-0.3, 0.5, 0.8) + 0.2 * u_light_dir);
    float d = max(dot(n, l), 0.0);
    float bands = floor(d * 4.0) / 4.0;
    float rim = step(0.8, 1.0 - n.z) * 0.3;
    vec3 base = vec3(0.3, 0.6, 0.9);
    gl_FragColor = vec4(base * (0.25 + bands) + vec3(rim), 1.0);
}
