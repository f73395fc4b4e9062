"""Picking and compiling the fragment shaders of bench/quality.

For each piglit .shader_test the Mesa baseline lists, `prepare` decides
whether uscc can compile its fragment shader on its own (one GLSL 1.10 /
1.20 / ES 1.00 fragment section, no other programmable stage than the
vertex shader) and `compile_one` runs `uscc --stats` on it.  Standard
library only; the test-file knowledge lives in tests/piglit/piglit_tree.py.
The real-world corpus needs no preparing: each of its files is a whole
shader (bench/quality sets job.source from it).  `listing_one` runs
`uscc -S` on a shader that compiled and counts, from the listing, what
--stats does not report: TEX blocks, presubtract and OMOD uses.
"""

import json
import os
import re
import signal
import subprocess
import tempfile
import time

import piglit_tree

OUR_VERSIONS = (100, 110, 120)
# Sections of stages uscc does not compile and Mesa did not need to link
# for a fragment program; a test having one is not a fragment-only test.
OTHER_STAGES = ("geometry shader", "tessellation control shader",
                "tessellation evaluation shader", "compute shader")

# Our status words; the CSV's status column starts with one of them.
OK, COMPILE_ERROR, CRASH, TIMEOUT, SKIPPED = (
    "ok", "compile_error", "crash", "timeout", "skipped")


class Job:
    """One baseline row: the test file, the fragment source to compile (or
    why not) and, once run, uscc's figures."""

    def __init__(self, name, path):
        self.name, self.path = name, path
        self.source = None
        self.status = None      # "ok", "compile_error: ...", "skipped: ..."
        self.stats = {}
        self.mesa = {}          # the baseline row
        self.wall = 0.0         # seconds, process included (for the run total)

    @property
    def kind(self):
        return self.status.split(":", 1)[0]

    @property
    def detail(self):
        return self.status.split(":", 1)[1].strip() if ":" in self.status else ""


def prepare(job):
    """Sets job.source to the fragment shader uscc should compile, or
    job.status to why the test is skipped."""
    if not os.path.isfile(job.path):
        job.status = "%s: file not found in piglit's tree" % SKIPPED
        return
    sections = piglit_tree.parse_shader_test(piglit_tree.read_text(job.path))
    names = [name for name, _ in sections]
    for stage in OTHER_STAGES:
        if stage in names:
            job.status = "%s: has a %s" % (SKIPPED, stage)
            return
    require = "".join(text for name, text in sections if name == "require")
    reason = piglit_tree.require_skip_reason(require)
    if reason:
        job.status = "%s: %s" % (SKIPPED, reason)
        return
    fragments = [text for name, text in sections if name == "fragment shader"]
    if not fragments:
        job.status = "%s: no GLSL fragment shader (fixed function)" % SKIPPED
        return
    if len(fragments) > 1:
        # Mesa linked them into one program; uscc compiles single shaders.
        job.status = "%s: multiple fragment shaders" % SKIPPED
        return
    source = piglit_tree.with_version(fragments[0], require)
    number, es = piglit_tree.source_version(source)
    if number not in OUR_VERSIONS:
        job.status = "%s: needs GLSL %d%s" % (SKIPPED, number, " ES" if es else "")
        return
    job.source = source


def first_error(stderr, src_path):
    """The first diagnostic line of uscc's standard error, without the
    temporary file's name."""
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    chosen = next((l for l in lines if "error:" in l), lines[0] if lines else "no diagnostic")
    for prefix in (src_path + ":", os.path.basename(src_path) + ":"):
        if chosen.startswith(prefix):
            chosen = chosen[len(prefix):].strip()
    return chosen[:200]


def signal_name(code):
    try:
        return signal.Signals(-code).name
    except ValueError:
        return "signal %d" % -code


def limited(argv, mem_mb):
    """argv run under an address-space limit (sh's ulimit, so that no
    preexec hook runs in a threaded parent); mem_mb 0 = no limit (needed
    for sanitizer builds, which reserve terabytes of shadow memory)."""
    if not mem_mb:
        return argv
    return ["/bin/sh", "-c", "ulimit -v %d && exec \"$@\"" % (mem_mb * 1024), "uscc"] + argv


