// Procedural checkerboard with anti-aliased-looking soft edges.
#version 110
varying vec2 v_uv;
uniform vec3 u_color_a;
uniform vec3 u_color_b;

void main()
{
    vec2 cell = fract(v_uv * 6.0);
    vec2 s = smoothstep(0.45, 0.55, cell);
    float check = abs(s.x - s.y);
    vec3 a = mix(vec3(0.9, 0.85, 0.7), u_color_a, 0.3);
    vec3 b = mix(vec3(0.15, 0.2, 0.35), u_color_b, 0.3);
    gl_FragColor = vec4(mix(a, b, check), 1.0);
}
