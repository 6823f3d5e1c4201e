"""Cross-checking simulators against the exact figures: the orchestration.

Library functions a notebook can call; every result is a dataclass. A cross-check reads
a hand log once, streaming, and puts together four focused modules:

* :mod:`exactodds.simulation.audit` -- the rule audit (§ 629a.8-629a.10) of every round,
  the round results it reads, and the wagers settled on the cards (through the one
  :class:`~exactodds.simulation.settle.RoundSettler`);
* :mod:`exactodds.simulation.fit` -- goodness of fit of round results and wager outcomes
  to the exact figures, the focused per-class tests, and Holm's correction;
* :mod:`exactodds.simulation.sequence` -- the card-sequence tests and the deck count from
  identical faces;
* :mod:`exactodds.simulation.shoetests` -- for logs with a ``shoe`` column, the shoe-level
  tests and the shoe accounting (carry-over between shoes, neighbours, position in the
  shoe, repeated shoes; composition, rounds per shoe against the cover card, burn).

:func:`crosscheck_log` and :func:`crosscheck_counts` apply Holm's step-down correction
over every distinct test (identical tests counted once), so the chance of a false alarm
is at most ``alpha``, and give a verdict: consistent, INCONSISTENT, or inconclusive when
the sample is too small for any test.

The cut-card effect (see ``docs/simulator.md``): in a shoe dealt to the cover card,
round ``k`` of a shoe has exactly the fresh-shoe distribution when every shoe deals at
least ``k`` rounds (:func:`~exactodds.simulation.simulate.guaranteed_rounds`); later rounds exist
only in some shoes, chosen by the cards, and are not directly comparable. Their round
results are reported separately and left out of the verdict; their cards enter it through
the shoe-level test of each card against the cards left in its shoe, whose exact law holds
at every depth (:meth:`~exactodds.simulation.shoetests.ShoeTally.left_tests`). The cover
card may lie anywhere in a range (:class:`~exactodds.simulation.simulate.Cover`); the
prefix comes from its highest cover.

The names of the focused modules a notebook reaches for (:func:`audit_round`,
:func:`goodness_of_fit`, :func:`holm`, ...) are importable from here too.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from exactodds.catalogue import CATALOGUE
from exactodds.engine.levels import COUP
from exactodds.errors import InputError
from exactodds.game.cards import Shoe
from exactodds.game.rules import Coup
from exactodds.io.progress import Progress
from exactodds.simulation import engine_link
from exactodds.simulation.audit import Audit, Auditor, Violation, audit_log, audit_round
from exactodds.simulation.fit import (
    DEFAULT_ALPHA,
    FOCUSED_WAGER,
    RESULTS_FAMILY,
    HolmVerdict,
    coup_name,
    focused_tests,
    goodness_of_fit,
    holm,
    results_fit,
)
from exactodds.simulation.handlog import CountsFile, LogFile
from exactodds.simulation.sequence import (
    SEQUENCE_WAGER,
    IdenticalFaces,
    SequenceTally,
    estimate_decks,
    pattern_probabilities,
)
from exactodds.simulation.simulate import Cover, guaranteed_rounds, outcome_counts
from exactodds.simulation.statistics import MIN_EXPECTED, MIN_RETURN_ROUNDS, FamilyTest

if TYPE_CHECKING:
    from exactodds.simulation.shoetests import ShoeTally

# -- putting it together -------------------------------------------------------------------------
Chosen = Sequence[str] | Mapping[str, str | None]
"""The wagers a cross-check tests: ids (every paytable of each), or wager id -> the one
paytable to test (``None``: every paytable), as ``-w WAGER:PAYTABLE`` gives."""


def wager_tables(wagers: Chosen | None = None, cards: bool = True, faces: bool = False,
                 ) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[str]]:
    """(wager, paytable) pairs settled at the coup level, pairs settled on the cards
    (pairs, suits, ...), and messages for the wagers skipped.

    ``cards``: the source has the dealt cards (a hand log), so wagers settled on them can
    be tested. Without ``wagers``: every coup-level wager, and with ``faces`` every wager
    settled on the cards too (slower: their results are read group by group). Named
    ``wagers`` are taken whatever their level, when ``cards`` allows; a wager mapped to a
    paytable is tested under that paytable only.

    >>> wager_tables({"banker": "ez", "dragon-7": None}, cards=False)[0]
    [('banker', 'ez'), ('dragon-7', '40to1')]
    """
    chosen: dict[str, str | None] = dict(wagers) if isinstance(wagers, Mapping) else dict.fromkeys(wagers or ())
    coup: list[tuple[str, str]] = []
    face: list[tuple[str, str]] = []
    skipped: list[str] = []
    untested: list[str] = []
    for wid in (list(chosen) if chosen else list(CATALOGUE)):
        w = engine_link.wager(wid)
        table = chosen.get(wid)
        pairs = [(w.id, p.id) for p in w.paytables if table is None or p.id == table]
        if w.level is COUP:
            coup += pairs
        elif not engine_link.is_baccarat_level(w.level):
            skipped.append(f"skipped {w.id}: settled at level {w.level.name!r}, which is not a baccarat round")
        elif not cards:
            skipped.append(f"skipped {w.id}: settled on the cards (level {w.level.name!r}); a counts-only "
                           "simulation does not deal them")
        elif chosen or faces:
            face += pairs
        else:
            untested.append(w.id)
    if untested:
        skipped.append(f"not tested, settled on the cards (--faces, or --wager ID, settles them from the logged "
                       f"cards): {', '.join(untested)}")
    return coup, face, skipped


def coup_wager_tables(wagers: Chosen | None = None) -> tuple[list[tuple[str, str]], list[str]]:
    """(wager, paytable) pairs of every coup-level wager (or of those named), and the
    messages for wagers skipped because they are settled on more than the coup."""
    coup, _, skipped = wager_tables(wagers, cards=False)
    return coup, skipped


@dataclass
class Section:
    """Tests of one set of rounds: all comparable rounds, or the shoe-mode tail."""

    rounds: int
    families: list[FamilyTest]

    def p_values(self) -> list[float]:
        """Every conclusive test's p-value, family by family."""
        return [p for f in self.families for p in f.p_values()]


