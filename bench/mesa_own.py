"""r300's own R500 program, read off its RADEON_DEBUG=fp dump, as a uscc
container, so that uscc-run runs r300's code on the inputs uscc's programs
get (bench/mesa: pixels and executed cycles in one model).

From the driver's standard error (r300_measure -V with RADEON_DEBUG=fp and
a preloaded helper that re-prints the compiler's "CONST[n] = {...}" lines
at full precision): the TGSI declarations, the immediates around r300's
'dead constants' pass and the two listings around it (aligned to recover
how the pass renumbered the constants), and the final "R500 Fragment
Program:" words (those the dump does not print -- TEX inst4/5, FC
inst1/4/5 -- are zero in Mesa).  uscc's container of the GLSL source gives
the uniforms' names and types, the samplers and the outputs.

Slot rules (checked by comparing pixels with uscc's program of the same
source):
  * TGSI CONST[0][i] is the i-th vec4 of the default uniform block: the
    uniforms the linker kept (taken as those uscc's program reads), in
    declaration order, every element padded to a vec4, a matrix one vec4
    per column; an array as long as its highest element read; a struct's
    members in the order of uscc's table;
  * then gl_FbWposYTransform, when the program reads gl_FragCoord or
    takes a dFdy (Mesa multiplies it by the transform's .x): (1, 0, 1, 0),
    no flip;
  * then GL's built-in state uscc's program reads, in the order of uscc's
    table: a gl_LightSource[i] as Mesa's eight state slots (fields sharing
    slots as builtin_variables.cpp puts them), anything else a slot per
    element.
  * r300's WPOS input is the clip-space position, divided by w and mapped
    by the viewport state constants (the first two r300 state constants):
    the input is named "mesa_wpos"; WPOS_VARYING is its uscc-run value.
  * Hardware inputs are temporaries 0, 1, .. in r300's order: color0,
    color1, face, generic 0..31, texcoord 0..7, pcoord, fog, wpos.
Standard library only."""

import re
import struct

WPOS_Y_TRANSFORM = [1.0, 0.0, 1.0, 0.0]
WPOS_VARYING = "mesa_wpos=-1,-1,0,1:1,-1,0,1:-1,1,0,1:1,1,0,1"

# LD_PRELOAD helper: the compiler's constant lines at full precision
CONSTPRINT_C = r'''
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
static int print(FILE *fp, const char *fmt, va_list ap)
{
	if (strncmp(fmt, "CONST[%u] = ", 12) == 0) {
		unsigned i = va_arg(ap, unsigned); double v[4];
		for (int k = 0; k < 4; k++) v[k] = va_arg(ap, double);
		char line[160];
		snprintf(line, sizeof line, "CONST[%u] = { %.9g %.9g %.9g %.9g }\n", i, v[0], v[1],
			 v[2], v[3]);
		return fputs(line, fp) < 0 ? -1 : (int)strlen(line);
	}
	return vfprintf(fp, fmt, ap);
}
/* a fortified build (Debian's) calls __fprintf_chk, a plain one fprintf */
int __fprintf_chk(FILE *fp, int flag, const char *fmt, ...)
{
	va_list ap; int r; (void)flag;
	va_start(ap, fmt); r = print(fp, fmt, ap); va_end(ap);
	return r;
}
int fprintf(FILE *fp, const char *fmt, ...)
{
	va_list ap; int r;
	va_start(ap, fmt); r = print(fp, fmt, ap); va_end(ap);
	return r;
}
'''


class NotReadable(Exception):
    """The dump does not give r300's program (a dummy, an error)."""


# ---------------------------------------------------------------- parsing
def parse_result(out):
    """r300_measure's RESULT line as a dict of strings."""
    m = re.search(r'^RESULT (.*)$', out, re.M)
    if not m:
        return {}
    return {k: v.strip('"') for k, v in re.findall(r'(\w+)=("[^"]*"|\S+)', m.group(1))}


def tgsi_programs(err):
    """Every TGSI program r300 was given (the text after each "r300:
    Initial fragment program" up to END), in order."""
    lines = err.splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.startswith("r300: Initial fragment program"):
            body = []
            for m in lines[i + 1:]:
                body.append(m)
                if m.rstrip().endswith(": END") or m.strip() == "END":
                    break
            if body and body[0].startswith("FRAG"):
                found.append("\n".join(body) + "\n")
    return found


def last_tgsi(err):
    """The TGSI of the variant the draw used, None when there is none."""
    found = tgsi_programs(err)
    return found[-1] if found else None


