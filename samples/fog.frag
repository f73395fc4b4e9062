// Exponential-squared fog over a coloured ramp, depth taken from the
// fragment position.
#version 110
varying vec2 v_uv;
uniform vec4 u_fog_color;
uniform float u_density;

void main()
{
    float depth = 0.2 + 4.0 * v_uv.y;
    float k = (0.3 + u_density) * depth;
    float fog = clamp(exp2(-1.442695 * k * k), 0.0, 1.0);
    vec3 ground = mix(vec3(0.2, 0.5, 0.1), vec3(0.6, 0.4, 0.2), v_uv.x);
    vec3 sky = mix(vec3(0.7, 0.75, 0.8), u_fog_color.rgb, 0.5);
    gl_FragColor = vec4(mix(sky, ground, fog), 1.0);
}
