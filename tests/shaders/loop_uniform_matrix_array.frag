/* A uniform array of matrices read at a kept loop's counter (issue 23.5):
 * column-major, so every column is c[aL+N]; before, each read was a CMP
 * chain over the matrices. */
uniform mat3 ms[48];
uniform vec4 w;
varying vec2 tc;
void main() {
  vec4 acc = vec4(0.0);
  for (int i = 0; i < 48; i++) {
    vec3 p = ms[i] * vec3(tc, 1.0);
    acc += vec4(p, ms[i][1].z) * w + sin(p.x * w) * 0.1;
  }
  gl_FragColor = acc * 0.02;
}
