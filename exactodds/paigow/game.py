"""Pai Gow (58 Pa. Code ch. 535) through the game seam (:mod:`exactodds.game.protocol`).

The outcome table of a player strategy is the win/push/loss counts over all
C(32,4)·C(28,4) deals (:func:`.analysis.paigow_analysis`), settled by the paytable of
§ 535.10(k) (:data:`PAYTABLE`: a win pays 1 to 1 less the exact 5 % vigorish, a push returns
the wager, a loss loses it). The house way's reading of § 535.10(d)(2),(3) is the one rules
field. The second method recomputes every count hand by hand from the tiles
(:func:`.analysis.compute_hand_outcomes`), never reading the shipped arrays the first method
reads; the schedule is the hold by wager amount with the vigorish rounded up to 25¢.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING, Any, ClassVar, Final

from exactodds.errors import InputError
from exactodds.exact import decimal, percent, ratio
from exactodds.game.protocol import SIMULATION_TICK as TICK
from exactodds.game.protocol import TILES_32, Game, GameTables, Outcome, OutcomeTable, Schedule, rule
from exactodds.lazy import LazyModule

if TYPE_CHECKING:
    from exactodds.io.progress import Progress

    from . import analysis as pg
else:
    pg = LazyModule("exactodds.paigow.analysis", globals(), "pg")  # numpy: only when a table is computed

VIGORISH: Final = Fraction(5, 100)
"""§ 535.10(k): 5 % of the amount won (= :data:`.analysis.VIGORISH_RATE`, a test holds them equal)."""
PAYTABLE: Final = (
    ("win", 1 - VIGORISH, "1 to 1 less 5% vigorish (§ 535.10(k))"),
    ("push", Fraction(0), "push: one hand each (§ 535.10(f)-(j))"),
    ("loss", Fraction(-1), "loses (§ 535.10(f)-(j))"),
)
"""Pai Gow's paytable as data: outcome, net per unit at the exact 5 % rate, how it is paid."""
STRATEGY_IDS: Final = ("house-way", "optimal")
"""= :data:`.analysis.STRATEGIES` (a test holds them equal)."""
CITATION: Final = ("58 Pa. Code §§ 535.3(a), (c); 535.4(a)-(g); 535.10(d) (dealer's setting), (f)-(j) "
                   "(comparison), (k) (1 to 1 less 5% vigorish)")
"""= :data:`.analysis.CITE`."""


@dataclass(frozen=True)
class PaiGowRules:
    """The rules a Pai Gow table is priced under: the house way's reading."""

    house_way_reading: str = rule(
        "most-qualifying", name="house way: which setting when § 535.10(d)(2) or (d)(3) is met in several ways",
        section="58 Pa. Code § 535.10(d)(2),(3)", flag="--reading")

    def __post_init__(self) -> None:
        from .house_way import READINGS  # the tile modules load on first use: the registry is read at start-up

        if self.house_way_reading not in READINGS:
            raise InputError(f"a certified house-way reading is one of {', '.join(READINGS)} "
                             f"(a casino's order file is for the paigow command), got {self.house_way_reading!r}")


def _table(wins: int, ties: int, losses: int, strategy: str) -> OutcomeTable:
    counts = (wins, ties, losses)
    return OutcomeTable(tuple(Outcome(n, net, text, c) for (n, net, text), c in zip(PAYTABLE, counts)),
                        wins + ties + losses, strategy,
                        "the player's 4 tiles then the dealer's 4 from the rest: C(32,4)·C(28,4) deals")


