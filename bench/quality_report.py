"""The outputs of bench/quality: per corpus the per-shader CSV and the
Markdown summary, and the side-by-side overview of the corpora.

Figures compared with Mesa: ours from `uscc --stats` (INTERFACES.md §4) and
the `-S` listing (TEX blocks, presub, OMOD), Mesa's from
shared/baselines/mesa-r300-rv530-piglit.csv (piglit) or
shared/realworld/mesa-r300-rv530.csv (real-world; it adds compile times),
same cost model for cycles.  Totals and medians are taken over the shaders
both compiled (Mesa `ok`, ours `ok`), so the two sides count the same
programs.  Executed cycles (uscc-run --stats, quality_run.execute_one)
are ours only: Mesa's figures are static, a loop body counted once.
"""

import collections
import csv
import math
import statistics

from quality_run import OK, COMPILE_ERROR, CRASH, TIMEOUT, SKIPPED

OUR_FIELDS = ("instructions", "alu", "tex", "fc", "out", "nops", "pairs", "temps",
              "constants", "lower_bound", "cycles", "compile_us")
MESA_FIELDS = ("inst", "temps", "consts", "cycles")
# Columns added after the first layout (appended, so the old ones keep
# their places): ours from the -S listing, Mesa's other figures.
OUR_EXTRA = ("tex_blocks", "presub", "omod", "compile_runs")
# Last columns: the constant program's size, from the -S listing.
CP_FIELDS = ("cp_instructions", "cp_outputs")
MESA_EXTRA = ("presub", "omod", "tex", "loops", "ms_total")
# Appended after those: the executed figures (quality_run.execute_one),
# then how compile_us was taken and the one-process figure.
EXEC_FIELDS = ("exec_status", "exec_cycles_median", "exec_cycles_max", "exec_draw_cycles",
               "exec_discarded", "exec_uniforms", "compile_timer", "compile_us_process")
# The figures both sides report: (label, our --stats key, Mesa column).
COMPARED = (("instructions", "instructions", "inst"), ("temps", "temps", "temps"),
            ("cycles", "cycles", "cycles"), ("constants", "constants", "consts"))
OUR_KINDS = (OK, COMPILE_ERROR, CRASH, TIMEOUT, SKIPPED)
MESA_KINDS = ("ok", "dummy", "compile_error", "crash")
FAILED = (COMPILE_ERROR, CRASH, TIMEOUT)
WORST_COUNT = 10


class Corpus:
    """How a corpus is named in its summary."""

    def __init__(self, key, title, column, strip, crash_note, has_times):
        self.key, self.title, self.column = key, title, column
        self.strip, self.crash_note, self.has_times = strip, crash_note, has_times

    def short(self, name):
        return name[len(self.strip):] if self.strip and name.startswith(self.strip) else name


PIGLIT = Corpus("piglit", "piglit fragment shaders", "test (under tests/spec/)",
                "tests/spec/", "source saved under crashes/", False)
REALWORLD = Corpus("realworld", "real-world fragment shaders",
                   "shader (file of the corpus directory)", "",
                   "the source is that file of the corpus directory", True)


def write_csv(path, jobs):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(("file", "status") + OUR_FIELDS +
                   tuple("mesa_" + c for c in ("status",) + MESA_FIELDS + ("error",)) +
                   OUR_EXTRA + tuple("mesa_" + c for c in MESA_EXTRA) + EXEC_FIELDS +
                   CP_FIELDS)
        for j in jobs:
            ours = tuple(j.stats.get(k, "") for k in OUR_FIELDS)
            mesa = tuple(j.mesa.get(c, "") for c in ("status",) + MESA_FIELDS + ("error",))
            extra = (tuple(j.stats.get(k, "") for k in OUR_EXTRA) +
                     tuple(j.mesa.get(c, "") for c in MESA_EXTRA) +
                     tuple(j.stats.get(k, "") for k in EXEC_FIELDS) +
                     tuple(j.stats.get(k, "") for k in CP_FIELDS))
            w.writerow((j.name, j.status) + ours + mesa + extra)


