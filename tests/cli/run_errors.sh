#!/bin/sh
# uscc-run on hostile input: truncated, bit-flipped, empty and foreign
# containers; corrupt, truncated, non-PNG and absurd-header textures;
# absurd --size and --max-steps; a loop that outruns a tiny step bound;
# what --stats prints, alone and with the other outputs; --wrap, --filter
# and --list.
# Each must end with the documented exit status (1 bad program or runtime
# fault, 2 usage or I/O error) and a message naming the file or the bound,
# never a signal.  $1 = uscc, $2 = uscc-run.
set -u
USCC=$1
RUN=$2
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/cli_lib.sh"
# no command here may wait for input
exec </dev/null

cd "$T" || exit 1
"$USCC" "$SRC/samples/textured.frag" -o t.bin || { echo "FAIL: cannot compile"; exit 1; }
expect 0 "$RUN" t.bin --size 2x2 --texture 0=checker
[ "$(wc -l <"$T/out")" -eq 4 ] || fail "a 2x2 dump is not 4 lines"
"$RUN" - --size 2x2 <t.bin >"$T/out" 2>"$T/err" || fail "container on stdin: $(cat "$T/err")"

# containers
head -c 100 t.bin >trunc.bin
expect 1 "$RUN" trunc.bin
says "trunc.bin: error: truncated"
: >empty.bin
expect 1 "$RUN" empty.bin
says "empty.bin: error: truncated"
cp t.bin flip.bin
printf '\377' | dd of=flip.bin bs=1 seek=60 conv=notrunc 2>/dev/null
expect 1 "$RUN" flip.bin
says "flip.bin: error: checksum mismatch"
echo "void main() {}" >text.bin
expect 1 "$RUN" text.bin
says "text.bin: error:"
expect 2 "$RUN" missing.bin
says "cannot read missing.bin"
expect 2 "$RUN" "$T"

# textures
expect 0 "$RUN" t.bin --size 4x4 --texture 0=gradient -o good.png
[ -s good.png ] || fail "no good.png"
expect 0 "$RUN" t.bin --size 2x2 --texture 0=good.png
head -c 50 good.png >trunc.png
expect 2 "$RUN" t.bin --size 2x2 --texture 0=trunc.png
says "trunc.png: cannot read PNG"
cp good.png corrupt.png
printf 'XXXX' | dd of=corrupt.png bs=1 seek=12 conv=notrunc 2>/dev/null
expect 2 "$RUN" t.bin --size 2x2 --texture 0=corrupt.png
says "corrupt.png: cannot read PNG"
echo "not a picture" >text.png
expect 2 "$RUN" t.bin --size 2x2 --texture 0=text.png
says "text.png: cannot read PNG: Not a PNG"
: >empty.png
expect 2 "$RUN" t.bin --size 2x2 --texture 0=empty.png
says "empty.png"
# a header claiming 100000x100000 RGBA (correct CRCs), then nothing
printf '\211\120\116\107\015\012\032\012\000\000\000\015\111\110\104\122\000\001\206\240\000\001\206\240\010\006\000\000\000\250\122\013\310\000\000\000\002\111\104\101\124\170\234\142\244\221\053\000\000\000\000\111\105\116\104\256\102\140\202' >huge.png
expect 2 "$RUN" t.bin --size 2x2 --texture 0=huge.png
says "huge.png: PNG of 100000x100000 texels is too large"
expect 2 "$RUN" t.bin --texture 0=missing.png
says "missing.png"

# numbers
expect 2 "$RUN" t.bin --size 100000x100000
says "bad size '100000x100000' (at most 16384 pixels a side)"
expect 2 "$RUN" t.bin --size 99999999999999999999x1
says "bad size"
expect 2 "$RUN" t.bin --size 8x8junk
expect 1 "$RUN" t.bin --size 16384x16384
says "more than the emulator's limit of 1024 MiB"
expect 2 "$RUN" t.bin --probe 1,99999999999
expect 2 "$RUN" t.bin --max-steps 0
says "bad max-steps '0' (want 1..1000000000)"
expect 2 "$RUN" t.bin --max-steps 5000000000
expect 2 "$RUN" t.bin --max-steps lots
expect 2 "$RUN" t.bin --max-steps
says "--max-steps needs a value"

# a loop that never ends on its own (x only grows), against a tiny bound
cat >loop.frag <<'EOF'
void main() {
	float x = gl_FragCoord.x;
	while (x > 0.0)
		x += 1.0;
	gl_FragColor = vec4(x);
}
EOF
"$USCC" loop.frag -o loop.bin || fail "cannot compile loop.frag"
expect 1 "$RUN" loop.bin --size 4x4 --max-steps 1000
says "loop.bin: error: runaway program: the step bound of 1000 steps"
says "raise the step bound with --max-steps N"
expect 0 "$RUN" t.bin --size 2x2 --max-steps 1000

