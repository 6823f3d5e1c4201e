"""One distinct player hand's exact outcomes against the house way (§ 535.10(d)).

Kept apart from :mod:`.analysis` (which computes them) so that :mod:`.cache` (which
stores and loads them) imports it without importing the analysis: the package's
imports point one way, tiles → hands → house way → outcomes → cache → analysis.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .hands import Setting
from .house_way import Step

Hand = tuple[int, int, int, int]
"""A player's four tiles (indices into :data:`~.tiles.TILES`), sorted."""


@dataclass(frozen=True)
class HandOutcomes:
    """One distinct player hand: how often it is dealt and, for each of its three
    settings, the integer numbers of dealer draws won, tied and lost."""

    hand: Hand
    ways: int
    dealer_hands: int
    settings: tuple[Setting, Setting, Setting]
    counts: tuple[tuple[int, int, int], ...]
    house_index: int
    house_step: Step

    def best_index(self, net_win: Fraction) -> int:
        """Setting with the highest return when a win nets ``net_win``; house way on ties."""
        num, den = net_win.numerator, net_win.denominator
        values = [num * w - den * lo for w, _, lo in self.counts]
        best = self.house_index
        for i in range(3):
            if values[i] > values[best]:
                best = i
        return best

    def expected_return(self, i: int, net_win: Fraction) -> Fraction:
        """Exact expected return per unit of setting ``i`` against the house way."""
        w, _, lo = self.counts[i]
        return (net_win * w - lo) / self.dealer_hands
