#!/bin/sh
# The jump decision for IFs whose quad neighbours may diverge
# (backend/isel_inactive.c): a lookup's coordinates made inside the IF
# from values every pixel has let it jump, its ops writing inactive
# pixels, and so may an IF nested in it; a chain through a lookup, a PHI
# of a nested IF or a loop does not.  $1 = the uscc binary.
set -u
USCC=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/cli_lib.sh"
cd "$T" || exit 2

# $1 = name, $2 = the THEN side's body (reads p, sets c); the ELSE is one
# lookup at uv, the condition a varying's
shader() {
	cat >"$1.frag" <<GLSL
uniform sampler2D tex;
uniform float k;
varying vec2 uv;
void main()
{
	vec4 c;
	vec2 p = uv * 2.0 + k;
	if (uv.x + 0.3 * uv.y < 0.6) {
		vec2 q = p * p + vec2(k, 0.5);
		vec2 r = q * 0.75 - p.yx * 0.25 + q * q * 0.125;
		float m = r.x * r.y + q.x * k;
		$2
		c = c * c + vec4(q, r) * 0.5;
		c = c * c.wzyx + vec4(r, q) * 0.25;
		c = c * c.yxwz + vec4(q.yx, r.yx) * 0.125;
		c = c * c.zwxy + c.wzyx * 0.0625;
	} else {
		c = texture2D(tex, uv);
	}
	gl_FragColor = c;
}
GLSL
}
jumps() { grep -q ' JUMP ' out; }
writes_inactive() { grep -q 'write_inactive' out; }

shader plain 'c = texture2D(tex, r + m) + texture2D(tex, q.yx * m);'
expect 0 "$USCC" --divergent-jumps -S plain.frag
jumps || fail "plain: the IF did not jump"
writes_inactive || fail "plain: no op writes inactive pixels"
expect 0 "$USCC" --divergent-jumps -O0 -S plain.frag
jumps && writes_inactive || fail "plain -O0: no jump writing inactive pixels"

shader deriv 'float n = m * m + r.y * q.x; c = vec4(dFdx(m) + dFdy(n * n), dFdy(r.x) - dFdx(n * q.y), r * m + q * n);'
expect 0 "$USCC" --divergent-jumps -S deriv.frag
jumps && writes_inactive || fail "deriv: no jump writing inactive pixels"

# an IF inside the divergent one, itself divergent, with lookups of
# chains from before both: it jumps too
heavy='c = c.wzyx * 0.75 + vec4(q, r) * 0.25; c = c.yxwz * 0.5 + vec4(r, q) * 0.125; c = c.zwxy * 0.625 + c * 0.0625; c = c.wzyx * 0.75 + vec4(r.yx, q) * 0.25; c = c.yxwz * 0.5 + c.zwxy * 0.125; c = c * 0.5 + vec4(q.yx, r.yx) * 0.25;'
shader nested "if (r.y * k > 0.3) { c = texture2D(tex, r * m); $heavy $heavy } else { c = texture2D(tex, q * m) * 0.5; $heavy $heavy }"
expect 0 "$USCC" --divergent-jumps -S nested.frag
[ "$(grep -c ' JUMP ' out)" -ge 5 ] || fail "nested: the inner IF did not jump"
writes_inactive || fail "nested: no op writes inactive pixels"

# a dependent lookup: the first lookup's result is wrong in inactive pixels
shader dependent 'c = texture2D(tex, texture2D(tex, r + m).xy * q);'
expect 0 "$USCC" --divergent-jumps -S dependent.frag
jumps && fail "dependent: the IF jumped"
writes_inactive && fail "dependent: an op writes inactive pixels"

# a PHI of a nested IF in the chain
shader nested_phi 'vec2 s = r; if (m > 0.5) s = q * m; c = texture2D(tex, s * r);'
expect 0 "$USCC" --divergent-jumps -S nested_phi.frag
jumps && fail "nested_phi: the IF jumped"

# a loop inside the IF
shader looped 'vec2 s = r; for (int i = 0; i < 60; i++) { s = sin(s * 1.3) + cos(s + q) * 0.5 + sin(s * 0.7) * 0.25; } c = texture2D(tex, s * m);'
expect 0 "$USCC" --divergent-jumps -S looped.frag
grep -q ' LOOP ' out || fail "looped: the loop did not stay"
writes_inactive && fail "looped: an op writes inactive pixels"

[ "$fails" = 0 ] && echo "inactive_jump.sh: all passed"
[ "$fails" = 0 ]
