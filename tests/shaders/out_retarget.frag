// An output gathered from parts in different registers: the copy of
// gl_Color's alpha writes the render target itself (backend/out_retarget.c),
// paired with the OUT of the lookup's rgb in one instruction.
uniform sampler2D s;
varying vec2 uv;

void main()
{
	gl_FragColor.rgb = texture2D(s, uv).rgb;
	gl_FragColor.a = gl_Color.a;
}
