/* Dependent lookups, each with a bias: the scheduler would write the
 * biases' .w at once, holding a temporary per lookup; sunk next to their
 * coordinates (backend/sink.c), one temporary serves the chain. */
uniform sampler2D s;
varying vec2 uv;
void main() {
  vec4 a = texture2D(s, uv * 2.0, -2.0);
  vec4 b = texture2D(s, a.xy * 2.0, 0.5);
  vec4 c = texture2D(s, b.yz * 2.0, -1.0);
  vec4 d = texture2D(s, c.zw * 2.0, 1.0);
  gl_FragColor = d + a * 0.125;
}
