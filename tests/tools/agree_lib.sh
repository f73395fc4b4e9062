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
