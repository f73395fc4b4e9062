"""Which files of a package are fragment shaders, and the text each program
really compiles (the file plus the wrapper the program puts around it).

Pure functions over text and paths, so that tests/corpus can check them
without Debian or Mesa; bench/corpus/fetch-corpus does the fetching and asks
Mesa.  Each wrapper below names the program code it stands for.
"""

import hashlib
import os
import re

OUR_VERSIONS = (100, 110, 120)

VERSION_RX = re.compile(r"^[ \t]*#[ \t]*version[ \t]+(\d+)[^\n]*\n?", re.M)
MAIN_RX = re.compile(r"\bvoid\s+main\s*\(\s*(void\s*)?\)")

# Per package: the .deb members to unpack (tar wildcards) and a regular
# expression a package-relative path must match to be a fragment-shader
# candidate.  Vertex/geometry files and other APIs' copies are left out here;
# what is not GLSL <= 1.20 is left out by version; Mesa judges the rest.
SELECT = {
    "cloudcompare": ("*/shaders/*", r"/shaders/.*\.frag$"),
    "colobot-common": ("*/shaders/*", r"/shaders/gl21/fs_[^/]+\.glsl$"),
    "cura": ("*/shaders/*", r"/shaders/[^/]+\.shader$"),
    "dolphin-emu-data": ("*/Shaders/*", r"/sys/Shaders/[^/]+\.glsl$"),
    "flightgear-data-base": ("*/Shaders/*", r"/Shaders/.*\.frag$"),
    "kodi-screensaver-asteroids": ("*/shaders/*", r"/shaders/GLE?S?/frag\.glsl$"),
    "kodi-screensaver-biogenesis": ("*/shaders/*", r"/shaders/GLE?S?/frag\.glsl$"),
    "kodi-screensaver-greynetic": ("*/shaders/*", r"/shaders/GLE?S?/frag\.glsl$"),
    "kodi-screensaver-pingpong": ("*/shaders/*", r"/shaders/GLE?S?/frag\.glsl$"),
    "kodi-screensaver-pyro": ("*/shaders/*", r"/shaders/GLE?S?/frag\.glsl$"),
    "kodi-visualization-fishbmc": ("*/shaders/*", r"/shaders/GLE?S?/frag\.glsl$"),
    "kodi-visualization-pictureit": ("*/shaders/*", r"/shaders/GLE?S?/frag\.glsl$"),
    "kodi-visualization-spectrum": ("*/shaders/*", r"/shaders/GLE?S?/frag\.glsl$"),
    "kodi-visualization-waveform": ("*/shaders/*", r"/shaders/GLE?S?/frag\.glsl$"),
    "megaglest-data": ("*/shaders/*", r"/shaders/[^/]+\.(frag|fp)$"),
    "mgba-common": ("*/shaders/*", r"/shaders/.*\.fs$"),
    "prusa-slicer": ("*/shaders/*", r"/shaders/[^/]+\.fs$"),
    "pymol-data": ("*/shaders/*", r"/shaders/[^/]+\.fs$"),
    "python3-uranium": ("*/shaders/*", r"/shaders/[^/]+\.shader$"),
    "qtdeclarative5-examples": ("*/examples/*", r"\.(frag|fsh)$"),
    "qtmultimedia5-examples": ("*/examples/*", r"\.(frag|fsh)$"),
    "scummvm-data": ("*/shaders/*", r"/shaders/[^/]+\.fragment$"),
    "solvespace": ("*/shaders/*", r"/shaders/[^/]+\.frag$"),
    # Spring reads its shaders from the springcontent.sdz zip archive.
    "spring-common": ("*/springcontent.sdz", r"/springcontent\.sdz!shaders/GLSL/[^/]*Frag[^/]*\.glsl$"),
    "widelands-data": ("*/shaders/*", r"/shaders/[^/]+\.fp$"),
    # 0 A.D. reads its shaders from the public.zip archive of its mod.
    "0ad-data": ("*/public.zip", r"/public\.zip!shaders/glsl/[^/]+\.fs$"),
    "stellarium-data": ("*/shaders/*", r"/shaders/[^/]+\.frag$"),
    # Warzone 2100 reads its shaders from the base.wz zip archive.
    "warzone2100-data": ("*/base.wz", r"/base\.wz!shaders/[^/]+\.frag$"),
    "castle-game-engine-src": ("*/glsl/source/*", r"/glsl/source/.*\.fs$"),
    "darkradiant": ("*/darkradiant/gl/*", r"/darkradiant/gl/[^/]+_fp\.glsl$"),
    "gem-doc": ("*/gem/examples/*", r"/gem/examples/.*\.(frag|fp)$"),
    "libreoffice-impress": ("*/program/opengl/*", r"/program/opengl/[^/]+FragmentShader\.glsl$"),
    "manaplus-data": ("*/shaders/*", r"/shaders/[^/]+_frag\.glsl$"),
    "marsshooter-data": ("*/shaders/*", r"/shaders/[^/]+\.frag$"),
    "pd-extendedview": ("*/extendedview/*", r"/extendedview/.*\.frag$"),
    "pink-pony-data": ("*/GLSL/*", r"/GLSL/[^/]+\.frag$"),
    "psychtoolbox-3-common": ("*/GLSLDemoShaders/*", r"/GLSLDemoShaders/[^/]+\.frag$"),
    "pybik": ("*/shaders/*", r"/pybik/shaders/[^/]+\.frag$"),
    "rviz": ("*/materials/glsl120/*", r"/materials/glsl120/.*\.frag$"),
    "sludge-engine": ("*/share/sludge/*", r"/share/sludge/[^/]+\.frag$"),
    "wings3d": ("*/wings-*", r"/(shaders|autouv)/[^/]+\.fs$"),
}