def parse_tgsi(err):
    a = err.rfind('r300: Initial fragment program')
    b = err.find('Fragment Program: before compilation', a)
    t = err[a:b] if a >= 0 else ''
    ins = [(int(m.group(1)), m.group(3), int(m.group(4) or 0))
           for m in re.finditer(r'^DCL IN\[(\d+)\](\.\w+)?, (\w+)(?:\[(\d+)\])?', t, re.M)]
    nconst = 0
    for m in re.finditer(r'^DCL CONST\[(?:\d+\]\[)?(\d+)(?:\.\.(\d+))?\]', t, re.M):
        nconst = max(nconst, int(m.group(2) or m.group(1)) + 1)
    samps = sorted(int(m.group(1)) for m in re.finditer(r'^DCL SAMP\[(\d+)\]', t, re.M))
    return dict(inputs=ins, nconst=nconst, samps=samps)


def last_compile(err):
    """The stderr of the last variant's compile (from its TGSI on)."""
    a = err.rfind('r300: Initial fragment program')
    return err[a:] if a >= 0 else err


def split_passes(err):
    """[(pass name, listing text)] in order."""
    heads = list(re.finditer(r"^Fragment Program: (?:after '([^']*)'|(before compilation))$",
                             err, re.M))
    end = err.find('R500 Fragment Program:')
    res = []
    for i, h in enumerate(heads):
        stop = heads[i + 1].start() if i + 1 < len(heads) else end
        res.append((h.group(1) or h.group(2), err[h.end():stop]))
    return res


def consts_before(err, passname):
    """The immediates printed at the end of pass `passname` (right before
    its listing header): {slot: [x, y, z, w]}, or None."""
    h = err.find("Fragment Program: after '%s'" % passname)
    if h < 0:
        return None
    prev = err.rfind('\n# Radeon Compiler Program', 0, h)
    chunk = err[max(prev, 0):h]
    return {int(m.group(1)): [float(x) for x in m.group(2).split()]
            for m in re.finditer(r'^CONST\[(\d+)\] = \{([^}]*)\}', chunk, re.M)}


def listing_consts(body):
    body = re.split(r'^CONST\[', body, flags=re.M)[0]
    return [int(x) for x in re.findall(r'const\[(\d+)\]', body)]


def parse_r500(err):
    """[[inst0..inst5]] of the final program, and the dump's text."""
    a = err.rfind('R500 Fragment Program:')
    if a < 0:
        raise NotReadable('no "R500 Fragment Program:" dump')
    t = err[a:]
    stop = re.search(r'^DEBUG MESSAGE|^RESULT|^r300: Initial', t, re.M)
    if stop:
        t = t[:stop.start()]
    insts = []
    for m in re.finditer(r'^(\d+)\t0:CMN_INST\s+0x([0-9a-f]{8})', t, re.M):
        insts.append([int(m.group(2), 16), 0, 0, 0, 0, 0])
        start = m.end()
        nxt = re.search(r'^\d+\t0:CMN_INST', t[start:], re.M)
        block = t[start:start + nxt.start()] if nxt else t[start:]
        for w in re.finditer(r'^\t([1-5])[: ]\s*\w+:?\s*0x([0-9a-f]{8})', block, re.M):
            insts[-1][int(w.group(1))] = int(w.group(2), 16)
    if not insts:
        raise NotReadable('empty R500 program dump')
    return insts, t


# ------------------------------------------------------------- GLSL decls
COLUMNS = {'mat2': 2, 'mat3': 3, 'mat4': 4, 'mat2x2': 2, 'mat3x3': 3, 'mat4x4': 4,
           'mat2x3': 2, 'mat2x4': 2, 'mat3x2': 3, 'mat3x4': 3, 'mat4x2': 4, 'mat4x3': 4}
ROWS = {'float': 1, 'int': 1, 'uint': 1, 'bool': 1, 'vec2': 2, 'ivec2': 2, 'bvec2': 2,
        'vec3': 3, 'ivec3': 3, 'bvec3': 3, 'vec4': 4, 'ivec4': 4, 'bvec4': 4,
        'mat2': 2, 'mat3': 3, 'mat4': 4, 'mat2x2': 2, 'mat3x3': 3, 'mat4x4': 4,
        'mat2x3': 3, 'mat2x4': 4, 'mat3x2': 2, 'mat3x4': 4, 'mat4x2': 2, 'mat4x3': 3}


def columns(typ):
    return COLUMNS.get(typ, 1)