class PaiGow(Game):
    """Pai Gow (tiles) against the dealer's house way."""

    id: ClassVar[str] = "paigow"
    title: ClassVar[str] = "Pai Gow (tiles)"
    citation: ClassVar[str] = CITATION
    deck = TILES_32
    rules_type: ClassVar[type] = PaiGowRules
    strategies: ClassVar[tuple[str, ...]] = STRATEGY_IDS
    aliases: ClassVar[tuple[str, ...]] = ("pai-gow",)
    cli: ClassVar[str] = "exactodds.cli.paigow"

    def outcome_table(self, rules: Any, strategy: str) -> OutcomeTable:
        a = pg.paigow_analysis(_strategy(strategy), house_way=rules.house_way_reading)
        return _table(a.wins, a.ties, a.losses, strategy)

    def second_method(self, rules: Any, strategy: str) -> tuple[str, OutcomeTable]:
        outs = _fresh(rules.house_way_reading)
        totals = [0, 0, 0]
        for o, i in zip(outs, pg._choices(outs, _strategy(strategy), 1 - VIGORISH)):
            for k in range(3):
                totals[k] += o.ways * o.counts[i][k]
        return ("every distinct player hand against every dealer hand, counted afresh from the tiles "
                "(not read from the shipped arrays the first method reads)",
                _table(totals[0], totals[1], totals[2], strategy))

    def readings(self, rules: Any) -> tuple[str, ...]:
        from .hands import READING_COMPARE, READING_GEE_JOON, READING_ZERO
        from .house_way import READING_HOUSE_WAY, house_way_reading

        hw = house_way_reading(rules.house_way_reading)
        return (pg.READING_DEAL, READING_COMPARE, READING_ZERO, READING_GEE_JOON, READING_HOUSE_WAY, hw.text(),
                *(pg.READING_STRATEGY[s] for s in pg.STRATEGIES), pg.READING_VIGORISH)

    def schedules(self, rules: Any) -> tuple[Schedule, ...]:
        rows = pg.vigorish_table(house_way=rules.house_way_reading)
        return (Schedule(
            "Hold by wager amount, vigorish rounded up to 25¢", pg.CITE_VIGORISH,
            ("amount", "vigorish", "net win per unit", "return house-way", "return house-way %", "return optimal",
             "return optimal %"),
            tuple((f"${decimal(r.amount, 2)}", f"${decimal(r.vigorish, 2)}", ratio(r.net_win),
                   ratio(r.return_house_way), percent(r.return_house_way, 4),
                   ratio(r.return_optimal), percent(r.return_optimal, 4)) for r in rows)),)

    def identities(self, rules: Any, tables: dict[str, OutcomeTable]) -> tuple[tuple[str, bool], ...]:
        deals = comb(32, 4) * comb(28, 4)
        return (("every strategy's universe is C(32,4)·C(28,4) deals", all(t.total == deals for t in tables.values())),
                ("the optimal setting's return is at least the house way's",
                 tables["optimal"].return_ >= tables["house-way"].return_))

    def tables(self) -> GameTables:
        """A Markdown and a JSON file per house-way reading (:func:`.views.game_tables`)."""
        from .views import game_tables

        return game_tables()

    def simulate(self, rules: Any, strategy: str, rounds: int, seed: int,
                 progress: Progress | None = None) -> Sequence[Fraction]:
        """Deal ``rounds`` rounds from the shuffled 32 tiles (player 4, dealer 4), set the
        dealer's hand by the house way and the player's by the strategy, settle each
        (§ 535.10(f)-(j)): its net per unit, the pay of its outcome row (win, push, loss)."""
        import random

        from .hands import compare, settings
        from .house_way import house_way_reading, house_way_setting
        from .tiles import tile_counts

        hw = house_way_reading(rules.house_way_reading)
        chosen = _strategy(strategy)
        tiles = [k for k, n in enumerate(tile_counts()) for _ in range(n)]
        best: dict[tuple[int, ...], int] = {}
        if chosen == "optimal":
            outs = pg.hand_outcomes(tile_counts(), hw)
            best = {o.hand: i for o, i in zip(outs, pg._choices(outs, chosen, 1 - VIGORISH))}
        table = self.outcome_table(rules, strategy).outcomes
        index = {"win": table[0].net, "tie": table[1].net, "loss": table[2].net}
        rng = random.Random(seed)
        out = []
        for k in range(rounds):
            if progress is not None and k % TICK == 0:
                progress(k, rounds, f"{strategy}: round {k:,}")
            drawn = rng.sample(tiles, 8)
            p = sorted(drawn[:4])
            d = sorted(drawn[4:])
            ph = (p[0], p[1], p[2], p[3])
            dealer, _ = house_way_setting((d[0], d[1], d[2], d[3]), hw)
            player = settings(ph)[best[ph]] if best else house_way_setting(ph, hw)[0]
            out.append(index[compare(player, dealer)])
        if progress is not None:
            progress(rounds, rounds, f"{strategy}: done")
        return out


@lru_cache(maxsize=2)
def _fresh(reading: str) -> tuple[Any, ...]:
    """Every hand's counts computed afresh (seconds), once per reading for both strategies."""
    from .house_way import house_way_reading
    from .tiles import tile_counts

    return pg.compute_hand_outcomes(tile_counts(), house_way_reading(reading))


def _strategy(strategy: str) -> pg.Strategy:
    for s in pg.STRATEGIES:
        if s == strategy:
            return s
    raise InputError(f"unknown Pai Gow strategy {strategy!r}; choose one of {', '.join(STRATEGY_IDS)}")


__all__ = ["PAYTABLE", "PaiGow", "PaiGowRules"]
