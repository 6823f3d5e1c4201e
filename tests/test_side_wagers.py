"""Side wagers settled on point counts (catalogue/side.py, catalogue/phoenix.py).

Checked against: published figures (Dragon Bonus A returns, Lucky Six counts, Dragon 7
and Panda 8 counts), an independent nested-loop enumeration of 6- and 8-deck shoes
with every wager's pay re-transcribed from the regulation as a plain function, and
identities that hold for any shoe (inclusion-exclusion for Cover All, Player/Banker
symmetry of naturals, partitions of ties and of Banker-6 wins). Agreement with the
brute-force oracle on small shoes is in tests/test_engine.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.catalogue import CATALOGUE, phoenix, side
from exactodds.engine.levels import coup_distribution
from exactodds.figures.analysis import analyze
from exactodds.game.cards import Shoe

Deal = tuple[int, int, int, int]  # player total, banker total, player cards, banker cards
NetFn = Callable[[Deal], Fraction | int]


# -- an independent enumeration: nested loops over point values ----------------------

def _banker_hits(b: int, third: int | None) -> bool:
    """§ 629a.10(c), written out again as the regulation words it."""
    if third is None:
        return b <= 5
    if b <= 2:
        return True
    return {3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7, 6: third in (6, 7)}.get(b, False)


@cache
def naive_deals(decks: int) -> tuple[dict[Deal, int], int]:
    """Counts of (P total, B total, P cards, B cards) over ordered 6-card sequences of a
    ``decks``-deck shoe, by dealing point values one card at a time; and the universe."""
    n = [16 * decks] + [4 * decks] * 9  # value 0 = tens and faces
    size = 52 * decks
    tail = {m: 1 for m in (4, 5, 6)}
    for m in (4, 5):
        for i in range(m, 6):
            tail[m] *= size - i
    out: Counter[Deal] = Counter()

    def take(v: int) -> int:
        w = n[v]
        n[v] -= 1
        return w

    for p1 in range(10):
        w1 = take(p1)
        for b1 in range(10):
            w2 = w1 * take(b1)
            for p2 in range(10):
                w3 = w2 * take(p2)
                for b2 in range(10):
                    w4 = w3 * take(b2)
                    p, b = (p1 + p2) % 10, (b1 + b2) % 10
                    if p >= 8 or b >= 8 or (p >= 6 and b >= 6):
                        out[(p, b, 2, 2)] += w4 * tail[4]
                    elif p >= 6:  # Player stands, Banker 0-5 draws
                        for y in range(10):
                            out[(p, (b + y) % 10, 2, 3)] += w4 * n[y] * tail[5]
                    else:
                        for x in range(10):
                            w5 = w4 * take(x)
                            if _banker_hits(b, x):
                                for y in range(10):
                                    out[((p + x) % 10, (b + y) % 10, 3, 3)] += w5 * n[y]
                            else:
                                out[((p + x) % 10, b, 3, 2)] += w5 * tail[5]
                            n[x] += 1
                    n[b2] += 1
                n[p2] += 1
            n[b1] += 1
        n[p1] += 1
    universe = 1
    for i in range(6):
        universe *= size - i
    return dict(out), universe


def expected_return(decks: int, net: NetFn) -> tuple[Fraction, int]:
    """Return per unit and number of winning sequences, from the naive enumeration."""
    deals, universe = naive_deals(decks)
    ret = sum((Fraction(net(d)) * k for d, k in deals.items()), Fraction(0)) / universe
    wins = sum(k for d, k in deals.items() if net(d) > 0)
    return ret, wins


# -- the pays, transcribed again from the regulation as plain functions ---------------

def dragon_net(hand: str, col: tuple) -> NetFn:
    """§ 629a.7(a)(4) / § 631b.9: ``col`` = pays for win by 9..4, natural win, natural tie."""

    def net(d: Deal) -> Fraction | int:
        p, b, pc, bc = d
        mine, theirs, my_cards, their_cards = (p, b, pc, bc) if hand == "player" else (b, p, bc, pc)
        my_nat = my_cards == 2 and mine >= 8
        their_nat = their_cards == 2 and theirs >= 8
        if my_nat:
            if mine > theirs:
                return col[6]
            if mine == theirs and their_nat:
                return 0 if col[7] == "push" else col[7]
            return -1
        margin = mine - theirs
        return col[9 - margin] if 4 <= margin <= 9 else -1

    return net


DRAGON_COLUMNS = {"A": (30, 10, 6, 4, 2, 1, 1, "push"), "B": (20, 8, 7, 4, 3, 1, 1, "push"),
                  "C": (30, 10, 4, 4, 2, 2, 1, "push")}
TALONS_COLUMNS = {"A": (30, 10, 6, 4, 2, 1, 1, "push"), "B": (20, 10, 5, 4, 2, 1, 1, 2),
                  "C": (30, 12, 5, 3, 3, 1, 1, "push"), "D": (20, 8, 7, 4, 3, 1, 1, "push"),
                  "E": (30, 10, 4, 4, 2, 2, 1, "push")}


def lucky_six_net(d: Deal) -> int:
    p, b, _, bc = d
    if b == 6 and b > p:
        return 12 if bc == 2 else 20
    return -1


def treasure_net(wager: str, table: str) -> NetFn:
    """§ 631b.3(f),(h), one function per wager."""
    def f7(d: Deal) -> bool:
        return d[3] == 3 and d[1] == 7 and d[1] > d[0]

    def g8(d: Deal) -> bool:
        return d[2] == 3 and d[0] == 8 and d[0] > d[1]

    def h9(d: Deal) -> int:
        return (d[2] == 3 and d[0] == 9) + (d[3] == 3 and d[1] == 9)

    def b7(d: Deal) -> int:  # 3 or 2 when both hands are 7s with that many cards, else 0
        return d[2] if d[0] == d[1] == 7 and d[2] == d[3] else 0

    def net(d: Deal) -> int:
        if wager == "fortune-7":
            return 40 if f7(d) else -1
        if wager == "golden-8":
            return 25 if g8(d) else -1
        if wager == "heavenly-9":
            return {0: -1, 1: 10, 2: 75}[h9(d)]
        if wager == "blazing-7s":
            return {"A": {3: 400}, "B": {3: 200, 2: 50}}[table].get(b7(d), -1)
        assert wager == "cover-all"
        blazing = b7(d) == 3 or (table == "B" and b7(d) == 2)
        return 6 if f7(d) or g8(d) or h9(d) or blazing else -1

    return net


def _w(hand: str, n: int | tuple, cards: int | None = None) -> Callable[[Deal], bool]:
    """Independent helper: the named hand ("P"/"B"/"any") wins with total(s) n."""
    totals = (n,) if isinstance(n, int) else n

    def ok(d: Deal, h: int) -> bool:
        o = 1 - h
        return d[h] > d[o] and d[h] in totals and (cards is None or d[2 + h] == cards)

    hands = {"P": (0,), "B": (1,), "any": (0, 1)}[hand]
    return lambda d: any(ok(d, h) for h in hands)


def _over(w: int, lo: int, cards: int | None = None, hand: str = "any") -> Callable[[Deal], bool]:
    hands = {"P": (0,), "B": (1,), "any": (0, 1)}[hand]
    return lambda d: any(d[h] == w and d[1 - h] == lo and (cards is None or d[2 + h] == d[3 - h] == cards)
                         for h in hands)


PHOENIX: dict[str, tuple[int, Callable[[Deal], bool]]] = {
    "sun-7": (40, _w("B", 7, 3)),
    "moon-8": (25, _w("P", 8, 3)),
    "nine-over-seven": (25, _over(9, 7)),
    "two-card-8-over-two-card-1": (50, _over(8, 1, 2)),
    "player-three-card-6": (40, _w("P", 6, 3)),
    "banker-1-or-2": (60, _w("B", (1, 2))),
    "both-8-or-9": (20, lambda d: min(d[0], d[1]) >= 8),
    "one-over-zero": (90, _over(1, 0)),
    "three-card-6-over-three-card-3": (150, _over(6, 3, 3)),
    "three-card-8-over-three-card-0": (130, _over(8, 0, 3)),
    "banker-over-two-card-7": (30, lambda d: d[0] == 7 and d[2] == 2 and d[1] > 7),
    "three-card-9-over-three-card-6": (200, _over(9, 6, 3)),
    "three-card-9-over-three-card-8": (200, _over(9, 8, 3)),
    "player-three-card-8-over-three-card-0": (250, _over(8, 0, 3, "P")),
    "tie-0": (150, lambda d: d[0] == d[1] == 0),
    "tie-1-3": (70, lambda d: d[0] == d[1] and 1 <= d[0] <= 3),
    "tie-4-7": (15, lambda d: d[0] == d[1] and 4 <= d[0] <= 7),
    "tie-8-9": (40, lambda d: d[0] == d[1] >= 8),
}
"""§ 631b.8(g)(4)(i)-(xviii) and (h)(2), as (pays to 1, event)."""


def independent_cases() -> list[tuple[str, str, NetFn]]:
    cases: list[tuple[str, str, NetFn]] = []
    for hand in ("player", "banker"):
        cases += [(f"dragon-bonus-{hand}", t, dragon_net(hand, c)) for t, c in DRAGON_COLUMNS.items()]
        cases += [(f"golden-talons-{hand}", t, dragon_net(hand, c)) for t, c in TALONS_COLUMNS.items()]
    cases.append(("lucky-six", "12to1-20to1", lucky_six_net))
    for w in ("fortune-7", "golden-8", "heavenly-9", "blazing-7s", "cover-all"):
        cases += [(w, t, treasure_net(w, t)) for t in ("A", "B")]
    for wid, (pays, event) in PHOENIX.items():
        cases.append((wid, f"{pays}to1", (lambda e, a: lambda d: a if e(d) else -1)(event, pays)))
    return cases


CASES = independent_cases()


def test_every_wager_of_mine_has_an_independent_check() -> None:
    mine = {(w.id, p.id) for w in (*side.WAGERS, *phoenix.WAGERS) for p in w.paytables}
    assert mine == {(w, t) for w, t, _ in CASES}


# -- published figures -----------------------------------------------------------------

@pytest.mark.parametrize(("wager", "published"), [("dragon-bonus-player", "-0.026517"),
                                                  ("dragon-bonus-banker", "-0.093731")])
def test_dragon_bonus_a_published_returns(wager: str, published: str) -> None:
    a = analyze(wager, "A", Shoe.standard(8))
    assert round(a.return_, 6) == Fraction(published)


def test_lucky_six_published_counts() -> None:
    rows = {r.name: r.count for r in analyze("lucky-six", None, Shoe.standard(8)).rows}
    assert rows[side.LUCKY_SIX_TWO] == 186_173_936_904_192
    assert rows[side.LUCKY_SIX_THREE] == 83_058_367_551_488


@pytest.mark.parametrize(("wager", "published"), [("sun-7", 112_633_011_329_024), ("fortune-7", 112_633_011_329_024),
                                                  ("moon-8", 172_660_763_262_976), ("golden-8", 172_660_763_262_976)])
def test_three_card_7_and_8_match_published_dragon_7_and_panda_8(wager: str, published: int) -> None:
    for table in CATALOGUE[wager].paytables:
        a = analyze(wager, table.id, Shoe.standard(8))
        assert sum(r.count for r in a.rows if r.pay.net > 0) == published


# -- every wager against the independent enumeration ------------------------------------

@pytest.mark.parametrize("decks", [6, 8])
def test_naive_enumeration_reaches_the_universe(decks: int) -> None:
    deals, universe = naive_deals(decks)
    assert sum(deals.values()) == universe
    engine = coup_distribution(Shoe.standard(decks))
    assert {(c.player_total, c.banker_total, c.player_cards, c.banker_cards): k
            for c, k in engine.counts.items()} == deals


@pytest.mark.parametrize("decks", [6, 8])
@pytest.mark.parametrize(("wager", "table", "net"), CASES, ids=[f"{w}-{t}" for w, t, _ in CASES])
def test_return_and_wins_agree_with_independent_enumeration(decks: int, wager: str, table: str,
                                                             net: NetFn) -> None:
    a = analyze(wager, table, Shoe.standard(decks))
    ret, wins = expected_return(decks, net)
    assert a.return_ == ret
    assert sum(r.count for r in a.rows if r.pay.net > 0) == wins
    assert a.total == naive_deals(decks)[1]


# -- identities that hold for any shoe ---------------------------------------------------

shoes = st.one_of(
    st.integers(min_value=1, max_value=10).map(Shoe.standard),
    st.lists(st.integers(min_value=0, max_value=12), min_size=52, max_size=52)
    .filter(lambda c: sum(c) > 0).map(lambda c: Shoe(tuple(c))),
)
IDENTITY_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _wins(wager: str, table: str, shoe: Shoe) -> int:
    return sum(r.count for r in analyze(wager, table, shoe).rows if r.pay.net > 0)


def _rows(wager: str, table: str, shoe: Shoe) -> dict[str, int]:
    return {r.name: r.count for r in analyze(wager, table, shoe).rows}


@IDENTITY_SETTINGS
@given(shoes)
def test_cover_all_by_inclusion_exclusion(shoe: Shoe) -> None:
    """|F7 ∪ G8 ∪ H9 ∪ B7| = Σ|one| − Σ|two| + Σ|three| − |four|, the events being read off
    the four bonus wagers' own settlements under the same paytable."""
    dist = coup_distribution(shoe)
    for table in ("A", "B"):
        events = []
        for wid in ("fortune-7", "golden-8", "heavenly-9", "blazing-7s"):
            w = CATALOGUE[wid]
            t = w.paytable(table)
            events.append({c for c in dist.counts if t.pays.get(w.settle(t, c), w.otherwise_pay(t)).net > 0})
        union = 0
        for k in range(1, 5):
            for group in combinations(events, k):
                union += (-1) ** (k + 1) * sum(dist.counts[c] for c in set.intersection(*group))
        assert _wins("cover-all", table, shoe) == union


