// Oracle self-check: the compatibility varyings (several texture
// coordinates, both colours, the fog coordinate) and gl_FragCoord.
void main()
{
	vec4 t = gl_TexCoord[0] + gl_TexCoord[2] * 0.5 - gl_TexCoord[5].yxwz;
	vec4 c = gl_Color * gl_SecondaryColor + vec4(gl_FogFragCoord);
	gl_FragColor = t * c + fract(gl_FragCoord * 0.37);
}
