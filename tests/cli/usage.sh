#!/bin/sh
# uscc's command line without compiling anything: --help, --version,
# usage errors (exit 2), corrupt containers (exit 1).  $1 = the uscc binary.
set -u
USCC=$1
. "$(dirname "$0")/cli_lib.sh"

expect 0 "$USCC" --version
grep -Eq '^uscc [0-9]+\.[0-9]+\.[0-9]+$' "$T/out" || fail "--version prints '$(cat "$T/out")'"
expect 0 "$USCC" --help
for word in --emit=bin --dump-ir --disasm --info --stats -Werror --stage= --list-steps a.bin "Exit status"; do
	grep -q -- "$word" "$T/out" || fail "--help does not mention $word"
done

# the step table: every stage in order, with the --skip names
expect 0 "$USCC" --list-steps
head -1 "$T/out" | grep -q "^layer" || fail "--list-steps has no header"
grep -Eq "^frontend +preprocess" "$T/out" || fail "--list-steps: no frontend step"
grep -Eq "^backend +regalloc +- " "$T/out" || fail "--list-steps: regalloc"
grep -Eq "^ir +cse +cse +1" "$T/out" || fail "--list-steps: cse"
[ "$(tail -1 "$T/out" | awk '{print $2}')" = const-program ] || fail "--list-steps: last step"

expect 2 "$USCC"
grep -q "no input file" "$T/err" || fail "no input: $(cat "$T/err")"
expect 2 "$USCC" --bogus x.frag
grep -q "unknown option '--bogus'" "$T/err" || fail "unknown option message: $(cat "$T/err")"
expect 2 "$USCC" --emit=elf x.frag
expect 2 "$USCC" --stage=geometry x.frag
expect 2 "$USCC" -o
expect 2 "$USCC" a.frag b.frag
expect 2 "$USCC" -S --check x.frag
expect 2 "$USCC" -D 1BAD x.frag
expect 2 "$USCC" --emit=hex -E x.frag
expect 2 "$USCC" "$T/does-not-exist.frag" -o "$T/o.bin"
grep -q "cannot read" "$T/err" || fail "missing input message: $(cat "$T/err")"
[ -e "$T/o.bin" ] && fail "output created for a missing input"

# vertex shaders: asking for code is a usage error, by name or by --stage
echo 'void main() { gl_Position = gl_Vertex; }' >"$T/v.vert"
expect 2 "$USCC" "$T/v.vert" -o "$T/v.bin"
expect 2 "$USCC" --stage=vertex -S "$T/v.vert"
cp "$T/v.vert" "$T/v.vs"
expect 2 "$USCC" "$T/v.vs" --stats
[ -e "$T/v.bin" ] && fail "output created for a vertex shader"

# containers that are not: exit 1 with the file name and a reason
printf 'not a container at all' >"$T/junk.bin"
expect 1 "$USCC" --info "$T/junk.bin"
grep -q "junk.bin: error: bad magic" "$T/err" || fail "junk --info: $(cat "$T/err")"
printf 'USCC\003\000\000\000' >"$T/v3.bin"
expect 1 "$USCC" --disasm "$T/v3.bin"
grep -q "version 3" "$T/err" || fail "version message: $(cat "$T/err")"
: >"$T/empty.bin"
expect 1 "$USCC" --info "$T/empty.bin"
grep -q "truncated" "$T/err" || fail "empty --info: $(cat "$T/err")"

[ "$fails" = 0 ] && echo "usage.sh: all passed"
[ "$fails" = 0 ]
