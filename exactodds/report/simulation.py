"""Views of a simulation and of a cross-check: their JSON documents and their text.

Simulation types are imported for type checking only and the simulation code when a
document is built, so loading this module (as the command line does at start-up) loads
no numpy simulation code.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from exactodds.exact import decimal, percent, ratio, sqrt_decimal
from exactodds.report.views import Block, Table, View, render_view
from exactodds.version import __version__

if TYPE_CHECKING:
    from exactodds.simulation.crosscheck import CrossCheck, Section
    from exactodds.simulation.simulate import Simulation
    from exactodds.simulation.statistics import FamilyTest


# -- simulate ---------------------------------------------------------------------------------
def _estimate_json(e: Any) -> dict[str, Any] | None:
    """A :class:`~exactodds.simulation.simulate.ReturnEstimate` as JSON (exact values as
    ``"p/q"`` with a ``_decimal`` beside; statistics as numbers)."""
    if e is None:
        return None
    low, high = e.interval
    return {"rounds": e.rounds, "observed_return": ratio(e.observed),
            "observed_return_decimal": decimal(e.observed, 8),
            "standard_error": e.standard_error, "standard_error_decimal": sqrt_decimal(e.se_squared, 8),
            "interval_95": [low, high], "exact_return": ratio(e.exact), "exact_return_decimal": decimal(e.exact, 8),
            "z": e.z}


def simulation_json(sim: Simulation, pairs: list[tuple[str, str]], skipped: list[str]) -> dict[str, Any]:
    """The simulation as a JSON document: integer counts, exact ``"p/q"`` returns, and per
    wager the observed return, its standard error, a 95 % interval, the exact return and z
    (:func:`~exactodds.simulation.simulate.estimate_return`; shoe mode: on the comparable
    rounds, the ones whose distribution is the exact fresh-shoe one)."""
    from exactodds.simulation.engine_link import exact_analysis
    from exactodds.simulation.simulate import estimate_return

    assert sim.settled is not None, "simulate(..., settler=...) settles the wagers"
    compared = sim.settled.families(0)
    every = sim.settled.families()
    wagers = []
    for key in pairs:
        a = exact_analysis(key[0], key[1], sim.shoe)
        nets = {r.name: r.pay.net for r in a.rows}
        est = estimate_return(compared[key], nets, a.return_, a.variance)
        item: dict[str, Any] = {"wager": key[0], "paytable": key[1], "level": a.wager.level.name,
                                "counts": every[key], **(_estimate_json(est) or {"rounds": 0})}
        if not a.wager.level.baccarat:
            item["dealt_from"] = f"fresh deals of its own shoe ({a.wager.level.dealt_shoe(sim.shoe).describe()})"
        if a.meter_amounts:
            item["meters"] = {k: ratio(v) for k, v in a.meter_amounts.items()}
        if sim.mode == "shoe":
            obs_all = estimate_return(every[key], nets, a.return_, a.variance)
            item["all_rounds"] = {"rounds": sum(every[key].values()),
                                  "observed_return": ratio(obs_all.observed) if obs_all else None,
                                  "observed_return_decimal": decimal(obs_all.observed, 8) if obs_all else None}
        wagers.append(item)
    doc: dict[str, Any] = {
        "mode": sim.mode, "rounds": sim.rounds, "seed": sim.seed, "shoe": sim.shoe.to_json(),
        "seconds": round(sim.seconds, 3), "rounds_per_second": round(sim.rounds / sim.seconds) if sim.seconds else None,
        "round_results": {f"{c.player_total},{c.banker_total},{c.player_cards},{c.banker_cards}": n
                          for c, n in sorted(sim.coup_counts().items())},
        "wagers": wagers, "skipped": skipped, "version": __version__,
        "statistics": "observed return = mean net per unit over the rounds compared; standard error = s/sqrt(n) "
                      "(sample s); interval_95 = observed +- 1.96 standard errors; z = (observed - exact) / "
                      "(exact sigma / sqrt(n))",
    }
    if sim.mode == "shoe":
        assert sim.comparable is not None
        assert sim.cover is not None
        doc.update(cover=sim.cover.low if sim.cover.exact else str(sim.cover), shoes=sim.shoes,
                   guaranteed_rounds=sim.meta["guaranteed_rounds"],
                   comparable_rounds=int(sim.comparable.sum()))
    return doc


SUMMARY_WRAP: Final = (18, 12, 10, 9, 22, 10, 6)
"""Widest each column of the simulation summary may be in a table, so that it fits 100 columns."""

CROSSCHECK_WRAP: Final = (16, 9, 10, 5, 6, 16, 9, 8, 4)
"""Widest each column of the cross-check tables may be in a table, so that they fit 100
columns: a row takes two or three lines (the wager and its paytable, the observed return
and its interval), broken at spaces and hyphens, never inside a number (a wider one widens
its column: :attr:`~exactodds.report.views.Table.whole_words`)."""

SHORT_LABEL: Final = 24
"""Labels longer than this are shortened in the tables (:func:`_short`)."""

LARGEST: Final = 5
"""How many tests' largest deviations the text view names below each table (the table shows
only each test's largest z; JSON and CSV keep every cell)."""