# At most this many accepted shaders per package (FlightGear alone has more
# than all the others): the ones whose output file name has the smallest
# sha256, a choice that does not depend on the shaders' contents or figures.
CAP_PER_PACKAGE = 40

# ---------------------------------------------------------------- wrappers

# QOpenGLShader on a desktop (non-ES) context puts these before the source
# (after its #version line): Qt programs write precision qualifiers.
QT_QUALIFIERS = "#define lowp\n#define mediump\n#define highp\n"
QT_PACKAGES = ("qtdeclarative5-examples", "qtmultimedia5-examples", "cura",
               "python3-uranium", "stellarium-data", "cloudcompare")

# ScummVM 2.7 graphics/opengl/shader.cpp on a desktop context below GLSL
# 1.30: "#version 120" and its fragment compatibility header (in ->
# varying, the OUTPUT declaration empty, outColor -> gl_FragColor, texture
# -> texture2D), with UBOOL uniforms as bool.
SCUMMVM_HEADER = ("#version 120\n"
                  "#define in varying\n"
                  "#define OUTPUT\n"
                  "#define outColor gl_FragColor\n"
                  "#define texture texture2D\n"
                  "#define UBOOL bool\n"
                  "#define UBOOL_TEST(v) (v)\n")

# Dolphin 5.0's post-processing API (VideoCommon PostProcessing header),
# given in GLSL 1.20 terms: the shader's source texture is samp9 (2D here:
# no stereo layers), resolution = (w, h, 1/w, 1/h), uv0 the texture
# coordinate; SampleOffset's texel offset becomes an added coordinate.
# Shaders that read options (GetOption/OptionEnabled) are left out.
DOLPHIN_HEADER = """#version 120
#define float2 vec2
#define float3 vec3
#define float4 vec4
#define int2 ivec2
#define int3 ivec3
#define int4 ivec4
uniform sampler2D samp9;
uniform vec4 resolution;
varying vec2 uv0;
float4 Sample() { return texture2D(samp9, uv0); }
float4 SampleLocation(float2 location) { return texture2D(samp9, location); }
#define SampleOffset(offset) texture2D(samp9, uv0 + vec2(offset) * resolution.zw)
float2 GetResolution() { return resolution.xy; }
float2 GetInvResolution() { return resolution.zw; }
float2 GetCoordinates() { return uv0; }
void SetOutput(float4 color) { gl_FragColor = color; }
"""


def shader_version(src):
    m = VERSION_RX.search(src)
    return int(m.group(1)) if m else 110


