# Shared by the *_smoke.sh scripts (sourced): a scratch directory $T
# removed at exit, and check NAME EXPECTED ACTUAL, which prints ok or FAIL
# with both values and sets fail=1 on a mismatch.
T=${TMPDIR:-/tmp}/uscc_smoke.$$
mkdir -p "$T" || exit 2
trap 'rm -rf "$T"' EXIT
fail=0

check() { # name expected actual
	if [ "$2" != "$3" ]; then
		printf 'FAIL %s\n  want: %s\n  got:  %s\n' "$1" "$2" "$3"
		fail=1
	else
		printf 'ok   %s\n' "$1"
	fi
}