def test_cover_all_components_are_mutually_exclusive() -> None:
    """The reading says the rows of Cover All never overlap: check on the 8-deck coups."""
    dist = coup_distribution(Shoe.standard(8))
    for (n1, e1), (n2, e2) in combinations(side.TREASURE_EVENTS.items(), 2):
        if {n1, n2} == {side.HEAVENLY_9_BOTH, side.HEAVENLY_9_ONE}:
            continue  # the two rows of one wager; settled on the higher
        assert not any(e1(c) and e2(c) for c in dist.counts), (n1, n2)


@IDENTITY_SETTINGS
@given(shoes)
def test_natural_rows_are_symmetric(shoe: Shoe) -> None:
    """Cards 1,3 and 2,4 are exchangeable, so natural wins and natural ties count alike
    on either hand (the win-by rows are not: the hands draw by different rules)."""
    for family, tables in (("dragon-bonus", "ABC"), ("golden-talons", "ABCDE")):
        for t in tables:
            p, b = _rows(f"{family}-player", t, shoe), _rows(f"{family}-banker", t, shoe)
            assert p.get(side.NATURAL_WIN) == b.get(side.NATURAL_WIN)
            assert p.get(side.NATURAL_TIE) == b.get(side.NATURAL_TIE)


@IDENTITY_SETTINGS
@given(shoes)
def test_golden_talons_equals_dragon_bonus_where_the_tables_match(shoe: Shoe) -> None:
    """Golden Talons A, D, E print the same pays as Dragon Bonus A, B, C (§ 631b.9(f), § 629a.12(e))."""
    for hand in ("player", "banker"):
        for gt, db in (("A", "A"), ("D", "B"), ("E", "C")):
            assert analyze(f"golden-talons-{hand}", gt, shoe).return_ == analyze(f"dragon-bonus-{hand}", db, shoe).return_


