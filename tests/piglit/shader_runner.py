"""Runs one piglit .shader_test through uscc and uscc-run (standard library).

For each `draw rect` the vertex shader runs in the IR interpreter
(`uscc-ref --stage=vertex`) at the rectangle's four corners; gl_Position
places the two triangles GL draws in the window, and each varying the
fragment shader reads becomes, per triangle, the affine function through
that triangle's three vertex values (what GL's linear interpolation is when
w is constant), handed to uscc-run as its values at the window's corners
(`--varying NAME=BL:BR:TL:TR`).  The fragment shader is compiled by uscc and
run by uscc-run with the test's uniforms and textures; piglit's probes are
then checked on an RGBA8 framebuffer (250x250 unless [require] says SIZE)
with piglit's tolerance for 8-bit channels, 3/256.

Textures: piglit's 2D rgbw and checkerboard (level 0) become PNG files,
`texture miptree` is uscc-run's built-in miptree (piglit's 8x8 chain of red,
green, blue and white levels); `texparameter 2D min|mag` sets the filters of
the texture made last (shader_runner's active unit), handed to uscc-run as
`--filter UNIT=MIN,MAG`.  rgbw and miptree clamp to the edge as piglit's do
(`--wrap UNIT=clamp`); checkerboard's CLAMP_TO_BORDER is not modelled.

Everything this cannot model is skipped with the reason, never guessed:
perspective (w varying over a draw), depth and clip state, several linked
fragment shaders, textures other than piglit's 2D rgbw / checkerboard /
miptree, ...
"""

import json
import os
import re
import struct
import subprocess
import tempfile

import piglit_gl
import piglit_tree

DEFAULT_SIZE = (250, 250)
TOLERANCE = 3.0 / 256.0

# Vertex shaders that do nothing but pass the position on need no interpreter.
_PASSTHROUGH_POSITIONS = {
    "gl_Vertex": False, "ftransform()": True, "gl_ModelViewProjectionMatrix*gl_Vertex": True,
}
# Fixed-function vertex processing (no vertex shader), as uscc-ref runs it.
_FIXED_FUNCTION_VS = """void main()
{
  gl_Position = ftransform();
  gl_FrontColor = gl_Color;
  gl_FrontSecondaryColor = gl_SecondaryColor;
%s}
""" % "".join("  gl_TexCoord[%d] = gl_TextureMatrix[%d] * gl_MultiTexCoord%d;\n" % (k, k, k)
              for k in range(4))
_VARYING_READS = re.compile(
    r"\b(varying|gl_Color|gl_SecondaryColor|gl_TexCoord|gl_FogFragCoord|gl_PointCoord)\b")
_STATE_MATRIX = re.compile(r"\bgl_(ModelView|Projection|ModelViewProjection|Texture|Normal)"
                           r"Matrix\w*")
_OTHER_STATE = re.compile(
    r"\bgl_(Light\w*|Fog\b|Point\b|ClipPlane|EyePlane\w*|ObjectPlane\w*|FrontMaterial|"
    r"BackMaterial|FrontLight\w*|BackLight\w*|DepthRange|TextureEnvColor)")
_SAMPLER_DECL = re.compile(r"\buniform\s+(?:lowp\s+|mediump\s+|highp\s+)?(sampler\w*)\s+(\w+)")
_ATTRIBUTE = re.compile(r"\battribute\s+(?:\w+\s+)?(?:vec[234]|float)\s+(\w+)\s*;")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
# Fragment-stage inputs uscc-run computes itself.
_RASTER_INPUTS = {"gl_FragCoord", "gl_FrontFacing"}
# The vertex output feeding each fragment input when the names differ.
_VERTEX_SOURCE = {"gl_Color": "gl_FrontColor", "gl_SecondaryColor": "gl_FrontSecondaryColor"}
# Current values of the fixed-function attributes (GL's initial state).
_ATTRIB_DEFAULTS = {"gl_Color": (1.0, 1.0, 1.0, 1.0), "gl_Normal": (0.0, 0.0, 1.0, 1.0)}
# `texparameter 2D min|mag` values uscc-run's --filter takes.
_MIN_FILTERS = ("nearest", "linear", "nearest_mipmap_nearest", "linear_mipmap_nearest",
                "nearest_mipmap_linear", "linear_mipmap_linear")