def mesa_int(job, column):
    try:
        return int(job.mesa.get(column, ""))
    except ValueError:
        return 0


def mesa_us(job):
    """Mesa's ms_total in microseconds, or None."""
    try:
        return float(job.mesa.get("ms_total", "")) * 1000.0
    except ValueError:
        return None


def cell(name):
    return name.replace("|", "\\|")


def alu_slots(job):
    """ALU instructions, the output-writing ones included: what lower_bound
    bounds (backend/schedule.c)."""
    return job.stats["alu"] + job.stats["out"]


def fmt(x):
    if isinstance(x, float):
        return "%.3g" % x if abs(x) < 100 else "%.0f" % x
    return str(x)


def ratio(a, b):
    return "%.3f" % (a / b) if b else "n/a"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(fmt(c) for c in r) + " |" for r in rows]
    return out


def status_section(jobs, noun="tests"):
    lines = ["## Status", ""]
    ours = collections.Counter(j.kind for j in jobs)
    mesa = collections.Counter(j.mesa.get("status", "?") for j in jobs)
    lines.append("uscc: " + ", ".join("%s %d" % (k, ours[k]) for k in OUR_KINDS) +
                 "  (of %d %s)" % (len(jobs), noun))
    lines.append("")
    lines.append("Mesa: " + ", ".join("%s %d" % (k, mesa[k]) for k in MESA_KINDS))
    lines.append("")
    cross = [[m] + [sum(1 for j in jobs if j.mesa.get("status") == m and j.kind == k)
                    for k in OUR_KINDS] for m in MESA_KINDS]
    lines += table(["Mesa \\ uscc"] + list(OUR_KINDS), cross)
    reasons = collections.Counter(j.detail for j in jobs if j.kind == SKIPPED)
    if reasons:
        lines += ["", "Skipped by uscc, by reason:", ""]
        lines += ["- %d: %s" % (n, r) for r, n in reasons.most_common()]
    return lines


def figures_section(both, all_ok, corpus=PIGLIT):
    lines = ["## Figures over the %d shaders both compiled" % len(both), ""]
    rows = []
    for label, ours_key, mesa_col in COMPARED:
        u = [j.stats[ours_key] for j in both]
        m = [mesa_int(j, mesa_col) for j in both]
        beat = sum(a < b for a, b in zip(u, m))
        tie = sum(a == b for a, b in zip(u, m))
        rows.append([label, sum(u), sum(m), ratio(sum(u), sum(m)),
                     float(statistics.median(u)) if u else 0.0,
                     float(statistics.median(m)) if m else 0.0,
                     beat, tie, len(u) - beat - tie])
    lines += table(["figure", "uscc total", "Mesa total", "ratio uscc/Mesa",
                    "uscc median", "Mesa median", "uscc better", "tie", "uscc worse"], rows)
    lines += [""]
    for label, ours_key, mesa_col in COMPARED[:3]:
        pairs = [(j.stats[ours_key], mesa_int(j, mesa_col)) for j in both]
        r = [a / b for a, b in pairs if a > 0 and b > 0]
        if r:
            lines.append("- Per-shader %s ratio uscc/Mesa (%d shaders, both > 0): median %.3f, "
                         "geometric mean %.3f." % (label, len(r), statistics.median(r),
                                                   math.exp(statistics.mean(map(math.log, r)))))
    lines += [""]
    for title, group in (("both compiled", both), ("all uscc compiled", all_ok)):
        if not group:
            continue
        slots = sum(alu_slots(j) for j in group)
        bound = sum(j.stats["lower_bound"] for j in group)
        at = sum(alu_slots(j) <= j.stats["lower_bound"] for j in group)
        lines.append("Optimization gap (%s, %d shaders): ALU slots (alu + out) %d vs "
                     "lower_bound %d: %d above the bound (%.1f%%); %d shaders at the bound "
                     "(the bound holds for uscc's own choice of ops, not for every choice)."
                     % (title, len(group), slots, bound, slots - bound,
                        100.0 * (slots - bound) / bound if bound else 0.0, at))
        lines.append("")
    if both:
        lines.append("Co-issued pairs %d, hazard NOPs %d (both compiled)."
                     % (sum(j.stats["pairs"] for j in both), sum(j.stats["nops"] for j in both)))
        lines.append("")
        listed = [j for j in both if "tex_blocks" in j.stats]
        lines.append("From the `-S` listings (%d of them): TEX blocks (runs of consecutive "
                     "tex instructions, 30 cycles each before hiding) %d over %d TEX "
                     "instructions (Mesa: %d TEX instructions); presubtract uses uscc %d, "
                     "Mesa %d; OMOD uses uscc %d, Mesa %d (per RGB/alpha unit)."
                     % (len(listed), sum(j.stats["tex_blocks"] for j in listed),
                        sum(j.stats["tex"] for j in listed),
                        sum(mesa_int(j, "tex") for j in listed),
                        sum(j.stats["presub"] for j in listed),
                        sum(mesa_int(j, "presub") for j in listed),
                        sum(j.stats["omod"] for j in listed),
                        sum(mesa_int(j, "omod") for j in listed)))
        lines.append("")
    if all_ok:
        us = sorted(j.stats["compile_us"] for j in all_ok)
        wall = sorted(j.wall * 1e6 for j in all_ok)
        lines.append("Compile time (all %d uscc compiled): median %d us, 90th percentile "
                     "%d us (%s); median process wall time %d us."
                     % (len(us), statistics.median(us), us[int(0.9 * (len(us) - 1))],
                        timer_words(all_ok), statistics.median(wall)))
        lines.append("")
    return lines