def compile_one(job, uscc, timeout, mem_mb):
    """Runs `uscc --stats` on job.source; sets job.status and job.stats."""
    with tempfile.TemporaryDirectory(prefix="uscc-quality-") as tmp:
        src = os.path.join(tmp, os.path.basename(job.name).replace(".shader_test", ".frag"))
        with open(src, "w", encoding="utf-8") as f:
            f.write(job.source)
        argv = limited([uscc, "--stats", src, "-o", os.devnull], mem_mb)
        start = time.monotonic()
        try:
            proc = subprocess.run(argv, cwd=tmp, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=timeout, universal_newlines=True,
                                  errors="replace", env=piglit_tree.tool_env())
        except subprocess.TimeoutExpired:
            job.wall = time.monotonic() - start
            job.status = "%s: no answer after %g s" % (TIMEOUT, timeout)
            return job
        job.wall = time.monotonic() - start
    code = proc.returncode
    if code == 1:
        job.status = "%s: %s" % (COMPILE_ERROR, first_error(proc.stderr, src))
    elif code != 0:
        what = signal_name(code) if code < 0 else "exit status %d" % code
        said = first_error(proc.stderr, src) if proc.stderr.strip() else "(nothing on stderr)"
        job.status = "%s: %s %s" % (CRASH, what, said)
    else:
        try:
            job.stats = json.loads(proc.stdout)
            job.status = OK
        except ValueError:
            job.status = "%s: exit 0 but --stats printed no JSON: %s" % (
                CRASH, proc.stdout.strip()[:120])
    return job



# Output modifiers as `-S` prints them after the opcode (docs/r500-asm.md).
OMODS = ("*2", "*4", "*8", "/2", "/4", "/8", "_omod7")
SLOT_RX = re.compile(r"^\s*\d+:\s+(\S+)")


def listing_figures(text):
    """From an `uscc -S` listing: tex_blocks (runs of consecutive TEX
    instructions, what Mesa's cycle model charges 30 each), presub and omod
    (RGB or alpha units reading srcp / writing through an output modifier,
    counted per unit as Mesa's r300 statistics count them)."""
    blocks = presub = omod = 0
    prev_tex = False
    for line in text.splitlines():
        m = SLOT_RX.match(line)
        if not m:
            continue
        kind = m.group(1)
        if kind == "tex" and not prev_tex:
            blocks += 1
        prev_tex = kind == "tex"
        if kind not in ("alu", "out"):
            continue
        for unit in line.split(" : ")[1:3]:    # the RGB and the alpha unit
            if " = " not in unit:
                continue
            op_and_inputs = unit.split(" = ", 1)[1]
            if "srcp." in op_and_inputs:
                presub += 1
            words = op_and_inputs.split()
            if words and words[0].endswith(OMODS):
                omod += 1
    return {"tex_blocks": blocks, "presub": presub, "omod": omod}


def listing_one(job, uscc, timeout, mem_mb):
    """Runs `uscc -S` on a job that compiled; adds listing_figures to
    job.stats.  A crash or hang here (or a refusal of what --stats
    accepted) turns the job's status into a crash / timeout."""
    if job.status != OK:
        return job
    with tempfile.TemporaryDirectory(prefix="uscc-quality-") as tmp:
        src = os.path.join(tmp, os.path.basename(job.name).replace(".shader_test", ".frag"))
        with open(src, "w", encoding="utf-8") as f:
            f.write(job.source)
        argv = limited([uscc, "-S", src], mem_mb)
        try:
            proc = subprocess.run(argv, cwd=tmp, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=timeout, universal_newlines=True,
                                  errors="replace", env=piglit_tree.tool_env())
        except subprocess.TimeoutExpired:
            job.status = "%s: uscc -S: no answer after %g s" % (TIMEOUT, timeout)
            return job
    code = proc.returncode
    if code != 0:
        what = signal_name(code) if code < 0 else "exit status %d" % code
        said = first_error(proc.stderr, src) if proc.stderr.strip() else "(nothing on stderr)"
        job.status = "%s: uscc -S (after --stats succeeded): %s %s" % (CRASH, what, said)
        return job
    job.stats.update(listing_figures(proc.stdout))
    return job