_MAG_FILTERS = ("nearest", "linear")
# Shadow samplers the runner draws (piglit's depth textures of those
# targets), and the `texparameter 2D|1D|Rect compare_func|depth_mode`
# values uscc's --shadow takes.
_SHADOW_SAMPLERS = ("sampler2DShadow", "sampler1DShadow", "sampler2DRectShadow")
_COMPARE_FUNCS = ("lequal", "gequal", "less", "greater", "equal", "notequal", "always", "never")
_DEPTH_MODES = ("luminance", "intensity", "alpha", "red")
_EPS = 1e-5
_CLAMPED_COLOURS = {"gl_FrontColor", "gl_FrontSecondaryColor", "gl_BackColor",
                    "gl_BackSecondaryColor"}


class Skip(Exception):
    """The test uses something this runner does not handle yet."""


class Fail(Exception):
    """The test ran and uscc got it wrong (or crashed)."""


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", " ", src)


def passthrough_kind(src):
    """None unless a vertex shader only writes gl_Position from the vertex
    position; then whether it applies the modelview-projection matrix."""
    body = strip_comments(src)
    body = re.sub(r"^\s*#\s*version[^\n]*", "", body, flags=re.M)
    attribute = re.search(r"\battribute\s+vec4\s+(\w+)\s*;", body)
    names = dict(_PASSTHROUGH_POSITIONS)
    if attribute:
        names[attribute.group(1)] = False
        body = body.replace(attribute.group(0), "")
    m = re.fullmatch(r"\s*void\s+main\s*\(\s*(?:void)?\s*\)\s*\{\s*gl_Position\s*=\s*"
                     r"([^;]+);\s*\}\s*", body)
    return names.get(re.sub(r"\s+", "", m.group(1))) if m else None


def vertex_is_passthrough(src):
    """Whether a vertex shader only writes gl_Position from the vertex
    position (with identity matrices, as shader_runner sets them)."""
    return passthrough_kind(src) is not None


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


_INITIALIZER = re.compile(r"\buniform\s+(?:(?:lowp|mediump|highp)\s+)?(\w+)\s+(\w+)\s*=\s*"
                         r"(\w+)\s*\(([^;()]*)\)\s*;")
_COMPONENTS = {"float": 1, "int": 1, "bool": 1, "vec2": 2, "vec3": 3, "vec4": 4, "ivec2": 2,
               "ivec3": 3, "ivec4": 4, "bvec2": 2, "bvec3": 3, "bvec4": 4, "mat2": 4, "mat3": 9,
               "mat4": 16, "mat2x2": 4, "mat2x3": 6, "mat2x4": 8, "mat3x2": 6, "mat3x3": 9,
               "mat3x4": 12, "mat4x2": 8, "mat4x3": 12, "mat4x4": 16}


def uniform_initializers(src):
    """{name: values} of the `uniform T u = T(literal, ...);` declarations
    of a source (GLSL 1.20): the linker gives a uniform that value in every
    stage that declares it.  Other initializer forms are left out."""
    found = {}
    for m in _INITIALIZER.finditer(src):
        gl_type, name, ctor, args = m.groups()
        n = _COMPONENTS.get(gl_type)
        tokens = [t.strip() for t in args.split(",") if t.strip()]
        if ctor != gl_type or n is None or len(tokens) != n:
            continue
        try:
            floats = not gl_type.startswith(("int", "ivec", "bool", "bvec"))
            found[name] = ",".join(uniform_value(t, floats) for t in tokens)
        except ValueError:
            continue
    return found


def _numbers(text):
    return [float(x) for x in re.findall(_NUMBER, text)]


def _fmt(values):
    return ",".join("%.9g" % v for v in values)


def _element_order(item):
    """Sorts "u[10]" after "u[9]" so that array elements come in order."""
    m = re.fullmatch(r"(\w+)\[(\d+)\](.*)", item[0])
    return (m.group(1), int(m.group(2)), m.group(3)) if m else (item[0], -1, "")


def to_framebuffer(value):
    """An RGBA8 render target's view of a shader output."""
    return tuple(round(min(1.0, max(0.0, c)) * 255.0) / 255.0 for c in value)


class Framebuffer:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.fill((0.0, 0.0, 0.0, 0.0))

    def fill(self, colour):
        self.pixels = [[colour] * self.width for _ in range(self.height)]


