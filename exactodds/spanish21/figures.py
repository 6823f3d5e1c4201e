"""Spanish 21 figures: return, basic-strategy chart, rule contributions, insurance, certificate.

A library a notebook can call; the ``spanish21`` command renders :func:`spanish21_analysis`.

*Basic (total-dependent) strategy.* A decision class is a two-card hand (hard total, soft
total or pair, by up card), a hand of three or more cards (hard/soft total and number of
cards, 3, 4, 5 or 6+) or a doubled hand (after its card: stand, rescue, redouble). Each
class's actions are ranked by the probability-weighted sum of the exact composition-dependent
values of its hands (weights: the chance of being dealt that composition against that up
card; two-card hands: the exact deal probabilities); the return of this fixed strategy is
then computed exactly by the same engine, each class taking its first available action.
Split hands use the unsplit classes (surrender is not available to them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cache
from math import comb, lcm, prod
from typing import Any, Final

from exactodds.blackjack.compiled import CompiledSolver
from exactodds.blackjack.engine import ClassKey, Game, GameResult, choose, decision_class, two_card_class
from exactodds.blackjack.hands import HandSolver, max_of
from exactodds.blackjack.rules import CITES, Rules, rules_record
from exactodds.blackjack.shoe import SpanishShoe
from exactodds.exact import decimal, percent, ratio
from exactodds.game.cards import falling_factorial

UPS: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
"""Up cards in chart order."""

CODES: Final = {"stand": "S", "hit": "H", "double": "D", "surrender": "R", "split": "P", "rescue": "RS",
                "redouble": "RD"}
"""Chart letters."""


@dataclass
class Chart:
    """A total-dependent strategy: each class's actions, best first."""

    rows: dict[ClassKey, tuple[str, ...]] = field(default_factory=dict)
    read: dict[ClassKey, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    """The rankings looked up so far (a solve asks hundreds of thousands of times)."""

    def __call__(self, key: ClassKey) -> tuple[str, ...]:
        got = self.read.get(key)
        if got is not None:
            return got
        got = self.rows.get(key)
        if got is None and key[0] in ("two", "multi") and key[-1]:
            got = tuple(a for a in self.rows.get(key[:-1] + (False,), ()) if a != "surrender")
        got = got or ()
        self.read[key] = got
        return got

    def code(self, key: ClassKey) -> str:
        """The chart letter of a class (``""`` when no hand falls in it)."""
        got = self(key)
        return CODES[got[0]] if got else ""


@cache
def _orders(hand: tuple[int, ...]) -> int:
    """The orders of a hand's cards by value (a multinomial coefficient; the same for every shoe):
    times ``Π_v ff(base_v, hand_v)`` it is the ordered draws from ``base`` that give ``hand``, i.e.
    P(``sum(hand)`` cards drawn from ``base`` have composition ``hand``) times ``ff(|base|, sum(hand))``."""
    return prod(comb(sum(hand[i:]), hand[i]) for i in range(10))


def _class_sums(hs: HandSolver, up: int) -> dict[tuple[ClassKey, int, str], int]:
    """``Σ ways · numerator`` over a Python solver's recorded actions by (class, cards ``n``,
    action), ``ways`` the ordered draws from its shoe that give the hand (:func:`_orders`); the
    compiled solver sums the same in residues (:meth:`CompiledSolver.class_sums`)."""
    sums: dict[tuple[ClassKey, int, str], int] = {}
    falls = [[falling_factorial(b, h) for h in range(min(b, 21) + 1)] for b in hs.base]
    for (hand, k), acts in hs.node_actions.items():
        key = decision_class(up, hand, k, False)
        n = sum(hand)
        ways = _orders(hand) * prod(f[h] for f, h in zip(falls, hand))  # ordered draws giving the hand
        for a, num in acts.items():
            at = (key, n, a)
            sums[at] = sums.get(at, 0) + ways * num
    return sums


def basic_chart(game: Game, result: GameResult) -> Chart:
    """The total-dependent strategy ranked from the composition-dependent values (module doc)."""
    # each class's weighted values as (numerator, denominator) terms, summed over their least common
    # denominator: one Fraction per class and action rather than one addition per term
    terms: dict[ClassKey, dict[str, list[tuple[int, int]]]] = {}
    for (up, c1, c2), (p, d) in result.deals.items():  # the two-card classes: Σ p·v over their deals
        if d.best == "blackjack":
            continue
        row_terms = terms.setdefault(two_card_class(up[0], c1[0], c2[0], False), {})
        for a, v in d.actions.items():
            row_terms.setdefault(a, []).append((p.numerator * v.numerator, p.denominator * v.denominator))
    for (up_value, split, _), hs in game.solvers.items():
        if split:
            continue
        # the weighted numerators of a class's hands of ``n`` cards share the denominator
        # ``ff(|base|, n) · hs.denominator``: summed as integers per (class, n, action)
        sums = hs.class_sums() if isinstance(hs, CompiledSolver) else _class_sums(hs, up_value)
        size = sum(hs.base)
        for (key, n, a), total in sums.items():
            hand = (0,) * 9 + (n,)  # any hand of n cards: the denominator reads only n
            den = falling_factorial(size, n) * hs.denominator(hand)
            terms.setdefault(key, {}).setdefault(a, []).append((total, den))
    agg: dict[ClassKey, dict[str, Fraction]] = {}
    for key, by_action in terms.items():
        row = agg[key] = {}
        for a, pairs in by_action.items():
            common = lcm(*(q for _, q in pairs))
            row[a] = Fraction(sum(num * (common // q) for num, q in pairs), common)
    return Chart({k: tuple(sorted(row, key=lambda a: -row[a])) for k, row in agg.items()})


def insurance_return(shoe: SpanishShoe) -> Fraction:
    """§ 551.10: the Insurance Wager's return per unit with an ace up, 2 to 1 on a K, Q or J hole
    card, from the shoe less the ace (the player's own cards averaged out by symmetry).

    >>> insurance_return(SpanishShoe.standard(6))
    Fraction(-71, 287)
    """
    n = shoe.size - 1
    t = shoe.values[9]
    return Fraction(3 * t - n, n)


def match_the_dealer_return(decks: int | None) -> tuple[str, Fraction] | None:
    """Match-The-Dealer (§ 551.7) beside the main wager: its regulated paytable for the number
    of decks (6 or 8), priced by the catalogue; ``None`` for other shoes."""
    if decks not in (6, 8):
        return None
    from exactodds.figures.analysis import analyze
    from exactodds.game.cards import Shoe

    pid = f"{decks}-decks"
    return pid, analyze("match-the-dealer", pid, Shoe.standard(decks)).return_


CONTRIBUTIONS: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("dealer hits soft 17", {"hit_soft_17": True}),
    ("double on any number of cards", {"double_any_cards": True}),
    ("no surrender", {"surrender": False}),
    ("no rescue", {"rescue": False}),
    ("no splitting", {"max_hands": 1}),
    ("no 5/6/7-card 21 bonus", {"bonus_21_cards": False}),
    ("no 6-7-8 / 7-7-7 bonus", {"bonus_678_777": False}),
    ("player Blackjack pushes a dealer Blackjack", {"blackjack_beats_dealer_blackjack": False}),
)
"""Rule changes whose effect :func:`contributions` measures (each against the rule set given)."""


AT_THE_DEAL: Final = frozenset({"surrender", "max_hands", "blackjack_beats_dealer_blackjack"})
"""Rule fields that act only at the initial deal's decision or on a player Blackjack (§ 551.9
surrender, § 551.12 splitting, § 551.6(b)(3)): every other node of the game keeps its exact value
when they change (:meth:`exactodds.blackjack.engine.Game.decide` alone reads them)."""


def derivable(rules: Rules, other: Rules) -> bool:
    """Whether :func:`derived_return` gives the return under ``other`` from a game solved under
    ``rules``: they differ only in :data:`AT_THE_DEAL`, taking surrender or splitting away (an
    option added would need values the solve did not compute)."""
    changed = {f.name for f in fields(Rules) if getattr(rules, f.name) != getattr(other, f.name)}
    return (changed <= AT_THE_DEAL and not ("surrender" in changed and other.surrender)
            and not ("max_hands" in changed and other.max_hands != 1))


def derived_return(result: GameResult, other: Rules) -> Fraction:
    """The exact expected return under ``other`` (:func:`derivable` from ``result.rules``) without a
    new solve: each initial deal keeps its other actions' exact values and takes the best of those
    left (first listed on a tie, as the engine does); a Blackjack is settled by ``other``; the
    super bonus probability and the envy payouts (§ 551.6(h)) follow the new decisions."""
    drop = ({"surrender"} if not other.surrender else set()) | ({"split"} if other.max_hands < 2 else set())
    bj = result.rules.blackjack_payout()
    total = Fraction(0)
    p_super = Fraction(0)
    for (up, c1, c2), (p, d) in result.deals.items():
        if d.best == "blackjack":
            clear = d.actions["blackjack"] / bj  # P(no dealer Blackjack)
            total += p * (bj * clear + (1 - clear) * (bj if other.blackjack_beats_dealer_blackjack else 0))
            continue
        orders = d.split_orders

        def taken(acts: dict[str, Fraction], orders: tuple[Fraction, Fraction] | None = orders) -> Fraction:
            """The best's value; a pair whose order changes the split's value (resplits and the
            6-7-8 / 7-7-7 bonus): each order's best, the two equally likely (:meth:`Decision.by_order`)."""
            if orders is None or "split" not in acts:
                return acts[choose(acts, None)]
            return sum((max_of({**acts, "split": v}, None) for v in orders), Fraction(0)) / 2

        lost = taken(d.actions) - d.value  # the dealer-Blackjack branch: −P(dealer Blackjack)
        acts = {a: v for a, v in d.actions.items() if a not in drop}
        best = choose(acts, None)
        total += p * (taken(acts) - lost)
        if up[0] == 7 and c1 == c2 and c1[0] == 7 and best == "hit":
            left = result.shoe.remove(up, c1, c2)
            p_super += p * Fraction(left.suits[7][c1[1]], left.size)
    envy = other.other_players * other.envy() * p_super if other.other_players and other.super_bonus() else 0
    return total + envy


@dataclass
class Spanish21Analysis:
    """Every figure of one shoe under one rule set."""

    shoe: SpanishShoe
    decks: int | None
    rules: Rules
    expected: Fraction
    """Composition-dependent optimal play (per unit of the original wager)."""
    expected_basic: Fraction | None
    chart: Chart | None
    insurance: Fraction
    super_bonus_probability: Fraction
    match_the_dealer: tuple[str, Fraction] | None
    contributions: list[tuple[str, Fraction]] = field(default_factory=list)
    """(rule change, expected return with it) pairs."""
    deal_probability_total: Fraction = Fraction(1)
    """The initial deals' probabilities added up (1 exactly: an identity the certificate checks)."""
    game: Game | None = field(default=None, repr=False, compare=False)
    """The solved game (its strategy, for a simulation); not part of any output."""
    preset: str = "spanish21"
    """The preset the rules started from (``exactodds blackjack --preset``)."""

    def notes(self) -> list[str]:
        """What a reader must know about the inputs: a deck count ch. 551 does not regulate."""
        if self.preset != "standard" and self.decks is not None and self.decks not in (6, 8):
            return [f"{self.decks} deck{'' if self.decks == 1 else 's'} is not a count § 551.3(a) regulates (six or eight decks of 48 cards): "
                    "computed as asked, not a ch. 551 game"]
        return []

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures: each exact value beside a 15-digit decimal."""
        def num(x: Fraction) -> dict[str, str]:
            return {"exact": ratio(x), "decimal": decimal(x, 15)}

        out: dict[str, Any] = {
            "game": ("Spanish 21 main wager (58 Pa. Code ch. 551)" if self.preset == "spanish21"
                     else f"blackjack, preset {self.preset} (exactodds/blackjack)"),
            "preset": self.preset,
            "notes": self.notes(),
            "shoe": {"cards": self.shoe.size, "decks": self.decks, "value_counts": list(self.shoe.values)},
            "rules": {k: (str(v) if isinstance(v, Fraction) else v) for k, v in vars(self.rules).items()},
            "rules_changed_from_text": {k: str(v) for k, v in self.rules.changed().items()},
            "expected_return": num(self.expected),
            "house_edge": num(-self.expected),
            "expected_return_composition_dependent": num(self.expected),
            "house_edge_composition_dependent": num(-self.expected),
            "rule_set": rules_record(self.rules)["rules"],
            "insurance_return": num(self.insurance),
            "super_bonus_probability": num(self.super_bonus_probability),
            "citations": CITES,
        }
        if self.expected_basic is not None:
            out["expected_return_basic_strategy"] = num(self.expected_basic)
            out["house_edge_basic_strategy"] = num(-self.expected_basic)
        if self.match_the_dealer is not None:
            out["match_the_dealer"] = {"paytable": self.match_the_dealer[0], "return": num(self.match_the_dealer[1])}
        if self.contributions:
            out["rule_contributions"] = [{"change": name, "expected_return": num(x),
                                          "effect_on_house_edge": num(self.expected - x)}
                                         for name, x in self.contributions]
        if self.chart is not None:
            out["chart"] = chart_rows(self.chart)
        return out


def chart_rows(chart: Chart) -> list[dict[str, str]]:
    """The chart as rows: ``{"hand": ..., "2": code, ..., "A": code}``; empty classes left out."""
    rows: list[dict[str, str]] = []

    def add(label: str, keys: list[ClassKey]) -> None:
        codes = [chart.code(k) for k in keys]
        if any(codes):
            rows.append({"hand": label, **{("A" if u == 1 else str(u)): c for u, c in zip(UPS, codes)}})

    for t in range(5, 20):
        add(f"hard {t}", [("two", u, "hard", t, False) for u in UPS])
    for t in range(13, 21):
        add(f"soft {t}", [("two", u, "soft", t, False) for u in UPS])
    for v in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10):
        name = "A" if v == 1 else str(v)
        add(f"pair {name}-{name}", [("two", u, "pair", v, False) for u in UPS])
    for n in (3, 4, 5, 6):
        cards = f"{n}+ cards" if n == 6 else f"{n} cards"
        for t in range(9, 21):
            add(f"hard {t}, {cards}", [("multi", u, False, t, n, False) for u in UPS])
        for t in range(13, 21):
            add(f"soft {t}, {cards}", [("multi", u, True, t, n, False) for u in UPS])
    for t in range(4, 22):
        add(f"doubled, hard {t}", [("doubled", u, False, t, 1) for u in UPS])
    for t in range(12, 22):
        add(f"doubled, soft {t}", [("doubled", u, True, t, 1) for u in UPS])
    return rows


def spanish21_analysis(shoe: SpanishShoe, rules: Rules, decks: int | None = None, basic: bool = True,
                       contributions: bool = False, preset: str = "spanish21",
                       progress: Callable[[int, int, str], None] | None = None) -> Spanish21Analysis:
    """All figures: the exact composition-dependent return, and (``basic``) the chart and the
    return under it; (``contributions``) the return under each rule change of :data:`CONTRIBUTIONS`."""
    changes = [(name, rules.with_(**change)) for name, change in CONTRIBUTIONS] if contributions else []
    changes = [(name, other) for name, other in changes if other != rules]
    stages = 1 + (1 if basic else 0) + sum(1 for _, other in changes if not derivable(rules, other))
    stage = [0]

    def step(done: int, total: int, label: str) -> None:
        if progress is not None:
            progress(stage[0] * total + done, stages * total, label)

    def advance() -> Callable[[int, int, str], None] | None:
        stage[0] += 1
        return step if progress is not None else None

    game = Game(shoe, rules)
    result = game.solve(step if progress is not None else None)
    chart = basic_chart(game, result) if basic else None
    expected_basic = Game(shoe, rules, chart).solve(advance()).expected if chart is not None else None
    contrib: list[tuple[str, Fraction]] = []
    for name, other in changes:
        if derivable(rules, other):  # from the solved game's deals, exactly (no new solve)
            contrib.append((name, derived_return(result, other)))
        else:
            contrib.append((name, Game(shoe, other).solve(advance()).expected))
    total = sum((p for p, _ in result.deals.values()), Fraction(0))
    return Spanish21Analysis(shoe, decks, rules, result.expected, expected_basic, chart, insurance_return(shoe),
                             result.super_bonus_probability,
                             match_the_dealer_return(decks) if preset == "spanish21" else None, contrib, total, game,
                             preset)


CHECK_SHOES: Final = (
    ("6-7-8 of spades possible", SpanishShoe((1, 1, 0, 0, 0, 1, 2, 1, 0, 4),
                                             {6: (1, 0, 0, 0), 7: (1, 1, 0, 0), 8: (1, 0, 0, 0)})),
    ("suited 7-7-7 against a 7 possible", SpanishShoe((1, 1, 0, 0, 0, 0, 4, 0, 0, 4),
                                                      {6: (0, 0, 0, 0), 7: (3, 1, 0, 0), 8: (0, 0, 0, 0)})),
)
"""Small shoes on which the certificate re-runs the brute force (:mod:`exactodds.blackjack.bruteforce`)
under the certified rules without splitting, where the whole distribution must be equal
(:meth:`exactodds.spanish21.game.Spanish21.identities`)."""

SPLIT_SHOE: Final = SpanishShoe((2, 0, 0, 0, 0, 0, 1, 2, 0, 8), {6: (0, 0, 0, 0), 7: (1, 0, 0, 0), 8: (1, 1, 0, 0)})
"""Pairs of aces, 8s and tens: the shoe on which the certificate checks the exact splits (two hands)."""

def summary_pairs(a: Spanish21Analysis) -> list[tuple[str, str]]:
    """Key figures for the human views (decimals; fractions only when short)."""
    def show(x: Fraction) -> str:
        r = ratio(x)
        return f"{percent(x, 4)}" + (f"  ({r})" if len(r) <= 20 else "")

    out = [("Shoe", f"{a.shoe.size} cards" + (f", {a.decks} deck{'' if a.decks == 1 else 's'} of {a.shoe.size // a.decks}"
                                                   if a.decks and a.shoe.size % a.decks == 0 else "")),
           *(("Note", n) for n in a.notes()),
           ("Rules changed from § 551 as written", ", ".join(f"{k}={v}" for k, v in a.rules.changed().items())
            or "none"),
           ("Expected return, composition-dependent play", show(a.expected)),
           ("House edge, composition-dependent play", show(-a.expected))]
    if a.expected_basic is not None:
        out.append(("Expected return, basic (total-dependent) strategy", show(a.expected_basic)))
    out.append(("Insurance return (§ 551.10)", show(a.insurance)))
    if a.match_the_dealer is not None:
        out.append((f"Match-The-Dealer return (§ 551.7, {a.match_the_dealer[0]})", show(a.match_the_dealer[1])))
    return out


__all__ = ["AT_THE_DEAL", "CODES", "CONTRIBUTIONS", "Chart", "derivable", "derived_return", "Spanish21Analysis", "UPS",
           "basic_chart",
           "chart_rows", "CHECK_SHOES", "insurance_return", "match_the_dealer_return", "spanish21_analysis", "summary_pairs"]
