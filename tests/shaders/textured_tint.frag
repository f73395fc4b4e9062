// Texturing: a decal modulated by a tint and the vertex colour.
uniform sampler2D u_diffuse;
uniform vec4 u_tint;
varying vec2 v_uv;

void main()
{
	vec4 texel = texture2D(u_diffuse, v_uv);
	gl_FragColor = texel * u_tint * gl_Color;
}