def p_text(p: float) -> str:
    """A p-value in at most five characters (six below 1e-99), so the table's p column never
    breaks a number across lines: three decimals from 0.001 up, one significant digit below
    (the report's JSON and CSV keep the full value).

    >>> [p_text(x) for x in (1.0, 0.0736, 0.001, 0.000034, 1.2e-300, 0.0)]
    ['1.000', '0.074', '0.001', '3e-05', '1e-300', '0']
    """
    if p == 0:
        return "0"
    return f"{p:.3f}" if p >= 0.001 else f"{p:.0e}"


def _simulation_blocks(sim: Simulation, doc: dict[str, Any], skipped: list[str]) -> list[Block]:
    """The simulation as text: one summary table (observed return, standard error, 95 %
    interval, exact return, z per wager and paytable), then each wager's outcome counts."""
    rate = f"{sim.rounds / sim.seconds / 1e6:.1f} million rounds/s" if sim.seconds else ""
    lines: list[Block] = [(f"Simulated {sim.rounds:,} rounds, mode {sim.mode}, {sim.shoe.describe()}, seed {sim.seed}: "
             f"{sim.seconds:.2f} s ({rate})")]
    if sim.mode == "shoe":
        lines.append(f"Dealt through {doc['shoes']:,} shoes, cover card {sim.cover.describe() if sim.cover else ''} cards "
                     f"from the bottom{'' if sim.cover is None or sim.cover.exact else ', drawn shoe by shoe'} "
                     f"(§ 629a.5(d), § 629a.9(d)). Rounds 1-{doc['guaranteed_rounds']} of each shoe "
                     f"({doc['comparable_rounds']:,} rounds) are directly comparable to the exact fresh-shoe "
                     "figures and are the ones compared below; the rest are not (cut-card effect, see "
                     "docs/simulator.md).")
    lines.append("")
    rows = []
    for item in doc["wagers"]:
        if not item["rounds"]:
            rows.append([item["wager"], item["paytable"], "-", "-", "-", percent(Fraction(item["exact_return"]), 4)
                         if "exact_return" in item else "-", "-"])
            continue
        low, high = item["interval_95"]
        rows.append([item["wager"], item["paytable"], percent(Fraction(item["observed_return"]), 4),
                     f"{100 * item['standard_error']:.4f}%", f"{100 * low:.4f}% to {100 * high:.4f}%",
                     percent(Fraction(item["exact_return"]), 4), "-" if item["z"] is None else f"{item['z']:+.2f}"])
    lines.append(Table(["Wager", "Paytable", "Observed return", "Std. error", "95% interval", "Exact return", "z"],
                       rows, ("left", "left", "right", "right", "right", "right", "right"), wrap=SUMMARY_WRAP))
    lines.append("")
    lines.append("z = (observed - exact) / (exact standard deviation / sqrt(rounds)); |z| > 3 is unusual "
                 "for a correct simulator (about 1 wager in 370).")
    lines.append("")
    for item in doc["wagers"]:
        n = sum(item["counts"].values())
        if not n:
            continue
        rows = [[name, f"{c:,}", f"{c / n:.6f}"] for name, c in item["counts"].items()]
        extra = f"; {item['dealt_from']}" if "dealt_from" in item else ""
        lines.append(f"{item['wager']} ({item['paytable']}), level {item['level']}{extra}")
        lines.append(Table(["Outcome", "Rounds", "Frequency"], rows, ("left", "right", "right")))
        lines.append("")
        if "all_rounds" in item and item["all_rounds"]["observed_return"] is not None:
            lines.append(f"Observed return, all rounds: {percent(Fraction(item['all_rounds']['observed_return']), 4)}")
            lines.append("")
    lines += skipped
    while lines and lines[-1] == "":
        lines.pop()
    return lines