def uniform_decls(source):
    """[(name, type, array_len)] in declaration order, from preprocessed
    GLSL (comments are dropped here)."""
    src = re.sub(r'//[^\n]*', '', source)
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    res = []
    for m in re.finditer(r'\buniform\s+(?:(?:lowp|mediump|highp)\s+)?(\w+)\s*'
                         r'(?:\[\s*(\d+)\s*\])?\s+([^;={]+)(=[^;]*)?;', src):
        for d in m.group(3).split(','):
            # GLSL 1.20 puts an array's length on the type too: vec2[2] c
            mm = re.match(r'(\w+)\s*(?:\[\s*(\d+)\s*\])?', d.strip())
            if mm:
                res.append((mm.group(1), m.group(1), int(mm.group(2) or m.group(2) or 0)))
    return res


# gl_LightSource[i]: Mesa's state slots (builtin_variables.cpp) in order,
# each field's slot and the components it takes there
LIGHT_SLOTS = {'ambient': (0, 'xyzw'), 'diffuse': (1, 'xyzw'), 'specular': (2, 'xyzw'),
               'position': (3, 'xyzw'), 'halfVector': (4, 'xyzw'),
               'spotDirection': (5, 'xyz'), 'spotCosCutoff': (5, 'w'),
               'constantAttenuation': (6, 'x'), 'linearAttenuation': (6, 'y'),
               'quadraticAttenuation': (6, 'z'), 'spotExponent': (6, 'w'),
               'spotCutoff': (7, 'x')}
LIGHT = re.compile(r'^(gl_LightSource\[\d+\])\.(\w+)$')


def part(u, element, swizzle):
    """One uniform element's share of a constant slot: (name, type,
    array_len, element, swizzle), the swizzle naming the slot components
    its components go to, in order."""
    return (u['name'], u['type'], u['array_len'], element, swizzle)


def reads_wpos_transform(tgsi):
    """Mesa adds gl_FbWposYTransform for the window position and for dFdy
    (which it multiplies by the transform's .x)."""
    return bool(re.search(r'^DCL IN\[\d+\][^,]*, POSITION|: DDY', tgsi, re.M))


