/* A local array written under an IF and read in loops whose bound is a
 * uniform: through aL, guarded (backend/loop_array.c). */
uniform float n;
varying vec2 tc;
void main() {
  vec4 a[4];
  for (int k = 0; k < 4; k++) a[k] = vec4(tc, float(k), 1.0);
  for (int i = 0; i < int(n); i++)
    if (tc.x > 0.5) a[i] = a[i] * 0.5 + vec4(tc.y);
  vec4 s = vec4(0.0);
  for (int i = 0; i < int(n); i++) s += a[i + 1];
  gl_FragColor = s + a[0];
}