SIMULATION_CSV: Final = ("wager", "paytable", "level", "outcome", "count", "frequency", "rounds_compared",
                         "observed_return", "standard_error_decimal", "interval_95_low", "interval_95_high",
                         "exact_return", "z")
"""The simulation CSV's columns: one row per wager, paytable and outcome (``count`` over every
round, ``frequency`` = count / the wager's rounds), the wager's return estimate beside each
(``rounds_compared`` rounds: every round fresh, the comparable ones in shoe mode); the
dispatch adds ``observed_return_decimal`` and ``exact_return_decimal``."""


def simulation_csv(doc: dict[str, Any]) -> list[list[Any]]:
    """The simulation as one tidy table (header first, :data:`SIMULATION_CSV`), from
    :func:`simulation_json`'s document: exact returns as ``p/q``, statistics as decimals."""
    rows: list[list[Any]] = [list(SIMULATION_CSV)]
    for item in doc["wagers"]:
        n = sum(item["counts"].values())
        low, high = item.get("interval_95") or ("", "")
        z = item.get("z")
        estimate = [item["rounds"], item.get("observed_return", ""), item.get("standard_error_decimal", ""),
                    low, high, item.get("exact_return", ""), "" if z is None else z]
        for outcome, count in item["counts"].items():
            rows.append([item["wager"], item["paytable"], item["level"], outcome, count,
                         f"{count / n:.15g}" if n else "", *estimate])
    return rows


def simulation_view(sim: Simulation, pairs: list[tuple[str, str]], skipped: list[str]) -> View:
    """The simulation: :func:`simulation_json`, its text (table, Markdown) and its CSV
    (:func:`simulation_csv`); ``--counts`` writes the bare counts for ``crosscheck``."""
    doc: dict[str, Any] = {}

    def document() -> dict[str, Any]:  # computed once, shared by every form
        if not doc:
            doc.update(simulation_json(sim, pairs, skipped))
        return doc

    return View(document, lambda: _simulation_blocks(sim, document(), skipped), lambda: simulation_csv(document()))


def render_simulation(sim: Simulation, pairs: list[tuple[str, str]], skipped: list[str]) -> str:
    """The simulation as text."""
    return render_view(simulation_view(sim, pairs, skipped), "table")


# -- crosscheck -------------------------------------------------------------------------------
def _family_json(f: FamilyTest, adjusted: dict[tuple[Any, ...], float] | None = None) -> dict[str, Any]:
    rt = f.return_test
    adj = adjusted or {}
    return {
        "wager": f.wager, "paytable": f.paytable, "rounds": f.rounds,
        "outcomes": [{"outcome": c.name, "observed": c.observed, "probability": ratio(c.probability),
                      "expected": ratio(c.expected), "expected_decimal": decimal(c.expected, 4), "z": c.z}
                     for c in f.cells],
        "chi_square": {"method": f.chi_square.method, "statistic": f.chi_square.statistic, "df": f.chi_square.df, "p_value": f.chi_square.p_value,
                       "cells": f.chi_square.groups, "merged": [list(m) for m in f.chi_square.merged],
                       "impossible": list(f.chi_square.impossible), "conclusive": f.chi_square.conclusive,
                       "holm_p_value": adj.get(f.chi_square.key)},
        "return": None if rt is None else {
            "observed": ratio(rt.observed), "observed_decimal": decimal(rt.observed, 8),
            "exact": ratio(rt.exact), "exact_decimal": decimal(rt.exact, 8),
            "ci_low": rt.ci_low, "ci_high": rt.ci_high, "confidence": rt.confidence, "z": rt.z, "p_value": rt.p_value,
            "min_rounds": rt.min_rounds, "conclusive": rt.conclusive, "holm_p_value": adj.get(rt.key)},
    }


def _section_json(s: Section | None, adjusted: dict[tuple[Any, ...], float] | None = None) -> dict[str, Any] | None:
    return None if s is None else {"rounds": s.rounds, "families": [_family_json(f, adjusted) for f in s.families]}