def _section(coups: Mapping[Coup, int], shoe: Shoe, pairs: Sequence[tuple[str, str]], alpha: float,
             face_counts: Mapping[tuple[str, str], Mapping[str, int]] | None = None) -> Section:
    n = sum(coups.values())
    fams = []
    if n:
        fams.append(results_fit(coups, shoe))
        for wid, tid in pairs:
            w = engine_link.wager(wid)
            fams.append(goodness_of_fit(wid, tid, outcome_counts(coups, w, w.paytable(tid)), shoe, alpha))
        for (wid, tid), observed in (face_counts or {}).items():
            fams.append(goodness_of_fit(wid, tid, observed, shoe, alpha))
    return Section(n, fams)


@dataclass
class CrossCheck(HolmVerdict):
    """The full result of a cross-check, verdict included."""

    source: str
    kind: str
    shoe: Shoe
    alpha: float
    comparable: Section
    not_comparable: Section | None = None
    audit: Audit | None = None
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    accounting: list[Any] = field(default_factory=list)
    """Named accounting checks (:class:`~exactodds.simulation.shoetests.AccountingCheck`)."""
    cover: dict[str, Any] | None = None
    """Shoe-mode logs: the cover range used (``low``, ``high``: ``None`` for no upper bound),
    the cover the comparable prefix comes from, and the narrowest range of covers the
    complete shoes fit (``observed_low``, ``observed_high``; ``None`` when no shoe shows it)."""

    @property
    def adjusted(self) -> dict[tuple[Any, ...], float]:
        """Holm-adjusted p-value of every distinct conclusive test behind the verdict
        (computed once for the families as they are)."""
        families = tuple(self.comparable.families)
        cached = self.__dict__.get("_holm")
        if (cached is None or cached[0] != self.alpha or len(cached[1]) != len(families)
                or any(a is not b for a, b in zip(cached[1], families))):
            cached = (self.alpha, families, holm((t for f in families for t in f.tests()), self.alpha))
            self.__dict__["_holm"] = cached
        out: dict[tuple[Any, ...], float] = cached[2]
        return out

    @property
    def tests(self) -> int:
        """Number of distinct conclusive tests behind the verdict (identical ones once)."""
        return len(self.adjusted)

    @property
    def inconclusive_tests(self) -> int:
        """Tests not made because the sample is too small for them."""
        out = 0
        for f in self.comparable.families:
            out += not f.chi_square.conclusive
            out += f.return_test is not None and not f.return_test.conclusive
        return out

    @property
    def threshold(self) -> float:
        """The smallest per-test level of Holm's procedure: ``alpha`` / number of tests."""
        return self.alpha / max(1, self.tests)

    def failed(self, f: FamilyTest) -> tuple[bool, bool]:
        """Whether ``f``'s chi-square, and its return test, fail (Holm at ``alpha``)."""
        adj = self.adjusted
        chi = f.chi_square.conclusive and adj.get(f.chi_square.key, 1.0) < self.alpha
        rt = f.return_test is not None and f.return_test.conclusive and \
            adj.get(f.return_test.key, 1.0) < self.alpha
        return chi, rt

    def failures(self) -> list[str]:
        """Why the input is inconsistent with the exact figures (empty if it is not)."""
        out = []
        if self.audit is not None and self.audit.violating_rounds:
            out.append(f"{self.audit.violating_rounds} round(s) break the drawing rules (§ 629a.8-629a.10)")
        for check in self.accounting:
            if check.failed:
                out.append(f"accounting, {check.name}: {check.failed:,} of {check.checked:,} {check.unit}(s) break it "
                           f"({check.rule}); first: {'; '.join(check.examples)}")
        adj = self.adjusted
        for f in self.comparable.families:
            label = f"{f.wager} ({f.paytable})"
            chi, rt = self.failed(f)
            if f.chi_square.impossible:
                out.append(f"{label}: impossible outcome observed: {', '.join(f.chi_square.impossible)}")
            elif chi:
                out.append(f"{label}: {f.chi_square.method} p = {f.chi_square.p_value:.3g} "
                           f"(Holm-adjusted {adj[f.chi_square.key]:.3g} < {self.alpha:g})")
            if rt and f.return_test is not None:
                out.append(f"{label}: observed return differs from the exact return, "
                           f"z = {f.return_test.z:.2f}, p = {f.return_test.p_value:.3g} "
                           f"(Holm-adjusted {adj[f.return_test.key]:.3g})")
        return out



