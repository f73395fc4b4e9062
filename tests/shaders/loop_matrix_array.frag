/* A local array of matrices (issue 23.5): one IR array per column,
 * whole matrices written at a loop counter, one column at an index,
 * matrices read at the counter of a loop whose bound is a uniform. */
uniform float n;
varying vec2 tc;
void main() {
  mat2 m[5];
  for (int i = 0; i < 5; i++)
    m[i] = mat2(tc.x + float(i) * 0.1, tc.y, -tc.y, tc.x);
  int j = int(n * 4.0);
  m[j][1] = vec2(0.5, tc.x);
  vec2 p = vec2(0.25, 0.75);
  for (int i = 0; i < j + 1; i++)
    p = m[i] * p;
  gl_FragColor = vec4(p, m[j][0].x, m[4 - j][1][1]);
}
