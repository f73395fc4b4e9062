#!/bin/bash
# Compiles GLSL fragment shaders through the patched r300 (build.sh's
# folder) with RADEON_USCC=1, on the radeon no-op drm-shim, and checks
# each one: the driver is r300 on an RV530, the draw used no dummy shader,
# and the fragment shader was either compiled by uscc (r300's figures
# message ends "(uscc)") or refused by uscc with the one-line message and
# compiled by r300; every program uscc compiled, dumped with
# RADEON_USCC_DUMP, opens in `uscc --info` and runs in `uscc-run`.
#
#   test.sh DRIVER_DIR R300_MEASURE USCC_BIN_DIR SHADER.frag...
#
# Prints one line per shader (uscc / fallback / FAIL with the reason) and
# a summary; exits 1 when a shader failed, 77 (skipped) when the driver
# folder has no r300_dri.so.
set -uo pipefail
dir=$1 measure=$2 bin=$3
shift 3
if [ ! -f "$dir/r300_dri.so" ]; then
	echo "test.sh: no r300_dri.so in $dir (run build.sh): skipped"
	exit 77
fi
work=$(mktemp -d /tmp/uscc-mesa-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
n_uscc=0 n_fallback=0 n_fail=0 n_skip=0
for frag in "$@"; do
	name=$(basename "$frag")
	dump=$work/dump-$name
	mkdir -p "$dump"
	env LIBGL_DRIVERS_PATH="$dir" LD_PRELOAD="$dir/libradeon_noop_drm_shim.so" \
		MESA_LOADER_DRIVER_OVERRIDE=r300 RADEON_GPU_ID=RV530 MESA_SHADER_CACHE_DISABLE=true \
		RADEON_USCC=1 RADEON_USCC_DUMP="$dump" \
		"$measure" -V "$frag" >"$work/out" 2>"$work/err"
	result=$(grep '^RESULT' "$work/out")
	why=""
	refused=$(grep -o "r300 FP: uscc refused the shader (.*); using r300's compiler" "$work/err" | head -1)
	if ! grep -q 'ATI RV530' "$work/err"; then
		why="the driver is not r300 on the shim"
	elif grep -q 'status=compile_error\|status=link_error' <<<"$result"; then
		echo "skipped $name: Mesa's GLSL compiler refuses it"
		n_skip=$((n_skip + 1))
		continue
	elif [ -n "$refused" ] && ! grep -q 'status=ok' <<<"$result"; then
		kind=fallback # and r300's own compiler fails too
	elif ! grep -q 'status=ok' <<<"$result"; then
		why="r300_measure: $result"
	elif grep -q 'FS shader:.*(uscc)' "$work/err"; then
		kind=uscc
		for c in "$dump"/*.uscc; do
			"$bin/uscc" --info "$c" >/dev/null 2>"$work/info" ||
				why="uscc --info $(basename "$c"): $(head -1 "$work/info")"
			"$bin/uscc-run" "$c" --size 8x8 --dump >/dev/null 2>"$work/run" ||
				why="uscc-run $(basename "$c"): $(head -1 "$work/run")"
		done
		ls "$dump"/*.uscc >/dev/null 2>&1 || why="RADEON_USCC_DUMP wrote no container"
	elif [ -n "$refused" ]; then
		kind=fallback
	else
		why="neither compiled by uscc nor refused with a message"
	fi
	if [ -n "$why" ]; then
		echo "FAIL $name: $why"
		n_fail=$((n_fail + 1))
	elif [ "$kind" = uscc ]; then
		echo "uscc $name"
		n_uscc=$((n_uscc + 1))
	else
		echo "fallback $name: ${refused#r300 FP: } -> r300: $(grep -o 'status=[a-z_]*' <<<"$result")"
		n_fallback=$((n_fallback + 1))
	fi
done
echo "test.sh: $n_uscc compiled by uscc, $n_fallback fell back to r300, $n_fail failed, $n_skip skipped"
[ "$n_fail" -eq 0 ]
