#!/usr/bin/env python3
"""Self-test of the exec runner's own GL modelling (piglit_gl.py and the
pure parts of shader_runner.py); expected values worked out by hand."""

import os
import struct
import sys
import tempfile
import unittest
import zlib

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import piglit_gl  # noqa: E402
import shader_runner  # noqa: E402


def covered(spans):
    return {(x, y) for y, first, end in spans for x in range(first, end)}


class Raster(unittest.TestCase):
    def test_rect_halves_cover_each_pixel_once(self):
        # draw rect ortho 36 0 4 4 in a 250x250 window, as GL's strip
        corners = [(36.00000000000001, 0.0), (39.99999999999999, 0.0),
                   (36.00000000000001, 4.0000000000000036), (39.99999999999999, 4.0)]
        a = covered(piglit_gl.triangle_spans(corners[0], corners[1], corners[2], 250, 250))
        b = covered(piglit_gl.triangle_spans(corners[2], corners[1], corners[3], 250, 250))
        self.assertEqual(a & b, set())
        self.assertEqual(a | b, {(x, y) for x in range(36, 40) for y in range(4)})

    def test_centre_on_edges(self):
        # centres (0.5, 0.5) on the bottom and left edges are in, (2.5, 0.5)
        # and (0.5, 2.5) lie on the open diagonal x + y = 3 and are out
        spans = piglit_gl.triangle_spans((0.5, 0.5), (3.5, 0.5), (0.5, 3.5), 8, 8)
        self.assertEqual(spans, [(0, 0, 3), (1, 0, 2), (2, 0, 1)])

    def test_clockwise_and_clipped(self):
        cw = piglit_gl.triangle_spans((0, 0), (0, 4), (4, 0), 8, 8)
        ccw = piglit_gl.triangle_spans((0, 0), (4, 0), (0, 4), 8, 8)
        self.assertEqual(cw, ccw)
        big = covered(piglit_gl.triangle_spans((-10, -10), (30, -10), (-10, 30), 4, 4))
        self.assertEqual(len(big), 16)
        self.assertEqual(piglit_gl.triangle_spans((0, 0), (1, 1), (2, 2), 4, 4), [])

    def test_affine_fit_at_window_corners(self):
        # f = 1 + 2x + 3y through (0,0), (1,0), (0,1); at (10, 20): 81
        fits = piglit_gl.affine_fit([(0, 0), (1, 0), (0, 1)], [[1.0], [3.0], [4.0]])
        self.assertAlmostEqual(fits[0](10, 20), 81.0)


class Matrices(unittest.TestCase):
    def test_ortho_maps_window_to_clip(self):
        m = piglit_gl.ortho(0, 250, 0, 250, -1, 1)
        self.assertEqual(piglit_gl.apply(m, [250, 0, 0, 1]), [1.0, -1.0, 0.0, 1.0])
        inv = piglit_gl.inverse(m)
        self.assertAlmostEqual(inv[0][0], 125.0)
        self.assertAlmostEqual(inv[0][3], 125.0)

    def test_state_matrices(self):
        t = piglit_gl.state_matrices(piglit_gl.identity())
        self.assertEqual(t["gl_ModelViewProjectionMatrixInverseTranspose"], piglit_gl.identity())
        self.assertIn("gl_TextureMatrix[7]", t)
        self.assertEqual(piglit_gl.column_major([[1, 2], [3, 4]]), [1, 3, 2, 4])


class Textures(unittest.TestCase):
    def test_rgbw_quadrants(self):
        rows = piglit_gl.rgbw_texels(4, 2)
        self.assertEqual(rows[0][0], (255, 0, 0, 255))     # bottom left red
        self.assertEqual(rows[0][3], (0, 255, 0, 255))     # bottom right green
        self.assertEqual(rows[1][1], (0, 0, 255, 255))     # top left blue
        self.assertEqual(rows[1][2], (255, 255, 255, 255))

    def test_checkerboard(self):
        rows = piglit_gl.checkerboard_texels(4, 4, (1, 0, 0, 1), (0, 0, 1, 0.5))
        self.assertEqual(rows[0][0], (255, 0, 0, 255))
        self.assertEqual(rows[0][2], (0, 0, 255, 128))
        self.assertEqual(rows[3][3], (255, 0, 0, 255))

    def test_png_rows_bottom_up(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "t.png")
            piglit_gl.write_png(path, [[(1, 2, 3, 4)], [(5, 6, 7, 8)]])
            with open(path, "rb") as f:
                data = f.read()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        w, h = struct.unpack(">II", data[16:24])
        self.assertEqual((w, h), (1, 2))
        idat = data.index(b"IDAT")
        length = struct.unpack(">I", data[idat - 4:idat])[0]
        raw = zlib.decompress(data[idat + 4:idat + 4 + length])
        self.assertEqual(raw, b"\x00\x05\x06\x07\x08\x00\x01\x02\x03\x04")  # top row first


