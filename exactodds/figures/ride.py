"""House Money with the payout ridden on the Banker or Player wager (58 Pa. Code § 629a.8(c)(3)).

The House Money Wager wins when the first two cards of the Player's Hand or the
Banker's Hand, or both, are a pair of the same rank (§ 629a.7(a)(7)); it pays 15 to 1
for both pairs and 3 to 1 for one (§ 629a.12(h)). It is settled *before* any third card
(§ 629a.8(c)(3)), and "at a player's discretion, the player may add the winning House
Money payout to the player's original wager on the Player's or Banker's Hand" -- all of
it or, if the Rules Submission says so, a specified portion (§ 629a.8(c)(3)(i)(A)); the
original wager and the added payout "shall then be settled based on the outcome of the
player's wager on the Player's or Banker's Hand" (commission included).

Reading. The *payout* is the winnings ``k`` (15 or 3 per unit of House Money wager);
the House Money stake itself is returned to the player. With a House Money wager of 1,
a main wager of ``m`` and a ridden fraction ``f``, a round whose main wager nets ``x``
per unit nets

    −1 + m·x              House Money loses,
    k + (m + f·k)·x       House Money wins k to 1 (the part ``(1 − f)·k`` is paid, ``f·k`` rides),
    0                     void round (§ 629a.13(e)): every wager is returned,

and the return is per unit of the initial outlay ``1 + m``.

Joint distribution. Riding needs the joint law of (pair on the Player's first two
cards, pair on the Banker's, :class:`~exactodds.game.rules.Coup`), which the coup level
lacks: the ``pair-coup`` level (:data:`~exactodds.engine.levels.PAIR_COUP`), the one
third-card walk over the 13 rank classes with that result, priced like every level.

>>> r = ride_analysis("banker", None, None, fraction=1)
>>> r.return_ < r.return_without_ride
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from exactodds.catalogue import get_wager
from exactodds.catalogue.model import Wager
from exactodds.engine.level import ResultDistribution
from exactodds.engine.levels import COUP, PAIR_COUP
from exactodds.errors import InputError
from exactodds.exact import ratio, sqrt_decimal
from exactodds.figures.eor import exact_net
from exactodds.figures.settlement import settlement
from exactodds.game.cards import Shoe
from exactodds.inputs import parse_number

CITE: Final = "58 Pa. Code § 629a.7(a)(7), § 629a.8(c)(3), § 629a.12(h), § 629a.13(e)"
BOTH_PAIRS: Final = Fraction(15)
ONE_PAIR: Final = Fraction(3)
"""House Money pays, "to 1" (§ 629a.12(h))."""


def pair_coup_distribution(shoe: Shoe) -> ResultDistribution:
    """The joint distribution of (player pair, banker pair, Coup) for ``shoe``, exactly:
    the :data:`~exactodds.engine.levels.PAIR_COUP` level, walked over rank classes by the
    one third-card walk."""
    return PAIR_COUP.distribution(shoe)


def house_money_pay(player_pair: bool, banker_pair: bool) -> Fraction:
    """House Money net per unit: 15 (both pairs), 3 (one), −1 (none) (§ 629a.12(h))."""
    if player_pair and banker_pair:
        return BOTH_PAIRS
    if player_pair or banker_pair:
        return ONE_PAIR
    return Fraction(-1)


HM_NAMES: Final = {BOTH_PAIRS: "both pairs", ONE_PAIR: "one pair", Fraction(-1): "no pair"}


@dataclass(frozen=True)
class RideRow:
    """House Money result x main-wager outcome: count and the round's net."""

    house_money: str
    main: str
    count: int
    net: Fraction


@dataclass(frozen=True)
class RideAnalysis:
    """House Money (1 unit) plus a main wager (``main_stake`` units), payout ridden by ``fraction``."""

    main_wager: Wager[Any]
    main_paytable: str
    shoe: Shoe
    fraction: Fraction
    main_stake: Fraction
    universe: int
    rows: tuple[RideRow, ...]
    return_without_ride: Fraction
    house_money_return: Fraction
    main_return: Fraction

    @property
    def outlay(self) -> Fraction:
        return 1 + self.main_stake

    @property
    def return_(self) -> Fraction:
        """Expected net per unit of the initial outlay (House Money + main wager)."""
        return sum((r.net * r.count for r in self.rows), Fraction(0)) / (self.universe * self.outlay)

    @property
    def house_edge(self) -> Fraction:
        return -self.return_

    @property
    def variance(self) -> Fraction:
        """Variance of the round's net per unit of outlay."""
        second = sum(((r.net / self.outlay) ** 2 * r.count for r in self.rows), Fraction(0)) / self.universe
        return second - self.return_**2

    @property
    def hit_frequency(self) -> Fraction:
        return Fraction(sum(r.count for r in self.rows if r.net > 0), self.universe)


