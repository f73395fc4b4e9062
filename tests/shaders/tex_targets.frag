uniform sampler2D s0;
uniform sampler1D s1;
uniform sampler3D s2;
uniform samplerCube s3;
uniform sampler2DShadow s4;
varying vec4 v_c;
void main()
{
    vec4 a = texture2DProj(s0, vec4(v_c.xy, 0.3, 1.5), 0.25);
    vec4 b = texture1D(s1, v_c.x * 3.0);
    vec4 c = texture3D(s2, v_c.xyz + 0.25);
    vec4 d = textureCube(s3, vec3(v_c.x - 0.5, 1.0, v_c.y - 0.5));
    vec4 e = shadow2D(s4, vec3(v_c.xy, 0.5));
    vec4 f = shadow2DProj(s4, vec4(v_c.yx, 0.7, 1.3));
    gl_FragColor = a + b * 0.5 + c * 0.25 + d * 0.125 + e * 0.0625 + f * 0.03125;
}
