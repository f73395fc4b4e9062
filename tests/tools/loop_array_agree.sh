#!/bin/sh
# Local arrays indexed by a loop's counter (backend/plan_arrays.c): the
# program reads and writes t[aL+N] (one op, not a select per element)
# where the form allows it, and guards the access where the index may
# leave the array (a CMP for a read, a predicated write), since the IR
# clamps an index and aL does not.  Either way uscc-run (the emulator)
# and uscc-ref (the IR interpreter) agree within 1e-5, at -O2 and at -O0
# (no aL there).  Each case says whether it wants the aL form (rel) or
# not (sel).
#   loop_array_agree.sh USCC USCC_RUN USCC_REF
set -u
USCC=$1 RUN=$2 REF=$3
. "$(dirname "$0")/agree_lib.sh"

HEAD="#version 120
uniform float n = 6.0;
uniform float big = 11.0;
varying vec2 tc;"

# check NAME WANT BODY: agree_lib.sh's check_al on t[aL+N] accesses
check() {
	check_al "$1" "$2" 't\[aL+' "$3"
}

# elements made before the loop, per pixel
INIT='  vec4 a[8];
  for (int k = 0; k < 8; k++) a[k] = vec4(tc, float(k), 1.0) * (0.1 * float(k) + 0.3);'

# two counted loops of 80 passes write every element, the second at the
# counter of the first's (a partial unroll leaves the counter as
# (k + 1) + 1 in the first rounds, ir/loop_counter.c): the array stays
# one through the rounds, the unroller then unrolls both, and the
# elements never read go.  Without aL (-O0) its selects do not fit.
check write_counted sel-O2 '  vec4 a[80];
  for (int k = 0; k < 80; k++) a[k] = vec4(tc, float(k), 1.0) * 0.01;
  for (int k = 0; k < 80; k++) a[k] = a[k] * 0.5 + vec4(tc.y, 0.25, tc.x, 1.0);
  s = a[0] + a[41] * 2.0 + a[79] * 3.0;'
# the same with the first loop's bound a uniform: it stays a loop, its
# guarded writes and the second loop's read-modify-writes at its
# counter through aL, 80 elements in a run of temporaries
check write_counted_kept rel-O2 '  vec4 a[80];
  for (int k = 0; k < int(big) * 8; k++) a[k] = vec4(tc, float(k), 1.0) * 0.01;
  for (int k = 0; k < 80; k++) a[k] = a[k] * 0.5 + vec4(tc.y, 0.25, tc.x, 1.0);
  s = a[0] + a[41] * 2.0 + a[79] * 3.0;'
# scalars, each read back in the next pass
check scalar_counted rel '  float b[90];
  b[0] = tc.x;
  for (int i = 1; i < 90; i++) b[i] = b[i - 1] * 0.9 + tc.y;
  s = vec4(b[0], b[44], b[89], b[88]);'
# the bound is a uniform: passes past the array must write nothing
check write_guarded rel "$INIT
  for (int i = 0; i < int(big); i++) a[i] = vec4(tc.x * float(i));
  for (int k = 0; k < 8; k++) s += a[k] * float(k + 1);"
# step 2 from 1, guarded
check step2_guarded rel "$INIT
  for (int i = 1; i < int(big); i += 2) a[i] = vec4(tc.y - float(i));
  for (int k = 0; k < 8; k++) s += a[k] * float(k + 1);"
# a read-modify-write at i + 1, from 1: elements 2.. past the end
check rmw_offset rel "$INIT
  for (int i = 1; i < int(big); i++) a[i + 1] += vec4(tc.y, 0.25, tc.x, 1.0);
  for (int k = 0; k < 8; k++) s += a[k] * float(k + 1);"
# reads of elements made before the loop: a copied array, and a read
# past its end gives the last element, as the IR's select chain
check read_copied rel "$INIT
  for (int i = 0; i < int(big); i++) s += a[i] * 0.25;"