def bare_test(tmp):
    """A ShaderTest with only the state the texture commands touch."""
    t = shader_runner.ShaderTest.__new__(shader_runner.ShaderTest)
    t.tmp, t.textures, t.textures_made, t.active_unit = tmp, {}, [], 0
    t.uniforms, t.sampler_units = {}, {"s": 0}
    return t


class MipTextures(unittest.TestCase):
    def test_miptree_and_filters(self):
        # piglit_miptree_texture(): nearest_mipmap_nearest / nearest, 4 levels,
        # CLAMP_TO_EDGE
        with tempfile.TemporaryDirectory() as tmp:
            t = bare_test(tmp)
            t.uniforms["s"] = "1"
            t.texture("texture miptree 1")
            self.assertEqual(t.texture_args(), ["--texture", "0=miptree",
                                                "--filter", "0=nearest_mipmap_nearest,nearest",
                                                "--wrap", "0=clamp"])
            t.texparameter(["2D", "min", "linear_mipmap_linear"])
            t.texparameter(["2D", "mag", "linear"])
            self.assertEqual(t.texture_args()[2:], ["--filter", "0=linear_mipmap_linear,linear",
                                                    "--wrap", "0=clamp"])
            # a new texture object on the unit starts from its own defaults
            t.texture("texture miptree 1")
            self.assertEqual(t.texture_args()[3], "0=nearest_mipmap_nearest,nearest")

    def test_texparameter_goes_to_the_last_texture(self):
        with tempfile.TemporaryDirectory() as tmp:
            t = bare_test(tmp)
            t.texparameter(["2D", "min", "linear"])   # no texture yet: unit 0's default
            t.texture("texture miptree 0")
            t.texture("texture rgbw 2 (4, 4)")
            t.texparameter(["2D", "min", "linear"])   # on unit 2's rgbw
            self.assertEqual(t.texture_args()[3], "0=nearest_mipmap_nearest,nearest")
            t.uniforms["s"] = "2"
            args = t.texture_args()
            self.assertTrue(args[1].startswith("0=") and args[1].endswith(".png"))
            self.assertEqual(args[3], "0=linear,nearest")
            self.assertEqual(args[4:], ["--wrap", "0=clamp"])     # rgbw: CLAMP_TO_EDGE
            # checkerboard: CLAMP_TO_BORDER, which uscc-run has not: its default
            t.texture("texture checkerboard 2 0 (4, 4) (1, 0, 0, 1) (0, 0, 1, 1)")
            self.assertEqual(len(t.texture_args()), 4)

    def test_single_level_under_a_mipmap_filter_is_incomplete(self):
        # GL: rgbw has level 0 only, so a mipmap filter makes it incomplete:
        # it samples (0, 0, 0, 1), as an unbound unit does
        with tempfile.TemporaryDirectory() as tmp:
            t = bare_test(tmp)
            t.texture("texture rgbw 0 (8, 8)")
            t.texparameter(["2D", "min", "nearest_mipmap_linear"])
            self.assertEqual(t.texture_args(), ["--texture",
                                                "0=" + os.path.join(tmp, "incomplete.png")])
            self.assertTrue(shader_runner.Texture("miptree", 4, "linear_mipmap_linear").complete())
            self.assertFalse(shader_runner.Texture("x.png", 1, "nearest_mipmap_nearest").complete())

    def test_unmodelled_parameters_skip(self):
        t = bare_test(None)
        for words in (["2D", "wrap_s", "repeat"], ["2D", "min", "cubic"],
                      ["2D", "mag", "nearest_mipmap_nearest"], ["Rect", "min", "nearest"],
                      ["2D", "min"], ["2D", "min", "nearest", "x"]):
            with self.assertRaises(shader_runner.Skip):
                t.texparameter(words)


