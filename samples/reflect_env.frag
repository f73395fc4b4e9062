// A fake environment reflection: reflect a view ray about a normal and
// look the result up in a latitude/longitude-like texture.
#version 110
varying vec2 v_uv;
uniform sampler2D u_env;

void main()
{
    vec2 p = v_uv * 2.0 - 1.0;
    vec3 n = normalize(vec3(p * 0.8, 1.0));
    vec3 r = reflect(vec3(0.0, 0.0, -1.0), n);
    vec2 env_uv = r.xy * 0.5 + 0.5;
    vec3 env = texture2D(u_env, env_uv).rgb;
    float fresnel = 0.2 + 0.8 * pow(1.0 - max(n.z, 0.0), 3.0);
    gl_FragColor = vec4(mix(vec3(0.05, 0.05, 0.08), env, fresnel), 1.0);
}
