#!/bin/sh
# uscc compiling: outputs and their forms, diagnostics format, exit codes,
# atomic -o (an existing file survives a failed compile), --info JSON keys,
# stdin input, default a.bin.  $1 = the uscc binary.
set -u
USCC=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
STATS_DEF=$(cd "$(dirname "$0")/../../backend" && pwd)/r500_stats.def
. "$(dirname "$0")/cli_lib.sh"
cd "$T" || exit 2
json_ok() { ! command -v python3 >/dev/null || python3 -m json.tool "$1" >/dev/null; }

cat >ok.frag <<'GLSL'
uniform vec4 tint;
void main()
{
    gl_FragColor = tint * gl_TexCoord[0];
}
GLSL
cat >bad.frag <<'GLSL'
void main()
{
    gl_FragColor = undefined_thing;
}
GLSL

# a container, then read back
expect 0 "$USCC" ok.frag -o ok.bin
[ "$(head -c 4 ok.bin)" = USCC ] || fail "ok.bin does not start with USCC"
expect 0 "$USCC" --info ok.bin
cp out info.json
json_ok info.json || fail "--info is not valid JSON: $(cat info.json)"
if command -v python3 >/dev/null; then
	python3 - info.json "$STATS_DEF" <<'PY' || fail "--info keys"
import json, re, sys
j = json.load(open(sys.argv[1]))
figures = re.findall(r"^R500_STAT\((\w+),", open(sys.argv[2]).read(), re.M)
for k in ("version", "code", "constants", "uniforms", "samplers", "inputs", "outputs", "stats"):
    assert k in j, k
assert j["version"] == 2
assert len(j["code"]) % 6 == 0 and len(j["code"]) > 0
assert all(len(w) == 10 and w.startswith("0x") for w in j["code"])
assert any(u["name"] == "tint" for u in j["uniforms"])
assert j["outputs"] == [{"name": "gl_FragColor", "target": 0}]
assert len(figures) >= 12 and list(j["stats"]) == figures, (list(j["stats"]), figures)
assert j["stats"]["instructions"] * 6 == len(j["code"])
PY
fi
expect 0 "$USCC" --disasm ok.bin
[ -s out ] || fail "--disasm printed nothing"

# the same input gives the same bytes; -O0 gives a valid container too
expect 0 "$USCC" ok.frag -o again.bin
cmp -s ok.bin again.bin || fail "two compiles differ"
expect 0 "$USCC" -O0 ok.frag -o o0.bin
expect 0 "$USCC" --info o0.bin

# --emit forms: raw = 24 bytes per instruction, hex = one 0x word each
expect 0 "$USCC" --emit=raw ok.frag -o ok.raw
expect 0 "$USCC" --emit=hex ok.frag -o ok.h
if command -v python3 >/dev/null; then
	python3 - info.json ok.raw ok.h <<'PY' || fail "--emit forms disagree with --info"
