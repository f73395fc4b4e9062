"""Runs one piglit .shader_test through uscc and uscc-run (standard library).

A first, deliberately narrow exec runner: it handles tests whose vertex stage
only passes the position through (so the fragment shader sees no varying but
gl_FragCoord), with one fragment shader, vector uniforms, `draw rect`,
`clear` and the `probe` commands.  Everything else is skipped with the
reason, never guessed: varyings computed by a vertex shader need the IR
interpreter, which is a later step.

The framebuffer is RGBA8 like piglit's default window (250x250 unless the
[require] section says SIZE): colours are clamped to [0, 1] and rounded to
8 bits before a probe compares them with piglit's tolerance for 8-bit
channels, 3/256.
"""

import os
import re
import struct
import subprocess
import tempfile

import piglit_tree

DEFAULT_SIZE = (250, 250)
TOLERANCE = 3.0 / 256.0

# The vertex shaders that do nothing but pass the position on.
_PASSTHROUGH_POSITIONS = {
    "gl_Vertex", "ftransform()", "gl_ModelViewProjectionMatrix*gl_Vertex",
}
_VARYING_READS = re.compile(
    r"\b(varying|gl_Color|gl_SecondaryColor|gl_TexCoord|gl_FogFragCoord|gl_PointCoord)\b")
_STATE_UNIFORMS = re.compile(
    r"\bgl_(ModelView|Projection|Normal|Texture|Light|Fog\b|Point\b|ClipPlane|EyePlane|"
    r"ObjectPlane|FrontMaterial|BackMaterial|FrontLight|BackLight|DepthRange)\w*")
_SAMPLERS = re.compile(r"\bsampler\w*\b")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


class Skip(Exception):
    """The test uses something this runner does not handle yet."""


class Fail(Exception):
    """The test ran and uscc got it wrong (or crashed)."""


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", " ", src)


def vertex_is_passthrough(src):
    """Whether a vertex shader only writes gl_Position from the vertex
    position (with identity matrices, as shader_runner sets them)."""
    body = strip_comments(src)
    body = re.sub(r"^\s*#\s*version[^\n]*", "", body, flags=re.M)
    attribute = re.search(r"\battribute\s+vec4\s+(\w+)\s*;", body)
    names = set(_PASSTHROUGH_POSITIONS)
    if attribute:
        names.add(attribute.group(1))
        body = body.replace(attribute.group(0), "")
    m = re.fullmatch(r"\s*void\s+main\s*\(\s*(?:void)?\s*\)\s*\{\s*gl_Position\s*=\s*"
                     r"([^;]+);\s*\}\s*", body)
    return bool(m) and re.sub(r"\s+", "", m.group(1)) in names


def uniform_value(token, floats):
    """One piglit uniform value as uscc-run reads it.  Like shader_runner, a
    0x... value of a float uniform is the float's bit pattern."""
    low = token.lower()
    if low in ("true", "false"):
        return "1" if low == "true" else "0"
    if low.lstrip("+-").startswith("0x"):
        bits = int(low, 16)
        if not floats:
            return str(bits)
        return repr(struct.unpack("<f", struct.pack("<I", bits & 0xffffffff))[0])
    return repr(float(token)) if floats else str(int(float(token)))


def _numbers(text):
    return [float(x) for x in re.findall(_NUMBER, text)]


class Framebuffer:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.pixels = [[(0.0, 0.0, 0.0, 0.0)] * width for _ in range(height)]

    def fill(self, colour):
        self.pixels = [[colour] * self.width for _ in range(self.height)]

    def covered(self, ndc_rect):
        """The pixels whose centres lie in an NDC rectangle (x, y, w, h)."""
        x, y, w, h = ndc_rect
        x0, x1 = sorted(((x + 1) * self.width / 2, (x + w + 1) * self.width / 2))
        y0, y1 = sorted(((y + 1) * self.height / 2, (y + h + 1) * self.height / 2))
        for py in range(self.height):
            if y0 <= py + 0.5 < y1:
                for px in range(self.width):
                    if x0 <= px + 0.5 < x1:
                        yield px, py


def to_framebuffer(value):
    """An RGBA8 render target's view of a shader output."""
    return tuple(round(min(1.0, max(0.0, c)) * 255.0) / 255.0 for c in value)