def timer_words(jobs):
    """How compile_us was taken, for the summary's sentences."""
    how = {j.stats.get("compile_timer", "") for j in jobs}
    if how == {"in-process"}:
        return ("uscc-time: the median of %s compiles in one process, through the "
                "library, as Mesa's ms_total was measured"
                % "/".join(sorted({str(j.stats.get("compile_runs", "")) for j in jobs})))
    return "uscc --stats compile_us, one process per run"


def process_us(job):
    return job.stats.get("compile_us_process", job.stats["compile_us"])


def compile_time_section(both, all_ok, corpus):
    """uscc's compile_us beside Mesa's ms_total (source to machine code for
    the program), where the baseline has it."""
    lines = ["## Compile time", ""]
    if all_ok:
        worst = max(all_ok, key=lambda j: j.stats["compile_us"])
        lines.append("uscc (all %d it compiled): worst %d us (%s); median above."
                     % (len(all_ok), worst.stats["compile_us"], corpus.short(worst.name)))
        lines.append("")
    timed = [j for j in both if mesa_us(j) is not None]
    if not corpus.has_times or not timed:
        lines.append("Mesa's baseline of this corpus has no compile times.")
        return lines + [""]
    us = [j.stats["compile_us"] for j in timed]
    mesa = [mesa_us(j) for j in timed]
    u_med, m_med = statistics.median(us), statistics.median(mesa)
    u_worst = max(timed, key=lambda j: j.stats["compile_us"])
    m_worst = max(timed, key=mesa_us)
    per = [m / u for m, u in zip(mesa, us) if u > 0]
    lines.append("Over the %d shaders both compiled (uscc: %s; Mesa: ms_total, "
                 "glCompileShader + glLinkProgram + first draw, median of 5 runs in one "
                 "process, its pass-through vertex shader included):"
                 % (len(timed), timer_words(timed)))
    lines.append("")
    lines += table(["", "uscc", "Mesa", "ratio Mesa/uscc"],
                   [["median (us)", "%.0f" % u_med, "%.0f" % m_med, ratio(m_med, u_med)],
                    ["worst (us)", "%d (%s)" % (u_worst.stats["compile_us"],
                                                cell(corpus.short(u_worst.name))),
                     "%.0f (%s)" % (mesa_us(m_worst), cell(corpus.short(m_worst.name))),
                     ratio(mesa_us(m_worst), u_worst.stats["compile_us"])]])
    lines.append("")
    if per:
        lines.append("Per-shader ratio Mesa/uscc: median %.1f, lowest %.1f."
                     % (statistics.median(per), min(per)))
        lines.append("")
    cold = [process_us(j) for j in timed]
    if any("compile_us_process" in j.stats for j in timed):
        lines.append("One compile per process (`uscc --stats` compile_us, a cold start: "
                     "the binary's pages and caches): median %.0f us, ratio Mesa/uscc %s "
                     "at the medians; slower than Mesa on %d."
                     % (statistics.median(cold), ratio(m_med, statistics.median(cold)),
                        sum(1 for j in timed if process_us(j) > mesa_us(j))))
        lines.append("")
    slower = sorted((j for j in timed if j.stats["compile_us"] > mesa_us(j)),
                    key=lambda j: j.stats["compile_us"] - mesa_us(j), reverse=True)
    lines.append("uscc slower than Mesa: %d shader%s." % (len(slower), "" if len(slower) == 1 else "s"))
    if slower:
        lines.append("")
        lines += table([corpus.column, "uscc us", "runs", "Mesa us"],
                       [[cell(corpus.short(j.name)), j.stats["compile_us"],
                         j.stats.get("compile_runs", 1), "%.0f" % mesa_us(j)] for j in slower])
    return lines + [""]