RIDE_WAGERS: Final = ("banker", "player")
"""§ 629a.8(c)(3): the payout may be added to "the Player or Banker wager" only -- whatever its
paytable, a catalogue one or one a paytable file adds (``wager = "banker"``); no other wager,
from the catalogue or a wager file."""


def _exact(x: Fraction | int | str, what: str) -> Fraction:
    """An exact number from a Fraction, an int or text (bounded: :func:`exactodds.inputs.parse_number`)."""
    if isinstance(x, bool):
        raise InputError(f"{what} must be a number, got {x!r}")
    if isinstance(x, (Fraction, int)):
        return Fraction(x)
    return parse_number(x, what)


def ride_analysis(main: str | Wager[Any] = "banker", paytable: str | None = None, shoe: Shoe | None = None,
                  fraction: Fraction | int | str = 1, main_stake: Fraction | int | str = 1) -> RideAnalysis:
    """The exact combined return of House Money + ``main`` with ``fraction`` of a win ridden."""
    w = get_wager(main) if isinstance(main, str) else main
    if w.level is not COUP:
        raise InputError(f"{w.id!r} is settled at level {w.level.name!r}: a payout can ride only on a wager "
                         "settled on the Coup (the pair-coup law carries the Coup, nothing more); the House Money "
                         "payout rides on the Player or Banker wager (§ 629a.8(c)(3))")
    if w.id not in RIDE_WAGERS:  # one rule for catalogue and wager-file wagers (issue 25)
        raise InputError(f"the House Money payout rides on the Player or Banker wager (§ 629a.8(c)(3)), "
                         f"not {w.id!r}; a paytable file for banker or player (wager = \"banker\") is one")
    table = w.paytable(paytable)
    f = _exact(fraction, "--fraction")
    m = _exact(main_stake, "--main-stake")
    if not 0 <= f <= 1:
        raise InputError(f"the ridden fraction must be between 0 and 1, got {fraction}")
    if m <= 0:
        raise InputError(f"the main wager must be more than 0, got {main_stake}")
    shoe = shoe or Shoe.standard(8)
    dist = pair_coup_distribution(shoe)
    grouped: dict[tuple[str, str], list[Any]] = {}
    hm_sum = main_sum = plain = Fraction(0)
    main_wager = settlement(w, table)
    nets = [exact_net(p, table) for p in main_wager.pays]
    for (pp, bp, coup), n in dist.counts.items():
        k = house_money_pay(pp, bp)
        outcome = int(main_wager.index[w.level.result_index[coup]])
        name, x = main_wager.names[outcome], nets[outcome]
        net = -1 + m * x if k < 0 else k + (m + f * k) * x
        hm_sum += k * n
        main_sum += x * n
        plain += (k + m * x) * n
        cell = grouped.setdefault((HM_NAMES[k], name), [0, net])
        assert cell[1] == net
        cell[0] += n
    rows = [RideRow(hm, mn, c, net) for (hm, mn), (c, net) in sorted(grouped.items())]
    if dist.void:
        rows.append(RideRow("void", "Round void: shoe ran out (§ 629a.13(e))", dist.void, Fraction(0)))
    u = dist.universe
    return RideAnalysis(w, table.id, shoe, f, m, u, tuple(rows), plain / (u * (1 + m)), hm_sum / u, main_sum / u)


def ride_json(r: RideAnalysis) -> dict[str, Any]:
    """Machine-readable ride analysis (exact values as "p/q")."""
    return {
        "cite": CITE, "main_wager": r.main_wager.id, "main_paytable": r.main_paytable, "shoe": r.shoe.to_json(),
        "fraction_ridden": ratio(r.fraction), "main_stake": ratio(r.main_stake), "house_money_stake": "1/1",
        "total": r.universe,
        "rows": [{"house_money": x.house_money, "main": x.main, "count": x.count, "net": ratio(x.net)} for x in r.rows],
        "return": ratio(r.return_), "house_edge": ratio(r.house_edge),
        "return_without_ride": ratio(r.return_without_ride),
        "ride_effect": ratio(r.return_ - r.return_without_ride),
        "house_money_return": ratio(r.house_money_return), "main_return": ratio(r.main_return),
        "variance": ratio(r.variance), "std_dev": sqrt_decimal(r.variance, 10),
        "hit_frequency": ratio(r.hit_frequency),
    }