class ShaderTest:
    def __init__(self, path, uscc, uscc_run, timeout):
        self.path, self.uscc, self.uscc_run, self.timeout = path, uscc, uscc_run, timeout
        self.sections = piglit_tree.parse_shader_test(piglit_tree.read_text(path))
        self.size = DEFAULT_SIZE
        self.uniforms = {}
        self.ortho = False
        self.cache = {}

    # -- checking what the test needs -----------------------------------
    def prepare(self):
        names = [name for name, _ in self.sections]
        for name in names:
            if name not in ("require", "vertex shader", "vertex shader passthrough",
                            "fragment shader", "test"):
                raise Skip("section [%s] not supported yet" % name)
        fragments = [text for name, text in self.sections if name == "fragment shader"]
        if not fragments:
            raise Skip("no GLSL fragment shader")
        if len(fragments) > 1:
            raise Skip("%d fragment shaders linked together: not supported yet" % len(fragments))
        require = "".join(text for name, text in self.sections if name == "require")
        self.fs = piglit_tree.with_version(fragments[0], require)
        reason = piglit_tree.require_skip_reason(require)
        if reason:
            raise Skip(reason)
        for line in require.splitlines():
            words = line.split("#", 1)[0].split()
            if len(words) == 3 and words[0] == "SIZE":
                self.size = (int(words[1]), int(words[2]))
        for text in (t for n, t in self.sections if n == "vertex shader"):
            if not vertex_is_passthrough(text):
                raise Skip("vertex shader computes more than the position: "
                           "needs the IR interpreter (not wired yet)")
        code = strip_comments(self.fs)
        if _VARYING_READS.search(code):
            raise Skip("fragment shader reads varyings: needs the vertex stage")
        state = _STATE_UNIFORMS.search(code)
        if state:
            raise Skip("fragment shader reads GL state (%s): not supplied yet" % state.group(0))
        if _SAMPLERS.search(code):
            raise Skip("textures not supported by this runner yet")
        self.uses_fragcoord = "gl_FragCoord" in code
        self.uses_frontfacing = "gl_FrontFacing" in code
        self.commands = [line.split("#", 1)[0].strip()
                         for name, text in self.sections if name == "test"
                         for line in text.splitlines()]
        self.commands = [c for c in self.commands if c]

    # -- running ----------------------------------------------------------
    def run(self):
        self.prepare()
        with tempfile.TemporaryDirectory(prefix="uscc-piglit-") as tmp:
            self.tmp = tmp
            expect_link_error = "link error" in self.commands
            compiled = self.compile()
            if expect_link_error:
                if compiled:
                    raise Fail("accepted a program piglit expects to fail to link")
                return
            if not compiled:
                raise Fail("rejected: " + self.diagnostic)
            self.fb = Framebuffer(*self.size)
            for command in self.commands:
                self.execute(command)
            # No probe: like piglit, compiling (and drawing) is the test.

    def compile(self):
        src = os.path.join(self.tmp, "fs.frag")
        with open(src, "w", encoding="utf-8") as f:
            f.write(self.fs)
        self.binary = os.path.join(self.tmp, "fs.bin")
        proc = self.call([self.uscc, src, "-o", self.binary])
        if proc.returncode == 1:
            lines = [l for l in proc.stderr.splitlines() if "error:" in l]
            self.diagnostic = (lines[0].split("error:", 1)[1].strip() if lines
                               else proc.stderr.strip()[:160])
            return False
        if proc.returncode != 0:
            raise Fail("uscc exit status %d: %s" % (proc.returncode, proc.stderr.strip()[:160]))
        return True

    def call(self, argv):
        try:
            return subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=self.timeout,
                                  universal_newlines=True, errors="replace",
                                  env=piglit_tree.tool_env())
        except subprocess.TimeoutExpired:
            raise Fail("%s timed out after %g s" % (os.path.basename(argv[0]), self.timeout))

    def execute(self, command):
        """Carries out one [test] command."""
        words = command.split()
        if words[0] == "clear" and len(words) == 1:
            self.fb.fill(self.clear_colour if hasattr(self, "clear_colour") else (0,) * 4)
        elif words[:2] == ["clear", "color"]:
            self.clear_colour = tuple(to_framebuffer(_numbers(command)[:4]))
        elif words[0] == "uniform" and len(words) >= 4:
            self.set_uniform(words[1], words[2], words[3:])
        elif words[0] == "ortho" and len(words) == 1:
            self.ortho = True
        elif words[:2] == ["draw", "rect"]:
            self.draw(words[2:])
        elif words[0] == "link" and len(words) == 2:
            pass
        elif words[0] == "probe" or words[:2] == ["relative", "probe"]:
            self.probe(command)
        else:
            raise Skip("command '%s' not supported yet" % " ".join(words[:2]))

    def set_uniform(self, gl_type, name, values):
        # uscc-run takes up to 16 values per name, a matrix column-major
        # as glUniformMatrix* without transpose (piglit's order).
        if not re.fullmatch(r"(float|int|uint|bool|[biu]?vec[234]|mat[234](x[234])?)", gl_type):
            raise Skip("uniform type %s not supported yet" % gl_type)
        floats = gl_type.startswith(("float", "vec", "mat"))
        tokens = re.split(r"[\s,;]+", " ".join(values).strip())
        mapped = [uniform_value(t, floats) for t in tokens if t]
        if not mapped or len(mapped) > 16:
            raise Skip("cannot read uniform '%s'" % name)
        self.uniforms[name] = ",".join(mapped)

    def draw(self, args):
        pixels = False
        if args and args[0] == "ortho":
            pixels, args = True, args[1:]
        if len(args) != 4:
            raise Skip("draw rect form not supported yet")
        x, y, w, h = (float(a) for a in args)
        if (w < 0) != (h < 0) and self.uses_frontfacing:
            raise Skip("back-facing draw: uscc-run draws front faces only")
        if pixels or self.ortho:
            W, H = self.size
            x, y, w, h = 2 * x / W - 1, 2 * y / H - 1, 2 * w / W, 2 * h / H
        image = self.render()
        for px, py in self.fb.covered((x, y, w, h)):
            value = image(px, py)
            if value is not None:
                self.fb.pixels[py][px] = value

    def render(self):
        """A function (x, y) -> framebuffer colour or None (discarded) for
        the current uniforms.  Without gl_FragCoord every pixel gets the same
        inputs, so one quad tells the whole picture."""
        key = tuple(sorted(self.uniforms.items()))
        if key in self.cache:
            return self.cache[key]
        W, H = self.size if self.uses_fragcoord else (2, 2)
        argv = [self.uscc_run, self.binary, "--size", "%dx%d" % (W, H), "--dump"]
        for name, value in sorted(self.uniforms.items()):
            argv += ["--uniform", "%s=%s" % (name, value)]
        proc = self.call(argv)
        if proc.returncode != 0:
            raise Fail("uscc-run exit status %d: %s" % (proc.returncode,
                                                        proc.stderr.strip()[:160]))
        grid = {}
        for line in proc.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2] == "discard":
                grid[(int(parts[0]), int(parts[1]))] = None
            elif len(parts) == 6:
                grid[(int(parts[0]), int(parts[1]))] = to_framebuffer(
                    [float(p) for p in parts[2:]])
        if len(grid) != W * H:
            raise Fail("uscc-run --dump printed %d of %d pixels" % (len(grid), W * H))
        image = (lambda px, py: grid[(px, py)]) if self.uses_fragcoord else \
            (lambda px, py: grid[(0, 0)])
        self.cache[key] = image
        return image

    def probe(self, command):
        m = re.match(r"(relative\s+)?probe\s+(all\s+|rect\s+)?(rgba|rgb)\s*(.*)$", command)
        if not m:
            raise Skip("probe form '%s' not supported yet" % command[:40])
        relative, kind, channels, rest = bool(m.group(1)), (m.group(2) or "").strip(), \
            m.group(3), m.group(4)
        n = len(channels)
        W, H = self.size
        nums = _numbers(rest)
        if kind == "all":
            region, expect = (0, 0, W, H), nums[:n]
        elif kind == "rect":
            region, expect = nums[:4], nums[4:4 + n]
            if relative:
                region = (region[0] * W, region[1] * H, region[2] * W, region[3] * H)
        else:
            x, y = nums[:2]
            if relative:  # shader_runner keeps (1, 1) inside the window
                x, y = min(x * W, W - 1), min(y * H, H - 1)
            region, expect = (x, y, 1, 1), nums[2:2 + n]
        if len(expect) != n:
            raise Skip("cannot read probe '%s'" % command[:60])
        x0, y0, w, h = (int(v) for v in region)
        if x0 < 0 or y0 < 0 or x0 + w > W or y0 + h > H or w <= 0 or h <= 0:
            raise Fail("probe outside the %dx%d window: %s" % (W, H, command))
        for py in range(y0, y0 + h):
            for px in range(x0, x0 + w):
                got = self.fb.pixels[py][px][:n]
                if any(abs(g - e) > TOLERANCE for g, e in zip(got, expect)):
                    raise Fail("pixel (%d,%d): expected (%s), got (%s)" % (
                        px, py, ", ".join("%g" % e for e in expect),
                        ", ".join("%.3f" % g for g in got)))


def run_test(path, uscc, uscc_run, timeout):
    """('pass'|'fail'|'skip', reason) for one .shader_test."""
    try:
        ShaderTest(path, uscc, uscc_run, timeout).run()
    except Skip as e:
        return "skip", str(e)
    except Fail as e:
        return "fail", str(e)
    except (OSError, ValueError, IndexError) as e:
        return "fail", "runner error: %s" % e
    return "pass", ""