def crosscheck_json(r: CrossCheck) -> dict[str, Any]:
    """The full cross-check result as a JSON document."""
    audit = None
    if r.audit is not None:
        a = r.audit
        audit = {"rounds": a.rounds, "violating_rounds": a.violating_rounds,
                 "violations": [{"round": v.round, "line": v.line, "message": v.message} for v in a.violations],
                 "violations_listed": len(a.violations), "violations_by_message": dict(a.by_message.most_common()),
                 "guaranteed_rounds_per_shoe": a.guaranteed, "shoes": a.shoes if a.guaranteed is not None else None,
                 "short_shoes": a.short_shoes.count if a.guaranteed is not None else None}
    return {"file": r.source, "kind": r.kind, "shoe": r.shoe.to_json(), "alpha": r.alpha, "tests": r.tests,
            "correction": "holm", "inconclusive_tests": r.inconclusive_tests,
            "per_test_threshold": r.threshold, "verdict": r.verdict, "consistent": r.consistent,
            "failures": r.failures(),
            "cover": r.cover,
            "accounting": [{"check": c.name, "rule": c.rule, "unit": c.unit, "checked": c.checked,
                            "broken": c.failed, "examples": c.examples} for c in r.accounting],
            "audit": audit, "comparable": _section_json(r.comparable, r.adjusted),
            "not_comparable": _section_json(r.not_comparable), "skipped": r.skipped, "notes": r.notes,
            "version": __version__}


def _family_rows(s: Section, r: CrossCheck | None) -> list[list[str]]:
    rows = []
    for f in s.families:
        chi = f.chi_square
        rt = f.return_test
        flag = ""
        if r is not None:
            chi_bad, rt_bad = r.failed(f)
            bad = bool(chi.impossible) or chi_bad or rt_bad
            conclusive = chi.conclusive or (rt is not None and rt.conclusive)
            flag = "FAIL" if bad else "ok" if conclusive else "too few"
        worst = max((c for c in f.cells if c.z is not None), key=lambda c: abs(c.z or 0), default=None)
        rows.append([
            f"{f.wager} ({_short(f.paytable)})", f"{f.rounds:,}",
            (f"{chi.statistic:.2f}/{chi.df}" if chi.method == "chi-square" else
             f"z² {chi.statistic:.2f}/1" if chi.method == "z" else f"{chi.statistic:.0f} repeat(s)")
            + (" impossible!" if chi.impossible else ""),
            p_text(chi.p_value) if chi.conclusive else "-",
            f"{worst.z:+.2f}" if worst is not None else "",
            "" if rt is None else f"{percent(rt.observed, 4)} [{rt.ci_low * 100:.2f}%,{rt.ci_high * 100:.2f}%]",
            "" if rt is None else percent(rt.exact, 4),
            "" if rt is None else (p_text(rt.p_value) if rt.conclusive else f"- (n<{rt.min_rounds:,})"), flag,
        ])
    return rows


HEADERS: Final = ["Test: wager (paytable), shoe or outcome class", "Rounds", "Chi2/df", "p", "Max z",
                   "Observed return [CI]", "Exact return", "Return p", ""]


def _short(label: str) -> str:
    """A test's label as the table names it: a described test (the shoe and card tests) by
    the words before its description, which :func:`_described` gives in full below the table.

    >>> _short("carry-over: adjacent pairs of a shoe's first 267 cards adjacent again"), _short("5pct")
    ('carry-over', '5pct')
    >>> _short("Player draws, final total 0 (§ 629a.10(b))")
    'Player draws, final total 0'
    """
    if len(label) <= SHORT_LABEL:
        return label
    if "§" in label:                                        # an outcome class: its citation below
        return re.sub(r"\s*\(§[^()]*(\([^()]*\))*\)$", "", label)
    return re.split(r"[:(]", label, maxsplit=1)[0].strip()


def _described(s: Section) -> list[Block]:
    """The full labels the table shortened (:func:`_short`), once each."""
    full = list(dict.fromkeys(f"{f.wager} ({f.paytable})" for f in s.families if _short(f.paytable) != f.paytable))
    return ["Tests named short above, in full: " + "; ".join(full) + "."] if full else []


def _largest(s: Section) -> list[Block]:
    """The :data:`LARGEST` tests of ``s`` whose largest deviation is widest, each with its
    outcome (the table has room for the z only)."""
    worst = [(c, f) for f in s.families
             if (c := max((c for c in f.cells if c.z is not None), key=lambda c: abs(c.z or 0), default=None))]
    worst.sort(key=lambda cf: -abs(cf[0].z or 0))
    if not worst:
        return []
    return ["Largest z, by test: " + "; ".join(f"{c.z:+.2f} {f.wager} ({f.paytable}) at {c.name}"
                                               for c, f in worst[:LARGEST])]