class Texture:
    """A texture object of the test: what uscc-run samples (a PNG path or a
    built-in name), its levels, its filters and its wrap mode (None: one
    uscc-run does not have, e.g. CLAMP_TO_BORDER; its default is used)."""

    def __init__(self, source, levels, min_filter, mag_filter="nearest", wrap=None,
                 compare="lequal", depth_mode="luminance"):
        self.source, self.levels, self.wrap = source, levels, wrap
        self.min_filter, self.mag_filter = min_filter, mag_filter
        # a depth texture's compare state (GL's defaults), which uscc
        # compiles into a shadow sampler's code (uscc --shadow)
        self.compare, self.depth_mode = compare, depth_mode

    def with_filter(self, which, value):
        return Texture(self.source, self.levels, value if which == "min" else self.min_filter,
                       value if which == "mag" else self.mag_filter, self.wrap,
                       self.compare, self.depth_mode)

    def with_state(self, which, value):
        return Texture(self.source, self.levels, self.min_filter, self.mag_filter, self.wrap,
                       value if which == "compare_func" else self.compare,
                       value if which == "depth_mode" else self.depth_mode)

    def complete(self):
        """GL: a mipmap minification filter needs the whole chain (piglit's
        rgbw and checkerboard textures have level 0 only)."""
        return self.levels > 1 or "mipmap" not in self.min_filter


