#!/bin/sh
# compile-many: every sample compiles at -O0 and -O2 (exit 0, nothing
# printed); a shader with an error and a missing file are reported one line
# each with the level, and the exit status says which kind of failure.
# usage: compile_many_smoke.sh PATH/TO/compile-many SAMPLES_DIR
set -u
MANY=$1 SAMPLES=$2
. "$(dirname "$0")/check_lib.sh"

out=$("$MANY" -O0 -O2 "$SAMPLES"/*.frag); status=$?
check "samples compile" "0:" "$status:$out"

printf 'void main() {\n  gl_FragColor = vec4(undeclared);\n}\n' > "$T/bad.frag"
out=$("$MANY" -O2 -O0 "$SAMPLES/fog.frag" "$T/bad.frag"); status=$?
check "error: exit" 1 "$status"
check "error: one line per level" 2 "$(printf '%s\n' "$out" | grep -c "^$T/bad.frag -O[02]: $T/bad.frag:2:23: error: ")"

"$MANY" "$T/missing.frag" >/dev/null 2>&1; status=$?
check "missing file: exit" 2 "$status"
"$MANY" -O3 "$SAMPLES/fog.frag" >/dev/null 2>&1; status=$?
check "bad level: exit" 2 "$status"
exit $fail