class ShadowTextures(unittest.TestCase):
    def test_depth_texels(self):
        # piglit_depth_texture: x / (w - 1) across, the same on every row
        rows = piglit_gl.depth_texels(3, 2)
        self.assertEqual(rows[0], [(0, 0, 0, 255), (128, 128, 128, 255), (255, 255, 255, 255)])
        self.assertEqual(rows[1], rows[0])

    def test_compare_state_compiles_a_variant(self):
        # `texture shadow2D` compares with GREATER (piglit's shader_runner);
        # texparameter compare_func / depth_mode change the texture's state,
        # and a shadow sampler reading it is compiled with uscc --shadow
        with tempfile.TemporaryDirectory() as tmp:
            t = bare_test(tmp)
            t.samplers, t.cache, t.binary = {"s": "sampler2DShadow"}, {}, "plain.bin"
            calls = []
            t.uscc = "uscc"
            t.call = lambda argv: calls.append(argv) or \
                shader_runner.subprocess.CompletedProcess(argv, 0, "", "")
            t.texture("texture shadow2D 0 (32, 32)")
            self.assertEqual(t.texture_args()[4:], ["--wrap", "0=clamp"])
            first = t.shadow_binary()
            self.assertNotEqual(first, "plain.bin")
            self.assertEqual(calls[-1][-2:], ["--shadow", "0=greater,luminance"])
            t.texparameter(["2D", "compare_func", "lequal"])
            self.assertEqual(t.shadow_binary(), "plain.bin")   # GL's defaults: no variant
            t.texparameter(["2D", "depth_mode", "alpha"])
            t.texparameter(["2D", "compare_func", "always"])
            t.shadow_binary()
            self.assertEqual(calls[-1][-2:], ["--shadow", "0=always,alpha"])
            n = len(calls)
            t.shadow_binary()                                  # cached
            self.assertEqual(len(calls), n)
            with self.assertRaises(shader_runner.Skip):
                t.texparameter(["2D", "compare_func", "sometimes"])
            # 1D and rectangle depth textures: the same gradient, GREATER
            t.texture("texture shadow1D 0 (16)")
            self.assertEqual(t.textures[0].compare, "greater")
            t.texparameter(["1D", "depth_mode", "intensity"])
            t.texture("texture shadowRect 0 (8, 4)")
            t.texparameter(["Rect", "compare_func", "less"])
            self.assertEqual((t.textures[0].compare, t.textures[0].depth_mode),
                             ("less", "luminance"))
            with self.assertRaises(shader_runner.Skip):
                t.texparameter(["Rect", "min", "linear"])


class Uniforms(unittest.TestCase):
    def test_initializers(self):
        found = shader_runner.uniform_initializers(
            "uniform vec2 v = vec2(1.5, -2);\nuniform int i = int(3);\n"
            "uniform float f = 2.0 * c;\nuniform mat2 m = mat2(1.0);\n")
        self.assertEqual(found, {"v": "1.5,-2.0", "i": "3"})

    def test_float_bits(self):
        self.assertEqual(shader_runner.uniform_value("0x3f800000", True), "1.0")
        self.assertEqual(shader_runner.uniform_value("true", False), "1")

    def test_array_packing(self):
        t = shader_runner.ShaderTest.__new__(shader_runner.ShaderTest)
        t.uniforms = {"c[%d]" % k: str(float(k)) for k in range(18)}
        t.uniforms["s.f"] = "2.0"
        t.initializers, t.state_names = {}, []
        got = dict(t.all_uniforms("uniform float c[18]; uniform S s;"))
        self.assertEqual(got["c"], ",".join(str(float(k)) for k in range(16)))
        self.assertEqual(got["c[16]"], "16.0")
        self.assertEqual(got["c[17]"], "17.0")
        self.assertEqual(got["s.f"], "2.0")


if __name__ == "__main__":
    unittest.main()
