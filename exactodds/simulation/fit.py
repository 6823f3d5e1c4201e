"""Goodness of fit of observed round results and wager outcomes to the exact figures.

* :func:`goodness_of_fit` tests observed outcome counts against exact probabilities:
  Pearson's chi-square with cells of expected count below 5 merged, per-outcome
  z-scores, and, for a wager, the observed return against the exact return. Expected
  counts are exact Fractions (``n·p``) and the statistic is summed exactly; only the
  p-value is a float (``scipy.stats``). :func:`results_fit` does it for the round
  results (every point/card-count combination).
* :func:`focused_tests`: one binomial test per outcome class (naturals by total, each
  main wager's winning event, third-card draws by total), exact ``p`` from the engine, so
  a small concentrated fault is not diluted in the omnibus chi-square.
* :func:`holm`: Holm's step-down correction over every distinct test (identical tests
  counted once), so the chance of a false alarm is at most ``alpha``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, Final

from exactodds.engine.levels import COUP
from exactodds.errors import InputError
from exactodds.game.cards import Shoe
from exactodds.game.rules import (
    Coup,
)
from exactodds.simulation import engine_link
from exactodds.simulation.statistics import (
    Cell,
    ChiSquare,
    FamilyTest,
    chi_square,
    make_cells,
    min_return_rounds,
    norm_two_sided,
    return_test,
    z_score,
)

DEFAULT_ALPHA: Final = 0.001
"""The family-wise level of a cross-check's verdict."""

RESULTS_FAMILY: Final = ("round results", COUP.name)
"""The family of every distinct round result (point counts and card counts)."""


def goodness_of_fit(wager_id: str, paytable_id: str, observed: Mapping[str, int], shoe: Shoe,
                    alpha: float = DEFAULT_ALPHA) -> FamilyTest:
    """Test a wager's observed outcome counts against its exact analysis for ``shoe``."""
    a = engine_link.exact_analysis(wager_id, paytable_id, shoe)
    probs = {r.name: r.probability for r in a.rows}
    nets = {r.name: r.pay.net for r in a.rows}
    cells = make_cells(observed, probs)
    unknown = [k for k in observed if k not in probs]
    if unknown:
        raise InputError(f"{wager_id} ({paytable_id}) has no outcome {unknown[0]!r}")
    n = sum(observed.values())
    rt = return_test(observed, nets, a.return_, a.variance, alpha, min_return_rounds(probs, nets)) if n else None
    return FamilyTest(wager_id, paytable_id, n, tuple(cells), chi_square(cells), rt)


def coup_name(c: Coup) -> str:
    """A round result as text, e.g. ``P5(3) B7(2)``."""
    return f"P{c.player_total}({c.player_cards}) B{c.banker_total}({c.banker_cards})"


def results_fit(coups: Mapping[Coup, int], shoe: Shoe) -> FamilyTest:
    """Test the distribution of round results (every point/card-count combination)."""
    d = engine_link.coup_distribution(shoe)
    probs = {coup_name(c): Fraction(n, d.universe) for c, n in sorted(d.counts.items())}
    observed = {coup_name(c): n for c, n in coups.items()}
    cells = make_cells(observed, probs)
    return FamilyTest(*RESULTS_FAMILY, sum(coups.values()), tuple(cells), chi_square(cells), None)


# -- focused tests, beside the omnibus chi-square ----------------------------------------------
FOCUSED_WAGER: Final = "outcome class"
"""The ``wager`` name of the focused per-class tests."""

MIN_FOCUSED: Final = 10
"""A focused test is made when the class expects at least this many rounds, and its complement too."""


def _two(c: Coup) -> bool:
    return c.player_cards == 2 and c.banker_cards == 2


