"""Cross-checking simulators against the exact figures: rule audit and statistics.

Library functions a notebook can call; every result is a dataclass.

* :func:`audit_round` replays one logged round through § 629a.8-629a.10 and says
  which third card (taken or not) breaks the drawing rules.
* :func:`goodness_of_fit` tests observed outcome counts against exact probabilities:
  Pearson's chi-square with cells of expected count below 5 merged, per-outcome
  z-scores, and, for a wager, the observed return against the exact return.
  Expected counts are exact Fractions (``n·p``); the statistic is summed exactly and
  only then turned into an mpmath number for the p-value (upper regularised gamma).
* :func:`crosscheck_log` and :func:`crosscheck_counts` put these together, with a
  Bonferroni correction over every test made, and give a verdict.

The cut-card effect (see ``docs/simulator.md``): in a shoe dealt to the cover card,
round ``k`` of a shoe has exactly the fresh-shoe distribution when every shoe deals at
least ``k`` rounds (:func:`~exactodds.simulation.simulate.guaranteed_rounds`); later rounds exist
only in some shoes, chosen by the cards, and are not directly comparable. Those are
reported separately and left out of the verdict.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from fractions import Fraction
from typing import Final

import mpmath

from exactodds.figures.analysis import analyze
from exactodds.game.cards import FACES, RANKS, Shoe
from exactodds.catalogue import CATALOGUE, get_wager
from exactodds.engine.levels import coup_distribution
from exactodds.errors import InputError
from exactodds.simulation.handlog import CountsFile, LogFile, LoggedRound
from exactodds.game.rules import Coup, banker_draws, is_natural, player_draws, point_count
from exactodds.simulation.simulate import guaranteed_rounds, outcome_counts

DEFAULT_ALPHA: Final = 0.001
MIN_EXPECTED: Final = 5
"""Cells whose expected count is below this are merged before the chi-square test."""

RESULTS_FAMILY: Final = ("round results", "coup")
"""The family of every distinct round result (point counts and card counts)."""

_DPS: Final = 40


# -- the rule audit ----------------------------------------------------------------------
@dataclass(frozen=True)
class Violation:
    """A logged round that breaks the dealing or drawing rules."""

    round: int
    line: int
    message: str


def _natural_text(p2: int, b2: int) -> str:
    hands = [f"{name} {t}" for name, t in (("Player", p2), ("Banker", b2)) if is_natural(t)]
    return " and ".join(hands)


def audit_round(player: Sequence[int], banker: Sequence[int]) -> list[str]:
    """Why a round with these card values (each hand in dealing order) breaks the rules.

    Empty when the round is dealt correctly. The Banker is judged on the Player's hand
    as actually dealt, so one wrong draw gives one message.
    """
    problems = []
    for name, hand in (("Player", player), ("Banker", banker)):
        if len(hand) < 2:
            problems.append(f"the {name} hand has {len(hand)} card; each hand is dealt two (§ 629a.8(c))")
        elif len(hand) > 3:
            problems.append(f"the {name} hand has {len(hand)} cards; no hand takes more than one "
                            "additional card (§ 629a.9(c))")
    if problems:
        return problems
    p2, b2 = point_count(player[:2]), point_count(banker[:2])
    p_drew, b_drew = len(player) == 3, len(banker) == 3
    if is_natural(p2) or is_natural(b2):
        nat = _natural_text(p2, b2)
        for name, drew in (("Player", p_drew), ("Banker", b_drew)):
            if drew:
                problems.append(f"{name} drew a third card though {nat} is a Natural: "
                                "neither hand draws (§ 629a.10(a))")
        return problems
    if p_drew != player_draws(p2):
        problems.append(f"Player {'drew' if p_drew else 'stood'} on {p2}: the Player draws on 0-5 and "
                        f"stands on 6-7 (§ 629a.10(b){'(2)' if p_drew else '(1)'})")
    third = player[2] if p_drew else None
    if b_drew != banker_draws(b2, third):
        verb = "drew" if b_drew else "stood"
        if third is None:
            problems.append(f"Banker {verb} on {b2} with the Player standing: the Banker then draws on "
                            "0-5 and stands on 6-7 (§ 629a.10(c)(1))")
        elif b2 <= 2:
            problems.append(f"Banker stood on {b2}: with 0-2 the Banker draws (§ 629a.10(c)(2)(i))")
        elif b2 == 7:
            problems.append("Banker drew on 7: the Banker stands on 7 (§ 629a.10(c)(2)(ii))")
        else:
            should = "draw" if banker_draws(b2, third) else "stay"
            problems.append(f"Banker {verb} on {b2} against a Player third card of {third}: "
                            f"Table 1 says {should} (§ 629a.10(c)(2)(iii))")
    return problems


@lru_cache(maxsize=1 << 16)
def _audit_cached(player: tuple[int, ...], banker: tuple[int, ...]) -> tuple[str, ...]:
    """:func:`audit_round`, memoised: a log repeats the same value patterns endlessly."""
    return tuple(audit_round(player, banker))


@dataclass(frozen=True)
class _Limits:
    """Copies of each face and rank in the shoe, and the fewest of any: a round with no
    more cards than that cannot hold too many copies, and is not checked."""

    faces: dict[str, int]
    ranks: dict[str, int]
    fewest_face: int
    fewest_rank: int


def _limits(shoe: Shoe) -> _Limits:
    faces = {str(c): n for c, n in zip(FACES, shoe.counts)}
    ranks = dict(zip(RANKS, shoe.rank_counts()))
    return _Limits(faces, ranks, min(faces.values()), min(ranks.values()))


def _composition_problem(r: LoggedRound, limits: _Limits, shoe: Shoe) -> str | None:
    """A round holding more copies of a card (or rank) than the shoe has."""
    cards = r.player + r.banker
    if len(cards) > limits.fewest_face:
        for text, n in sorted(Counter(str(c) for c in cards if c.suit is not None).items()):
            if n > limits.faces[text]:
                return f"the round holds {n} copies of {text}; the shoe ({shoe.describe()}) has {limits.faces[text]}"
    if len(cards) > limits.fewest_rank:
        for rank, n in sorted(Counter(c.rank for c in cards).items()):
            if n > limits.ranks[rank]:
                return (f"the round holds {n} cards of rank {rank}; the shoe ({shoe.describe()}) "
                        f"has {limits.ranks[rank]}")
    return None


@dataclass
class Audit:
    """The rule audit of a hand log, and the round results it read."""

    rounds: int
    violations: list[Violation]
    comparable: Counter[Coup]
    not_comparable: Counter[Coup]
    unplayable: int
    guaranteed: int | None

    @property
    def violating_rounds(self) -> int:
        """Rounds with at least one violation."""
        return len({v.round for v in self.violations})


def audit_log(log: LogFile, shoe: Shoe, cover: int) -> Audit:
    """Audit every round of ``log``; collect each playable round's :class:`Coup`.

    A round whose hands have 2 or 3 cards is counted as dealt, right or wrong, so a
    wrong draw also shows in the statistics. In a log with shoe numbers, round ``k``
    of a shoe is comparable with the fresh-shoe figures when ``k`` is at most
    :func:`~exactodds.simulation.simulate.guaranteed_rounds` (shoes are assumed logged from
    their first round).
    """
    k = guaranteed_rounds(shoe.size, cover) if log.has_shoes else None
    seen: Counter[int | None] = Counter()
    violations: list[Violation] = []
    tallies: tuple[Counter[tuple[int, int, int, int]], Counter[tuple[int, int, int, int]]] = (Counter(), Counter())
    unplayable = 0
    limits = _limits(shoe)
    for r in log.rounds:
        pv = tuple([c.value for c in r.player])
        bv = tuple([c.value for c in r.banker])
        problems = _audit_cached(pv, bv)
        comp = _composition_problem(r, limits, shoe)
        if problems or comp:
            violations.extend(Violation(r.round, r.line, m) for m in problems + ((comp,) if comp else ()))
        if k is not None:
            seen[r.shoe] += 1
        if not (2 <= len(pv) <= 3 and 2 <= len(bv) <= 3):
            unplayable += 1
            continue
        later = k is not None and seen[r.shoe] > k
        tallies[later][(sum(pv) % 10, sum(bv) % 10, len(pv), len(bv))] += 1
    comparable, rest = (Counter({Coup(*key): n for key, n in t.items()}) for t in tallies)
    return Audit(len(log.rounds), violations, comparable, rest, unplayable, k)


# -- statistics ----------------------------------------------------------------------------
def _mpf(x: Fraction | int) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


@dataclass(frozen=True)
class Cell:
    """One outcome: observed count, exact probability and expected count, z-score."""

    name: str
    observed: int
    probability: Fraction
    expected: Fraction
    z: float | None


@dataclass(frozen=True)
class ChiSquare:
    """Pearson's chi-square over the (merged) cells."""

    statistic: float
    df: int
    p_value: float
    groups: int
    merged: tuple[tuple[str, ...], ...]
    impossible: tuple[str, ...]


