#!/bin/sh
# Shadow samplers under every compare function and depth mode (--shadow):
# uscc-run (the compiled compare) and uscc-ref (the IR interpreter) agree
# within 1e-6, and the pictures keep GL's rules: LEQUAL and GREATER, GEQUAL
# and LESS, EQUAL and NOTEQUAL are complements, ALWAYS is 1 and NEVER 0;
# LUMINANCE gives (v, v, v, 1), INTENSITY (v, v, v, v), ALPHA (0, 0, 0, v),
# RED (v, 0, 0, 1).  The reference depth 0.53125 is the red of the
# gradient texture's ninth column (16 wide: (x + 0.5) / 16), so EQUAL
# passes there and the others split the picture.
#   shadow_agree.sh USCC USCC_RUN USCC_REF
set -u
USCC=$1 RUN=$2 REF=$3
. "$(dirname "$0")/agree_lib.sh"
cat >"$T/s.frag" <<'GLSL'
uniform sampler2DShadow s;
varying vec2 uv;
void main() { gl_FragColor = shadow2D(s, vec3(uv, 0.53125)); }
GLSL
args="--size 16x4 --texture 0=gradient --varying uv=0,0:1,0:0,1:1,1 --dump"
for cmp in lequal gequal less greater equal notequal always never; do
	for mode in luminance intensity alpha red; do
		"$USCC" "$T/s.frag" --shadow "0=$cmp,$mode" -o "$T/s.bin" ||
			{ fail "cannot compile with --shadow 0=$cmp,$mode"; continue; }
		"$RUN" "$T/s.bin" $args >"$T/emu.$cmp.$mode" 2>"$T/err" || fail "uscc-run $cmp $mode: $(cat "$T/err")"
		"$REF" "$T/s.frag" --shadow "0=$cmp,$mode" $args >"$T/ref" 2>"$T/err" ||
			fail "uscc-ref $cmp $mode: $(cat "$T/err")"
		dumps_agree "$T/emu.$cmp.$mode" "$T/ref" 0.000001 ||
			fail "emulator and interpreter differ with --shadow 0=$cmp,$mode"
		# the depth mode's shape, v from the red or alpha channel
		awk -v m="$mode" '{ r = $3; g = $4; b = $5; a = $6
			if (m == "luminance" && !(g == r && b == r && a == 1)) bad++
			if (m == "intensity" && !(g == r && b == r && a == r)) bad++
			if (m == "alpha" && !(r == 0 && g == 0 && b == 0)) bad++
			if (m == "red" && !(g == 0 && b == 0 && a == 1)) bad++
			v = m == "alpha" ? a : r; if (v != 0 && v != 1) bad++ }
			END { exit bad > 0 }' "$T/emu.$cmp.$mode" || fail "$cmp $mode: not the mode's components"
	done
done
# complements and constants, on the intensity pictures (v in every channel)
pair() { # A B: v(A) + v(B) == 1 at every pixel
	awk 'NR == FNR { a[$1 " " $2] = $3; next } { if (a[$1 " " $2] + $3 != 1) bad++ } END { exit bad > 0 }' \
		"$T/emu.$1.intensity" "$T/emu.$2.intensity" || fail "$1 and $2 are not complements"
}
pair lequal greater
pair gequal less
pair equal notequal
awk '$3 != 1 { bad++ } END { exit bad > 0 }' "$T/emu.always.intensity" || fail "always is not 1"
awk '$3 != 0 { bad++ } END { exit bad > 0 }' "$T/emu.never.intensity" || fail "never is not 0"
for cmp in lequal gequal equal; do # both outcomes appear: the texture's red crosses the reference
	[ "$(awk '{ print $3 }' "$T/emu.$cmp.intensity" | sort -u | wc -l)" -eq 2 ] ||
		fail "$cmp does not both pass and fail over the gradient"
done
agree_done "shadow compare functions and depth modes: renderers agree"
