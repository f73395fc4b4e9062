#!/bin/sh
# Level of detail.  uscc-run (the emulator, the compiled program) and
# uscc-ref (the IR interpreter) sample mip chains alike - util/texture.c
# with the quad's derivatives on both sides - under every minification
# filter, on the box-filtered chain of the built-in gradient and on
# piglit's miptree, for implicit lookups whose scale changes across the
# picture (one picture crosses several levels), a bias, a projective lookup,
# a cube map, explicit levels and gradients (GL_ARB_shader_texture_lod's
# *Lod and *GradARB, projective too): within 1e-5 (the compiled program rounds its coordinates
# its own way - MAD, RCP - which moves bilinear weights and lambda by a
# few ulps; a level chosen differently would differ by far more).
# llvmpipe-render (Mesa, when built) within 1e-4 where lambda is a whole
# number (scale factors powers of 2, whole biases): llvmpipe takes log2 of
# the scale factor by a fast approximation that is exact only there.
#   lod_agree.sh USCC USCC_RUN USCC_REF [LLVMPIPE_RENDER]
set -u
USCC=$1 RUN=$2 REF=$3 LLVM=${4:-}
. "$(dirname "$0")/agree_lib.sh"
FILTERS="nearest linear nearest_mipmap_nearest linear_mipmap_nearest nearest_mipmap_linear
	 linear_mipmap_linear"
shader() { # NAME TARGET EXPR: a fragment shader reading sampler s at varying uv
	printf '#extension GL_ARB_shader_texture_lod : enable\nuniform sampler%s s;\nuniform float b;\nvarying vec2 uv;\nvoid main() { gl_FragColor = %s; }\n' \
		"$2" "$3" >"$T/$1.frag"
	"$USCC" "$T/$1.frag" -o "$T/$1.bin" || fail "cannot compile $1"
}
shader implicit 2D 'texture2D(s, uv * uv * 20.0 + 0.1)'
shader bias 2D 'texture2D(s, uv * uv * 7.0 + 0.1, b)'
shader proj 2D 'texture2DProj(s, vec3(uv * 2.0, 0.15 + uv.x * uv.y))'
shader cube Cube 'textureCube(s, vec3(0.3, uv.x * 5.3 - 2.65, uv.y * uv.y * 7.1 - 2.0))'
shader lod 2D 'texture2DLod(s, uv, uv.x * 4.0) + texture2DProjLod(s, vec3(uv, 1.0 + uv.y), uv.y * b)'
shader grad 2D 'texture2DGradARB(s, uv * 3.0, vec2(uv.x * b, 0.01), vec2(0.0, uv.y * 0.3)) +
	texture2DProjGradARB(s, vec4(uv, 0.0, 2.0), vec2(b, 0.0) * uv.y, vec2(0.0, 0.1))'
shader whole 2D 'texture2D(s, uv * b + 0.013, b - 2.0)'
UV="--varying uv=0,0:1,0:0,1:1,1"
for name in implicit bias proj cube lod grad; do
	for tex in gradient miptree; do
		for f in $FILTERS; do
			what="$name $tex --filter 0=$f"
			args="--size 24x24 --texture 0=$tex --filter 0=$f --uniform b=1.3 $UV --dump"
			"$RUN" "$T/$name.bin" $args >"$T/emu" 2>"$T/err" || fail "uscc-run $what: $(cat "$T/err")"
			"$REF" "$T/$name.frag" $args >"$T/ref" 2>"$T/err" || fail "uscc-ref $what: $(cat "$T/err")"
			dumps_agree "$T/emu" "$T/ref" 0.00001 || fail "emulator and interpreter differ: $what"
			[ "$tex" = miptree ] && cut -d' ' -f3- "$T/emu" | sort -u >>"$T/colours-$name-$f"
		done
	done
	# on the miptree level 0 is one colour; a mipmap filter reaches more
	n=$(wc -l <"$T/colours-$name-nearest")
	[ "$n" -eq 1 ] || fail "$name --filter 0=nearest: $n colours of the miptree, not level 0's"
	n=$(wc -l <"$T/colours-$name-nearest_mipmap_nearest")
	[ "$n" -ge 3 ] || fail "$name --filter 0=nearest_mipmap_nearest: only $n levels of the miptree"
done
# whole lambdas: the uniform b scales the coordinate (16x16 pixels: 2^k
# texels a pixel) and biases by b - 2; all three renderers
for b in 1 2 4 8 16; do
	for tex in gradient miptree; do
		for f in $FILTERS; do
			what="whole (b=$b) $tex --filter 0=$f"
			args="--size 16x16 --texture 0=$tex --filter 0=$f --uniform b=$b $UV --dump"
			"$RUN" "$T/whole.bin" $args >"$T/emu" 2>"$T/err" || fail "uscc-run $what: $(cat "$T/err")"
			"$REF" "$T/whole.frag" $args >"$T/ref" 2>"$T/err" || fail "uscc-ref $what: $(cat "$T/err")"
			dumps_agree "$T/emu" "$T/ref" 0.00001 || fail "emulator and interpreter differ: $what"
			[ -n "$LLVM" ] || continue
			if "$LLVM" "$T/whole.frag" $args >"$T/gl" 2>"$T/err"; then
				dumps_agree "$T/emu" "$T/gl" 0.0001 || fail "emulator and llvmpipe differ: $what"
			elif [ "$?" != 3 ]; then # 3: no llvmpipe on this machine
				fail "llvmpipe-render $what: $(cat "$T/err")"
			fi
		done
	done
done
# by hand, on the miptree: b = 16 is 8 texels a pixel (lambda 3) and a
# bias of 14: white; b = 2 is lambda 0 and no bias: red; b = 4 is lambda 1
# and a bias of 2: white
for tool in "$RUN $T/whole.bin" "$REF $T/whole.frag"; do
	for c in "16 1 1 1" "2 1 0 0" "4 1 1 1"; do
		set -- $c
		got=$($tool --size 16x16 --texture 0=miptree --filter 0=nearest_mipmap_nearest \
			--uniform b=$1 $UV --probe 5,9)
		[ "$got" = "5 9 $2 $3 $4 1" ] || fail "$tool with b=$1 on the miptree: '$got'"
	done
done
agree_done "level of detail: renderers agree"