def const_layout(decls, glsl_info, tgsi):
    """TGSI CONST index -> [part, ..] for the uniforms uscc's program of
    the same source reads, and the index of gl_FbWposYTransform (None)."""
    by_name = {}
    for u in glsl_info['uniforms']:
        by_name.setdefault(u['name'], []).append(u)
    layout, k, done = {}, 0, set()
    for name, typ, alen in decls:
        if name not in by_name and name not in done:
            # a struct: its members uscc's program reads, as uscc lists them
            for member in [m for m in by_name if m.startswith((name + '.', name + '['))]:
                done.add(member)
                for v in by_name[member]:
                    layout[k] = [part(v, v['element'], 'xyzw'[:ROWS.get(v['type'], 4)])]
                    k += 1
            done.add(name)
        if name not in by_name or name in done:
            continue
        done.add(name)
        u = by_name[name][0]
        per = columns(u['type'])
        n_el = per * max(alen, 1)
        if alen:
            # the linker shrinks an array to its highest constant index + 1;
            # uscc's highest element read stands in for it
            top = max(v['element'] for v in by_name[name])
            n_el = min(n_el, top // per * per + per)
        for e in range(n_el):
            layout[k] = [part(u, e, 'xyzw'[:ROWS.get(u['type'], 4)])]
            k += 1
    wpos = None
    if reads_wpos_transform(tgsi):
        wpos, k = k, k + 1
    # then GL's built-in state uscc's program reads, in its table's order:
    # a light as Mesa's eight slots, anything else a slot an element
    lights = {}
    for u in glsl_info['uniforms']:
        if not u['name'].startswith('gl_') or u['name'] in done:
            continue
        done.add(u['name'])
        m = LIGHT.match(u['name'])
        if m and m.group(2) in LIGHT_SLOTS:
            if m.group(1) not in lights:
                lights[m.group(1)], k = k, k + 8
            slot, swz = LIGHT_SLOTS[m.group(2)]
            layout.setdefault(lights[m.group(1)] + slot, []).append(part(u, 0, swz))
            continue
        for v in by_name[u['name']]:
            layout[k] = [part(v, v['element'], 'xyzw'[:ROWS.get(v['type'], 4)])]
            k += 1
    return layout, wpos


def slot_value(parts, value_of):
    """A constant slot's vec4 from its parts; value_of(name, type, index)
    gives all components of a uniform's array element."""
    out = [0.0] * 4
    for name, typ, _, element, swizzle in parts:
        per, rows = columns(typ), len(swizzle)
        col = element % per
        v = value_of(name, typ, element // per)[col * ROWS.get(typ, 4):]
        for j, ch in enumerate(swizzle):
            out['xyzw'.index(ch)] = v[j] if j < len(v) else 0.0
        del rows
    return out


# --------------------------------------------------------------- container
def fnv1a64(b):
    h = 0xcbf29ce484222325
    for x in b:
        h ^= x
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def pstr(s):
    b = s.encode()
    return struct.pack('<I', len(b)) + b + b'\0'


def pswz(s):
    return struct.pack('<B', len(s)) + s.encode().ljust(4, b'\0')


TARGETS = {'1D': 0, '2D': 1, '3D': 2, 'CUBE': 3, 'RECT': 4}


def container_bytes(code, nslots, imms, unifs, samps, inputs, outputs, flow, stats):
    """A version-2 uscc container (docs/container.md) of these parts."""
    secs = [('CODE', struct.pack('<I', len(code)) +
             b''.join(struct.pack('<6I', *i) for i in code))]
    b = struct.pack('<II', nslots, len(imms))
    for slot in sorted(imms):
        b += struct.pack('<I4f', slot, *imms[slot])
    secs.append(('CNST', b))
    b = struct.pack('<I', len(unifs))
    for u in unifs:
        b += pstr(u['name']) + pstr(u['type']) + \
            struct.pack('<III', u['array_len'], u['element'], u['slot']) + pswz(u['swizzle'])
    secs.append(('UNIF', b))
    b = struct.pack('<I', len(samps))
    for s in samps:
        b += pstr(s['name']) + struct.pack('<BBBB', s['unit'], TARGETS[s['target']],
                                           1 if s['shadow'] else 0, 0)
    secs.append(('SAMP', b))
    b = struct.pack('<I', len(inputs))
    for i in inputs:
        b += pstr(i['name']) + struct.pack('<B', i['temp']) + pswz(i['components'])
    secs.append(('INPT', b))
    b = struct.pack('<I', len(outputs))
    for o in outputs:
        b += pstr(o['name']) + struct.pack('<i', -1 if o['target'] == 'depth' else o['target'])
    secs.append(('OUTP', b))
    uses_fc, pixsize, bool_const, ints = flow
    used = 0
    for n in ints:
        used |= 1 << n
    b = struct.pack('<IIII', uses_fc, pixsize, bool_const, used)
    for n in sorted(ints):
        c, i, s = ints[n]
        b += struct.pack('<I', (c & 0xff) | (i & 0xff) << 8 | (s & 0xff) << 16)
    secs.append(('FLOW', b))
    keys = ['instructions', 'alu', 'tex', 'fc', 'out', 'nops', 'pairs', 'temps', 'constants',
            'lower_bound', 'cycles']
    secs.append(('STAT', struct.pack('<11i', *[max(0, int(stats.get(k, 0))) for k in keys]) +
                 struct.pack('<q', 0)))
    secs.append(('CPRG', struct.pack('<III', 0, 0, 0)))
    body = b''
    for tag, pay in secs:
        body += tag.encode() + struct.pack('<I', len(pay)) + pay + b'\0' * (-len(pay) % 4)
    total = 16 + len(body) + 8
    data = b'USCC' + struct.pack('<III', 2, total, 9) + body
    return data + struct.pack('<Q', fnv1a64(data))


def constant_slots(err, tg, layout, wpos, has_wpos, size, warn):
    """r300's constant file: (number of slots, immediates {slot: vec4},
    uniform table entries)."""
    passes = split_passes(err)
    names = [p[0] for p in passes]
    if 'dead constants' not in names:
        raise NotReadable("no 'dead constants' listing")
    i_dead = names.index('dead constants')
    old_listing = listing_consts(passes[i_dead - 1][1])
    new_listing = listing_consts(passes[i_dead][1])
    if len(old_listing) != len(new_listing):
        raise NotReadable('the constant listings around dead constants do not align')
    remap = {}
    for o, n in zip(old_listing, new_listing):
        if remap.setdefault(o, n) != n:
            raise NotReadable('inconsistent constant renumbering')
    imm_old = consts_before(err, passes[i_dead - 1][0]) or {}
    imm_new = consts_before(err, 'dead constants')
    if imm_new is None:
        imm_new = imm_old
    n_ext = tg['nconst']
    state_old = sorted(o for o in remap if o >= n_ext and o not in imm_old)
    inv = {n: o for o, n in remap.items()}
    slot_src = {}
    for n in set(listing_consts(passes[-1][1])) | set(imm_new):
        if n in imm_new:
            slot_src[n] = ('imm', imm_new[n])
        elif n in inv and inv[n] < n_ext:
            slot_src[n] = ('ext', inv[n])
        elif n in inv:
            slot_src[n] = ('state', state_old.index(inv[n]))
        else:
            raise NotReadable('the final program reads const[%d] of unknown origin' % n)
    W, H = size
    imms, unifs = {}, []
    for n, (kind, v) in sorted(slot_src.items()):
        if kind == 'imm':
            imms[n] = v
        elif kind == 'state':
            if has_wpos and v in (0, 1):      # VIEWPORT_SCALE, VIEWPORT_OFFSET
                imms[n] = [W / 2.0, H / 2.0, 0.5, 1.0]
            else:
                warn.append('r300 state constant #%d at slot %d set to 0' % (v, n))
                imms[n] = [0.0] * 4
        elif v in layout:
            for name, typ, alen, element, swizzle in layout[v]:
                unifs.append(dict(name=name, type=typ, array_len=alen, slot=n, element=element,
                                  swizzle=swizzle))
        elif v == wpos:
            imms[n] = WPOS_Y_TRANSFORM
        else:
            warn.append('slot %d = TGSI CONST[%d], unexplained; 0' % (n, v))
            imms[n] = [0.0] * 4
    return (max(slot_src) + 1 if slot_src else 0), imms, unifs


def hardware_inputs(tg, glsl_info, warn):
    """The inputs in r300's hardware order, named as uscc-run knows them."""
    order = {'COLOR': 0, 'FACE': 2, 'GENERIC': 3, 'TEXCOORD': 4, 'PCOORD': 5, 'FOG': 6,
             'POSITION': 7}
    ins = sorted(tg['inputs'], key=lambda x: (order.get(x[1], 9), x[2]))
    generic = [i['name'] for i in glsl_info['inputs'] if not i['name'].startswith('gl_')]
    inputs, gi = [], 0
    for t, (_, sem, sidx) in enumerate(ins):
        if sem == 'POSITION':
            name = 'mesa_wpos'
        elif sem == 'COLOR':
            name = 'gl_Color' if sidx == 0 else 'gl_SecondaryColor'
        elif sem == 'GENERIC' and gi < len(generic):
            name = generic[gi]
            gi += 1
        elif sem == 'FACE':
            name = 'gl_FrontFacing'
        else:
            name = 'mesa_in%d' % t
        inputs.append(dict(name=name, temp=t, components='xyzw'))
    return inputs


def dump_temps(dump):
    """Every temporary the R500 words of r300's dump name: ALU addresses
    (128 and up are inline constants), ALU destinations, and texture
    instructions' source and destination."""
    temps = [int(x) for x in re.findall(r'(\d+)t\b', dump) if int(x) < 128]
    temps += [int(x) for x in re.findall(r'dest:(\d+)', dump)]
    temps += [int(x) for x in re.findall(r'\b(?:src|dst): (\d+)', dump)]
    return temps


def own_container(err, result, glsl_info, source, size):
    """(container bytes, warnings) of r300's program, from the stderr of a
    RADEON_DEBUG=fp run; `source` is the preprocessed GLSL."""
    warn = []
    err = last_compile(err)
    tg = parse_tgsi(err)
    code, dump = parse_r500(err)
    layout, wpos = const_layout(uniform_decls(source), glsl_info, last_tgsi(err) or '')
    has_wpos = any(s == 'POSITION' for _, s, _ in tg['inputs'])
    nslots, imms, unifs = constant_slots(err, tg, layout, wpos, has_wpos, size, warn)
    usamps = sorted(glsl_info['samplers'], key=lambda s: s['unit'])
    samps = []
    for i, unit in enumerate(tg['samps']):
        if i < len(usamps):
            samps.append(dict(usamps[i], unit=unit))
    if len(tg['samps']) != len(usamps):
        warn.append('r300 samplers %s, uscc %d' % (tg['samps'], len(usamps)))
    inputs = hardware_inputs(tg, glsl_info, warn)
    types = [w[0] & 3 for w in code]            # 0 ALU 1 OUT 2 FC 3 TEX
    uses_fc = int(2 in types)
    pixsize = min(127, max(dump_temps(dump) + [len(inputs) - 1, 1]))
    ints = {0: (255, 0, 0)} if uses_fc else {}
    stats = dict(instructions=len(code), alu=sum(t in (0, 1) for t in types),
                 tex=types.count(3), fc=types.count(2), out=types.count(1),
                 temps=int(result.get('temps', 0)), constants=nslots,
                 cycles=int(result.get('cycles', 0)))
    data = container_bytes(code, nslots, imms, unifs, samps, inputs, glsl_info['outputs'],
                           (uses_fc, pixsize, 0, ints), stats)
    return data, list(dict.fromkeys(warn))
