#!/usr/bin/env python3
"""bench/mesa's pieces that need no Mesa: reading r300's RADEON_DEBUG=fp
dump (r300-fp-dump.txt: Mesa 22.3.6's r300 compiling r300-fp.frag, with
the full-precision constant lines of mesa_own.CONSTPRINT_C), Mesa's
constant layout, r300's program as a container that uscc-run runs to the
pixels of uscc's own program of the source, and the table's maths.

    test_mesa_bench.py USCC USCC_RUN"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, "bench"))
import mesa_own  # noqa: E402
import mesa_table  # noqa: E402

USCC = USCC_RUN = None


def read(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


class DumpTest(unittest.TestCase):
    def setUp(self):
        self.err = read("r300-fp-dump.txt")
        self.res = mesa_own.parse_result(read("r300-fp-result.txt"))
        self.src = read("r300-fp.frag")
        self.tmp = tempfile.TemporaryDirectory()
        glsl = os.path.join(self.tmp.name, "glsl.bin")
        subprocess.check_call([USCC, os.path.join(HERE, "r300-fp.frag"), "-o", glsl])
        self.glsl = glsl
        self.info = json.loads(subprocess.check_output([USCC, "--info", glsl]))

    def tearDown(self):
        self.tmp.cleanup()

    def test_result_and_tgsi(self):
        self.assertEqual(self.res["status"], "ok")
        self.assertEqual(self.res["inst"], "8")
        programs = mesa_own.tgsi_programs(self.err)
        self.assertEqual(len(programs), 1)
        self.assertTrue(programs[0].startswith("FRAG\n"))
        self.assertTrue(programs[0].rstrip().endswith("END"))
        tg = mesa_own.parse_tgsi(self.err)
        self.assertEqual(tg["nconst"], 4)
        self.assertEqual(tg["samps"], [0])
        self.assertEqual(tg["inputs"], [(0, "GENERIC", 9)])

    def test_layout(self):
        layout, wpos = mesa_own.const_layout(mesa_own.uniform_decls(self.src), self.info,
                                             mesa_own.last_tgsi(self.err))
        # tint, rot's two columns, then the transform dFdy reads
        self.assertEqual([p[0][0] for _, p in sorted(layout.items())], ["tint", "rot", "rot"])
        self.assertEqual([p[0][3] for _, p in sorted(layout.items())], [0, 0, 1])
        self.assertEqual(wpos, 3)
        column = mesa_own.slot_value(layout[2], lambda name, typ, index: [1, 2, 3, 4])
        self.assertEqual(column, [3, 4, 0.0, 0.0])

    def test_light_slots(self):
        info = {"uniforms": [
            {"name": "k", "type": "float", "array_len": 0, "element": 0},
            {"name": "gl_LightSource[0].position", "type": "vec4", "array_len": 0,
             "element": 0},
            {"name": "gl_LightSource[0].linearAttenuation", "type": "float",
             "array_len": 0, "element": 0}]}
        layout, wpos = mesa_own.const_layout([("k", "float", 0)], info, "FRAG\n")
        self.assertIsNone(wpos)
        self.assertEqual(layout[0][0][0], "k")
        self.assertEqual(layout[1 + 3][0][0], "gl_LightSource[0].position")
        self.assertEqual(layout[1 + 6][0][4], "y")   # ATTENUATION.y
        self.assertEqual(mesa_own.slot_value(layout[7], lambda n, t, i: [5.0]), [0, 5.0, 0, 0])

    def test_uniform_decls(self):
        src = "uniform vec2[2] c;\nuniform highp mat3 m, n[4];\n// uniform float gone;\n" \
              "uniform float k = 2.0;\n"
        self.assertEqual(mesa_own.uniform_decls(src), [("c", "vec2", 2), ("m", "mat3", 0),
                                                       ("n", "mat3", 4), ("k", "float", 0)])

    def test_struct_members(self):
        info = {"uniforms": [
            {"name": "s.f", "type": "float", "array_len": 0, "element": 0},
            {"name": "s.v", "type": "vec3", "array_len": 0, "element": 0},
            {"name": "t", "type": "vec2", "array_len": 0, "element": 0}]}
        layout, _ = mesa_own.const_layout([("s", "S", 0), ("t", "vec2", 0)], info, "FRAG\n")
        self.assertEqual([(p[0][0], p[0][4]) for _, p in sorted(layout.items())],
                         [("s.f", "x"), ("s.v", "xyz"), ("t", "xy")])

    def test_r300_program_runs_to_uscc_pixels(self):
        data, warn = mesa_own.own_container(self.err, self.res, self.info, self.src, (8, 8))
        self.assertEqual(warn, [])
        own = os.path.join(self.tmp.name, "r300.bin")
        with open(own, "wb") as f:
            f.write(data)
        oinfo = json.loads(subprocess.check_output([USCC, "--info", own]))
        self.assertEqual(oinfo["stats"]["instructions"], 8)
        # r300 folded its immediates (an output modifier, an inline 0.25):
        # what is left is the y transform dFdy reads
        self.assertEqual(oinfo["constants"][3], mesa_own.WPOS_Y_TRANSFORM)
        args = ["--size", "8x8", "--dump", "--texture", "0=gradient",
                "--uniform", "tint=0.5,0.25,0.75,1", "--uniform", "rot=0.9,0.1,-0.2,0.8"]
        for name in ("uv",):
            args += ["--varying", name + "=0.1,0.2:0.9,0.3:0.2,0.8:0.7,0.6"]
        ours = subprocess.check_output([USCC_RUN, self.glsl] + args, universal_newlines=True)
        theirs = subprocess.check_output([USCC_RUN, own] + args, universal_newlines=True)
        a, b = ours.split(), theirs.split()
        self.assertEqual(len(a), len(b))
        self.assertGreater(len(set(a)), 8)   # not a flat image
        for x, y in zip(a, b):
            self.assertAlmostEqual(float(x), float(y), places=4)

    def test_dump_temps(self):
        # a lookup's destination register counts though no ALU address names it
        dump = ("\t1:RGB_ADDR   0x08040c00:Addr0: 0t, Addr1: 3c, Addr2: 128t, srcp:0\n"
                "\t5 RGBA_INST: 0x20490010:MAD dest:1 rgb_C_src:0 0/0/0 0 alp_C_src:0 0 0\n"
                "\t2:TEX_ADDR:  0xe400f400: src: 2 R/G/A/A dst: 5 R/G/B/A\n")
        self.assertEqual(sorted(mesa_own.dump_temps(dump)), [0, 1, 2, 5])

    def test_no_dump(self):
        with self.assertRaises(mesa_own.NotReadable):
            mesa_own.own_container("r300: Initial fragment program\nFRAG\nEND\n", self.res,
                                   self.info, self.src, (8, 8))


class TableTest(unittest.TestCase):
    def test_ratios(self):
        median, total, n = mesa_table.ratio_stats([(1, 2), (3, 3)])
        self.assertEqual((median, total, n), (0.75, 0.8, 2))
        self.assertIsNone(mesa_table.ratio_stats([]))

    def test_summary_and_table(self):
        rows = [
            {"name": "a", "mesa": "ok", "driver": "uscc", "pixels": {"-O0": "ok", "-O2": "ok"},
             "fig": {"inst": (8, 10), "temps": (2, 2), "exec": (12, 10), "time": (50, 40)}},
            {"name": "b", "mesa": "ok", "driver": "fallback", "why": "too long",
             "pixels": {"-O2": "known"}, "pixel_why": {"-O2": "hash"}},
            {"name": "c", "mesa": "refused", "pixels": {}},
        ]
        s = mesa_table.corpus_summary(rows)
        self.assertEqual((s["shaders"], s["mesa_refused"], s["r300_ok"]), (3, 1, 2))
        self.assertEqual((s["driver_uscc"], s["driver_fallback"], s["driver_fail"]), (1, 1, 0))
        self.assertEqual((s["px-O2_ok"], s["px-O2_known"]), (1, 1))
        self.assertEqual(s["inst"][1], 0.8)
        self.assertEqual([name for name, _ in s["worse_exec"]], ["a"])
        self.assertEqual(s["slower_compile"], ["a"])
        text = mesa_table.table([("piglit", s)])
        self.assertIn("| instructions uscc/r300: median / total (goal <= 0.85) | 0.800 / 0.800 |",
                      text)
        lines = mesa_table.exceptions("piglit", rows, s)
        self.assertIn("- piglit b: fell back to r300: too long", lines)
        self.assertIn("- piglit b -O2: pixels differ (known): hash", lines)
        self.assertIn("- piglit a: executed cycles 12 > r300's 10 (uscc/r300: instructions 8/10, "
                      "temps 2/2)", lines)


if __name__ == "__main__":
    USCC, USCC_RUN = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1])
