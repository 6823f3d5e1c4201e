"""The ``simulate`` and ``crosscheck`` commands, and how their results are shown.

``register(app)`` adds both commands to the ``exactodds`` typer app. Bad input raises
:class:`~exactodds.errors.InputError` (one line, exit 2, via the app's group class);
``crosscheck`` exits 1 when the file is inconsistent with the exact figures (0 when it is
consistent or when the sample is too small to tell).

The simulation code (numpy, scipy) is imported inside the commands only, so starting
``exactodds`` for another command does not load it. ``simulate`` writes all of its
outputs (``--log``, ``--counts``, ``--output``) or none: each goes to a temporary file,
the hand log streamed batch by batch, and all are renamed into place at the end.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer
from tabulate import tabulate

from exactodds import __version__
from exactodds.cli.options import emit
from exactodds.errors import InputError
from exactodds.exact import decimal, percent, ratio
from exactodds.game.shoespec import resolve_shoe
from exactodds.report.files import check_writable
from exactodds.report.formats import render_json
from exactodds.report.progress import Progress, stderr_progress

if TYPE_CHECKING:
    from exactodds.simulation.crosscheck import CrossCheck, FamilyTest, Section
    from exactodds.simulation.simulate import Simulation

EXIT_INCONSISTENT = 1
MAX_ROUNDS = 10**10
MAX_LOG_ROUNDS = 10**8
MAX_SHOW = 1_000_000
"""Most rule violations `crosscheck --show` lists."""
MAX_CARDS = 52 * 1000
"""= :data:`exactodds.game.cards.MAX_CARDS` (1,000 decks)."""
DEFAULT_ALPHA = 0.001
"""= :data:`exactodds.simulation.crosscheck.DEFAULT_ALPHA` (kept here so start-up loads no numpy)."""
MIN_COVER = 14
"""= :data:`exactodds.simulation.simulate.MIN_COVER` (§ 629a.5(d))."""
PROGRESS_AFTER = 2.0
"""Seconds of work before a progress bar appears."""


class SimMode(str, Enum):
    fresh = "fresh"
    shoe = "shoe"


class TextOrJson(str, Enum):
    table = "table"
    json = "json"


def _check_targets(*paths: str | None) -> None:
    """Refuse output paths that cannot be written before any work, so that one bad path
    never leaves the other files written."""
    given = [p for p in paths if p]
    if len(set(given)) != len(given):
        raise InputError("the same file is named for two outputs")
    for p in given:
        try:
            check_writable(p)
        except OSError as exc:  # e.g. a name too long for the file system
            raise InputError(f"cannot write {p[:80]!r}: {exc.strerror}") from None


@contextmanager
def _progress(label: str) -> Iterator[Progress]:
    """A progress callback that draws a bar on stderr (a terminal only) once the work has
    taken :data:`PROGRESS_AFTER` seconds; quick runs show nothing."""
    start = time.monotonic()
    with stderr_progress(label) as bar:
        def update(done: int, total: int, what: str) -> None:
            if bar is not None and time.monotonic() - start > PROGRESS_AFTER:
                bar(done, total, what)
        yield update


# -- simulate ---------------------------------------------------------------------------------
def _observed_return(counts: dict[str, int], nets: dict[str, Fraction]) -> Fraction | None:
    n = sum(counts.values())
    if n == 0:
        return None
    return sum((nets[k] * v for k, v in counts.items()), Fraction(0)) / n


def simulation_json(sim: Simulation, pairs: list[tuple[str, str]], skipped: list[str]) -> dict[str, Any]:
    """The simulation as a JSON document: integer counts, exact ``"p/q"`` returns."""
    from exactodds.simulation.engine_link import exact_analysis
    from exactodds.simulation.handlog import families_from_sim

    fams = families_from_sim(sim, pairs)
    comp = families_from_sim(sim, pairs, comparable_only=True) if sim.mode == "shoe" else None
    wagers = []
    for key, counts in fams.items():
        a = exact_analysis(key[0], key[1], sim.shoe)
        nets = {r.name: r.pay.net for r in a.rows}
        obs = _observed_return(counts, nets)
        item: dict[str, Any] = {"wager": key[0], "paytable": key[1], "counts": counts,
                                "observed_return": ratio(obs) if obs is not None else None,
                                "observed_return_decimal": decimal(obs, 8) if obs is not None else None,
                                "exact_return": ratio(a.return_)}
        if comp is not None:
            cobs = _observed_return(comp[key], nets)
            item["comparable"] = {"counts": comp[key],
                                  "observed_return": ratio(cobs) if cobs is not None else None}
        wagers.append(item)
    doc: dict[str, Any] = {
        "mode": sim.mode, "rounds": sim.rounds, "seed": sim.seed, "shoe": sim.shoe.to_json(),
        "seconds": round(sim.seconds, 3), "rounds_per_second": round(sim.rounds / sim.seconds) if sim.seconds else None,
        "round_results": {f"{c.player_total},{c.banker_total},{c.player_cards},{c.banker_cards}": n
                          for c, n in sorted(sim.coup_counts().items())},
        "wagers": wagers, "skipped": skipped, "version": __version__,
    }
    if sim.mode == "shoe":
        assert sim.comparable is not None
        doc.update(cover=sim.cover, shoes=sim.shoes, guaranteed_rounds=sim.meta["guaranteed_rounds"],
                   comparable_rounds=int(sim.comparable.sum()))
    return doc


def render_simulation(sim: Simulation, pairs: list[tuple[str, str]], skipped: list[str]) -> str:
    """The simulation as text: per wager and paytable, counts and observed return."""
    doc = simulation_json(sim, pairs, skipped)
    rate = f"{sim.rounds / sim.seconds / 1e6:.1f} million rounds/s" if sim.seconds else ""
    lines = [(f"Simulated {sim.rounds:,} rounds, mode {sim.mode}, {sim.shoe.describe()}, seed {sim.seed}: "
             f"{sim.seconds:.2f} s ({rate})")]
    if sim.mode == "shoe":
        lines.append(f"Dealt through {doc['shoes']:,} shoes, cover card {sim.cover} cards from the bottom "
                     f"(§ 629a.5(d), § 629a.9(d)). Rounds 1-{doc['guaranteed_rounds']} of each shoe "
                     f"({doc['comparable_rounds']:,} rounds) are directly comparable to the exact fresh-shoe "
                     "figures; the rest are not (cut-card effect, see docs/simulator.md).")
    lines.append("")
    for item in doc["wagers"]:
        n = sum(item["counts"].values())
        rows = [[name, f"{c:,}", f"{c / n:.6f}"] for name, c in item["counts"].items()]
        lines.append(f"{item['wager']} ({item['paytable']})")
        lines.append(tabulate(rows, headers=["Outcome", "Rounds", "Frequency"], colalign=("left", "right", "right"),
                              disable_numparse=True))
        obs = Fraction(item["observed_return"])
        lines.append(f"Observed return {percent(obs, 4)}; exact (fresh shoe) {percent(Fraction(item['exact_return']), 4)}")
        if "comparable" in item and item["comparable"]["observed_return"] is not None:
            lines.append(f"Observed return, comparable rounds only: "
                         f"{percent(Fraction(item['comparable']['observed_return']), 4)}")
        lines.append("")
    lines += skipped
    return "\n".join(lines).rstrip("\n") + "\n"


# -- crosscheck -------------------------------------------------------------------------------
def _family_json(f: FamilyTest, adjusted: dict[tuple[Any, ...], float] | None = None) -> dict[str, Any]:
    rt = f.return_test
    adj = adjusted or {}
    return {
        "wager": f.wager, "paytable": f.paytable, "rounds": f.rounds,
        "outcomes": [{"name": c.name, "observed": c.observed, "probability": ratio(c.probability),
                      "expected": ratio(c.expected), "expected_decimal": decimal(c.expected, 4), "z": c.z}
                     for c in f.cells],
        "chi_square": {"statistic": f.chi_square.statistic, "df": f.chi_square.df, "p_value": f.chi_square.p_value,
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
            f"{f.wager} ({f.paytable})", f"{f.rounds:,}",
            f"{chi.statistic:.2f}/{chi.df}" + (" impossible!" if chi.impossible else ""),
            f"{chi.p_value:.3g}" if chi.conclusive else "-",
            f"{worst.z:+.2f} {worst.name}" if worst is not None else "",
            "" if rt is None else f"{percent(rt.observed, 4)} [{rt.ci_low * 100:.4f}%, {rt.ci_high * 100:.4f}%]",
            "" if rt is None else percent(rt.exact, 4),
            "" if rt is None else (f"{rt.p_value:.3g}" if rt.conclusive else f"- (n<{rt.min_rounds:,})"), flag,
        ])
    return rows


HEADERS = ["Wager (paytable)", "Rounds", "Chi2/df", "p", "Largest z (outcome)", "Observed return [CI]",
           "Exact return", "p (return)", ""]


def render_crosscheck(r: CrossCheck, show: int = 20) -> str:
    """The cross-check as text: audit, tests, notes and the verdict last."""
    out = [(f"Cross-check of {r.source} ({'hand log' if r.kind == 'log' else 'outcome counts'}) against the exact "
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
    out.append("")
    out.append(f"Statistics: {r.tests} distinct tests (identical ones counted once), Holm's correction at "
               f"alpha {r.alpha:g} (the first at {r.threshold:.3g}); CI level {1 - r.alpha:.3%}"
               + (f"; {r.inconclusive_tests} test(s) not made, too few rounds" if r.inconclusive_tests else ""))
    out.append(tabulate(_family_rows(r.comparable, r), headers=HEADERS, disable_numparse=True))
    if r.not_comparable is not None and r.not_comparable.rounds:
        out += ["", (f"Not directly comparable (later rounds of each shoe, cut-card effect), "
                    f"{r.not_comparable.rounds:,} rounds, for information only:"),
                tabulate(_family_rows(r.not_comparable, None), headers=HEADERS, disable_numparse=True)]
    out += [""] + [f"Note: {n}" for n in r.notes] + [f"Note: {s}" for s in r.skipped]
    fails = r.failures()
    if fails:
        out.append("Verdict: INCONSISTENT with the exact figures")
        out += [f"  - {f}" for f in fails]
    elif r.verdict == "inconclusive":
        out.append("Verdict: inconclusive: too few rounds for any statistical test; no rule broken")
    else:
        out.append(f"Verdict: consistent with the exact figures (no test fails at alpha {r.alpha:g} after Holm's "
                   "correction, no rule broken)")
    return "\n".join(line for line in out) + "\n"


def _meta_int(meta: dict[str, str], key: str, path: str) -> int | None:
    if key not in meta:
        return None
    value = meta[key]
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise InputError(f"{path}: comment metadata {key}={value[:20]!r} is not a whole number")
    return int(value)


# -- registration -------------------------------------------------------------------------------
def register(app: typer.Typer) -> None:
    """Add the ``simulate`` and ``crosscheck`` commands to ``app``."""

    @app.command("simulate")
    def simulate_command(
        rounds: Annotated[int, typer.Option("--rounds", "-n", help="Rounds to simulate.")] = 1_000_000,
        mode: Annotated[SimMode, typer.Option("--mode", "-m", help="fresh: every round from a freshly shuffled "
                                              "shoe; shoe: dealt through the shoe (§ 629a.5, § 629a.9(d)).")] = SimMode.fresh,
        seed: Annotated[int, typer.Option("--seed", help="Random seed, 0 to 2**63-1 (same seed, same result).")] = 0,
        decks: Annotated[int, typer.Option("--decks", "-d", help="Standard 52-card decks in the shoe.")] = 8,
        cover: Annotated[int, typer.Option("--cover", help="Shoe mode: cards under the cover card (at least 14, "
                                           "§ 629a.5(d)).")] = MIN_COVER,
        wager: Annotated[list[str] | None, typer.Option("--wager", "-w", help="Wager id to report (repeatable; "
                                                        "default: every coup-level wager).")] = None,
        log: Annotated[str | None, typer.Option("--log", help="Write a hand log (CSV round,player,banker[,shoe]).")] = None,
        counts: Annotated[str | None, typer.Option("--counts", help="Write outcome counts (CSV wager,paytable,"
                                                   "outcome,count); shoe mode: comparable rounds only.")] = None,
        workers: Annotated[int, typer.Option("--workers", help="Threads (the result does not depend on it).")] = 1,
        fmt: Annotated[TextOrJson, typer.Option("--format", "-f", help="Output format.")] = TextOrJson.table,
        output: Annotated[str | None, typer.Option("--output", "-o", help="Write the report to this file.")] = None,
    ) -> None:
        """Simulate rounds (seeded, reproducible) and count outcomes per wager and paytable.

        All the files asked for (--log, --counts, --output) are written, or none is.
        """
        from exactodds.report.files import all_or_none
        from exactodds.simulation.crosscheck import coup_wager_tables
        from exactodds.simulation.handlog import (
            families_from_sim,
            log_header,
            render_counts,
            render_log_chunk,
            run_meta,
            sim_meta,
        )
        from exactodds.simulation.simulate import (
            HandLog,
            check_cover,
            check_seed,
            simulate,
        )

        if rounds < 1 or rounds > MAX_ROUNDS:
            raise InputError(f"--rounds must be between 1 and {MAX_ROUNDS:,}, got {rounds}")
        if (log or counts) and rounds > MAX_LOG_ROUNDS:
            raise InputError(f"--log and --counts are limited to {MAX_LOG_ROUNDS:,} rounds")
        check_seed(seed)
        if workers < 1 or workers > 64:
            raise InputError(f"--workers must be between 1 and 64, got {workers}")
        shoe = resolve_shoe(decks)
        if mode == SimMode.shoe or cover != MIN_COVER:  # a --cover given in fresh mode is still checked
            check_cover(shoe.size, cover)
        _check_targets(log, counts, output)
        pairs, skipped = coup_wager_tables(wager)
        if not pairs:
            raise InputError("none of the wagers named is settled at the coup level; nothing to simulate")
        named = [p for p in (log, counts, output) if p]
        with all_or_none(named) as outputs:
            handle = dict(zip(named, outputs))
            log_fh = handle[log] if log else None
            counts_fh = handle[counts] if counts else None
            out_fh = handle[output] if output else None
            on_hands = None
            if log_fh is not None:
                fh = log_fh
                fh.write(log_header(run_meta(mode.value, seed, rounds, shoe, cover), mode == SimMode.shoe))

                def on_hands(batch: HandLog) -> None:
                    fh.write(render_log_chunk(batch))
            with _progress("simulate") as progress:
                sim = simulate(rounds, mode.value, shoe, seed=seed, cover=cover, workers=workers,
                               on_hands=on_hands, progress=progress)
            report = render_json(simulation_json(sim, pairs, skipped)) if fmt == TextOrJson.json else \
                render_simulation(sim, pairs, skipped)
            if counts_fh is not None:
                meta = sim_meta(sim)
                cmeta = {**meta, "subset": "comparable"} if sim.mode == "shoe" else meta
                counts_fh.write(render_counts(families_from_sim(sim, pairs, comparable_only=sim.mode == "shoe"),
                                              cmeta).encode("utf-8"))
            if out_fh is not None:
                out_fh.write(report.encode("utf-8"))
        if not output:
            sys.stdout.write(report)

    @app.command("crosscheck")
    def crosscheck_command(
        file: Annotated[str, typer.Argument(help="A hand log (round,player,banker[,shoe]) or counts file "
                                            "(wager,paytable,outcome,count).")],
        decks: Annotated[int | None, typer.Option("--decks", "-d", help="Decks in the shoe (default: the file's "
                                                  "'# decks=' comment, else 8).")] = None,
        cover: Annotated[int | None, typer.Option("--cover", help="Cards under the cover card, for logs dealt "
                                                  "through the shoe (default: the file's '# cover=', else 14).")] = None,
        alpha: Annotated[float, typer.Option("--alpha", "-a", help="Family-wise significance level of the verdict "
                                             "(Holm's correction over every test).")] = DEFAULT_ALPHA,
        wager: Annotated[list[str] | None, typer.Option("--wager", "-w", help="Hand logs: wager id to test "
                                                        "(repeatable; default every baccarat wager).")] = None,
        faces: Annotated[bool, typer.Option("--faces", help="Hand logs: also test every wager settled on the "
                                            "cards (pairs, suits, ...), settled from the logged cards (slower).")] = False,
        show: Annotated[int, typer.Option("--show", help="Rule violations listed in the text report.")] = 20,
        fmt: Annotated[TextOrJson, typer.Option("--format", "-f", help="Output format.")] = TextOrJson.table,
        output: Annotated[str | None, typer.Option("--output", "-o", help="Write the report to this file.")] = None,
    ) -> None:
        """Audit a hand log against § 629a.10 and test its frequencies and its card sequence
        against the exact figures.

        Exit status: 0 consistent (or inconclusive: too few rounds), 1 inconsistent (a rule
        broken or a test failed), 2 unreadable input.
        """
        from exactodds.simulation.crosscheck import crosscheck_counts, crosscheck_log
        from exactodds.simulation.handlog import LogFile, read_file
        from exactodds.simulation.simulate import check_cover

        if not 0 < alpha < 1:
            raise InputError(f"--alpha must be between 0 and 1, got {alpha}")
        if cover is not None and not MIN_COVER <= cover <= MAX_CARDS:
            raise InputError(f"--cover must be between {MIN_COVER} (§ 629a.5(d)) and {MAX_CARDS:,} cards, got {cover}")
        if show > MAX_SHOW:
            raise InputError(f"--show lists at most {MAX_SHOW:,} violations, got {show}")
        if show < 0:
            raise InputError(f"--show must be at least 0, got {show}")
        _check_targets(output)
        data = read_file(file)
        try:
            d = decks if decks is not None else _meta_int(data.meta, "decks", file) or 8
            shoe = resolve_shoe(d)
            if isinstance(data, LogFile):
                c = cover if cover is not None else _meta_int(data.meta, "cover", file) or MIN_COVER
                if data.has_shoes:
                    check_cover(shoe.size, c)
                with _progress("crosscheck") as progress:
                    result = crosscheck_log(data, shoe, c, alpha, wager, progress=progress, faces=faces)
            else:
                if wager or faces:
                    raise InputError("--wager and --faces apply to hand logs; a counts file is tested wager by "
                                     "wager as given")
                result = crosscheck_counts(data, shoe, alpha)
        finally:
            if isinstance(data, LogFile):
                data.close()
        text = render_json(crosscheck_json(result)) if fmt == TextOrJson.json else render_crosscheck(result, show)
        emit(text, output)
        if not result.consistent:
            raise typer.Exit(EXIT_INCONSISTENT)
