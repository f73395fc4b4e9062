#!/bin/sh
# Every TGSI program of a corpus compiles at -O2 and lowers (--check):
# the text Mesa's r300 receives for real-world shaders (third-party, not
# in this repository).  The directory: $2, else $USCC_TGSI_CORPUS, else
# corpus/tgsi-realworld beside the checkout; when there is none the test
# says so and is skipped (exit 77).  -O0 failures are counted, not
# failed: unoptimized, some programs pass the R500's limits.
#   corpus.sh USCC [DIR]
set -u
USCC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${2:-${USCC_TGSI_CORPUS:-$HERE/../../../corpus/tgsi-realworld}}
if ! ls "$DIR"/*.tgsi >/dev/null 2>&1; then
	echo "!! TGSI corpus NOT RUN: no .tgsi files in $DIR (set USCC_TGSI_CORPUS)"
	exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 bad=0 o0=0
for f in "$DIR"/*.tgsi; do
	n=$((n + 1))
	if ! "$USCC" "$f" -o "$T/a.bin" 2>"$T/err" || ! "$USCC" --check "$f" 2>>"$T/err"; then
		bad=$((bad + 1))
		echo "FAIL: $(basename "$f"): $(grep -m1 error: "$T/err")"
	fi
	"$USCC" -O0 "$f" -o "$T/a.bin" 2>/dev/null || o0=$((o0 + 1))
done
echo "TGSI corpus: $((n - bad)) of $n compile at -O2 ($o0 too big for the R500 at -O0) in $DIR"
[ "$bad" -eq 0 ]
