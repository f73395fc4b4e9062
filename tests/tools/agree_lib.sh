# Shared by the *_agree.sh scripts (sourced): a scratch directory $T,
# failure counting, and the comparison of two pixel dumps (uscc-run and
# uscc-ref --dump: "x y r g b a" per line).
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# dumps_agree A B TOL [rel [PIXELS]]: every channel of each pixel of B is
# within TOL of A's at the same pixel (rel: TOL times the channel's
# magnitude where it is above 1); with PIXELS, B has that many lines.
dumps_agree() {
	awk -v tol="$3" -v rel="${4:-}" -v n="${5:-0}" 'NR == FNR { a[$1 " " $2] = $0; next }
		{ split(a[$1 " " $2], x, " ")
		  for (i = 3; i <= 6; i++) { d = x[i] - $i; if (d < 0) d = -d
			m = $i < 0 ? -$i : $i; s = rel == "rel" && m > 1 ? m : 1
			if (d > tol * s) bad++ } }
		END { exit !(bad == 0 && (n == 0 || FNR == n)) }' "$1" "$2"
}

# agree_done MESSAGE: the script's verdict and exit status.
agree_done() {
	if [ "$fails" -ne 0 ]; then
		echo "$fails failure(s)"
		exit 1
	fi
	echo "$1"
}

# check_al NAME WANT PATTERN BODY (the relative-addressing scripts): the
# shader $HEAD + "void main() { vec4 s = vec4(0.0); BODY gl_FragColor = s; }"
# drawn by uscc-run ($RUN, compiled by $USCC at -O2 and -O0) and by
# uscc-ref ($REF) agree within 1e-5 (relative) on an 8x4 draw, and
# uscc-run does not warn.  At -O2 the listing matches PATTERN (an aL
# access) exactly when WANT is rel or rel-O2; -O0 never does, except with
# rel-O2 or sel-O2, whose unoptimized program does not fit the R500: -O0
# warns so and compiles what -O2 compiles (the same listing).
# $USCC_FLAGS, when set, go to every compile.
check_al() {
	name=$1 want=$2 pattern=$3 o0_fits=yes
	case "$want" in
	rel-O2) want=rel o0_fits=no ;;
	sel-O2) want=sel o0_fits=no ;;
	esac
	printf '%s\nvoid main() {\n  vec4 s = vec4(0.0);\n%s\n  gl_FragColor = s;\n}\n' \
		"$HEAD" "$4" >"$T/$name.frag"
	args="--size 8x4 --varying tc=0,0:1,0:0,1:1,1 --dump"
	"$REF" "$T/$name.frag" $args >"$T/$name.ref" 2>"$T/err" ||
		{ fail "$name: uscc-ref: $(cat "$T/err")"; return; }
	for o in -O2 -O0; do
		"$USCC" $o ${USCC_FLAGS:-} "$T/$name.frag" -o "$T/$name.bin" 2>"$T/err" ||
			{ fail "$name $o: cannot compile: $(cat "$T/err")"; continue; }
		legalized=no
		grep -q "does not fit the R500" "$T/err" && legalized=yes
		expect=no
		[ "$o0_fits" = no ] && expect=yes
		[ "$o" = -O0 ] && [ "$legalized" != "$expect" ] &&
			fail "$name -O0: legalized $legalized, expected $expect"
		"$USCC" $o ${USCC_FLAGS:-} "$T/$name.frag" -S -o "$T/$name.s" 2>/dev/null
		if [ "$o" = -O0 ] && [ "$legalized" = yes ]; then
			cmp -s "$T/$name.s" "$T/$name.O2.s" || fail "$name -O0: legalized, but not -O2's program"
		fi
		[ "$o" = -O2 ] && cp "$T/$name.s" "$T/$name.O2.s"
		got=other
		grep -q "$pattern" "$T/$name.s" && got=rel
		[ "$o" = -O0 ] && [ "$legalized" = no ] && [ "$got" = rel ] &&
			fail "$name -O0: addresses through aL"
		if [ "$o" = -O2 ]; then
			case "$want" in
			rel) [ "$got" = rel ] || fail "$name: wanted aL, got none" ;;
			*) [ "$got" != rel ] || fail "$name: wanted $want, got aL" ;;
			esac
		fi
		"$RUN" "$T/$name.bin" $args >"$T/$name.emu" 2>"$T/err" ||
			{ fail "$name $o: uscc-run: $(cat "$T/err")"; continue; }
		[ -s "$T/err" ] && fail "$name $o: uscc-run warns: $(head -1 "$T/err")"
		dumps_agree "$T/$name.emu" "$T/$name.ref" 0.00001 rel 32 ||
			fail "$name $o: emulator and interpreter differ"
	done
}