def has_main(text):
    return MAIN_RX.search(text) is not None


def with_prefix(src, prefix):
    """Insert prefix after the #version line (as Qt does), else at the top."""
    m = VERSION_RX.search(src)
    if m:
        return src[:m.end()] + prefix + src[m.end():]
    return prefix + src


def uranium_section(src, key):
    """The text of `key =` in an Uranium .shader file's [shaders] group:
    the indented lines after it, indentation removed (what Uranium's
    ShaderProgram.load reads through configparser)."""
    lines = src.splitlines()
    out, inside, in_shaders = [], False, False
    for line in lines:
        if line.startswith("["):
            in_shaders = line.strip() == "[shaders]"
            inside = False
            continue
        m = re.match(r"(\w+)\s*=(.*)$", line)
        if m and not line[0].isspace():
            inside = in_shaders and m.group(1) == key
            if inside and m.group(2).strip():
                out.append(m.group(2).strip())
            continue
        if inside:
            out.append(line)
    if not out:
        return None
    indents = [len(l) - len(l.lstrip()) for l in out if l.strip()]
    cut = min(indents) if indents else 0
    return "\n".join(l[cut:] if l.strip() else "" for l in out).strip("\n") + "\n"


INCLUDE_RX = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"[^\n]*$', re.M)
# Programs whose shader loader replaces #include "file" by the file (path
# relative to the including file's folder): 0 A.D.'s, and Wings 3D's
# (wings_gl reads its shaders' includes from shaders/).
INCLUDE_PACKAGES = ("0ad-data", "wings3d")


def inline_includes(rel, src, read, depth=0):
    """src with each #include "x" replaced by read(folder of rel + x); an
    include that read() cannot find stays (and Mesa rejects the text)."""
    def one(m):
        path = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
        text = read(path) if depth < 8 else None
        return m.group(0) if text is None else inline_includes(path, text, read, depth + 1)
    return INCLUDE_RX.sub(one, src)


def recipe(pkg, rel, src, read=lambda path: None):
    """("skip", reason) or ("try", [(wrapper label, full text), ...]): the
    texts to offer Mesa, in order; the first it accepts is kept.  read(path)
    gives another file of the package (for #include), or None."""
    if pkg in INCLUDE_PACKAGES and INCLUDE_RX.search(src):
        return "try", [("includes inlined", inline_includes(rel, src, read))]
    if pkg in ("cura", "python3-uranium"):
        frag = uranium_section(src, "fragment")
        if frag is None:
            return "skip", "no fragment = section"
        return "try", [("uranium fragment section + qt qualifiers",
                        with_prefix(frag, QT_QUALIFIERS))]
    ver = shader_version(src)
    if ver not in OUR_VERSIONS:
        return "skip", "#version %d (out of scope: GLSL <= 1.20 / ES 1.00)" % ver
    if pkg == "scummvm-data":
        if VERSION_RX.search(src):
            return "skip", "has its own #version (ScummVM adds one)"
        return "try", [("scummvm 2.7 header", SCUMMVM_HEADER + src)]
    if pkg == "dolphin-emu-data":
        if re.search(r"\b(GetOption|OptionEnabled)\b", src):
            return "skip", "reads post-processing options (not emulated)"
        return "try", [("dolphin post-processing API", DOLPHIN_HEADER + src)]
    if pkg in QT_PACKAGES:
        return "try", [("qt qualifiers", with_prefix(src, QT_QUALIFIERS))]
    if pkg == "warzone2100-data":
        # Warzone's GL 2.1 path compiles them as GLSL 1.20.
        return "try", [("warzone #version 120", "#version 120\n" + src)]
    return "try", [("as is", src)]


def out_name(pkg, rel):
    return "%s__%s.frag" % (pkg, rel.replace("/", "_").replace("!", "_"))


def cap_selection(names, cap=CAP_PER_PACKAGE):
    """The names kept of one package's accepted shaders (a set)."""
    ranked = sorted(names, key=lambda n: hashlib.sha256(n.encode()).hexdigest())
    return set(ranked[:cap])


def is_candidate(pkg, rel):
    return re.search(SELECT[pkg][1], "/" + rel) is not None
