// pow with small constant integer exponents: multiplications, so that a
// negative base squares as real shaders expect (pow(v, 2.0) == v*v).
varying vec4 v;
void main()
{
	vec2 d = v.xy - 0.5;
	float r = pow(d.x, 2.0) + pow(d.y, 4.0);
	vec3 c = pow(v.xyz + 0.5, vec3(3.0)) * 0.25 + pow(v.x + 0.5, -2.0);
	gl_FragColor = vec4(c * r * 4.0, pow(v.y + 0.25, 1.5));
}
