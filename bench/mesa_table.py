"""bench/mesa's table: per corpus, what r300 and r300 with uscc compiled,
pixel agreement, and uscc's program against r300's own on the same TGSI
(ratios of instructions, temps, static and executed cycles, compile time),
with every shader worse than r300 and every exception listed.

A row (one shader) is a dict; the keys read here:
  name, mesa ('ok', 'refused' (Mesa's GLSL compiler or linker, or a crash
  or timeout with uscc and without), 'dummy' (r300's compiler failed)), driver ('uscc', 'fallback', 'fail', or None
  when r300 did not get the shader), why (fallback/fail reason),
  pixels {'-O0': 'ok'|'known'|'differs'|'n/a', '-O2': ...}, notes [..],
  and, when both programs were measured, fig = {'inst': (uscc, r300),
  'temps': .., 'r300_stat_temps': .., 'cycles': .., 'exec': .., 'time': ..}.
Standard library only."""

import statistics

FIGURES = (("inst", "instructions"),
           ("temps", "temps (US_PIXSIZE + 1: a pixel's registers, inputs included)"),
           ("r300_stat_temps", "(context) temps as each compiler counts them (r300: its temp "
            "file only, not the registers inputs arrive in)"),
           ("cycles", "static cycles"),
           ("exec", "executed cycles"), ("time", "compile time"),
           ("glsl_inst", "(context) instructions of uscc from the GLSL source"))
# the goals: uscc / r300 at most this (totals)
GOALS = {"inst": 0.85, "temps": 0.90, "exec": 0.85}


def ratio_stats(pairs):
    """(median of the per-shader ratios, total ratio, count) over (uscc,
    r300) pairs; pairs with r300 at 0 count in the total only."""
    pairs = list(pairs)
    if not pairs:
        return None
    ratios = [u / r for u, r in pairs if r > 0]
    total_r = sum(r for _, r in pairs)
    return (statistics.median(ratios) if ratios else float("nan"),
            sum(u for u, _ in pairs) / total_r if total_r else float("nan"), len(pairs))


def corpus_summary(rows):
    """The counts and ratios of one corpus."""
    s = {"shaders": len(rows)}
    s["mesa_refused"] = sum(r["mesa"] == "refused" for r in rows)
    s["r300_ok"] = sum(r["mesa"] == "ok" for r in rows)
    s["r300_dummy"] = sum(r["mesa"] == "dummy" for r in rows)
    for kind in ("uscc", "fallback", "fail"):
        s["driver_" + kind] = sum(r.get("driver") == kind for r in rows)
    for opt in ("-O0", "-O2"):
        for verdict in ("ok", "known", "differs"):
            s["px%s_%s" % (opt, verdict)] = sum(r.get("pixels", {}).get(opt) == verdict
                                                for r in rows)
    s["own_agrees"] = sum(bool(r.get("own_agrees")) for r in rows)
    measured = [r for r in rows if r.get("fig")]
    s["measured"] = len(measured)
    for key, _ in FIGURES:
        s[key] = ratio_stats(r["fig"][key] for r in measured if r["fig"].get(key))
    s["slower_compile"] = sorted(r["name"] for r in measured
                                 if r["fig"].get("time") and r["fig"]["time"][0] > r["fig"]["time"][1])
    s["worse_exec"] = sorted((r["name"], r["fig"]) for r in measured
                             if r["fig"].get("exec") and r["fig"]["exec"][0] > r["fig"]["exec"][1])
    return s


def fmt_ratio(st):
    if not st:
        return "-"
    return "%.3f / %.3f" % (st[0], st[1])


def table(summaries):
    """The table, markdown: one column per corpus."""
    names = [n for n, _ in summaries]
    lines = ["| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]

    def row(label, fn):
        lines.append("| %s | %s |" % (label, " | ".join(fn(s) for _, s in summaries)))
    row("shaders", lambda s: str(s["shaders"]))
    row("Mesa refuses (GLSL errors; a crash with and without uscc)",
        lambda s: str(s["mesa_refused"]))
    row("r300 compiles (its own compiler)", lambda s: str(s["r300_ok"]))
    row("r300 fails (dummy shader)", lambda s: str(s["r300_dummy"]))
    row("r300 with uscc: compiled by uscc", lambda s: str(s["driver_uscc"]))
    row("r300 with uscc: fell back to r300", lambda s: str(s["driver_fallback"]))
    row("r300 with uscc: FAILED", lambda s: str(s["driver_fail"]))
    for opt in ("-O0", "-O2"):
        row("pixels TGSI = GLSL program %s: agree / known / DIFFER" % opt,
            lambda s, o=opt: "%d / %d / %d" % (s["px%s_ok" % o], s["px%s_known" % o],
                                                s["px%s_differs" % o]))
    row("measured against r300 (same TGSI)", lambda s: str(s["measured"]))
    row("r300's own program in uscc-run = uscc's GLSL program", lambda s: str(s["own_agrees"]))
    for key, label in FIGURES:
        goal = " (goal <= %.2f)" % GOALS[key] if key in GOALS else ""
        row("%s uscc/r300: median / total%s" % (label, goal), lambda s, k=key: fmt_ratio(s[k]))
    row("shaders worse than r300 in executed cycles", lambda s: str(len(s["worse_exec"])))
    row("shaders uscc compiles slower than r300", lambda s: str(len(s["slower_compile"])))
    return "\n".join(lines) + "\n"


def exceptions(corpus, rows, s):
    """Every shader off the goals, one line each with its reason."""
    out = []
    for r in rows:
        if r.get("driver") == "fallback":
            out.append("- %s %s: fell back to r300: %s" % (corpus, r["name"], r.get("why", "?")))
        if r.get("driver") == "fail":
            out.append("- %s %s: FAILED: %s" % (corpus, r["name"], r.get("why", "?")))
        for opt, verdict in sorted(r.get("pixels", {}).items()):
            if verdict == "n/a":
                out.append("- %s %s %s: pixels not compared: %s" % (
                    corpus, r["name"], opt, r.get("pixel_why", {}).get(opt, "")))
            if verdict in ("known", "differs"):
                out.append("- %s %s %s: pixels %s: %s" % (
                    corpus, r["name"], opt, "differ (known)" if verdict == "known" else "DIFFER",
                    r.get("pixel_why", {}).get(opt, "")))
        for note in r.get("notes", []):
            out.append("- %s %s: %s" % (corpus, r["name"], note))
    for name, fig in s["worse_exec"]:
        # where from, read off the figures: uscc's against r300's
        where = ", ".join("%s %g/%g" % (label, fig[key][0], fig[key][1])
                          for key, label in (("inst", "instructions"), ("temps", "temps"),
                                             ("cycles", "static cycles")) if fig.get(key))
        out.append("- %s %s: executed cycles %g > r300's %g (uscc/r300: %s)" % (
            corpus, name, fig["exec"][0], fig["exec"][1], where))
    for name in s["slower_compile"]:
        out.append("- %s %s: uscc compiles slower than r300" % (corpus, name))
    return out
