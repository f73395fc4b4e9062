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
`execute_one` compiles such a shader to a container and runs it with
`uscc-run --stats` over RUN_SIZE pixels: the cycles each pixel executes
(every loop trip counted), beside the static figure of --stats.
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

# Flags every uscc invocation gets (bench/quality --no-constant-program).
UFLAGS = []

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
        src = write_source(job, tmp)
        argv = limited([uscc] + UFLAGS + ["--stats", src, "-o", os.devnull], mem_mb)
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
CP_RX = re.compile(r"^# constant program: (\d+) instructions, (\d+) outputs")


def listing_figures(text):
    """From an `uscc -S` listing: tex_blocks (runs of consecutive TEX
    instructions, what Mesa's cycle model charges 30 each), presub and omod
    (RGB or alpha units reading srcp / writing through an output modifier,
    counted per unit as Mesa's r300 statistics count them)."""
    blocks = presub = omod = cp_inst = cp_out = 0
    prev_tex = False
    for line in text.splitlines():
        cp = CP_RX.match(line)
        if cp:
            cp_inst, cp_out = int(cp.group(1)), int(cp.group(2))
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
    return {"tex_blocks": blocks, "presub": presub, "omod": omod,
            "cp_instructions": cp_inst, "cp_outputs": cp_out}


def write_source(job, tmp):
    """The job's fragment source as a .frag file in tmp; its path."""
    src = os.path.join(tmp, os.path.basename(job.name).replace(".shader_test", ".frag"))
    with open(src, "w", encoding="utf-8") as f:
        f.write(job.source)
    return src


def listing_one(job, uscc, timeout, mem_mb):
    """Runs `uscc -S` on a job that compiled; adds listing_figures to
    job.stats.  A crash or hang here (or a refusal of what --stats
    accepted) turns the job's status into a crash / timeout."""
    if job.status != OK:
        return job
    with tempfile.TemporaryDirectory(prefix="uscc-quality-") as tmp:
        src = write_source(job, tmp)
        argv = limited([uscc] + UFLAGS + ["-S", src], mem_mb)
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


# Executed cycles: each shader that compiled runs once on a small draw.
RUN_SIZE = "16x16"
# The only uniforms given a value (every other one is 0): Shadertoy's
# well-known ones, where 0 would make the picture -- and loops bounded by
# it -- degenerate.  Set only when the container has the uniform (uscc
# --info), so that the CSV's exec_uniforms says which a shader got.
RUN_UNIFORMS = (("iResolution", "16,16,1"), ("iGlobalTime", "1.0"), ("iTime", "1.0"))
# uscc-run's --stats keys -> ours.
EXEC_FIGURES = (("exec_cycles_median", "cycles", "median"),
                ("exec_cycles_max", "cycles", "max"),
                ("exec_draw_cycles", "draw", "cycles"),
                ("exec_discarded", "discarded", None))


def run_tool(argv, tmp, timeout, mem_mb):
    """(returncode, stdout, stderr) of argv, or None after timeout seconds."""
    try:
        proc = subprocess.run(limited(argv, mem_mb), cwd=tmp, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, universal_newlines=True,
                              errors="replace", env=piglit_tree.tool_env())
    except subprocess.TimeoutExpired:
        return None
    return proc.returncode, proc.stdout, proc.stderr


def failure(step, result, timeout):
    """The exec_status of a step that did not succeed."""
    if result is None:
        return "%s: %s: no answer after %g s" % (TIMEOUT, step, timeout)
    code, _, err = result
    lines = [l.strip() for l in err.splitlines() if l.strip()]
    said = lines[0][:160] if lines else "(nothing on stderr)"
    if code < 0:
        return "%s: %s: %s %s" % (CRASH, step, signal_name(code), said)
    return "failed: %s: exit status %d: %s" % (step, code, said)


def execute_one(job, uscc, uscc_run, timeout, mem_mb):
    """Compiles a job that compiled (`uscc FILE -o X.bin`), reads the
    container's uniforms and static cycles (`uscc --info`), runs
    `uscc-run X.bin --size RUN_SIZE --stats` with RUN_UNIFORMS and adds
    exec_status and EXEC_FIGURES to job.stats.  A failure, timeout or
    runaway (uscc-run's step bound) is recorded in exec_status only: the
    job's status stays as it is."""
    if job.status != OK:
        return job
    with tempfile.TemporaryDirectory(prefix="uscc-quality-") as tmp:
        src = write_source(job, tmp)
        binary = os.path.join(tmp, "shader.bin")
        got = run_tool([uscc] + UFLAGS + [src, "-o", binary], tmp, timeout, mem_mb)
        if got is None or got[0] != 0:
            job.stats["exec_status"] = failure("uscc -o", got, timeout)
            return job
        got = run_tool([uscc, "--info", binary], tmp, timeout, mem_mb)
        try:
            info = json.loads(got[1]) if got and got[0] == 0 else None
        except ValueError:
            info = None
        if info is None:
            job.stats["exec_status"] = failure("uscc --info", got, timeout) \
                if got is None or got[0] != 0 else "failed: uscc --info: no JSON"
            return job
        static = info.get("stats", {}).get("cycles")
        if static != job.stats.get("cycles"):
            job.stats["exec_status"] = ("failed: the container's cycles %s differ from "
                                        "--stats' %s" % (static, job.stats.get("cycles")))
            return job
        names = {u.get("name") for u in info.get("uniforms", [])}
        given = [(n, v) for n, v in RUN_UNIFORMS if n in names]
        argv = [uscc_run, binary, "--size", RUN_SIZE, "--stats"]
        for name, value in given:
            argv += ["--uniform", "%s=%s" % (name, value)]
        got = run_tool(argv, tmp, timeout, mem_mb)
    job.stats["exec_uniforms"] = " ".join(n for n, _ in given)
    if got is None or got[0] != 0:
        job.stats["exec_status"] = failure("uscc-run", got, timeout)
        return job
    try:
        figures = json.loads(got[1].strip().splitlines()[-1])
        found = {key: int(figures[outer] if inner is None else figures[outer][inner])
                 for key, outer, inner in EXEC_FIGURES}
    except (ValueError, IndexError, KeyError, TypeError):
        job.stats["exec_status"] = "failed: uscc-run --stats printed no figures: %s" % (
            got[1].strip()[:120])
        return job
    job.stats.update(found)
    job.stats["exec_status"] = OK
    return job