def executed(job):
    """True when uscc-run gave the job's executed figures."""
    return job.stats.get("exec_status") == OK


def has_flow(job):
    """Flow control on either side: uscc's fc > 0 or Mesa's loops > 0."""
    return job.stats.get("fc", 0) > 0 or mesa_int(job, "loops") > 0


def exec_differs(job):
    return executed(job) and job.stats["exec_cycles_median"] != job.stats["cycles"]


def exec_section(jobs, both, all_ok, corpus):
    """Executed cycles per pixel beside the static figures."""
    from quality_run import RUN_SIZE, RUN_UNIFORMS
    lines = ["## Executed cycles (uscc-run, %s pixels)" % RUN_SIZE, ""]
    tried = [j for j in all_ok if "exec_status" in j.stats]
    if not tried:
        return lines + ["Not measured (--no-exec).", ""]
    ran = [j for j in tried if executed(j)]
    lines += ["Each shader uscc compiled, run by `uscc-run --stats`: the cycles a pixel "
              "executes under the cost model of `--stats`, every loop trip counted "
              "(exec = the median over the pixels).  Static figures (uscc's and Mesa's) "
              "count a loop body once.  Figures for %d of the %d shaders uscc compiled."
              % (len(ran), len(tried)), "",
              "Inputs: built-in textures, default varyings, every uniform 0 except %s "
              "where the shader has it%s; a loop bounded by a uniform may run 0 trips."
              % (", ".join("%s = (%s)" % nv for nv in RUN_UNIFORMS),
                 " (not the values of piglit's [test] section)" if corpus is PIGLIT else ""),
              ""]
    flow = [j for j in both if executed(j) and has_flow(j)]
    loops = [j for j in flow if mesa_int(j, "loops") > 0]
    rows = []
    for title, group in (("flow control (uscc fc > 0 or Mesa loops > 0)", flow),
                         ("of which Mesa loops > 0", loops),
                         ("all both compiled and run", [j for j in both if executed(j)])):
        if not group:
            rows.append([title, 0, "", "", "", "", ""])
            continue
        ex = [j.stats["exec_cycles_median"] for j in group]
        st = [j.stats["cycles"] for j in group]
        me = [mesa_int(j, "cycles") for j in group]
        rows.append([title, len(group), sum(ex), sum(st), sum(me),
                     "%g / %g / %g" % (statistics.median(ex), statistics.median(st),
                                       statistics.median(me)),
                     "%s / %s" % (ratio(sum(ex), sum(st)), ratio(sum(ex), sum(me)))])
    lines += table(["shaders both compiled", "n", "uscc exec total", "uscc static total",
                    "Mesa static total", "median exec / uscc static / Mesa static",
                    "exec / uscc static, exec / Mesa static (totals)"], rows)
    lines.append("")
    differ = sorted((j for j in ran if exec_differs(j)),
                    key=lambda j: (j.stats["exec_cycles_median"] / max(1, j.stats["cycles"]),
                                   j.stats["exec_cycles_median"]), reverse=True)
    lines += ["### Executed cycles differ from static: %d shaders" % len(differ), "",
              "Every shader uscc compiled whose executed cycles (median per pixel) are not "
              "its static cycles: loops run more than once (or not at all), branches "
              "skipped.  Sorted by exec / static.  Mesa's static cycles count its loops' "
              "bodies once: where Mesa loops > 0, Mesa's figure undercounts what a pixel "
              "runs.", ""]
    if differ:
        def mesa_cycles(j):
            st = j.mesa.get("status", "")
            return mesa_int(j, "cycles") if st == "ok" else "(%s)" % (st or "none")
        lines += table([corpus.column, "uscc exec median", "exec max", "uscc static",
                        "exec / static", "Mesa static", "Mesa loops", "fc uscc / Mesa"],
                       [[cell(corpus.short(j.name)), j.stats["exec_cycles_median"],
                         j.stats["exec_cycles_max"], j.stats["cycles"],
                         ratio(j.stats["exec_cycles_median"], j.stats["cycles"]),
                         mesa_cycles(j), mesa_int(j, "loops"),
                         "%d / %d" % (j.stats["fc"], mesa_int(j, "fc"))] for j in differ])
    else:
        lines.append("None.")
    lines.append("")
    failed = [j for j in tried if not executed(j)]
    if failed:
        lines += ["### No executed figures: %d shaders" % len(failed), ""]
        lines += table([corpus.column, "exec_status"],
                       [[cell(corpus.short(j.name)), cell(j.stats["exec_status"])]
                        for j in failed])
        lines.append("")
    return lines