@dataclass(frozen=True)
class ReturnTest:
    """Observed return per unit wagered against the exact return."""

    observed: Fraction
    exact: Fraction
    ci_low: float
    ci_high: float
    confidence: float
    z: float
    p_value: float


@dataclass(frozen=True)
class FamilyTest:
    """The tests of one wager under one paytable (or of the round results)."""

    wager: str
    paytable: str
    rounds: int
    cells: tuple[Cell, ...]
    chi_square: ChiSquare
    return_test: ReturnTest | None

    def p_values(self) -> list[float]:
        """The p-values of this family's tests (chi-square, then return if any)."""
        out = [self.chi_square.p_value]
        if self.return_test is not None:
            out.append(self.return_test.p_value)
        return out


def _merge(cells: list[Cell]) -> list[tuple[tuple[str, ...], int, Fraction]]:
    """Groups of cells, merging the smallest until every group expects at least 5."""
    heap = [(c.expected, (c.name,), c.observed) for c in cells]
    heapq.heapify(heap)
    while len(heap) > 1 and heap[0][0] < MIN_EXPECTED:
        e1, n1, o1 = heapq.heappop(heap)
        e2, n2, o2 = heapq.heappop(heap)
        heapq.heappush(heap, (e1 + e2, n1 + n2, o1 + o2))
    return sorted(((names, o, e) for e, names, o in heap), key=lambda g: g[0])