def _crosscheck_blocks(r: CrossCheck, show: int) -> list[Block]:
    """The cross-check as text: audit, tests, notes and the verdict last."""
    out: list[Block] = [(f"Cross-check of {r.source} ({'hand log' if r.kind == 'log' else 'outcome counts'}) against the exact "
           f"figures for {r.shoe.describe()}")]
    if r.audit is not None:
        a = r.audit
        out.append(f"Rule audit (§ 629a.8-629a.10): {a.rounds:,} rounds, {a.violating_rounds:,} breaking the rules")
        for v in a.violations[:show]:
            out.append(f"  round {v.round} (line {v.line}): {v.message}")
        total = sum(a.by_message.values())
        if total > show:
            out.append(f"  ... and {total - min(show, len(a.violations)):,} more (--show; --format json lists "
                       f"{len(a.violations):,}); by rule:")
            out += [f"    {n:,} x {m}" for m, n in a.by_message.most_common(10)]
    if r.accounting:
        out.append("Accounting (§ 629a.5, § 629a.9(d)): " + "; ".join(
            f"{c.name}: {c.failed:,} of {c.checked:,} {c.unit}s broken" for c in r.accounting))
    out.append("")
    out.append(f"Statistics: {r.tests} distinct tests (identical ones counted once), Holm's correction at "
               f"alpha {r.alpha:g} (the first at {r.threshold:.3g}); CI level {1 - r.alpha:.3%}"
               + (f"; {r.inconclusive_tests} test(s) not made, too few rounds" if r.inconclusive_tests else ""))
    out += [Table(HEADERS, _family_rows(r.comparable, r), wrap=CROSSCHECK_WRAP, whole_words=True,
                  break_ids=True), *_largest(r.comparable),
            *_described(r.comparable)]
    if r.not_comparable is not None and r.not_comparable.rounds:
        out += ["", (f"Not directly comparable (later rounds of each shoe, cut-card effect), "
                    f"{r.not_comparable.rounds:,} rounds, for information only:"),
                Table(HEADERS, _family_rows(r.not_comparable, None), wrap=CROSSCHECK_WRAP, whole_words=True,
                      break_ids=True),
                *_largest(r.not_comparable), *_described(r.not_comparable)]
    out += [""] + [f"Note: {n}" for n in r.notes] + [f"Note: {s}" for s in r.skipped]
    return out + verdict_lines(r.failures(), r.verdict, "the exact figures",
                               "too few rounds for any statistical test; no rule broken",
                               f"no test fails at alpha {r.alpha:g} after Holm's correction, no rule broken")


def verdict_lines(fails: list[str], verdict: str, against: str, inconclusive: str, consistent: str) -> list[str]:
    """The verdict of a Holm-corrected check (a cross-check, a shuffle check) as a view's last
    lines: every failure, else why it is inconclusive, else what "consistent with ``against``" rests on."""
    if fails:
        return [f"Verdict: INCONSISTENT with {against}", *(f"  - {f}" for f in fails)]
    if verdict == "inconclusive":
        return [f"Verdict: inconclusive: {inconclusive}"]
    return [f"Verdict: consistent with {against} ({consistent})"]


TIDY_KEYS: Final = ("wager", "paytable", "outcome")
"""Members that name what a figure is about; :func:`tidy_rows` lifts them into columns."""

TIDY_CSV: Final = ("section", *TIDY_KEYS, "figure", "value", "value_decimal")


