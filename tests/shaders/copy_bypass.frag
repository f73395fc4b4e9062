/* Lookups whose coordinates isel gathers from varyings (projective with a
 * bias; shadow beside its reference, kept in [0, 1], where GL leaves a
 * float depth texture's compare unclamped) read the varyings themselves
 * (backend/copy_bypass.c); a derivative of a swizzled varying keeps its
 * copy. */
uniform sampler2D tex;
uniform sampler1DShadow depth;
varying vec4 tc;
void main() {
  vec4 a = texture2DProj(tex, vec3(tc.xy, 2.0), 0.5);
  vec4 b = shadow1D(depth, vec3(tc.z, 0.0, fract(tc.w)));
  vec4 c = dFdx(tc.wzyx) + dFdy(tc.yxwz);
  gl_FragColor = a + b * 0.25 + c;
}