def chi_square(cells: Sequence[Cell]) -> ChiSquare:
    """Pearson's chi-square of ``cells`` (exact statistic, mpmath p-value).

    Cells of probability 0 are left out of the sum; a count in one is an impossible
    outcome and makes the p-value 0.
    """
    impossible = tuple(c.name for c in cells if c.probability == 0 and c.observed > 0)
    live = [c for c in cells if c.probability > 0]
    groups = _merge(live)
    stat = sum(((o - e) ** 2 / e for _, o, e in groups if e > 0), Fraction(0))
    df = len(groups) - 1
    with mpmath.workdps(_DPS):
        if impossible:
            p = mpmath.mpf(0)
        elif df < 1:
            p = mpmath.mpf(1)
        else:
            p = mpmath.gammainc(mpmath.mpf(df) / 2, _mpf(stat) / 2, mpmath.inf, regularized=True)
        merged = tuple(names for names, _, _ in groups if len(names) > 1)
        return ChiSquare(float(_mpf(stat)), df, float(p), len(groups), merged, impossible)


def _z(observed: int, n: int, p: Fraction) -> float | None:
    if n == 0 or p in (0, 1):
        return None
    with mpmath.workdps(_DPS):
        return float((observed - _mpf(n * p)) / mpmath.sqrt(_mpf(n * p * (1 - p))))


def make_cells(observed: Mapping[str, int], probabilities: Mapping[str, Fraction]) -> list[Cell]:
    """Cells for every outcome with a probability or an observation."""
    n = sum(observed.values())
    names = list(probabilities) + [k for k in observed if k not in probabilities]
    out = []
    for name in names:
        p = probabilities.get(name, Fraction(0))
        o = observed.get(name, 0)
        out.append(Cell(name, o, p, n * p, _z(o, n, p)))
    return out