def tidy_rows(doc: dict[str, Any]) -> list[list[Any]]:
    """A JSON report as one long tidy table: a row per figure, ``section`` (the top-level
    member), the wager, paytable and outcome it is about, ``figure`` (its path below them,
    list positions as numbers) and ``value``, with ``value_decimal`` beside an exact ``p/q``.

    Generic over the document, so a test added to the report is a CSV row without a change
    here; decimal twins (``KEY_decimal``) are left out, ``value_decimal`` standing for them.

    >>> for row in tidy_rows({"alpha": 0.001, "families": [{"wager": "tie", "paytable": "8to1",
    ...                        "outcomes": [{"outcome": "Tie", "p": "1/3", "p_decimal": "0.33"}]}]}):
    ...     print(row)
    ['section', 'wager', 'paytable', 'outcome', 'figure', 'value', 'value_decimal']
    ['alpha', '', '', '', '', 0.001, '']
    ['families', 'tie', '8to1', 'Tie', 'outcomes.p', '1/3', '0.333333333333333']
    """
    from exactodds.report.spreadsheet import decimal_cell

    out: list[list[Any]] = [list(TIDY_CSV)]

    def walk(section: str, node: Any, about: dict[str, Any], path: list[str]) -> None:
        if isinstance(node, dict):
            about = {**about, **{k: node[k] for k in TIDY_KEYS if isinstance(node.get(k), str)}}
            for k, v in node.items():
                twin = k.endswith("_decimal") and k[: -len("_decimal")] in node
                if not (twin or (k in TIDY_KEYS and isinstance(v, str))):
                    walk(section, v, about, [*path, str(k)])
        elif isinstance(node, list):
            for i, v in enumerate(node):  # items named by a wager/outcome need no position
                named = isinstance(v, dict) and any(isinstance(v.get(k), str) for k in TIDY_KEYS)
                walk(section, v, about, path if named else [*path, str(i)])
        else:
            exact = isinstance(node, str) and _EXACT.fullmatch(node) is not None
            out.append([section, *(about.get(k, "") for k in TIDY_KEYS), ".".join(path),
                        "" if node is None else node, decimal_cell(Fraction(node)) if exact else ""])

    for key, value in doc.items():
        walk(key, value, {}, [])
    return out


_EXACT: Final = re.compile(r"-?\d+/0*[1-9]\d*")


def crosscheck_view(r: CrossCheck, show: int = 20) -> View:
    """The cross-check: :func:`crosscheck_json`, its text (``show`` rule violations listed)
    and its CSV, the JSON document as one tidy table (:func:`tidy_rows`)."""
    doc: dict[str, Any] = {}

    def document() -> dict[str, Any]:  # computed once, shared by JSON and CSV
        if not doc:
            doc.update(crosscheck_json(r))
        return doc

    return View(document, lambda: _crosscheck_blocks(r, show), lambda: tidy_rows(document()))


def render_crosscheck(r: CrossCheck, show: int = 20) -> str:
    """The cross-check as text: audit, tests, notes and the verdict last."""
    return render_view(crosscheck_view(r, show), "table")


__all__ = ["SIMULATION_CSV", "TIDY_CSV", "crosscheck_json", "crosscheck_view", "game_simulation_view", "render_crosscheck", "render_simulation", "simulation_json",
           "simulation_csv", "simulation_view", "tidy_rows"]


def game_simulation_view(doc: dict[str, Any]) -> View:
    """``simulate --game``'s result (:func:`exactodds.simulation.games.simulate_game`), any game."""
    def blocks() -> list[Block]:
        out: list[Block] = [f"{doc['title']}: {doc['rounds']:,} rounds simulated, seed {doc['seed']}", ""]
        for s in doc["strategies"]:
            out += [f"Player strategy: {s['strategy']}", "",
                    Table(["Outcome", "Pays", "Dealt", "Expected"],
                          [[o["outcome"], o["pays"], f"{o['count']:,}",
                            "n/a" if o["expected_count"] is None else decimal(Fraction(o["expected_count"]), 1)]
                           for o in s["outcomes"]]), "",
                    Table(["Figure", "Value"], [
                        ["Mean net result per unit", s["mean_decimal"]],
                        ["Exact return", s["exact_return_decimal"]],
                        ["Standard error", s["standard_error"]], ["SE from", s["standard_error_from"]],
                        ["z", s["z"] or "n/a"],
                        ["Agrees (|z| ≤ 4)", "yes" if s["agrees"] else "NO"]], plain=True), ""]
        return [*out, doc["statement"]]

    def csv() -> list[list[Any]]:
        rows: list[list[Any]] = [["strategy", "outcome", "pays", "count", "expected_count", "mean", "mean_decimal",
                                  "exact_return", "exact_return_decimal", "standard_error", "z", "agrees"]]
        for s in doc["strategies"]:
            rows += [[s["strategy"], o["outcome"], o["pays"], o["count"], o["expected_count"] or "", "", "", "", "",
                      "", "", ""] for o in s["outcomes"]]
            rows.append([s["strategy"], "", "", "", "", s["mean"], s["mean_decimal"], s["exact_return"],
                         s["exact_return_decimal"], s["standard_error"], s["z"] or "", "yes" if s["agrees"] else "no"])
        return rows

    return View(lambda: doc, blocks, csv)
