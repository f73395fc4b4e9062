#!/bin/sh
# uscc on TGSI (docs/tgsi.md): the language by extension or -x, what -E
# and --check do with it, errors with their line and column, and the
# same program through uscc's GLSL path refused.  $1 = the uscc binary,
# $2 = tests/tgsi.
set -u
USCC=$1 DIR=$2
. "$(dirname "$0")/cli_lib.sh"

# every committed TGSI file compiles at both levels, by its extension
for f in "$DIR"/*.tgsi; do
	expect 0 "$USCC" "$f" -o "$T/a.bin"
	expect 0 "$USCC" -O0 "$f" -o "$T/a0.bin"
	expect 0 "$USCC" --check "$f"
done
# loop_rounds.tgsi: a loop of constant trips whose BRKs are known only
# trip by trip; under --r300 (no constant program) the IR passes fold it
# to one output, an unrolled trip a round (ten rounds: ir_pass.c's
# MAX_ROUNDS must allow them)
expect 0 "$USCC" --r300 -S "$DIR/loop_rounds.tgsi"
grep -q '^# 1 instructions' "$T/out" || fail "loop_rounds.tgsi: $(head -1 "$T/out")"
f=$DIR/alu.tgsi
expect 0 "$USCC" --info "$T/a.bin"
# the names of docs/tgsi.md reach the container
expect 0 "$USCC" "$f" -o "$T/alu.bin"
expect 0 "$USCC" --info "$T/alu.bin"
for name in '"CONST"' '"GENERIC\[0\]"' '"COLOR\[0\]"' '"gl_FragCoord"' '"gl_FrontFacing"'; do
	grep -q "$name" "$T/out" || fail "--info of alu.tgsi does not name $name"
done
# -x: a TGSI file by another name, from standard input too
cp "$f" "$T/prog.txt"
expect 0 "$USCC" -x tgsi "$T/prog.txt" -S
grep -q 'output target 0 = COLOR\[0\]' "$T/out" || fail "-x tgsi -S: $(head -3 "$T/out")"
expect 0 "$USCC" -xtgsi - -S -o "$T/stdin.s" <"$f"
expect 1 "$USCC" -x glsl "$f" -o "$T/g.bin"   # not GLSL
expect 1 "$USCC" "$T/prog.txt" -o "$T/g.bin"  # by extension: GLSL
expect 2 "$USCC" -x fortran "$f"
grep -q -- "-x takes glsl, tgsi or tgsi-tokens" "$T/err" || fail "-x fortran: $(cat "$T/err")"
# -E: TGSI has no preprocessor
expect 2 "$USCC" -E "$f"
grep -q "no preprocessor" "$T/err" || fail "-E on TGSI: $(cat "$T/err")"
# errors: FILE:LINE:COL, the line and a caret
printf 'FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: MOV OUT[0], TEMP[3]\n  1: END\n' >"$T/bad.tgsi"
expect 1 "$USCC" "$T/bad.tgsi"
grep -q "bad.tgsi:4:18: error: TEMP\[3\] is not declared" "$T/err" || fail "error: $(cat "$T/err")"
grep -q '^ *\^' "$T/err" || fail "no caret: $(cat "$T/err")"
expect 1 "$USCC" --check "$T/bad.tgsi"
expect 1 "$USCC" --dump-ir "$T/bad.tgsi"
# --dump-ir lowers TGSI like GLSL
expect 0 "$USCC" --dump-ir -O0 "$f"
grep -q '^uniform #0 "CONST" "vec4"' "$T/out" || fail "--dump-ir: $(head -8 "$T/out")"

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s)"
	exit 1
fi
echo "TGSI command line: all checks passed"
