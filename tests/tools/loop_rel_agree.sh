#!/bin/sh
# Uniform arrays read at a loop's counter (backend/loop_rel.c): where every
# element read lies inside the array, the program reads c[aL+N] (one
# operand, not a CMP per element); where the index could leave it, it
# keeps the CMP chain (the IR clamps an index, aL does not).  Either way
# uscc-run (the emulator) and uscc-ref (the IR interpreter) agree within
# 1e-5, at -O2 and at -O0 (no aL there).  The arrays have initializers
# (GLSL 1.20), so both renderers see the same 80 distinct elements.
#   loop_rel_agree.sh USCC USCC_RUN USCC_REF
set -u
USCC=$1 RUN=$2 REF=$3
. "$(dirname "$0")/agree_lib.sh"

# vec4[80](...) and float[80](...) initializers with distinct values
V4=$(awk 'BEGIN { for (i = 0; i < 80; i++) printf "%svec4(%.4f, %.4f, %.4f, %.4f)", i ? ", " : "",
	(i * 0.37) % 2 - 1, (i * 0.11) % 1, (i * 0.7) % 3 - 1, i / 64 }')
F1=$(awk 'BEGIN { for (i = 0; i < 80; i++) printf "%s%.4f", i ? ", " : "", (i * 0.53) % 1.7 - 0.8 }')
HEAD="#version 120
uniform vec4 u[80] = vec4[80]($V4);
uniform float w[80] = float[80]($F1);
uniform float n = 61.0;
varying vec2 tc;"

# check NAME WANT BODY: agree_lib.sh's check_al on c[aL+N] accesses
check() {
	check_al "$1" "$2" 'c\[aL+' "$3"
}

# every element once, in order
check sum rel '  for (int i = 0; i < 80; i++) s += u[i] * (tc.x + 0.5);'
# two reads a constant apart, from 1: elements 0..78 and 1..79
check neighbours rel '  for (int i = 1; i < 80; i++) s += u[i - 1] * u[i] + vec4(w[i]);'
# start 3, step 2, reads at i and i + 1; the test reads i + 2 (38 trips:
# loop_unroll would copy them, so it is skipped)
USCC_FLAGS=--skip=loop_unroll
check step2 rel '  for (int i = 3; i + 2 < 80; i += 2) s += u[i] - u[i + 1] * tc.y;'
USCC_FLAGS=
# reads inside an IF of the body (if-converted or a real branch): aL
check in_if rel '  for (int i = 0; i < 80; i++) {
    if (float(i) > n) s += u[i] * w[i];
    else s -= u[i].wzyx;
  }'
# a BREAK in the body: the frontend carries it in a flag, but the loop's
# test is a BREAK of its own and the step runs every pass, so the
# counter keeps its form and the reads use aL
check break_flag rel '  for (int i = 0; i < 80; i++) {
    if (float(i) > n) break;
    s += u[i] * w[i];
  }'
# the read runs one pass past the array: it must clamp, no aL
check past_end cmp '  for (int i = 0; i < 81; i++) s += vec4(w[i > 79 ? 79 : i]) + u[i - 1 < 0 ? 0 : i - 1];
  for (int i = 0; i < 80; i++) s += u[i + 1] * 0.01;'
# read before the counter reaches the array's start: no aL
check before_start cmp '  for (int i = 0; i < 80; i++) s += u[i - 1];'
# a nested loop: aL belongs to the inner one; u[i] of the outer counter
# read inside it must not use it, w[j] may
check nested rel '  for (int i = 0; i < 66; i++)
    for (int j = 0; j < 66; j++)
      s += u[i] * w[j] * 0.001;'

# a uniform array of structs read at the counter: its members are laid
# out member-major, a matrix column-major, so every read is c[aL+N]
# (40 trips: loop_unroll would copy them, so it is skipped)
L=$(awk 'BEGIN { for (i = 0; i < 40; i++) printf "%sL(vec4(%.4f, %.4f, %.4f, %.4f), mat2(%.4f, %.4f, %.4f, %.4f), %.4f)",
	i ? ", " : "", (i * 0.37) % 2 - 1, (i * 0.11) % 1, (i * 0.7) % 3 - 1, i / 64,
	(i * 0.29) % 1, (i * 0.13) % 2 - 1, i / 50, (i * 0.61) % 1, (i * 0.53) % 1.7 - 0.8 }')
W=$(awk 'BEGIN { for (i = 0; i < 40; i++) printf "%sW(vec2[2](vec2(%.4f, %.4f), vec2(%.4f, %.4f)))",
	i ? ", " : "", (i * 0.37) % 2 - 1, (i * 0.11) % 1, (i * 0.7) % 3 - 1, i / 64 }')
HEAD="#version 120
struct L { vec4 p; mat2 m; float k; };
uniform L ls[40] = L[40]($L);
struct W { vec2 w[2]; };
uniform W ls2[40] = W[40]($W);
varying vec2 tc;"
USCC_FLAGS=--skip=loop_unroll
check struct_members rel '  for (int i = 0; i < 40; i++)
    s += (ls[i].p * ls[i].k + vec4(ls[i].m * tc, ls[i].m[1])) * tc.y;'
check struct_member_array rel '  for (int i = 0; i < 40; i++) s += vec4(ls2[i].w[1], ls2[i].w[0] * tc) * tc.x;'
check struct_neighbours rel '  for (int i = 1; i < 40; i++) s += ls[i - 1].p * ls[i].m[0].y * tc.x;'
USCC_FLAGS=

# a uniform array of matrices read at the counter: column-major like a
# struct's matrix member, so every column is c[aL+N]
M=$(awk 'BEGIN { for (i = 0; i < 40; i++) printf "%smat3(%.4f, %.4f, %.4f, %.4f, %.4f, %.4f, %.4f, %.4f, %.4f)",
	i ? ", " : "", (i * 0.37) % 2 - 1, (i * 0.11) % 1, (i * 0.7) % 3 - 1, i / 64, (i * 0.29) % 1,
	(i * 0.13) % 2 - 1, i / 50, (i * 0.61) % 1, (i * 0.53) % 1.7 - 0.8 }')
HEAD="#version 120
uniform mat3 ms[40] = mat3[40]($M);
varying vec2 tc;"
USCC_FLAGS=--skip=loop_unroll
check matrix_columns rel '  for (int i = 0; i < 40; i++)
    s += vec4(ms[i] * vec3(tc, 1.0), ms[i][2].y) * tc.y;'
check matrix_neighbours rel '  for (int i = 1; i < 40; i++) s += vec4(ms[i - 1][1] - ms[i][0], tc.x);'
USCC_FLAGS=

agree_done "loop_rel_agree: all cases agree"
