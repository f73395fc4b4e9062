#!/bin/sh
# uscc on Mesa's binary TGSI tokens (-x tgsi-tokens, .tgsib): every
# tests/tgsi program, written as tokens by tgsi-tokens and as Mesa made
# them (tests/tgsi/tokens), compiles to the container its text compiles
# to, byte for byte; and a
# malformed stream is an error at its word, never a crash.
# $1 = the uscc binary, $2 = tgsi-tokens, $3 = tests/tgsi.
set -u
USCC=$1 TOKENS=$2 DIR=$3
. "$(dirname "$0")/cli_lib.sh"

for f in "$DIR"/*.tgsi; do
	b=$T/$(basename "$f" .tgsi).tgsib
	expect 0 "$TOKENS" "$f" "$b"
	for o in -O2 -O0; do
		expect 0 "$USCC" $o "$f" -o "$T/text.bin"
		expect 0 "$USCC" $o "$b" -o "$T/tokens.bin"
		cmp -s "$T/text.bin" "$T/tokens.bin" ||
			fail "$(basename "$f") $o: text and tokens make different containers"
	done
done

# tokens made by Mesa's own tgsi_text_translate from the same programs
# (tests/tgsi/tokens/, Mesa 22.3.6, little-endian: skipped on a
# big-endian host): the same containers as the text
if [ "$(printf '\001\000\000\000' | od -A n -t u4 | tr -d ' ')" = 1 ]; then
	for t in "$DIR"/tokens/*.tgsib; do
		f=$DIR/$(basename "$t" .tgsib).tgsi
		expect 0 "$USCC" "$f" -o "$T/text.bin"
		expect 0 "$USCC" "$t" -o "$T/tokens.bin"
		cmp -s "$T/text.bin" "$T/tokens.bin" ||
			fail "$(basename "$t"): Mesa's tokens and the text make different containers"
	done
fi

b=$T/alu.tgsib
# by -x too, from any name
cp "$b" "$T/alu.words"
expect 0 "$USCC" -x tgsi-tokens "$T/alu.words" -o "$T/x.bin"
expect 0 "$USCC" "$DIR/alu.tgsi" -o "$T/text.bin"
cmp -s "$T/x.bin" "$T/text.bin" || fail "-x tgsi-tokens: another container"
# -E: no preprocessor
expect 2 "$USCC" -E "$b"
# malformed streams: errors with the word as the line
n=$(wc -c <"$b")
head -c $((n - 4)) "$b" >"$T/short.tgsib"
expect 1 "$USCC" "$T/short.tgsib"
says "short.tgsib:1:1: error: the header says"
head -c $((n - 1)) "$b" >"$T/odd.tgsib"
expect 1 "$USCC" "$T/odd.tgsib"
says "not whole 32-bit words"
cp "$b" "$T/bad.tgsib"
printf '\377\377\377\377' | dd of="$T/bad.tgsib" bs=4 seek=2 conv=notrunc 2>/dev/null
expect 1 "$USCC" "$T/bad.tgsib"
says "bad.tgsib:3:1: error: "  # a bad first word of a token
: >"$T/empty.tgsib"
expect 1 "$USCC" "$T/empty.tgsib"
says "0 words"

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s)"
	exit 1
fi