# --stats: one JSON line, after any --dump/--probe lines; alone it
# replaces the default dump.  textured.frag has no flow control, so every
# pixel costs the static figure of "uscc --stats".
cycles=$("$USCC" "$SRC/samples/textured.frag" --stats | sed -n 's/.*"cycles":\([0-9]*\).*/\1/p')
insts=$("$USCC" "$SRC/samples/textured.frag" --stats | sed -n 's/^{"instructions":\([0-9]*\).*/\1/p')
json="{\"pixels\":4,\"discarded\":0,\"cycles\":{\"min\":$cycles,\"median\":$cycles,\"max\":$cycles},\"instructions\":{\"min\":$insts,\"median\":$insts,\"max\":$insts},\"draw\":{\"cycles\":$cycles,\"instructions\":$insts}}"
expect 0 "$RUN" t.bin --size 2x2 --texture 0=checker --stats
[ "$(cat "$T/out")" = "$json" ] || fail "--stats printed '$(cat "$T/out")', expected '$json'"
expect 0 "$RUN" t.bin --size 2x2 --texture 0=checker --stats --probe 1,1 -o s.png
[ "$(wc -l <"$T/out")" -eq 2 ] && grep -q '^1 1 ' "$T/out" &&
	[ "$(tail -n 1 "$T/out")" = "$json" ] || fail "--stats with --probe: $(cat "$T/out")"
[ -s s.png ] || fail "--stats with -o wrote no PNG"
expect 0 "$RUN" t.bin --size 2x2 --texture 0=checker --dump --stats
[ "$(wc -l <"$T/out")" -eq 5 ] && [ "$(tail -n 1 "$T/out")" = "$json" ] ||
	fail "--stats with --dump: $(cat "$T/out")"
expect 1 "$RUN" loop.bin --size 4x4 --max-steps 1000 --stats
[ -s "$T/out" ] && fail "--stats printed after a runtime fault"

# --wrap and --filter: bad values refused; each mode draws its own picture
for bad in "0=bogus" "16=repeat" "=clamp" "0=" "x=mirror"; do
	expect 2 "$RUN" t.bin --wrap "$bad"
	says "bad wrap mode"
done
expect 2 "$RUN" t.bin --filter 0=cubic
says "bad filter"
for mode in repeat clamp mirror; do
	for f in nearest linear; do
		expect 0 "$RUN" t.bin --size 8x8 --texture 0=gradient --wrap 0=$mode --filter 0=$f \
			--varying "gl_TexCoord[0]=-1.3,-0.7,0,1:1.1,-0.7,0,1:-1.3,0.9,0,1:1.1,0.9,0,1"
		md5sum <"$T/out" | cut -c1-32 >>sums.txt
	done
done
[ "$(sort -u sums.txt | wc -l)" -eq 6 ] || fail "the six wrap/filter modes do not draw six pictures"

# --list: the program's interface, no draw
expect 0 "$RUN" t.bin --list
for line in "uniform u_tint vec4 -> c" "sampler u_texture 2D -> unit 0" \
	"input gl_TexCoord[0]." "input gl_Color.xyzw -> t" "output gl_FragColor -> target 0"; do
	grep -qF -- "$line" "$T/out" || fail "--list lacks '$line': $(cat "$T/out")"
done
[ "$(grep -vc '^computed ' "$T/out")" -eq 5 ] || fail "--list printed $(wc -l <"$T/out") lines, expected 5 and the computed slots"
# a record is one vec4: a matrix array's by its array element and column
printf 'uniform mat3 mm[2];\nuniform int n;\nvoid main() { gl_FragColor = vec4(mm[n][2], mm[1][0].x); }\n' >mm.frag
"$USCC" mm.frag -o mm.bin || fail "cannot compile mm.frag"
expect 0 "$RUN" mm.bin --list
for line in "uniform mm[1] mat3 column 2 -> c" "uniform mm[0] mat3 column 2 -> c" \
	"uniform mm[1] mat3 column 0 -> c"; do
	grep -qF -- "$line" "$T/out" || fail "--list lacks '$line': $(cat "$T/out")"
done
# phong's constant program fills four slots before every draw
"$USCC" "$SRC/samples/phong.frag" -o phong.bin || fail "cannot compile phong"
expect 0 "$RUN" phong.bin --list
[ "$(grep -c '^computed c[0-9]*\.[xyzw]* <- constant program' "$T/out")" -eq 4 ] ||
	fail "--list of phong: $(cat "$T/out")"

expect 0 "$RUN" --help
for word in --max-steps --size --texture --wrap --filter --list --stats "Exit status"; do
	grep -qF -- "$word" "$T/out" || fail "--help does not mention $word"
done

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all uscc-run error cases pass"
