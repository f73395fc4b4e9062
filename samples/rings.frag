// Concentric rings: a sine of the distance to the centre.
#version 110
varying vec2 v_uv;
uniform float u_time;

void main()
{
    float d = distance(v_uv, vec2(0.5, 0.5));
    float wave = 0.5 + 0.5 * sin(d * 40.0 - u_time * 6.0);
    vec3 warm = vec3(1.0, 0.55, 0.2);
    vec3 cool = vec3(0.1, 0.3, 0.8);
    float fade = clamp(1.0 - d * 1.4, 0.0, 1.0);
    gl_FragColor = vec4(mix(cool, warm, wave) * fade, 1.0);
}