def _check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise InputError(f"--alpha must be between 0 and 1, got {alpha}")


def crosscheck_log(log: LogFile, shoe: Shoe, cover: int | Cover, alpha: float = DEFAULT_ALPHA,
                   wagers: Chosen | None = None, progress: Progress | None = None,
                   faces: bool = False, prefix_cover: int | None = None) -> CrossCheck:
    """Audit a hand log, then test the round results, the wagers (coup-level ones from the
    round results; with ``faces`` or when named, those settled on the cards, from the
    cards) and the card sequence.

    ``cover``: cards under the cover card (§ 629a.5(d)), one number or a :class:`Cover`
    range; the comparable prefix comes from its highest cover, or, for a range with no
    upper bound, from ``prefix_cover``
    (:func:`~exactodds.simulation.shoetests.survey_cover` chooses one from the log).
    The log is read once, streaming; ``progress`` is told the bytes read.
    """
    _check_alpha(alpha)
    start = time.process_time()
    span = Cover.of(cover)
    if span.high is None and prefix_cover is None:
        prefix_cover = span.top(shoe.size)  # the most any shoe can have: the shortest prefix
    top = span.high if span.high is not None else int(prefix_cover or span.low)
    coup_pairs, face_pairs, skipped = wager_tables(wagers, True, faces)
    k = guaranteed_rounds(shoe.size, top) if log.has_shoes else None
    tally = SequenceTally(shoe, log.has_shoes)
    auditor = Auditor(shoe, k, face_pairs, tally)
    from exactodds.simulation.shoetests import ShoeTally

    shoes = ShoeTally(shoe, span, top) if log.has_shoes else None
    log.set_progress(progress)
    for ch in log.chunks():
        auditor.feed(ch)
        if shoes is not None:
            shoes.feed(ch)
    tally.finish()
    audit = auditor.audit()
    skipped += auditor.faces.dropped
    skipped += auditor.faces.bound_note()
    section = _section(audit.comparable, shoe, coup_pairs, alpha, auditor.faces.families(False))
    if section.rounds:
        section.families += focused_tests(audit.comparable, shoe)
        section.families += tally.tests()
    result = CrossCheck(log.path, "log", shoe, alpha, section, audit=audit, skipped=skipped)
    if shoes is not None:
        _add_shoe_tests(result, shoes, span, top)
    _add_round_numbers(result, log)
    if audit.unplayable:
        result.notes.append(f"{audit.unplayable} round(s) with a hand of fewer than 2 or more than 3 cards "
                            "are left out of the statistics")
    if audit.suitless_line is not None:
        result.notes.append(f"the log gives ranks without suits (first at line {audit.suitless_line}): "
                            "wagers that read suits are skipped and the duplicate-card check counts ranks only")
    if audit.guaranteed is not None:
        result.not_comparable = _section(audit.not_comparable, shoe, coup_pairs, alpha, auditor.faces.families(True))
        _add_later_rounds(result, audit, span, top)
    if result.verdict == "inconclusive":
        result.notes.append(_too_few(section.rounds))
    result.seconds = time.process_time() - start
    return result