def worse_reason(j):
    """Where a shader's loss comes from, read off the figures (a first
    sort for the work, not a diagnosis): op selection when uscc's own
    lower bound already exceeds Mesa's instruction count, scheduling when
    uscc's ALU slots are above that bound, TEX latency when uscc waits more
    cycles beyond its instructions than Mesa, flow control when uscc's
    control flow differs, and register pressure for temps."""
    why = []
    inst, m_inst = j.stats["instructions"], mesa_int(j, "inst")
    bound, slots = j.stats["lower_bound"], alu_slots(j)
    if j.stats["fc"] != mesa_int(j, "fc"):
        why.append("flow control %d / %d" % (j.stats["fc"], mesa_int(j, "fc")))
    if inst > m_inst or j.stats["cycles"] > mesa_int(j, "cycles"):
        if bound + j.stats["tex"] + j.stats["fc"] > m_inst:
            why.append("op selection: bound %d" % bound)
        if slots > bound:
            why.append("schedule: %d above bound" % (slots - bound))
    wait, m_wait = j.stats["cycles"] - inst, mesa_int(j, "cycles") - m_inst
    if wait > m_wait:
        why.append("TEX latency: %d more waiting" % (wait - m_wait))
    if j.stats["temps"] > mesa_int(j, "temps"):
        why.append("register pressure")
    return "; ".join(why) or "-"


def worse_section(both, corpus):
    """Every shader where uscc loses to Mesa on cycles, instructions or temps."""
    figs = (("cycles", "cycles", "cycles"), ("inst", "instructions", "inst"),
            ("temps", "temps", "temps"))

    def diffs(j):
        return tuple(j.stats[k] - mesa_int(j, c) for _, k, c in figs)
    worse = sorted((j for j in both if max(diffs(j)) > 0), key=diffs, reverse=True)
    counts = [sum(1 for j in both if j.stats[k] > mesa_int(j, c)) for _, k, c in figs]
    lines = ["## uscc worse than Mesa: %d shaders (%d in cycles, %d in instructions, "
             "%d in temps)" % (len(worse), counts[0], counts[1], counts[2]), "",
             "Every shader both compiled where some figure of uscc's is above Mesa's "
             "(**bold**); sorted by the cycle difference, then instructions, then temps. "
             "fc: uscc's flow-control instructions / Mesa's (Mesa keeps loops it cannot "
             "unroll: its static figures count the body once). where from: read off "
             "the figures (bench/quality_report.py worse_reason), a first sort for "
             "the work, not a diagnosis.", ""]
    if not worse:
        return lines + ["None.", ""]
    rows = []
    for j in worse:
        row = [cell(corpus.short(j.name))]
        for (label, key, col), d in zip(figs, diffs(j)):
            a, b = j.stats[key], mesa_int(j, col)
            row.append(("**%d** / %d" if d > 0 else "%d / %d") % (a, b))
        row += [j.stats["lower_bound"], "%d / %d" % (j.stats["fc"], mesa_int(j, "fc")),
                worse_reason(j)]
        rows.append(row)
    lines += table([corpus.column, "cycles uscc / Mesa", "inst uscc / Mesa",
                    "temps uscc / Mesa", "lower_bound", "fc uscc / Mesa", "where from"], rows)
    return lines + [""]


