"""Finding and reading Debian piglit's GLSL tests (standard library only).

Shared by tests/piglit/run-piglit and bench/frontend-speed.  It knows where
the package installs the tests, how a compiler test's `[config]` header and a
`.shader_test` file's sections are written, and which GLSL versions and
extensions uscc supports (GLSL.md), so both tools skip the same things.
"""

import glob
import os
import re

# The folders INTERFACES.md §7 names, inside each of piglit's two trees,
# and those of the extensions GLSL.md lists (where piglit has them).
DEFAULT_VERSION_DIRS = ("glsl-1.10", "glsl-1.20", "glsl-es-1.00")
EXTENSION_DIRS = ("arb_texture_rectangle", "arb_shader_texture_lod", "ext_shader_texture_lod",
                  "oes_standard_derivatives", "ext_frag_depth", "ext_draw_buffers",
                  "oes_texture_3d", "oes_egl_image_external")
TREES = ("tests", "generated_tests")

# GLSL.md: the dialects and the extensions uscc accepts
# (frontend/extensions.def).
SUPPORTED_VERSIONS = {"1.00": "es", "1.10": "desktop", "1.20": "desktop"}
SUPPORTED_EXTENSIONS = frozenset({
    "GL_ARB_texture_rectangle", "GL_ARB_shader_texture_lod", "GL_EXT_shader_texture_lod",
    "GL_OES_standard_derivatives", "GL_EXT_frag_depth", "GL_EXT_draw_buffers",
    "GL_OES_texture_3D", "GL_OES_EGL_image_external"})

# A compiler test's suffix gives its stage; uscc checks only these two.
STAGE_BY_SUFFIX = {
    ".frag": "fragment",
    ".vert": "vertex",
    ".geom": "geometry",
    ".tesc": "tess_control",
    ".tese": "tess_evaluation",
    ".comp": "compute",
}
CHECKED_STAGES = ("fragment", "vertex")


def tool_env():
    """The environment for running uscc: sanitizers exit with 1 by default,
    which would read as "rejected", so they get an exit status of their own."""
    env = dict(os.environ)
    for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        opts = env.get(var, "")
        if "exitcode=" not in opts:
            env[var] = (opts + ":" if opts else "") + "exitcode=99"
    return env


def candidate_roots():
    """Where a piglit installation may be; PIGLIT_DIR first."""
    roots = []
    if os.environ.get("PIGLIT_DIR"):
        roots.append(os.environ["PIGLIT_DIR"])
    roots += sorted(glob.glob("/usr/lib/*/piglit"))
    roots += ["/usr/lib/piglit", "/usr/local/lib/piglit", "/usr/share/piglit"]
    return roots


def find_root():
    """The first root holding tests/spec, or None."""
    for root in candidate_roots():
        if os.path.isdir(os.path.join(root, "tests", "spec")):
            return os.path.abspath(root)
    return None


def default_dirs(root):
    """Every GLSL 1.10, 1.20 and ES 1.00 folder, and every folder of a
    supported extension, of both trees that exists."""
    dirs = []
    for tree in TREES:
        for version in DEFAULT_VERSION_DIRS + EXTENSION_DIRS:
            path = os.path.join(root, tree, "spec", version)
            if os.path.isdir(path):
                dirs.append(path)
    return dirs


def resolve_dir(arg, root):
    """A DIR argument: an existing path, else a path inside piglit's root."""
    if os.path.exists(arg):
        return os.path.abspath(arg)
    if root and not os.path.isabs(arg):
        inside = os.path.join(root, arg)
        if os.path.exists(inside):
            return inside
    return None


def relative_name(path, root):
    """The name a test goes by (known-failure lists, baselines): relative to
    piglit's root, e.g. tests/spec/glsl-1.10/compiler/x.frag."""
    path = os.path.abspath(path)
    if root and path.startswith(root + os.sep):
        return os.path.relpath(path, root)
    return os.path.relpath(path)


def folder_of(name):
    """The table row a test belongs to: tree/spec/version/category."""
    parts = name.split("/")
    if len(parts) >= 5 and parts[1] == "spec":
        return "/".join(parts[:4])
    return os.path.dirname(name) or "."


