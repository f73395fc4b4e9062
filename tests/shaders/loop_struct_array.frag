/* A local array of structs (issue 23.5): one IR array per member,
 * written at a loop counter, a member under an IF, read at the counter
 * of loops whose bound is a uniform and at a plain index. */
uniform float n;
varying vec2 tc;
struct Light { vec3 dir; float k; bool on; };
void main() {
  Light ls[6];
  for (int i = 0; i < 6; i++) {
    ls[i].dir = vec3(tc, float(i) * 0.25);
    ls[i].k = tc.y + float(i) * 0.125;
    ls[i].on = i != 2;
  }
  int m = int(n * 5.0);
  for (int i = 0; i < m; i++)
    if (tc.x > 0.4) ls[i].k *= 0.5;
  vec3 acc = vec3(0.0);
  for (int i = 0; i < m + 1; i++)
    if (ls[i].on) acc += ls[i].dir * ls[i].k;
  Light last = ls[m];
  gl_FragColor = vec4(acc * 0.25, last.k + float(last.on) * 0.1);
}
