"""The outputs of bench/quality: the per-shader CSV and the Markdown summary.

Figures compared with Mesa: ours from `uscc --stats` (INTERFACES.md §4),
Mesa's from shared/baselines/mesa-r300-rv530-piglit.csv (same cost model for
cycles).  Totals and medians are taken over the shaders both compiled
(Mesa `ok`, ours `ok`), so the two sides count the same programs.
"""

import collections
import csv
import math
import statistics

from quality_run import OK, COMPILE_ERROR, CRASH, TIMEOUT, SKIPPED

OUR_FIELDS = ("instructions", "alu", "tex", "fc", "out", "nops", "pairs", "temps",
              "constants", "lower_bound", "cycles", "compile_us")
MESA_FIELDS = ("inst", "temps", "consts", "cycles")
# The figures both sides report: (label, our --stats key, Mesa column).
COMPARED = (("instructions", "instructions", "inst"), ("temps", "temps", "temps"),
            ("cycles", "cycles", "cycles"), ("constants", "constants", "consts"))
OUR_KINDS = (OK, COMPILE_ERROR, CRASH, TIMEOUT, SKIPPED)
MESA_KINDS = ("ok", "dummy", "compile_error", "crash")
FAILED = (COMPILE_ERROR, CRASH, TIMEOUT)
WORST_COUNT = 10


def write_csv(path, jobs):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(("file", "status") + OUR_FIELDS +
                   tuple("mesa_" + c for c in ("status",) + MESA_FIELDS + ("error",)))
        for j in jobs:
            ours = tuple(j.stats.get(k, "") for k in OUR_FIELDS)
            mesa = tuple(j.mesa.get(c, "") for c in ("status",) + MESA_FIELDS + ("error",))
            w.writerow((j.name, j.status) + ours + mesa)


def short(name):
    return name[len("tests/spec/"):] if name.startswith("tests/spec/") else name


def mesa_int(job, column):
    try:
        return int(job.mesa.get(column, ""))
    except ValueError:
        return 0


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


def status_section(jobs):
    lines = ["## Status", ""]
    ours = collections.Counter(j.kind for j in jobs)
    mesa = collections.Counter(j.mesa.get("status", "?") for j in jobs)
    lines.append("uscc: " + ", ".join("%s %d" % (k, ours[k]) for k in OUR_KINDS) +
                 "  (of %d tests)" % len(jobs))
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


def figures_section(both, all_ok):
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
    if all_ok:
        us = sorted(j.stats["compile_us"] for j in all_ok)
        wall = sorted(j.wall * 1e6 for j in all_ok)
        lines.append("Compile time (all %d uscc compiled): median %d us, 90th percentile "
                     "%d us (uscc's compile_us); median process wall time %d us."
                     % (len(us), statistics.median(us), us[int(0.9 * (len(us) - 1))],
                        statistics.median(wall)))
        lines.append("")
    return lines


def worst_section(both):
    def key(j):
        m = max(1, mesa_int(j, "inst"))
        return (j.stats["instructions"] / m, j.stats["instructions"] - m)
    worst = sorted(both, key=key, reverse=True)[:WORST_COUNT]
    lines = ["## The %d worst by instruction ratio" % len(worst), ""]
    rows = [[short(j.name), j.stats["instructions"], mesa_int(j, "inst"),
             "%.2f" % key(j)[0], j.stats["temps"], mesa_int(j, "temps"),
             j.stats["cycles"], mesa_int(j, "cycles"), j.stats["lower_bound"]]
            for j in worst]
    lines += table(["test (under tests/spec/)", "uscc inst", "Mesa inst", "ratio",
                    "uscc temps", "Mesa temps", "uscc cycles", "Mesa cycles",
                    "lower_bound"], rows)
    return lines + [""]


def failures_section(jobs):
    lost = [j for j in jobs if j.mesa.get("status") == "ok" and j.kind in FAILED]
    lines = ["## Mesa compiled, uscc failed: %d (correctness work items)" % len(lost), ""]
    if lost:
        lines += table(["test (under tests/spec/)", "uscc status"],
                       [[short(j.name), j.status.replace("|", "\\|")] for j in lost])
    else:
        lines.append("None.")
    other = [j for j in jobs if j.mesa.get("status") not in ("ok", None)]
    if other:
        lines += ["", "## Mesa did not compile: %d" % len(other), ""]
        lines += table(["test (under tests/spec/)", "Mesa", "uscc status"],
                       [[short(j.name), j.mesa.get("status"),
                         j.status.replace("|", "\\|")] for j in other])
    return lines + [""]


def loud_section(jobs):
    bad = [j for j in jobs if j.kind in (CRASH, TIMEOUT)]
    if not bad:
        return []
    lines = ["## !!! %d CRASHES / TIMEOUTS !!!" % len(bad), ""]
    lines += ["- **%s**: %s (source saved under crashes/)" % (j.name, j.status) for j in bad]
    return lines + [""]


def summary(jobs, header):
    both = [j for j in jobs if j.kind == OK and j.mesa.get("status") == "ok"]
    all_ok = [j for j in jobs if j.kind == OK]
    lines = ["# uscc vs Mesa r300 (RV530): piglit fragment shaders", ""] + header + [""]
    lines += loud_section(jobs)
    lines += status_section(jobs) + [""]
    lines += figures_section(both, all_ok)
    lines += worst_section(both)
    lines += failures_section(jobs)
    return "\n".join(lines).rstrip() + "\n"