FOCUSED_CLASSES: Final[tuple[tuple[str, Any], ...]] = (
    *((f"Player natural {t} (§ 629a.10(a))", (lambda c, t=t: c.player_cards == 2 and c.player_total == t
                                              and (c.banker_cards == 2))) for t in (8, 9)),
    *((f"Banker natural {t} (§ 629a.10(a))", (lambda c, t=t: c.banker_cards == 2 and c.banker_total == t
                                              and c.player_cards == 2)) for t in (8, 9)),
    ("Banker natural 9 wins", lambda c: _two(c) and c.banker_total == 9 and c.player_total < 9),
    ("Player natural 9 wins", lambda c: _two(c) and c.player_total == 9 and c.banker_total < 9),
    ("Banker wins (§ 629a.11)", lambda c: c.winner == "banker"),
    ("Player wins (§ 629a.11)", lambda c: c.winner == "player"),
    ("Tie (§ 629a.11)", lambda c: c.winner == "tie"),
    *((f"Player draws, final total {t} (§ 629a.10(b))", (lambda c, t=t: c.player_cards == 3 and c.player_total == t))
      for t in range(10)),
    *((f"Banker draws, final total {t} (§ 629a.10(c))", (lambda c, t=t: c.banker_cards == 3 and c.banker_total == t))
      for t in range(10)),
)
"""Classes of round results tested one by one: naturals by total, each main wager's
winning event, third-card draws by final total (each a set of coups)."""


def focused_tests(coups: Mapping[Coup, int], shoe: Shoe) -> list[FamilyTest]:
    """One binomial test per outcome class of :data:`FOCUSED_CLASSES`: the number of rounds
    in the class against ``n·p``, ``p`` the exact probability from the engine's coup counts,
    ``z = (O - np)/√(np(1-p))``, two-sided. A small fault concentrated in one class (1 in
    200 Banker natural-9 wins dropped) is diluted in the 200-cell round-results
    chi-square; here it has its own test. Each enters the verdict's Holm family."""
    d = engine_link.coup_distribution(shoe)
    n = sum(coups.values())
    out = []
    for name, member in FOCUSED_CLASSES:
        p = Fraction(sum(k for c, k in d.counts.items() if member(c)), d.universe)
        o = sum(k for c, k in coups.items() if member(c))
        e = n * p
        conclusive = e >= MIN_FOCUSED and n - e >= MIN_FOCUSED
        z = z_score(o, n, p)
        pv = norm_two_sided(z) if conclusive and z is not None else 1.0
        zz = z if z is not None else 0.0
        out.append(FamilyTest(FOCUSED_WAGER, name, n, (Cell(name, o, p, e, z),),
                              ChiSquare(zz * zz, 1, pv, 1, (), (), conclusive, ("focused", name, o, n), "z"), None))
    return out


class HolmVerdict:
    """The verdict of a set of tests read with Holm's correction: what a cross-check of a log and
    a check of a shuffler's output share. A subclass gives :meth:`failures` (why the data are not
    what they should be; empty when nothing fails) and :attr:`tests` (the distinct conclusive tests)."""

    def failures(self) -> list[str]:
        raise NotImplementedError

    @property
    def tests(self) -> int:
        raise NotImplementedError

    @property
    def consistent(self) -> bool:
        """Nothing failed (an inconclusive result is not inconsistent)."""
        return not self.failures()

    @property
    def verdict(self) -> str:
        """``"inconsistent"``, ``"inconclusive"`` (no test could be made) or ``"consistent"``."""
        if self.failures():
            return "inconsistent"
        return "inconclusive" if self.tests == 0 else "consistent"


def holm(tests: Iterable[tuple[tuple[Any, ...], float]], alpha: float) -> dict[tuple[Any, ...], float]:
    """Holm-adjusted p-values of distinct tests (equal keys counted once): a test fails
    at family-wise level ``alpha`` when its adjusted p-value is below ``alpha``.

    >>> adj = holm([(("a",), 0.01), (("b",), 0.04), (("a",), 0.01)], 0.05)
    >>> adj[("a",)], adj[("b",)]
    (0.02, 0.04)
    """
    distinct: dict[tuple[Any, ...], float] = {}
    for key, p in tests:
        distinct.setdefault(key, p)
    order = sorted(distinct.items(), key=lambda kv: kv[1])
    m = len(order)
    out: dict[tuple[Any, ...], float] = {}
    running = 0.0
    for i, (key, p) in enumerate(order):
        running = max(running, min(1.0, (m - i) * p))
        out[key] = running
    return out