@IDENTITY_SETTINGS
@given(shoes)
def test_partitions(shoe: Shoe) -> None:
    """The four Phoenix tie bets split the Tie wager; Lucky Six splits the commission-free
    Banker-wins-with-6 row; Sun 7 / Fortune 7 are the Dragon 7, Moon 8 / Golden 8 the Panda 8."""
    ties = sum(_wins(w.id, w.default_paytable.id, shoe) for w in phoenix.WAGERS if w.id.startswith("tie-"))
    assert ties == _wins("tie", "8to1", shoe)
    banker_six = _rows("banker", "commission-free", shoe)["Banker wins with 6 points"]
    assert _wins("lucky-six", "12to1-20to1", shoe) == banker_six
    assert _wins("sun-7", "40to1", shoe) == _wins("fortune-7", "A", shoe) == _wins("dragon-7", "40to1", shoe)
    assert _wins("moon-8", "25to1", shoe) == _wins("golden-8", "B", shoe) == _wins("panda-8", "25to1", shoe)


def test_every_table_sums_to_the_universe() -> None:
    shoe = Shoe.standard(7)
    universe = naive_deals(7)[1]
    for w in (*side.WAGERS, *phoenix.WAGERS):
        for t in w.paytables:
            assert sum(r.count for r in analyze(w, t.id, shoe).rows) == universe
