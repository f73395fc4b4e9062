#!/usr/bin/env python3
"""bench/corpus/corpus_recipes.py: the candidate selection, the wrappers and
the per-package cap of corpus 2 (no Debian, no Mesa needed)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "bench", "corpus"))
import corpus_recipes as cr  # noqa: E402

URANIUM = """[shaders]
vertex =
    attribute highp vec4 a_vertex;
    void main() { gl_Position = a_vertex; }

fragment =
    uniform mediump vec4 u_color;
    void main()
    {
        gl_FragColor = u_color;
    }

vertex41core =
    #version 410
    void main() {}

[defaults]
u_color = [0.5, 0.5, 0.5, 1.0]
"""


class Recipes(unittest.TestCase):
    def test_uranium_fragment_section_is_dedented_and_alone(self):
        self.assertEqual(cr.uranium_section(URANIUM, "fragment"),
                         "uniform mediump vec4 u_color;\nvoid main()\n{\n"
                         "    gl_FragColor = u_color;\n}\n")
        self.assertIsNone(cr.uranium_section("[shaders]\nvertex =\n    x\n", "fragment"))

    def test_uranium_wrapper_defines_qualifiers_first(self):
        kind, tries = cr.recipe("cura", "usr/share/cura/resources/shaders/a.shader", URANIUM)
        self.assertEqual(kind, "try")
        self.assertTrue(tries[0][1].startswith(cr.QT_QUALIFIERS + "uniform mediump"))

    def test_prefix_goes_after_version_line(self):
        self.assertEqual(cr.with_prefix("// c\n#version 120\nvoid main(){}\n", "#define A\n"),
                         "// c\n#version 120\n#define A\nvoid main(){}\n")
        self.assertEqual(cr.with_prefix("void main(){}\n", "#define A\n"),
                         "#define A\nvoid main(){}\n")

    def test_versions_out_of_scope_are_skipped(self):
        kind, why = cr.recipe("solvespace", "a.frag", "#version 150\nvoid main(){}\n")
        self.assertEqual(kind, "skip")
        self.assertIn("150", why)
        self.assertEqual(cr.recipe("solvespace", "a.frag", "#version 100\nvoid main(){}\n")[0], "try")

    def test_scummvm_and_dolphin_headers(self):
        kind, tries = cr.recipe("scummvm-data", "x.fragment", "void main(){ OUTPUT = vec4(1.0); }")
        self.assertTrue(tries[0][1].startswith("#version 120\n#define in varying\n"))
        self.assertEqual(cr.recipe("scummvm-data", "x.fragment", "#version 110\nvoid main(){}")[0],
                         "skip")
        self.assertEqual(cr.recipe("dolphin-emu-data", "x.glsl",
                                   "void main(){ SetOutput(GetOption(A)); }")[0], "skip")
        kind, tries = cr.recipe("dolphin-emu-data", "x.glsl", "void main(){ SetOutput(Sample()); }")
        self.assertIn("void SetOutput(float4 color)", tries[0][1])

    def test_candidates(self):
        self.assertTrue(cr.is_candidate("warzone2100-data",
                                        "usr/share/games/warzone2100/base.wz!shaders/gfx.frag"))
        self.assertFalse(cr.is_candidate("warzone2100-data",
                                         "usr/share/games/warzone2100/base.wz!shaders/vk/gfx.frag"))
        self.assertFalse(cr.is_candidate("colobot-common", "usr/share/games/colobot/shaders/gl21/vs_x.glsl"))
        self.assertTrue(cr.is_candidate("libreoffice-impress",
                                        "usr/lib/libreoffice/program/opengl/fadeFragmentShader.glsl"))
        self.assertFalse(cr.is_candidate("libreoffice-impress",
                                         "usr/lib/libreoffice/program/opengl/fadeVertexShader.glsl"))
        self.assertTrue(cr.is_candidate("wings3d", "usr/lib/erlang/lib/wings-2.2.9/plugins/autouv/wood.fs"))
        self.assertFalse(cr.is_candidate("wings3d", "usr/lib/erlang/lib/wings-2.2.9/shaders/lib_base.glsl"))
        self.assertEqual(cr.out_name("warzone2100-data", "a/base.wz!shaders/gfx.frag"),
                         "warzone2100-data__a_base.wz_shaders_gfx.frag.frag")

    def test_includes_are_inlined_relative_to_the_including_file(self):
        files = {"a/glsl/common/fog.h": '#include "los.h"\nfloat fog() { return los(); }\n',
                 "a/glsl/common/los.h": "float los() { return 1.0; }\n"}
        src = '#include "common/fog.h"\n#include "missing.h"\nvoid main() {}\n'
        kind, tries = cr.recipe("0ad-data", "a/glsl/x.fs", src, files.get)
        self.assertEqual(tries[0][1], "float los() { return 1.0; }\n\nfloat fog() "
                         "{ return los(); }\n\n#include \"missing.h\"\nvoid main() {}\n")
        # Wings 3D's loader inlines them too
        wings = {"w/shaders/lib_base.glsl": "float base() { return 1.0; }\n"}
        kind, tries = cr.recipe("wings3d", "w/shaders/x.fs",
                                '#version 120\n#include "lib_base.glsl"\nvoid main() {}\n', wings.get)
        self.assertIn("float base()", tries[0][1])
        # other programs' #include lines are left for Mesa to judge
        self.assertEqual(cr.recipe("solvespace", "a/x.frag", src, files.get)[1][0][1], src)

    def test_cap_is_deterministic_and_order_free(self):
        names = ["p__%d.frag" % i for i in range(100)]
        kept = cr.cap_selection(names, 10)
        self.assertEqual(len(kept), 10)
        self.assertEqual(kept, cr.cap_selection(list(reversed(names)), 10))
        self.assertEqual(cr.cap_selection(names[:5], 10), set(names[:5]))


if __name__ == "__main__":
    unittest.main()