def worst_section(both, corpus=PIGLIT):
    def key(j):
        m = max(1, mesa_int(j, "inst"))
        return (j.stats["instructions"] / m, j.stats["instructions"] - m)
    worst = sorted(both, key=key, reverse=True)[:WORST_COUNT]
    lines = ["## The %d worst by instruction ratio" % len(worst), ""]
    rows = [[cell(corpus.short(j.name)), j.stats["instructions"], mesa_int(j, "inst"),
             "%.2f" % key(j)[0], j.stats["temps"], mesa_int(j, "temps"),
             j.stats["cycles"], mesa_int(j, "cycles"), j.stats["lower_bound"]]
            for j in worst]
    lines += table([corpus.column, "uscc inst", "Mesa inst", "ratio",
                    "uscc temps", "Mesa temps", "uscc cycles", "Mesa cycles",
                    "lower_bound"], rows)
    return lines + [""]


def failures_section(jobs, corpus=PIGLIT):
    lost = [j for j in jobs if j.mesa.get("status") == "ok" and j.kind in FAILED]
    lines = ["## Mesa compiled, uscc failed: %d (correctness work items)" % len(lost), ""]
    if lost:
        lines += table([corpus.column, "uscc status"],
                       [[cell(corpus.short(j.name)), cell(j.status)] for j in lost])
    else:
        lines.append("None.")
    other = [j for j in jobs if j.mesa.get("status") not in ("ok", None)]
    if other:
        lines += ["", "## Mesa did not compile: %d" % len(other), ""]
        lines += table([corpus.column, "Mesa", "uscc status"],
                       [[cell(corpus.short(j.name)), j.mesa.get("status"),
                         cell(j.status)] for j in other])
    return lines + [""]


def loud_section(jobs, corpus=PIGLIT):
    bad = [j for j in jobs if j.kind in (CRASH, TIMEOUT)]
    if not bad:
        return []
    lines = ["## !!! %d CRASHES / TIMEOUTS !!!" % len(bad), ""]
    lines += ["- **%s**: %s (%s)" % (j.name, j.status, corpus.crash_note) for j in bad]
    return lines + [""]


def both_compiled(jobs):
    return [j for j in jobs if j.kind == OK and j.mesa.get("status") == "ok"]


def summary(jobs, header, corpus=PIGLIT):
    both = both_compiled(jobs)
    all_ok = [j for j in jobs if j.kind == OK]
    lines = ["# uscc vs Mesa r300 (RV530): %s" % corpus.title, ""] + header + [""]
    lines += loud_section(jobs, corpus)
    lines += status_section(jobs, "tests" if corpus is PIGLIT else "shaders") + [""]
    lines += figures_section(both, all_ok, corpus)
    lines += compile_time_section(both, all_ok, corpus)
    lines += exec_section(jobs, both, all_ok, corpus)
    lines += worst_section(both, corpus)
    lines += worse_section(both, corpus)
    lines += failures_section(jobs, corpus)
    return "\n".join(lines).rstrip() + "\n"


