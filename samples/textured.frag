// Classic fixed-function replacement: texture modulated by the vertex colour,
// with a uniform tint.
uniform sampler2D u_texture;
uniform vec4 u_tint;

void main()
{
    vec4 texel = texture2D(u_texture, gl_TexCoord[0].xy * 4.0);
    gl_FragColor = texel * gl_Color * (vec4(0.5) + 0.5 * u_tint);
}
