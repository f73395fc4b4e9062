#!/bin/sh
# uscc-ref smoke test: a few renders whose values were worked out by hand.
# usage: ref_smoke.sh PATH/TO/uscc-ref
set -u
REF=$1
. "$(dirname "$0")/check_lib.sh"

# uniforms by name: a mat2 whole (column-major), one element of an array.
# v_uv at pixel (1,0) of 2x2 is (0.75, 0.25); m*v = 0.75*(1,2) + 0.25*(3,4).
cat > "$T/u.frag" <<'G'
varying vec2 v_uv;
uniform mat2 m;
uniform vec2 a[2];
void main() { gl_FragColor = vec4(m * v_uv, a[1]); }
G
check uniforms "1 0 1.5 2.5 0.5 0.25" \
	"$("$REF" "$T/u.frag" --size 2x2 --uniform m=1,2,3,4 --uniform 'a[1]=0.5,0.25' --probe 1,0)"

# discard, gl_FragCoord at pixel centres, --dump order (row 0 first)
cat > "$T/d.frag" <<'G'
void main() {
    if (gl_FragCoord.x < 1.0) discard;
    gl_FragColor = vec4(gl_FragCoord.xy, 0.0, 1.0);
}
G
check discard "0 0 discard|1 0 1.5 0.5 0 1|0 1 discard|1 1 1.5 1.5 0 1" \
	"$("$REF" "$T/d.frag" --size 2x2 --dump | paste -sd'|' -)"

# a varying between given corners: x at pixel (0,1) of 2x2 is
# bilinear at (0.25, 0.75): bottom 1*0.75+3*0.25 = 1.5, top 5*0.75+7*0.25 = 5.5,
# then 1.5*0.25 + 5.5*0.75 = 4.5
cat > "$T/v.frag" <<'G'
varying vec4 c;
void main() { gl_FragColor = c; }
G
check varying "0 1 4.5 0 0 1" \
	"$("$REF" "$T/v.frag" --size 2x2 --varying c=1,0,0,1:3,0,0,1:5,0,0,1:7,0,0,1 --probe 0,1)"

# the gradient texture, nearest: (0.25, 0.25) is texel (4, 4)
cat > "$T/t.frag" <<'G'
uniform sampler2D s;
varying vec2 v_uv;
void main() { gl_FragColor = texture2D(s, v_uv); }
G
check texture "0 0 0.28125 0.28125 0.5 1" \
	"$("$REF" "$T/t.frag" --size 2x2 --texture 0=gradient --probe 0,0)"

# vertex mode: outputs per vertex; "0" is (0,0,0,1), "1" is (1,0,0,1)
cat > "$T/s.vert" <<'G'
attribute vec4 a_pos;
varying vec2 v_uv;
uniform mat4 mvp;
void main() {
    gl_Position = mvp * gl_Vertex + a_pos;
    gl_TexCoord[1] = gl_MultiTexCoord0 * 2.0;
    v_uv = a_pos.xy;
}
G
check vertex "0 gl_Position 2 3 4 2|0 gl_TexCoord[1] 1 0.5 0 2|0 v_uv 1 1|1 gl_Position 1 1 1 2|1 gl_TexCoord[1] 1 0.5 0 2|1 v_uv 1 1|2 gl_Position 2 1 1 2|2 gl_TexCoord[1] 1 0.5 0 2|2 v_uv 1 1" \
	"$("$REF" --stage=vertex "$T/s.vert" --attrib 'gl_Vertex=1,2,3,1;0;1' --attrib a_pos=1,1,1,1 \
		--uniform mvp=1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1 --attrib gl_MultiTexCoord0=0.5,0.25 |
		paste -sd'|' -)"

# more outputs than the interpreter keeps per run (8)
{
	echo 'void main() { gl_Position = vec4(0.0);'
	for k in 0 1 2 3 4 5 6 7; do echo "gl_TexCoord[$k] = vec4(float($k));"; done
	echo 'gl_FrontColor = vec4(9.0); }'
} > "$T/many.vert"
check many-outputs "10" "$("$REF" --stage=vertex "$T/many.vert" | wc -l | tr -d ' ')"
check many-outputs-last "0 gl_TexCoord[7] 7 7 7 7" \
	"$("$REF" --stage=vertex "$T/many.vert" | grep 'TexCoord\[7\]')"

# errors: an invalid shader is status 1, a bad option status 2
echo 'void main() { gl_FragColor = 1; }' > "$T/bad.frag"
"$REF" "$T/bad.frag" --probe 0,0 >/dev/null 2>&1; check invalid-shader 1 $?
"$REF" "$T/u.frag" --size 0x3 >/dev/null 2>&1; check bad-size 2 $?
exit $fail