def _add_shoe_tests(result: CrossCheck, shoes: ShoeTally, span: Cover, top: int) -> None:
    """The shoe-level tests (:mod:`~exactodds.simulation.shoetests`) into the verdict, when any
    round is comparable, and the shoe accounting, cover range and notes into ``result``."""
    open_rounds = shoes.finish()
    if result.comparable.rounds:
        result.comparable.families += shoes.tests()
    result.accounting = list(shoes.checks.values())
    result.cover = {"low": span.low, "high": span.high, "prefix_cover": top,
                    "observed_low": shoes.fit_low, "observed_high": shoes.fit_high}
    checked = ", ".join(f"{c.name} ({c.checked:,} shoes, {c.failed:,} broken)" for c in result.accounting)
    result.notes.append(f"accounting, shoe by shoe (the last shoe, {open_rounds:,} round(s), may be cut short by "
                        f"the end of the log and is not checked): {checked}")
    result.notes += [n for n in (shoes.range_note(), shoes.cover_note(), shoes.repeat_note()) if n]


def _add_round_numbers(result: CrossCheck, log: LogFile) -> None:
    """The round-number accounting of the log (gaps: rounds left out), and its note."""
    order = log.order
    if order is None:
        return
    from exactodds.simulation.shoetests import AccountingCheck

    gaps = AccountingCheck("round numbers", "round numbers follow on without gaps" +
                           (" within each shoe" if log.has_shoes else ""), unit="round number")
    gaps.checked = order.rounds + order.missing
    gaps.failed = order.missing
    if order.first_gap is not None:
        gaps.examples.append("round {2} follows round {1} at line {0}".format(*order.first_gap))
    result.accounting.append(gaps)
    if order.missing and order.first_gap is not None:
        line, before, after = order.first_gap
        within = " within a shoe" if log.has_shoes else ""
        result.notes.append(
            f"accounting, round numbers: {order.missing:,} round number(s) missing{within} (first: "
            f"round {after} follows round {before} at line {line}); rounds left out of a log bias every "
            "count, so a complete log should have none")


def _add_later_rounds(result: CrossCheck, audit: Audit, span: Cover, top: int) -> None:
    """The notes of a shoe log: which rounds are comparable (the cut-card effect), and the
    shoes that dealt fewer rounds than the cover card allows (§ 629a.5(d), § 629a.9(d))."""
    assert result.not_comparable is not None
    shoe = result.shoe
    result.notes.append(
        f"dealt through the shoe: rounds 1-{audit.guaranteed} of each shoe are dealt in every shoe "
        f"(cover card {span.describe()} cards from the bottom, the prefix from a cover of {top}, § 629a.5(d), "
        f"§ 629a.9(d)) and are tested against "
        f"the fresh-shoe figures; the {result.not_comparable.rounds:,} later round(s) are not directly "
        "comparable (cut-card effect): their round results are reported apart, outside the verdict, and "
        "their cards enter it through the test of each card against the cards left in its shoe")
    short = audit.short_shoes
    if short.count:
        fewest = short.fewest or 0
        suggest = max(top, shoe.size - 6 * fewest - 4)
        examples = ", ".join(f"shoe {s} (line {line}) dealt {r}" for s, r, line in short.examples)
        result.notes.append(
            f"{short.count:,} of the {audit.shoes - 1:,} complete shoe(s) dealt fewer rounds than the "
            f"{audit.guaranteed} every shoe deals with the cover card {top} cards from the bottom "
            f"({examples}{', ...' if short.count > len(short.examples) else ''}): that simulator places "
            f"its cover card higher, so the split above is not the right one; give its --cover "
            f"(a cover of {suggest} or more makes every shoe deal at least {fewest} rounds)")