def return_test(observed: Mapping[str, int], nets: Mapping[str, Fraction], exact: Fraction,
                variance: Fraction, alpha: float) -> ReturnTest:
    """The observed return (exact Fraction) against the exact one.

    ``z = (observed − exact) / √(variance / n)`` with the exact variance of one round;
    the confidence interval (level ``1 − alpha``) uses the observed standard deviation.
    """
    n = sum(observed.values())
    total = sum((nets[k] * o for k, o in observed.items()), Fraction(0))
    mean = total / n
    second = sum((nets[k] ** 2 * o for k, o in observed.items()), Fraction(0)) / n
    sample_var = (second - mean**2) * n / (n - 1) if n > 1 else Fraction(0)
    with mpmath.workdps(_DPS):
        q = mpmath.sqrt(2) * mpmath.erfinv(1 - mpmath.mpf(alpha))
        half = q * mpmath.sqrt(_mpf(sample_var) / n)
        if variance == 0:
            z = mpmath.mpf(0) if mean == exact else mpmath.inf
        else:
            z = (_mpf(mean) - _mpf(exact)) / mpmath.sqrt(_mpf(variance) / n)
        p = mpmath.erfc(abs(z) / mpmath.sqrt(2))
        return ReturnTest(mean, exact, float(_mpf(mean) - half), float(_mpf(mean) + half), 1 - alpha,
                          float(z), float(p))


def goodness_of_fit(wager_id: str, paytable_id: str, observed: Mapping[str, int], shoe: Shoe,
                    alpha: float = DEFAULT_ALPHA) -> FamilyTest:
    """Test a wager's observed outcome counts against its exact analysis for ``shoe``."""
    a = analyze(wager_id, paytable_id, shoe)
    probs = {r.name: r.probability for r in a.rows}
    nets = {r.name: r.pay.net for r in a.rows}
    cells = make_cells(observed, probs)
    unknown = [k for k in observed if k not in probs]
    if unknown:
        raise InputError(f"{wager_id} ({paytable_id}) has no outcome {unknown[0]!r}")
    n = sum(observed.values())
    rt = return_test(observed, nets, a.return_, a.variance, alpha) if n else None
    return FamilyTest(wager_id, paytable_id, n, tuple(cells), chi_square(cells), rt)


def coup_name(c: Coup) -> str:
    """A round result as text, e.g. ``P5(3) B7(2)``."""
    return f"P{c.player_total}({c.player_cards}) B{c.banker_total}({c.banker_cards})"


def results_fit(coups: Mapping[Coup, int], shoe: Shoe) -> FamilyTest:
    """Test the distribution of round results (every point/card-count combination)."""
    d = coup_distribution(shoe)
    probs = {coup_name(c): Fraction(n, d.universe) for c, n in sorted(d.counts.items())}
    observed = {coup_name(c): n for c, n in coups.items()}
    cells = make_cells(observed, probs)
    return FamilyTest(*RESULTS_FAMILY, sum(coups.values()), tuple(cells), chi_square(cells), None)


# -- putting it together -------------------------------------------------------------------------
def coup_wager_tables(wagers: Sequence[str] | None = None) -> tuple[list[tuple[str, str]], list[str]]:
    """(wager, paytable) pairs of every coup-level wager (or of those named), and the
    messages for wagers skipped because they are settled on more than the coup."""
    pairs: list[tuple[str, str]] = []
    skipped: list[str] = []
    for wid in (wagers if wagers else list(CATALOGUE)):
        w = get_wager(wid)
        if w.level.name != "coup":
            skipped.append(f"skipped {w.id}: settled at level {w.level!r}, which the simulator "
                           "and cross-check do not cover yet (coup-level wagers only)")
            continue
        pairs.extend((w.id, p.id) for p in w.paytables)
    return pairs, skipped


@dataclass
class Section:
    """Tests of one set of rounds: all comparable rounds, or the shoe-mode tail."""

    rounds: int
    families: list[FamilyTest]

    def p_values(self) -> list[float]:
        """Every test's p-value, family by family."""
        return [p for f in self.families for p in f.p_values()]


def _section(coups: Mapping[Coup, int], shoe: Shoe, pairs: Sequence[tuple[str, str]], alpha: float) -> Section:
    n = sum(coups.values())
    fams = []
    if n:
        fams.append(results_fit(coups, shoe))
        for wid, tid in pairs:
            w = get_wager(wid)
            fams.append(goodness_of_fit(wid, tid, outcome_counts(coups, w, w.paytable(tid)), shoe, alpha))
    return Section(n, fams)


