/* Integer division of exact multiples must be exact: the R500 divides as
 * a * rcp(b), which for 41 / 41 gives 0.99999994 (lower_expr.c's
 * int_quotient lifts it before the truncation).  Every pixel divides
 * other ints, by a constant and by a value, positive and negative. */
void main() {
  int x = int(gl_FragCoord.x);
  int y = int(gl_FragCoord.y) + 1;
  int e1 = (x * 41) / 41 - x;          /* 0 */
  int e2 = (x * y) / y - x;            /* 0 */
  int e3 = (-x * 41) / 41 + x;         /* 0 */
  int q = (x * 7 + y) / (y + 40);      /* not exact */
  gl_FragColor = vec4(float(e1 + e2), float(e3), float(q) / 8.0, float(x / y) / 16.0);
}