def _too_few(rounds: int) -> str:
    return (f"inconclusive: {rounds:,} comparable round(s) are too few for any test (a chi-square needs two "
            f"groups of cells expecting {MIN_EXPECTED} rounds each, a return test at least "
            f"{MIN_RETURN_ROUNDS} rounds); no rule is broken")


def crosscheck_counts(counts: CountsFile, shoe: Shoe, alpha: float = DEFAULT_ALPHA) -> CrossCheck:
    """Test the outcome counts of every wager in a counts file."""
    _check_alpha(alpha)
    fams = []
    skipped = []
    for (wid, tid), observed in counts.families.items():
        w = engine_link.wager(wid)
        if not engine_link.is_baccarat_level(w.level) and w.level is not COUP:
            skipped.append(f"skipped {wid} ({tid}): settled at level {w.level.name!r}, not a baccarat round")
            continue
        if sum(observed.values()) == 0:
            skipped.append(f"skipped {wid} ({tid}): no rounds")
            continue
        fams.append(goodness_of_fit(wid, tid, observed, shoe, alpha))
    if not fams:
        raise InputError(f"{counts.path}: no wager with counts to test")
    rounds = max(f.rounds for f in fams)
    result = CrossCheck(counts.path, "counts", shoe, alpha, Section(rounds, fams), skipped=skipped)
    if counts.meta.get("mode") == "shoe" and counts.meta.get("subset") != "comparable":
        result.notes.append("counts from a game dealt through the shoe pool every round, including rounds "
                            "that exist only in some shoes (cut-card effect): they are not directly comparable "
                            "to fresh-shoe figures, and a failure may be that effect")
    if result.verdict == "inconclusive":
        result.notes.append(_too_few(rounds))
    return result


def bench_crosscheck(rounds: int = 2_000_000, path: str | None = None, mode: str = "fresh") -> float:
    """Rounds per second (CPU time) of reading, auditing and testing a hand log of
    ``rounds`` rounds dealt in ``mode`` (``"shoe"``: every shoe-level test and accounting
    check on), written first to ``path`` or a temporary file, not timed."""
    import os
    import tempfile

    from exactodds.simulation.handlog import log_header, render_log_chunk
    from exactodds.simulation.simulate import HandLog, simulate

    shoe = Shoe.standard(8)
    fd, tmp = tempfile.mkstemp(suffix=".csv") if path is None else (None, path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(log_header({"decks": 8, "cover": 14}, mode == "shoe"))
            def sink(batch: HandLog) -> None:
                fh.write(render_log_chunk(batch))
            simulate(rounds, "shoe" if mode == "shoe" else "fresh", shoe, seed=2024, on_hands=sink)
        if fd is not None:
            os.close(fd)
        crosscheck_log(_open_log(tmp), shoe, 14)  # warm the caches (exact figures, hands)
        start = time.process_time()
        crosscheck_log(_open_log(tmp), shoe, 14)
        return rounds / (time.process_time() - start)
    finally:
        if path is None:
            os.unlink(tmp)


def _open_log(path: str) -> LogFile:
    from exactodds.simulation.handlog import read_file

    data = read_file(path)
    assert isinstance(data, LogFile)
    return data


__all__ = ["DEFAULT_ALPHA", "FOCUSED_WAGER", "RESULTS_FAMILY", "SEQUENCE_WAGER", "Audit", "Chosen", "CrossCheck",
           "IdenticalFaces", "Section", "Violation", "audit_log", "audit_round", "bench_crosscheck",
           "coup_name", "coup_wager_tables", "crosscheck_counts", "crosscheck_log", "estimate_decks",
           "focused_tests", "goodness_of_fit", "holm", "pattern_probabilities", "results_fit", "wager_tables"]