# inside a nested loop, the inner counter's array
check nested rel "$INIT
  for (int j = 0; j < int(n); j++)
    for (int i = 0; i < int(n); i++) a[i] = a[i] * 0.5 + vec4(float(j));
  for (int k = 0; k < 8; k++) s += a[k] * float(k + 1);"
# writes under IFs: an IF if-converted (the write keeps the old element
# where the condition fails) and one kept as a branch (its pixels alone
# write)
check write_in_if rel "$INIT
  for (int i = 0; i < int(big); i++)
    if (tc.x > 0.3) a[i] = vec4(tc.y * float(i));
  for (int k = 0; k < 8; k++) s += a[k] * float(k + 1);"
check write_in_branch rel "$INIT
  for (int i = 0; i < int(big); i++) {
    if (tc.y > 0.4) {
      vec4 q = vec4(tc, float(i), 1.0);
      for (int r = 0; r < 4; r++) q = fract(q * q.yzwx * 0.7 + q.wxyz * 0.3) - q.zwxy * 0.1;
      a[i] = q;
    }
  }
  for (int k = 0; k < 8; k++) s += a[k] * float(k + 1);"
# a write under two IFs
check write_in_two_ifs rel "$INIT
  for (int i = 0; i < int(big); i++)
    if (tc.x > 0.3)
      if (tc.y < 0.6) a[i] = vec4(tc.y * float(i));
  for (int k = 0; k < 8; k++) s += a[k] * float(k + 1);"
# a float that grows by 0.025 each pass comes first at the loop's head:
# the array's counter is the int after it
check two_counters rel "$INIT
  float f = 0.0;
  for (int i = 0; i < int(big); i++) { f += 0.025; a[i] = a[i] * f + vec4(tc.x); }
  for (int k = 0; k < 8; k++) s += a[k] * float(k + 1);"
# 64 elements, read at a counter and at constants: one run of 64
# temporaries.  At -O0 the loops writing the array stay loops (nothing
# unrolls there), carrying all 64 elements and their selects: more than
# the 128 temporaries
check many_temps rel-O2 '  vec4 a[64];
  for (int k = 0; k < 64; k++) a[k] = vec4(tc, float(k), 1.0);
  for (int i = 0; i < int(n); i++) s += a[i];
  for (int k = 0; k < 64; k++) s += a[k] * float(k);'
# two arrays of 96 elements: their runs need more than 128 temporaries,
# so the compile is tried again without aL, and that program is kept
# (every element of each holds one value: their selects fold away).  At
# -O0 the loop writing them stays a loop carrying all 192 elements
check too_many_temps sel-O2 '  vec4 a[96];
  vec4 b[96];
  for (int k = 0; k < 96; k++) { a[k] = vec4(tc.x); b[k] = vec4(tc.y); }
  for (int i = 0; i < int(n); i++) s += a[i] * b[i + 1];'
# a write read back in the same pass: the new values go on, so the
# elements keep their selects
check write_then_read sel "$INIT
  for (int i = 0; i < int(n); i++) { a[i] = vec4(tc, 0.0, float(i)); s += a[i] + a[7]; }"
# a read of an old element before the write, used in a later branch:
# the read comes first in its stretch, so the array stays in temporaries
check old_after_write rel "$INIT
  for (int i = 0; i < int(n); i++) {
    vec4 old = a[3];
    a[i] = vec4(float(i));
    if (tc.x > 0.5) s += old;
  }
  for (int k = 0; k < 8; k++) s += a[k];"
# an index below the array in the first pass: no aL
check before_start sel "$INIT
  for (int i = 0; i < int(n); i++) s += a[i - 1];"
# a BREAK in the body: the frontend carries it in a flag and puts the
# write under an IF; an IR array's write there is one guarded aL write
check break_early rel "$INIT
  for (int i = 0; i < int(big); i++) {
    if (float(i) > n - 2.0 + tc.x) break;
    a[i] = vec4(float(i) * 0.1);
  }
  for (int k = 0; k < 8; k++) s += a[k] * float(k + 1);"

agree_done "loop_array_agree: all cases agree"