import json, re, struct, sys
code = [int(w, 16) for w in json.load(open(sys.argv[1]))["code"]]
raw = open(sys.argv[2], "rb").read()
assert list(struct.unpack("<%dI" % (len(raw) // 4), raw)) == code
hexw = [int(w, 16) for w in re.findall(r"0x[0-9A-F]{8}", open(sys.argv[3]).read())]
assert hexw == code
PY
fi

# --stats: one JSON object on stdout, no file written without -o
expect 0 "$USCC" --stats ok.frag
cp out stats.json
json_ok stats.json || fail "--stats is not valid JSON"
grep -q '"compile_us":' stats.json || fail "--stats lacks compile_us"
[ -e a.bin ] && fail "--stats alone wrote a.bin"

# default output a.bin, and stdin as '-'
expect 0 "$USCC" ok.frag
[ -s a.bin ] || fail "no a.bin without -o"
cmp -s a.bin ok.bin || fail "a.bin differs from ok.bin"
"$USCC" - -o stdin.bin <ok.frag 2>err || fail "stdin compile: $(cat err)"
cmp -s stdin.bin ok.bin || fail "stdin output differs"

# -S, -E with -D/-U, --check, --dump-ir
expect 0 "$USCC" -S ok.frag
[ -s out ] || fail "-S printed nothing"
printf '#ifdef FOO\nfloat on = FOO;\n#endif\nvoid main() { gl_FragColor = vec4(0.0); }\n' >pp.frag
expect 0 "$USCC" -E -DFOO=0.5 pp.frag
grep -q 'float on = 0.5' out || fail "-D not applied: $(cat out)"
expect 0 "$USCC" -E -D FOO -U FOO pp.frag
grep -q 'float on' out && fail "-U not applied"
expect 0 "$USCC" --check ok.frag
expect 0 "$USCC" --dump-ir ok.frag
[ -s out ] || fail "--dump-ir printed nothing"
expect 0 "$USCC" --dump-ir=all ok.frag
grep -q -- '--- ' out || fail "--dump-ir=all has no pass headers"
# a loop too long unrolled for 512 slots: the compile keeps it, and so
# does the IR --dump-ir shows (one loop, as -S runs it)
cat >long.frag <<'EOF2'
varying vec2 v_uv;
void main() {
  float x = v_uv.x;
  for (int i = 0; i < 60; i++)
    x = sin(x * 1.3) + cos(x + v_uv.y) * 0.5 + sin(x * 0.7) * 0.25 + cos(x * 2.1) * 0.125;
  gl_FragColor = vec4(x, v_uv.y, 0.0, 1.0);
}
EOF2
expect 0 "$USCC" -S long.frag
grep -q ' LOOP ' out || fail "-S did not keep the long loop"
expect 0 "$USCC" --dump-ir long.frag
[ "$(grep -c '^loop {' out)" = 1 ] || fail "--dump-ir does not show the kept loop"
expect 0 "$USCC" --dump-ir=all long.frag
grep -q '^loop {' out || fail "--dump-ir=all does not show the kept loop"
# the constant program: the split in --dump-ir=all, the program in -S,
# none with --no-constant-program
printf 'uniform float t;\nvarying vec2 uv;\nvoid main() { gl_FragColor = vec4(uv * sin(t * 0.5), 0.0, 1.0); }\n' >cp.frag
expect 0 "$USCC" --dump-ir=all cp.frag
grep -q -- '--- constant_program: run before the draw ---' out || fail "--dump-ir=all: no constant program"
# the split's clean-ups are dumped as steps of their own
steps=$(grep -o -- '--- constant_program[.a-z_-]* ---' out | sort -u | tr '\n' ' ')
[ "$steps" = "--- constant_program.dce --- --- constant_program.dead_branch --- --- constant_program.prepare-dce --- " ] ||
	fail "--dump-ir=all: the split's clean-up steps are '$steps'"
expect 0 "$USCC" -S cp.frag
grep -q '^# constant program: ' out || fail "-S: no constant program: $(head -3 out)"
expect 0 "$USCC" -S --no-constant-program cp.frag
grep -q 'constant program' out && fail "--no-constant-program: $(head -3 out)"
# --r300: no constant program either; r300's inputs in -S's table
expect 0 "$USCC" -S --r300 cp.frag
grep -q 'constant program' out && fail "--r300 kept the constant program: $(head -3 out)"
printf 'varying vec2 uv;\nvoid main() { gl_FragColor = vec4(uv, 0.0, 1.0) * gl_FragCoord; }\n' >wpos.frag
expect 0 "$USCC" -S --r300 wpos.frag
grep -q 'input  t1.xyzw = gl_r300Position' out || fail "--r300: no r300 WPOS in t1: $(head -4 out)"
echo 'void main() { gl_Position = gl_Vertex; }' >v.vert
expect 0 "$USCC" --check v.vert
echo 'void main() { vec4 x = gl_Vertex * 2.0; }' >v2.vert
expect 0 "$USCC" --dump-ir v2.vert
grep -q 'stage vertex' out || fail "vertex --dump-ir: $(cat out)"

# an invalid shader: exit 1, gcc-style diagnostics, no output file
expect 1 "$USCC" bad.frag -o bad.bin
grep -Eq '^bad\.frag:3:[0-9]+: error: ' err || fail "diagnostic format: $(cat err)"
grep -q 'gl_FragColor = undefined_thing;$' err || fail "no source line: $(cat err)"
grep -Eq '^ *\^' err || fail "no caret: $(cat err)"
[ -e bad.bin ] && fail "bad.bin created"
expect 1 "$USCC" --check bad.frag

# every diagnostic of a run is reported, not only the first
printf 'void main()\n{\n    float a = nope1;\n    gl_FragColor = vec4(nope2);\n}\n' >two.frag
expect 1 "$USCC" two.frag -o two.bin
grep -Eq '^two\.frag:3:[0-9]+: error: ' err || fail "first of two errors: $(cat err)"
grep -Eq '^two\.frag:4:[0-9]+: error: ' err || fail "second of two errors: $(cat err)"

# an existing output survives a failed compile untouched
cp ok.bin keep.bin
expect 1 "$USCC" bad.frag -o keep.bin
cmp -s keep.bin ok.bin || fail "failed compile changed the existing output"
expect 0 "$USCC" -Werror ok.frag -o w.bin

# a warning: reported, exit 0; under -Werror an error, exit 1, no output
printf '#extension GL_ARB_nonexistent : warn\nvoid main() { gl_FragColor = vec4(1.0); }\n' >warn.frag
expect 0 "$USCC" warn.frag -o warn.bin
grep -Eq '^warn\.frag:1:[0-9]+: warning: ' err || fail "warning format: $(cat err)"
expect 1 "$USCC" -Werror warn.frag -o werr.bin
grep -Eq '^warn\.frag:1:[0-9]+: error: ' err || fail "-Werror format: $(cat err)"
[ -e werr.bin ] && fail "-Werror failure wrote its output"

# a corrupt copy is rejected
cp ok.bin corrupt.bin
printf 'X' | dd of=corrupt.bin bs=1 seek=40 conv=notrunc 2>/dev/null
expect 1 "$USCC" --info corrupt.bin
grep -q "error" err || fail "corrupt container message: $(cat err)"

# whole-program limits name the file: FILE: error: with the figure
{
	echo 'varying vec4 v; void main() { vec4 x = v;'
	i=0; while [ $i -lt 600 ]; do echo 'x = x * v + 0.5;'; i=$((i + 1)); done
	echo 'gl_FragColor = x; }'
} >long.frag
expect 1 "$USCC" long.frag -o long.bin
grep -q '^long\.frag: error: program needs at least 600 instruction slots; the R500 has 512' err ||
	fail "over-long program message: $(cat err)"
# 30 nested ifs compile at once (the flow-control scan was exponential)
{
	echo 'varying vec4 v; void main() { vec4 x = v;'
	i=0; while [ $i -lt 30 ]; do echo "if (v.x > 0.$i) { x = x * 1.5 + 0.5;"; i=$((i + 1)); done
	i=0; while [ $i -lt 30 ]; do echo '}'; i=$((i + 1)); done
	echo 'gl_FragColor = x; }'
} >nested.frag
expect 0 "$USCC" nested.frag -o nested.bin
# a limit tightened on the command line
expect 1 "$USCC" --limit tokens=5 ok.frag -o lim.bin
grep -q "^ok\.frag:[0-9]*:[0-9]*: error: too many tokens .*(limit 'tokens')" err ||
	fail "--limit tokens message: $(cat err)"
expect 2 "$USCC" --limit tokens=0 ok.frag -o lim.bin
expect 2 "$USCC" --limit no-such-limit=3 ok.frag -o lim.bin

# --skip and --dump-backend: names listed, required stages refused, what
# ran shown by the dumps
expect 0 "$USCC" --skip=help
grep -q '^  mad-fusion$' out || fail "--skip=help: $(cat out)"
expect 2 "$USCC" --skip=regalloc ok.frag -o skip.bin
grep -q "'regalloc' is neither an IR pass nor an optional backend stage" err ||
	fail "--skip=regalloc message: $(cat err)"
expect 2 "$USCC" --skip ok.frag
expect 0 "$USCC" --skip=merge --skip copy-prop ok.frag --dump-backend=all
grep -q '^; --- isel ---$' out || fail "--dump-backend=all has no isel: $(head -3 out)"
grep -q '^; --- merge ---$' out && fail "--skip=merge: merge still ran"
expect 0 "$USCC" -O0 ok.frag --dump-backend
[ "$(grep -c '^; --- ' out)" = 1 ] || fail "--dump-backend prints more than the last stage"
grep -q '^; --- const-program ---$' out || fail "--dump-backend: $(head -3 out)"
USCC_SKIP=cse,nonsense "$USCC" ok.frag -o skip.bin 2>err
grep -q "warning: USCC_SKIP names 'nonsense'" err || fail "USCC_SKIP warning: $(cat err)"

# no temporary files left behind
ls -a | grep -q '\.tmp-' && fail "temporary files left: $(ls -a)"

[ "$fails" = 0 ] && echo "compile.sh: all passed"
[ "$fails" = 0 ]
