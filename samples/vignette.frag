// Post-process style: a texture with a radial vignette and a colour grade.
uniform sampler2D u_image;
uniform vec2 u_resolution;

void main()
{
    vec2 uv = gl_FragCoord.xy / max(u_resolution, vec2(16.0));
    vec3 c = texture2D(u_image, uv).rgb;
    float r = length(uv - 0.5) * 1.4;
    float vig = 1.0 - r * r;
    vec3 graded = pow(clamp(c, 0.0, 1.0), vec3(0.8)) * vec3(1.05, 1.0, 0.9);
    gl_FragColor = vec4(graded * vig, 1.0);
}
