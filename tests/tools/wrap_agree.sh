#!/bin/sh
# The renderers sample alike under every --wrap and --filter: uscc-run
# (the emulator, the compiled program) and uscc-ref (the IR interpreter)
# share util/texture.c and agree within 1e-6 (the compiled coordinate is one
# MAD, the interpreter's a multiply and a subtract: an ulp moves bilinear
# weights); llvmpipe-render (Mesa, when built) within 1e-4.  The coordinates run past [0, 1] on both sides and
# off texel centres, so each mode draws its own picture.
#   wrap_agree.sh USCC USCC_RUN USCC_REF [LLVMPIPE_RENDER]
set -u
USCC=$1 RUN=$2 REF=$3 LLVM=${4:-}
. "$(dirname "$0")/agree_lib.sh"
cat >"$T/wrap.frag" <<'GLSL'
uniform sampler2D s;
varying vec2 uv;
void main() { gl_FragColor = texture2D(s, uv * 3.1 - 1.2); }
GLSL
"$USCC" "$T/wrap.frag" -o "$T/wrap.bin" || { echo "FAIL: cannot compile"; exit 1; }
for mode in repeat clamp mirror; do
	for f in nearest linear; do
		args="--size 24x24 --texture 0=gradient --wrap 0=$mode --filter 0=$f --varying uv=0,0:1,0:0,1:1,1 --dump"
		"$RUN" "$T/wrap.bin" $args >"$T/emu" 2>"$T/err" || fail "uscc-run $mode $f: $(cat "$T/err")"
		"$REF" "$T/wrap.frag" $args >"$T/ref" 2>"$T/err" || fail "uscc-ref $mode $f: $(cat "$T/err")"
		dumps_agree "$T/emu" "$T/ref" 0.000001 || fail "emulator and interpreter differ with --wrap $mode --filter $f"
		md5sum <"$T/emu" >>"$T/sums"
		if [ -n "$LLVM" ]; then
			if "$LLVM" "$T/wrap.frag" $args >"$T/gl" 2>"$T/err"; then
				dumps_agree "$T/emu" "$T/gl" 0.0001 ||
					fail "emulator and llvmpipe differ with --wrap $mode --filter $f"
			elif [ "$?" != 3 ]; then # 3: no llvmpipe on this machine
				fail "llvmpipe-render $mode $f: $(cat "$T/err")"
			fi
		fi
	done
done
[ "$(sort -u "$T/sums" | wc -l)" -eq 6 ] || fail "the six modes do not draw six pictures"
agree_done "wrap and filter modes: renderers agree"