def headline(jobs):
    """The figures of one corpus that the overview puts side by side."""
    both = both_compiled(jobs)
    kinds = collections.Counter(j.kind for j in jobs)
    mesa = collections.Counter(j.mesa.get("status", "?") for j in jobs)
    h = {"shaders": len(jobs), "uscc ok": kinds[OK],
         "uscc compile_error": kinds[COMPILE_ERROR], "uscc skipped": kinds[SKIPPED],
         "uscc crash + timeout": kinds[CRASH] + kinds[TIMEOUT],
         "Mesa ok": mesa["ok"], "Mesa dummy": mesa["dummy"],
         "Mesa ok, uscc failed": sum(1 for j in jobs if j.mesa.get("status") == "ok"
                                     and j.kind in FAILED),
         "both compiled": len(both)}
    for label, key, col in COMPARED[:3]:
        u = sum(j.stats[key] for j in both)
        m = sum(mesa_int(j, col) for j in both)
        h["%s uscc / Mesa" % label] = "%d / %d" % (u, m)
        h["%s ratio uscc/Mesa" % label] = ratio(u, m)
        h["%s better / tie / worse" % label] = "%d / %d / %d" % (
            sum(j.stats[key] < mesa_int(j, col) for j in both),
            sum(j.stats[key] == mesa_int(j, col) for j in both),
            sum(j.stats[key] > mesa_int(j, col) for j in both))
    h["worse in any of the three"] = sum(
        1 for j in both if any(j.stats[k] > mesa_int(j, c) for _, k, c in COMPARED[:3]))
    slots = sum(alu_slots(j) for j in both)
    bound = sum(j.stats["lower_bound"] for j in both)
    h["ALU slots above lower_bound"] = "%d (%.1f%%)" % (
        slots - bound, 100.0 * (slots - bound) / bound if bound else 0.0)
    h["pairs / NOPs / TEX blocks"] = "%d / %d / %d" % (
        sum(j.stats["pairs"] for j in both), sum(j.stats["nops"] for j in both),
        sum(j.stats.get("tex_blocks", 0) for j in both))
    if both:
        h["compile median uscc (us)"] = "%.0f" % statistics.median(
            j.stats["compile_us"] for j in both)
    timed = [j for j in both if mesa_us(j) is not None]
    if timed:
        u = statistics.median(j.stats["compile_us"] for j in timed)
        m = statistics.median(mesa_us(j) for j in timed)
        h["compile median Mesa (us)"] = "%.0f" % m
        h["compile ratio Mesa/uscc (medians)"] = ratio(m, u)
        h["compile ratio, one compile per process"] = ratio(
            m, statistics.median(process_us(j) for j in timed))
        h["uscc compiles slower than Mesa"] = sum(
            1 for j in timed if j.stats["compile_us"] > mesa_us(j))
    else:
        h["compile median Mesa (us)"] = "n/a"
        h["compile ratio Mesa/uscc (medians)"] = ""      # keeps the overview's row order
        h["compile ratio, one compile per process"] = ""
        h["uscc compiles slower than Mesa"] = ""
    tried = [j for j in jobs if j.kind == OK and "exec_status" in j.stats]
    if tried:
        flow = [j for j in both if executed(j) and has_flow(j)]
        h["flow-control shaders run (uscc fc > 0 or Mesa loops > 0)"] = len(flow)
        h["their cycles: uscc exec / uscc static / Mesa static"] = "%d / %d / %d" % (
            sum(j.stats["exec_cycles_median"] for j in flow),
            sum(j.stats["cycles"] for j in flow), sum(mesa_int(j, "cycles") for j in flow))
        h["exec cycles differ from static (uscc compiled)"] = sum(
            1 for j in tried if exec_differs(j))
        h["no executed figures (uscc-run failed)"] = sum(
            1 for j in tried if not executed(j))
    return h


def overview(results, header):
    """results: [(Corpus, jobs)]; one column per corpus."""
    heads = [(c, headline(jobs)) for c, jobs in results]
    keys = []
    for _, h in heads:
        keys += [k for k in h if k not in keys]
    lines = ["# uscc vs Mesa r300 (RV530): the corpora side by side", ""] + header + [""]
    lines += ["Figures over the shaders both compiled unless the row says otherwise; "
              "details in each corpus's summary.", ""]
    lines += table(["figure"] + [c.key for c, _ in heads],
                   [[k] + [h.get(k, "") for _, h in heads] for k in keys])
    return "\n".join(lines).rstrip() + "\n"