def walk_files(paths, suffixes):
    """Every file under the given files or folders whose name ends in one of
    suffixes, sorted, without duplicates."""
    found = set()
    for path in paths:
        if os.path.isfile(path):
            if path.endswith(suffixes):
                found.add(os.path.abspath(path))
            continue
        for dirpath, _dirs, files in os.walk(path):
            for name in files:
                if name.endswith(suffixes):
                    found.add(os.path.abspath(os.path.join(dirpath, name)))
    return sorted(found)


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


_CONFIG_LINE = re.compile(r"^\s*(?://|/\*|\*)?\s*(.*?)\s*(?:\*/)?\s*$")


def parse_config(text):
    """The key: value pairs of a compiler test's [config] ... [end config]
    comment block, or None when the file has no such block."""
    start = text.find("[config]")
    if start < 0:
        return None
    end = text.find("[end config]", start)
    if end < 0:
        return None
    config = {}
    for line in text[start + len("[config]"):end].splitlines():
        body = _CONFIG_LINE.match(line).group(1)
        if ":" not in body:
            continue
        key, value = body.split(":", 1)
        config[key.strip()] = value.strip()
    return config


def version_skip_reason(version, es=False):
    """Why a test needing GLSL `version` (e.g. "1.20", "3.00 es") is skipped,
    or None when uscc supports it."""
    v = version.strip().lower()
    if v.endswith(" es"):
        v, es = v[:-3].strip(), True
    if v == "1.00":
        es = True
    if SUPPORTED_VERSIONS.get(v) == ("es" if es else "desktop"):
        return None
    shown = version.strip() + (" ES" if es and "es" not in version.lower() else "")
    return "needs GLSL %s (uscc supports 1.10, 1.20, ES 1.00)" % shown


def extension_skip_reason(extensions):
    """Why a list of required extensions (`!NAME` = must be absent) makes a
    test skip, or None."""
    for ext in extensions:
        if ext.startswith("!"):
            if ext[1:] in SUPPORTED_EXTENSIONS:
                return "needs extension %s absent (uscc has it)" % ext[1:]
            continue
        if ext not in SUPPORTED_EXTENSIONS:
            return "needs extension %s (not in GLSL.md)" % ext
    return None


def compiler_test(path):
    """A compiler test's facts as a dict (expect, version, extensions, stage,
    check_link), or None if the file has no [config] header."""
    config = parse_config(read_text(path))
    if config is None:
        return None
    suffix = os.path.splitext(path)[1]
    return {
        "expect": config.get("expect_result", "").lower(),
        "version": config.get("glsl_version", "1.10"),
        "extensions": config.get("require_extensions", "").split(),
        "stage": STAGE_BY_SUFFIX.get(suffix, "unknown"),
        "check_link": config.get("check_link", "false").lower() == "true",
    }


def compiler_skip_reason(test):
    """Why uscc cannot judge this compiler test, or None."""
    if test["stage"] not in CHECKED_STAGES:
        return "%s stage not supported (uscc checks vertex and fragment)" % test["stage"]
    if test["expect"] not in ("pass", "fail"):
        return "unknown expect_result %r" % test["expect"]
    return version_skip_reason(test["version"]) or extension_skip_reason(test["extensions"])


_SECTION = re.compile(r"^\[([^\]]+)\]\s*$")


def parse_shader_test(text):
    """A .shader_test file as a list of (section name, text) in file order;
    the same section name may appear more than once."""
    sections = []
    name, lines = None, []
    for line in text.splitlines(keepends=True):
        m = _SECTION.match(line)
        if m:
            if name is not None:
                sections.append((name, "".join(lines)))
            name, lines = m.group(1).strip().lower(), []
        elif name is not None:
            lines.append(line)
    if name is not None:
        sections.append((name, "".join(lines)))
    return sections