class ShaderTest:
    def __init__(self, path, uscc, uscc_run, timeout, uscc_ref=None):
        self.path, self.uscc, self.uscc_run, self.timeout = path, uscc, uscc_run, timeout
        self.uscc_ref = uscc_ref or os.path.join(os.path.dirname(uscc_run), "uscc-ref")
        self.sections = piglit_tree.parse_shader_test(piglit_tree.read_text(path))
        self.size = DEFAULT_SIZE
        self.uniforms = {}
        self.initializers = {}  # GLSL 1.20 uniform initializers, for both stages
        self.projection = piglit_gl.identity()
        self.colour = (1.0, 1.0, 1.0, 1.0)
        self.textures = {}      # GL unit -> Texture
        self.textures_made = []
        self.active_unit = 0    # glActiveTexture of the last texture command
        self.clear_colour = (0.0,) * 4
        self.cache = {}

    # -- checking what the test needs -----------------------------------
    def prepare(self):
        names = [name for name, _ in self.sections]
        for name in names:
            if name not in ("require", "vertex shader", "vertex shader passthrough",
                            "fragment shader", "test"):
                raise Skip("section [%s] not supported yet%s" % (name, " (draw arrays)" if
                           name == "vertex data" else ""))
        fragments = [text for name, text in self.sections if name == "fragment shader"]
        if not fragments:
            raise Skip("no GLSL fragment shader")
        if len(fragments) > 1:
            raise Skip("%d fragment shaders linked together: not supported yet" % len(fragments))
        vertices = [text for name, text in self.sections if name == "vertex shader"]
        if len(vertices) > 1:
            raise Skip("%d vertex shaders linked together: not supported yet" % len(vertices))
        require = "".join(text for name, text in self.sections if name == "require")
        self.fs = piglit_tree.with_version(fragments[0], require)
        reason = piglit_tree.require_skip_reason(require)
        if reason:
            raise Skip(reason)
        for line in require.splitlines():
            words = line.split("#", 1)[0].split()
            if len(words) == 3 and words[0] == "SIZE":
                self.size = (int(words[1]), int(words[2]))
        code = strip_comments(self.fs)
        self.reads_varyings = bool(_VARYING_READS.search(code))
        # The vertex stage: a passthrough computed here, else the interpreter.
        self.vs, self.vs_mvp = None, False
        if vertices:
            kind = passthrough_kind(vertices[0])
            if kind is None or self.reads_varyings:
                self.vs = piglit_tree.with_version(vertices[0], require)
            else:
                self.vs_mvp = kind
        elif "vertex shader passthrough" not in names:
            # fixed function: ftransform(), colours and texture coordinates
            self.vs_mvp = True
            if self.reads_varyings:
                self.vs = _FIXED_FUNCTION_VS
        both = code + (strip_comments(self.vs) if self.vs else "")
        state = _OTHER_STATE.search(both)
        if state:
            raise Skip("shader reads GL state %s: not modelled" % state.group(0))
        if "gl_PointCoord" in code:
            raise Skip("fragment shader reads gl_PointCoord: only points have it")
        matrices = set(m.group(0) for m in _STATE_MATRIX.finditer(both))
        if self.vs and "ftransform" in self.vs:
            # the same product, with the matrix by name for --uniform
            matrices.add("gl_ModelViewProjectionMatrix")
            self.vs = self.vs.replace("ftransform()", "(gl_ModelViewProjectionMatrix * gl_Vertex)")
        self.state_names = sorted(matrices)
        self.samplers = {m.group(2): m.group(1) for m in _SAMPLER_DECL.finditer(code)}
        for name, kind in self.samplers.items():
            if kind not in ("sampler2D",) + _SHADOW_SAMPLERS:
                raise Skip("%s %s: only 2D textures are modelled" % (kind, name))
        self.uses_fragcoord = "gl_FragCoord" in code
        self.uses_frontfacing = "gl_FrontFacing" in code
        self.attributes = set(_ATTRIBUTE.findall(strip_comments(self.vs))) if self.vs else set()
        for text in (t for n, t in self.sections if n in ("vertex shader", "fragment shader")):
            self.initializers.update(uniform_initializers(strip_comments(text)))
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
                if compiled and not self.vertex_rejected():
                    raise Skip("piglit expects a link error and both stages compile alone: "
                               "uscc has no GLSL linker to check the stages against each other")
                return
            if not compiled:
                raise Fail("rejected: " + self.diagnostic)
            if self.vs:
                self.vs_file = os.path.join(tmp, "vs.vert")
                with open(self.vs_file, "w", encoding="utf-8") as f:
                    f.write(self.vs)
            self.fb = Framebuffer(*self.size)
            for command in self.commands:
                self.execute(command)
            # No probe: like piglit, compiling (and drawing) is the test.

    def vertex_rejected(self):
        """Whether `uscc --check` rejects the test's vertex shader."""
        vs = [t for n, t in self.sections if n == "vertex shader"]
        if not vs:
            return False
        require = "".join(text for name, text in self.sections if name == "require")
        src = os.path.join(self.tmp, "check.vert")
        with open(src, "w", encoding="utf-8") as f:
            f.write(piglit_tree.with_version(vs[0], require))
        proc = self.call([self.uscc, "--check", "--stage=vertex", src])
        if proc.returncode not in (0, 1):
            raise Fail("uscc --check exit status %d on the vertex shader" % proc.returncode)
        return proc.returncode == 1

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
        self.inputs, self.sampler_units = [], {}
        if self.reads_varyings or "sampler" in self.fs:
            info = self.call([self.uscc, "--info", self.binary])
            if info.returncode != 0:
                raise Fail("uscc --info exit status %d" % info.returncode)
            try:
                data = json.loads(info.stdout)
            except ValueError:
                raise Fail("uscc --info printed no JSON")
            self.inputs = [i["name"] for i in data.get("inputs", [])
                           if i.get("name") not in _RASTER_INPUTS]
            self.sampler_units = {s["name"]: s["unit"] for s in data.get("samplers", [])}
            for sampler in data.get("samplers", []):
                shadow = self.samplers.get(sampler.get("name")) in _SHADOW_SAMPLERS
                if sampler.get("target") != "2D" and not shadow:
                    raise Skip("%s sampler %s: only 2D textures are modelled" % (
                        sampler.get("target"), sampler.get("name")))
        return True

    def call(self, argv):
        try:
            return subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=self.timeout,
                                  universal_newlines=True, errors="replace",
                                  env=piglit_tree.tool_env())
        except subprocess.TimeoutExpired:
            raise Fail("%s timed out after %g s" % (os.path.basename(argv[0]), self.timeout))
        except OSError as e:
            raise Skip("cannot run %s: %s" % (os.path.basename(argv[0]), e))

    def execute(self, command):
        """Carries out one [test] command."""
        words = command.split()
        if words[0] == "clear" and len(words) == 1:
            self.fb.fill(self.clear_colour)
        elif words[:2] == ["clear", "color"]:
            self.clear_colour = tuple(to_framebuffer(_numbers(command)[:4]))
        elif words[0] == "uniform" and len(words) >= 4:
            self.set_uniform(words[1], words[2], words[3:])
        elif words[0] == "ortho" and len(words) == 1:
            W, H = self.size
            self.projection = piglit_gl.ortho(0, W, 0, H, -1, 1)
        elif words[0] == "ortho" and len(words) == 5:
            self.projection = piglit_gl.ortho(*_numbers(command)[:4], -1, 1)
        elif words[0] == "frustum" and len(_numbers(command)) == 6:
            self.projection = piglit_gl.frustum(*_numbers(command))
        elif words[0] == "color" and len(_numbers(command)) == 4:
            self.colour = tuple(_numbers(command))
        elif words[:2] == ["draw", "rect"]:
            self.draw(words[2:])
        elif words[0] == "link" and len(words) == 2:
            pass
        elif words[0] == "hint":
            pass  # a derivative-precision hint does not change the result
        elif words[0] == "texture":
            self.texture(command)
        elif words[0] == "texparameter":
            self.texparameter(words[1:])
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
        tokens = re.split(r"[\s,;()]+", " ".join(values).strip())
        mapped = [uniform_value(t, floats) for t in tokens if t]
        if not mapped or len(mapped) > 16:
            raise Skip("cannot read uniform '%s'" % name)
        self.uniforms[name] = ",".join(mapped)

    # -- textures -----------------------------------------------------------
    def texture(self, command):
        m = re.match(r"texture\s+miptree\s+(\d+)\s*$", command)
        if m:
            # piglit_miptree_texture(): 8x8 red, 4x4 green, 2x2 blue, 1x1 white
            unit = int(m.group(1))
            self.textures[unit] = Texture("miptree", 4, "nearest_mipmap_nearest", wrap="clamp")
            self.active_unit = unit
            return
        m = re.match(r"texture\s+rgbw\s+(\d+)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*$", command)
        shadow = re.match(r"texture\s+shadow(2D|Rect)\s+(\d+)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*$",
                          command) or \
            re.match(r"texture\s+shadow(1D)\s+(\d+)\s*\(\s*(\d+)\s*\)()\s*$", command)
        if m:
            unit, w, h = (int(g) for g in m.groups())
            rows = piglit_gl.rgbw_texels(w, h)
            wrap = "clamp"   # piglit_rgbw_texture: CLAMP_TO_EDGE
        elif shadow:
            unit, w = int(shadow.group(2)), int(shadow.group(3))
            h = int(shadow.group(4) or 1)
            if w < 2:
                raise Skip("depth texture %dx%d not modelled" % (w, h))
            rows = piglit_gl.depth_texels(w, h)
            wrap = "clamp"   # piglit_depth_texture: CLAMP_TO_EDGE
        else:
            m = re.match(r"texture\s+checkerboard\s+(\d+)\s+(\d+)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)"
                         r"\s*\(([^)]*)\)\s*\(([^)]*)\)\s*$", command)
            if not m:
                raise Skip("texture command '%s' not modelled" % " ".join(command.split()[:2]))
            unit, level, w, h = (int(g) for g in m.groups()[:4])
            if level != 0:
                raise Skip("checkerboard texture level %d: only level 0 is modelled" % level)
            c0, c1 = _numbers(m.group(5)), _numbers(m.group(6))
            if len(c0) != 4 or len(c1) != 4:
                raise Skip("cannot read '%s'" % command[:60])
            rows = piglit_gl.checkerboard_texels(w, h, c0, c1)
            wrap = None      # piglit_checkerboard_texture: CLAMP_TO_BORDER
        if not (0 < w <= 4096 and 0 < h <= 4096):
            raise Skip("texture size %dx%d not modelled" % (w, h))
        path = os.path.join(self.tmp, "tex%d-%d.png" % (unit, len(self.textures_made)))
        piglit_gl.write_png(path, rows)
        self.textures_made.append(path)
        # a new file name: cached renders stay right; one level, nearest;
        # piglit's shadow2D texture compares with GREATER
        self.textures[unit] = Texture(path, 1, "nearest", wrap=wrap,
                                      compare="greater" if shadow else "lequal")
        self.active_unit = unit

    def texparameter(self, words):
        """`texparameter 2D min|mag FILTER` and `texparameter 2D
        compare_func|depth_mode VALUE`: on the texture bound to the active
        unit (a texture command made it; before any, the unit's default
        texture, which no later draw samples)."""
        ok = () if len(words) != 3 else _MIN_FILTERS if words[1] == "min" else \
            _MAG_FILTERS if words[1] == "mag" else _COMPARE_FUNCS if words[1] == "compare_func" \
            else _DEPTH_MODES if words[1] == "depth_mode" else ()
        targets = ["2D", "1D", "Rect"] if words[1:2] in (["compare_func"], ["depth_mode"]) \
            else ["2D"]
        if words[:1] not in [[t] for t in targets] or words[-1] not in ok:
            raise Skip("texparameter %s not modelled" % " ".join(words))
        texture = self.textures.get(self.active_unit)
        if texture and words[1] in ("min", "mag"):
            self.textures[self.active_unit] = texture.with_filter(words[1], words[2])
        elif texture:
            self.textures[self.active_unit] = texture.with_state(words[1], words[2])

    def shadow_binary(self):
        """The fragment shader compiled for the compare state of the
        textures its shadow samplers read (uscc --shadow), as a driver
        compiles a variant per state; the plain binary when all are GL's
        defaults."""
        args = []
        for name, unit in sorted(self.sampler_units.items()):
            if self.samplers.get(name) not in _SHADOW_SAMPLERS:
                continue
            gl_unit = int(float(self.uniforms.get(name, "0").split(",")[0]))
            texture = self.textures.get(gl_unit)
            if texture and (texture.compare, texture.depth_mode) != ("lequal", "luminance"):
                args += ["--shadow", "%d=%s,%s" % (unit, texture.compare, texture.depth_mode)]
        if not args:
            return self.binary
        key = ("shadow",) + tuple(args)
        if key not in self.cache:
            path = os.path.join(self.tmp, "fs-%d.bin" % len(self.cache))
            proc = self.call([self.uscc, os.path.join(self.tmp, "fs.frag"), "-o", path] + args)
            if proc.returncode != 0:
                raise Fail("uscc %s exit status %d: %s" % (" ".join(args), proc.returncode,
                                                           proc.stderr.strip()[:160]))
            self.cache[key] = path
        return self.cache[key]

    def texture_args(self):
        args = []
        for name, unit in sorted(self.sampler_units.items()):
            gl_unit = int(float(self.uniforms.get(name, "0").split(",")[0]))
            texture = self.textures.get(gl_unit)
            if texture is None or not texture.complete():
                # an incomplete texture samples as (0, 0, 0, 1) in GL
                path = os.path.join(self.tmp, "incomplete.png")
                if not os.path.exists(path):
                    piglit_gl.write_png(path, [[(0, 0, 0, 255)]])
                args += ["--texture", "%d=%s" % (unit, path)]
                continue
            args += ["--texture", "%d=%s" % (unit, texture.source),
                     "--filter", "%d=%s,%s" % (unit, texture.min_filter, texture.mag_filter)]
            if texture.wrap:
                args += ["--wrap", "%d=%s" % (unit, texture.wrap)]
        return args

    # -- the vertex stage ---------------------------------------------------
    def state_uniforms(self):
        """(name, value) of each built-in matrix the shaders read."""
        if not self.state_names:
            return []
        table = piglit_gl.state_matrices(self.projection)
        out = []
        for name in self.state_names:
            keys = [k for k in table if k == name or k.startswith(name + "[")]
            if not keys:
                raise Skip("GL state %s not modelled (singular matrix?)" % name)
            for k in keys:
                out.append((k, _fmt(piglit_gl.column_major(table[k]))))
        return out

    def all_uniforms(self, source):
        """The uniforms set so far and the state matrices, those that a
        shader's source names.  Array elements 0, 1, ... given one by one go
        as one value list under the array's name (both tools spread it over
        the elements; they take at most 64 uniforms and 16 values each)."""
        words = set(re.findall(r"\w+", source))
        given = dict(self.initializers)   # the linker's: one uniform for both stages
        given.update(self.uniforms)
        chosen = [(n, v) for n, v in sorted(given.items()) + self.state_uniforms()
                  if re.split(r"[.\[]", n, 1)[0] in words]
        packed, run = [], None    # run: [array name, next index, values each, values]
        for name, value in sorted(chosen, key=_element_order):
            m = re.fullmatch(r"(\w+)\[(\d+)\]", name)
            values = value.split(",")
            if m and run and run[0] == m.group(1) and run[1] == int(m.group(2)) and \
                    run[2] == len(values) and len(run[3]) + len(values) <= 16:
                run[1] += 1
                run[3] += values
                continue
            if run:
                packed.append((run[0], run[3]))
                run = None
            if m and m.group(2) == "0" and m.group(1) not in self.uniforms:
                run = [m.group(1), 1, len(values), list(values)]
            else:
                packed.append((name, values))
        if run:
            packed.append((run[0], run[3]))
        return [(n, ",".join(v)) for n, v in packed]

    def vertex_outputs(self, corners, texcoords):
        """Per corner, {output name: [x, y, z, w]} of the vertex stage."""
        if not self.vs:
            m = (piglit_gl.multiply(self.projection, piglit_gl.identity())
                 if self.vs_mvp else piglit_gl.identity())
            return [{"gl_Position": piglit_gl.apply(m, c)} for c in corners]
        attribs = {"gl_Vertex": corners, "gl_MultiTexCoord0": texcoords}
        for name, value in _ATTRIB_DEFAULTS.items():
            attribs[name] = [value] * 4
        attribs["gl_Color"] = [self.colour] * 4
        users = sorted(self.attributes)
        for name in users:
            if name == "piglit_vertex":
                attribs[name] = corners
            elif name == "piglit_texcoord":
                attribs[name] = texcoords
            elif len(users) == 1 and not re.search(r"\bgl_Vertex\b", self.vs):
                attribs[name] = corners   # the only attribute gets location 0
            else:
                raise Skip("vertex attribute %s gets no data from draw rect" % name)
        argv = [self.uscc_ref, "--stage=vertex", self.vs_file]
        for name, values in sorted(attribs.items()):
            if name == "gl_Vertex" or re.search(r"\b%s\b" % re.escape(name), self.vs):
                argv += ["--attrib", "%s=%s" % (name, ";".join(_fmt(v) for v in values))]
        for name, value in self.all_uniforms(self.vs):
            argv += ["--uniform", "%s=%s" % (name, value)]
        key = ("vs",) + tuple(argv)
        if key not in self.cache:
            proc = self.call(argv)
            if proc.returncode != 0:
                lines = [l for l in proc.stderr.splitlines() if "error:" in l] or \
                    proc.stderr.strip().splitlines() or [""]
                raise Fail("the IR interpreter (uscc-ref) failed on the vertex shader: exit "
                           "%d: %s" % (proc.returncode, lines[0].split("error:", 1)[-1]
                                       .strip()[:160]))
            outs = [{} for _ in range(4)]
            for line in proc.stdout.splitlines():
                parts = line.split()
                if len(parts) >= 3 and parts[0].isdigit() and int(parts[0]) < 4:
                    vals = [float(p) for p in parts[2:6]]
                    if parts[1] in _CLAMPED_COLOURS:   # GL_CLAMP_VERTEX_COLOR is on
                        vals = [min(1.0, max(0.0, v)) for v in vals]
                    outs[int(parts[0])][parts[1]] = vals + [0.0, 0.0, 0.0, 1.0][len(vals):]
            self.cache[key] = outs
        return self.cache[key]

    # -- drawing ------------------------------------------------------------
    def draw(self, args):
        pixels = tex = False
        if args and args[0] == "ortho":
            pixels, args = True, args[1:]
        if args and args[0] == "tex":
            tex, args = True, args[1:]
        if len(args) != (8 if tex else 4):
            raise Skip("draw rect form not supported yet")
        x, y, w, h = (float(a) for a in args[:4])
        W, H = self.size
        if pixels:
            x, y, w, h = 2 * x / W - 1, 2 * y / H - 1, 2 * w / W, 2 * h / H
        corners = [(x, y, 0.0, 1.0), (x + w, y, 0.0, 1.0), (x, y + h, 0.0, 1.0),
                   (x + w, y + h, 0.0, 1.0)]
        if tex:
            tx, ty, tw, th = (float(a) for a in args[4:])
            texcoords = [(tx, ty, 0.0, 1.0), (tx + tw, ty, 0.0, 1.0), (tx, ty + th, 0.0, 1.0),
                         (tx + tw, ty + th, 0.0, 1.0)]
        else:
            texcoords = [(0.0, 0.0, 0.0, 1.0)] * 4
        outs = self.vertex_outputs(corners, texcoords)
        window = []
        for o in outs:
            if "gl_Position" not in o:
                raise Skip("the vertex shader writes no gl_Position")
            px, py, pz, pw = o["gl_Position"]
            window.append((pw, ((px / pw + 1) * W / 2, (py / pw + 1) * H / 2) if pw else None,
                           pz / pw if pw else 0.0))
        ws = [v[0] for v in window]
        if min(ws) <= 0 or max(ws) - min(ws) > _EPS * max(1.0, abs(ws[0])):
            raise Skip("perspective draw (gl_Position.w %s): needs clipping or "
                       "perspective-correct varyings" % "/".join("%g" % v for v in ws))
        zs = [v[2] for v in window]
        if any(abs(z) > 1 + _EPS for z in zs):
            raise Skip("vertex depth outside [-1, 1]: clipped by the near/far planes")
        if self.uses_fragcoord and any(abs(z) > _EPS for z in zs) or \
                (self.uses_fragcoord and abs(ws[0] - 1) > _EPS):
            raise Skip("gl_FragCoord.z/w differ from uscc-run's (0.5, 1) for this draw")
        points = [v[1] for v in window]
        values = [self.fragment_inputs(o) for o in outs]
        for tri in ((0, 1, 2), (2, 1, 3)):
            self.draw_triangle([points[i] for i in tri], [values[i] for i in tri])

    def fragment_inputs(self, outputs):
        """{fragment input: [x, y, z, w]} from one vertex's outputs; an
        input the vertex shader never writes is undefined in GL: 0."""
        return {name: outputs.get(_VERTEX_SOURCE.get(name, name), [0.0] * 4)
                for name in self.inputs}

    def draw_triangle(self, points, values):
        W, H = self.size
        area = piglit_gl.signed_area(*points)
        if area == 0:
            return
        if area < 0 and self.uses_frontfacing:
            raise Skip("back-facing triangle: uscc-run draws front faces only")
        spans = piglit_gl.triangle_spans(*points, W, H)
        if not spans:
            return
        constant = all(all(abs(a - b) <= _EPS * max(1.0, abs(a)) for a, b in zip(v0, v))
                       for name in self.inputs
                       for v0, v in ((values[0][name], values[k][name]) for k in (1, 2)))
        varyings = []
        for name in self.inputs:
            if constant:
                corners = [values[0][name]] * 4
            else:
                fits = piglit_gl.affine_fit(points, [values[k][name] for k in range(3)])
                corners = [[f(cx, cy) for f in fits]
                           for cx, cy in ((0, 0), (W, 0), (0, H), (W, H))]
            varyings.append("%s=%s" % (name, ":".join(_fmt(c) for c in corners)))
        whole = self.uses_fragcoord or not constant
        image = self.render(varyings, whole)
        rows = self.fb.pixels
        for py, first, end in spans:
            if whole:
                src = image[py][first:end]
                if None in src:
                    row = rows[py]
                    for px in range(first, end):
                        if image[py][px] is not None:
                            row[px] = image[py][px]
                else:
                    rows[py][first:end] = src
            elif image is not None:
                rows[py][first:end] = [image] * (end - first)

    def render(self, varyings, whole):
        """The rendered window as rows of framebuffer colours (None where
        discarded) when whole, else the one colour every pixel gets."""
        W, H = self.size if whole else (2, 2)
        argv = [self.uscc_run, self.shadow_binary(), "--size", "%dx%d" % (W, H), "--dump"]
        for name, value in self.all_uniforms(self.fs):
            argv += ["--uniform", "%s=%s" % (name, value)]
        for v in varyings:
            argv += ["--varying", v]
        argv += self.texture_args()
        key = tuple(argv)
        if key in self.cache:
            return self.cache[key]
        proc = self.call(argv)
        if proc.returncode != 0:
            raise Fail("uscc-run exit status %d: %s" % (proc.returncode,
                                                        proc.stderr.strip()[:160]))
        grid = [[0] * W for _ in range(H)]
        count = 0
        for line in proc.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2] == "discard":
                grid[int(parts[1])][int(parts[0])] = None
                count += 1
            elif len(parts) == 6:
                grid[int(parts[1])][int(parts[0])] = to_framebuffer(
                    [float(p) for p in parts[2:]])
                count += 1
        if count != W * H:
            raise Fail("uscc-run --dump printed %d of %d pixels" % (count, W * H))
        image = grid if whole else grid[0][0]
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


def run_test(path, uscc, uscc_run, timeout, uscc_ref=None):
    """('pass'|'fail'|'skip', reason) for one .shader_test."""
    try:
        ShaderTest(path, uscc, uscc_run, timeout, uscc_ref).run()
    except Skip as e:
        return "skip", str(e)
    except Fail as e:
        return "fail", str(e)
    except (OSError, ValueError, IndexError, KeyError, ZeroDivisionError) as e:
        return "fail", "runner error: %s: %s" % (type(e).__name__, e)
    return "pass", ""