@dataclass
class CrossCheck:
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

    @property
    def tests(self) -> int:
        """Number of tests behind the verdict (for the Bonferroni correction)."""
        return len(self.comparable.p_values())

    @property
    def threshold(self) -> float:
        """Significance of each single test: ``alpha`` / number of tests (Bonferroni)."""
        return self.alpha / max(1, self.tests)

    def failures(self) -> list[str]:
        """Why the input is inconsistent with the exact figures (empty if it is not)."""
        out = []
        if self.audit is not None and self.audit.violations:
            out.append(f"{self.audit.violating_rounds} round(s) break the drawing rules (§ 629a.8-629a.10)")
        for f in self.comparable.families:
            label = f"{f.wager} ({f.paytable})"
            if f.chi_square.impossible:
                out.append(f"{label}: impossible outcome observed: {', '.join(f.chi_square.impossible)}")
            elif f.chi_square.p_value < self.threshold:
                out.append(f"{label}: chi-square p = {f.chi_square.p_value:.3g} < {self.threshold:.3g}")
            if f.return_test is not None and f.return_test.p_value < self.threshold:
                out.append(f"{label}: observed return differs from the exact return, "
                           f"z = {f.return_test.z:.2f}, p = {f.return_test.p_value:.3g}")
        return out

    @property
    def consistent(self) -> bool:
        """No rule broken and no test below the per-test threshold."""
        return not self.failures()


def _check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise InputError(f"--alpha must be between 0 and 1, got {alpha}")


def crosscheck_log(log: LogFile, shoe: Shoe, cover: int, alpha: float = DEFAULT_ALPHA,
                   wagers: Sequence[str] | None = None) -> CrossCheck:
    """Audit a hand log, then test the round results and every coup-level wager."""
    _check_alpha(alpha)
    audit = audit_log(log, shoe, cover)
    pairs, skipped = coup_wager_tables(wagers)
    result = CrossCheck(log.path, "log", shoe, alpha, _section(audit.comparable, shoe, pairs, alpha),
                        audit=audit, skipped=skipped)
    if audit.unplayable:
        result.notes.append(f"{audit.unplayable} round(s) with a hand of fewer than 2 or more than 3 cards "
                            "are left out of the statistics")
    if audit.guaranteed is not None:
        result.not_comparable = _section(audit.not_comparable, shoe, pairs, alpha)
        result.notes.append(
            f"dealt through the shoe: rounds 1-{audit.guaranteed} of each shoe are dealt in every shoe "
            f"(cover card {cover} cards from the bottom, § 629a.5(d), § 629a.9(d)) and are tested against "
            f"the fresh-shoe figures; the {result.not_comparable.rounds:,} later round(s) are not directly "
            "comparable (cut-card effect) and are reported apart, outside the verdict")
    return result


def crosscheck_counts(counts: CountsFile, shoe: Shoe, alpha: float = DEFAULT_ALPHA) -> CrossCheck:
    """Test the outcome counts of every coup-level wager in a counts file."""
    _check_alpha(alpha)
    fams = []
    skipped = []
    for (wid, tid), observed in counts.families.items():
        w = get_wager(wid)
        if w.level.name != "coup":
            skipped.append(f"skipped {wid} ({tid}): settled at level {w.level!r} (coup-level wagers only)")
            continue
        if sum(observed.values()) == 0:
            skipped.append(f"skipped {wid} ({tid}): no rounds")
            continue
        fams.append(goodness_of_fit(wid, tid, observed, shoe, alpha))
    if not fams:
        raise InputError(f"{counts.path}: no coup-level wager with counts to test")
    rounds = max(f.rounds for f in fams)
    result = CrossCheck(counts.path, "counts", shoe, alpha, Section(rounds, fams), skipped=skipped)
    if counts.meta.get("mode") == "shoe" and counts.meta.get("subset") != "comparable":
        result.notes.append("counts from a game dealt through the shoe pool every round, including rounds "
                            "that exist only in some shoes (cut-card effect): they are not directly comparable "
                            "to fresh-shoe figures, and a failure may be that effect")
    return result
