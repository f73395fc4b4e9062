# Shared by the CLI test scripts (sourced): a scratch directory $T removed
# at exit, failure counting, and
#   expect CODE CMD...  run CMD (bounded in time when timeout(1) exists),
#                       stdout in $T/out, stderr in $T/err,
#                       and count a failure when it does not exit CODE;
#   says TEXT           the last command's stderr holds TEXT.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
TIMEOUT=
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 120"
expect() {
	want=$1; shift
	$TIMEOUT "$@" >"$T/out" 2>"$T/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(head -c 300 "$T/err")"
}
says() { grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1': $(head -c 300 "$T/err")"; }