_REQ_GLSL = re.compile(r"^GLSL\s+(ES\s+)?(>=|>|==|=|<=|<|!=)\s*([0-9]+(?:\.[0-9]+)?)", re.I)
_COMPARE = {
    ">=": lambda a, b: a >= b, ">": lambda a, b: a > b,
    "=": lambda a, b: a == b, "==": lambda a, b: a == b,
    "<=": lambda a, b: a <= b, "<": lambda a, b: a < b,
    "!=": lambda a, b: a != b,
}
_OURS = {False: (1.10, 1.20), True: (1.00,)}
_REQ_GL = re.compile(r"^GL\s+(ES\s+)?(>=|>|==|=|<=|<|!=)\s*([0-9]+(?:\.[0-9]+)?)", re.I)
_OUR_GL = {False: 2.1, True: 2.0}   # the API an R500 driver offers (GL 2.1, GLES 2.0)
# Fragment-side limits of the R500 (ISA.md) for [require] lines such as
# "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS >= 4097".  Vertex-side limits do not
# apply: vertex shaders only run in the IR interpreter.
R500_LIMITS = {
    "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS": 1024,
    "GL_MAX_FRAGMENT_UNIFORM_VECTORS": 256,
    "GL_MAX_TEXTURE_IMAGE_UNITS": 16,
    "GL_MAX_DRAW_BUFFERS": 4,
}


def require_skip_reason(require_text):
    """Why a .shader_test's [require] section asks for more than uscc has, or
    None.  Only GLSL versions and GL_* extensions matter here; GL API
    versions and limits are the exec runner's business."""
    for raw in require_text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _REQ_GLSL.match(line)
        if m:
            es, op, wanted = bool(m.group(1)), m.group(2), float(m.group(3))
            if not any(_COMPARE[op](ours, wanted) for ours in _OURS[es]):
                return "needs GLSL %s%s %s (uscc supports 1.10, 1.20, ES 1.00)" % (
                    "ES " if es else "", op, m.group(3))
            continue
        m = _REQ_GL.match(line)
        if m:
            es, op, wanted = bool(m.group(1)), m.group(2), float(m.group(3))
            if not _COMPARE[op](_OUR_GL[es], wanted):
                return "needs GL%s %s %s (an R500 offers GL 2.1 / GLES 2.0)" % (
                    " ES" if es else "", op, m.group(3))
            continue
        words = line.split()
        if len(words) == 3 and words[0] in R500_LIMITS and words[1] in (">=", ">"):
            try:
                wanted = int(words[2])
            except ValueError:
                continue
            if wanted > R500_LIMITS[words[0]] - (words[1] == ">"):
                return "needs %s %s %d (the R500 has %d)" % (
                    words[0], words[1], wanted, R500_LIMITS[words[0]])
            continue
        if len(words) == 1 and words[0].lstrip("!").startswith("GL_"):
            reason = extension_skip_reason(words)
            if reason:
                return reason
    return None


def required_glsl_version(require_text):
    """The GLSL version a [require] section asks for with `GLSL [ES] >= X`,
    as the #version number (120, 100), or None."""
    for raw in require_text.splitlines():
        m = _REQ_GLSL.match(raw.split("#", 1)[0].strip())
        if m and m.group(2) == ">=":
            major, _, minor = m.group(3).partition(".")
            return int(major) * 100 + int((minor + "00")[:2])
    return None


def with_version(source, require_text):
    """A .shader_test shader as piglit's shader_runner hands it to GL: when
    the source has no #version, one for the required GLSL version goes in
    front (so a `GLSL >= 1.20` test gets 1.20, not the 1.10 default)."""
    if _VERSION_DIRECTIVE.search(source):
        return source
    number = required_glsl_version(require_text)
    return "#version %d\n%s" % (number, source) if number else source


_VERSION_DIRECTIVE = re.compile(r"^\s*#\s*version\s+(\d+)(\s+es)?", re.M)


def source_version(source):
    """The #version number of a GLSL source (110 when absent), and whether
    it is an ES source."""
    m = _VERSION_DIRECTIVE.search(source)
    if not m:
        return 110, False
    number = int(m.group(1))
    return number, bool(m.group(2)) or number == 100
