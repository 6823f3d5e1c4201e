"""Opening-level wagers (pairs, Majestic Match, Lucky Nines, House Money) and Spanish 21
Match-The-Dealer: published figures, closed formulas, brute force.

The catalogue-wide agreement with the brute-force oracle on small shoes is in
test_engine.py; here every figure is checked against a second, independent method.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import factorial

import oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.catalogue import pairs
from exactodds.catalogue.model import Outcome, Wager
from exactodds.catalogue.spanish21 import match_the_dealer
from exactodds.engine import opening
from exactodds.engine.levels import BANKER_FACES, NINES, PLAYER_FACES, RANK_PATTERN, coup_distribution
from exactodds.engine.opening import equality_pattern, opening_level
from exactodds.figures.analysis import analyze
from exactodds.game.cards import FACES, RANKS, SUITS, Card, Shoe
from exactodds.game.cards import falling_factorial as ff

EIGHT = Shoe.standard(8)
HANDS = ("player", "banker")
W = {w.id: w for w in (*pairs.WAGERS, match_the_dealer)}


def rows(wager_id: str, paytable: str | None, shoe: Shoe) -> dict[str, int]:
    return {r.name: r.count for r in analyze(W[wager_id], paytable, shoe).rows}


shoes = st.lists(st.integers(min_value=0, max_value=6), min_size=52, max_size=52).filter(
    lambda c: sum(c) >= 6).map(lambda c: Shoe(tuple(c)))


# -- published figures (8 decks) --------------------------------------------------------------

@pytest.mark.parametrize("hand", HANDS)
def test_perfect_pairs_published_returns(hand: str) -> None:
    """Perfect Pairs A/B/C at 8 decks: −17/415, −14/415, −9/415 per unit."""
    got = {p: analyze(W[f"perfect-pairs-{hand}"], p, EIGHT).return_ for p in "ABC"}
    assert got == {"A": Fraction(-17, 415), "B": Fraction(-14, 415), "C": Fraction(-9, 415)}


@pytest.mark.parametrize("hand", HANDS)
def test_majestic_match_published_return(hand: str) -> None:
    """Majestic Match at 8 decks: −697/10790 per unit, on either hand (the one paytable;
    the hands are exchangeable, so the published figure holds for both)."""
    a = analyze(W[f"majestic-match-{hand}"], None, EIGHT)
    assert a.return_ == Fraction(-697, 10790)
    assert a.paytable.pays["Suited Match (any other suited)"].net == Fraction(5, 2)


def test_match_the_dealer_returns_by_linearity() -> None:
    """Return = E[sum of per-card pays] − P(no match); the first term by linearity over
    the player's two cards. 6 decks 4/9: −114/3731 (−3.06%); 8 decks 3/12: −2184/73153."""
    for decks, table, other, same in ((6, "6-decks", 4, 9), (8, "8-decks", 3, 12)):
        n, r = 48 * decks, 4 * decks          # cards; cards of one rank (each face: decks)
        p_same = Fraction(decks - 1, n - 1)  # one player card vs the up card
        p_other = Fraction(r - decks, n - 1)
        p_none = Fraction((n - r) * (n - r - 1), (n - 1) * (n - 2))
        expected = 2 * (same * p_same + other * p_other) - p_none
        assert analyze(match_the_dealer, table, Shoe.standard(decks)).return_ == expected
    assert expected == Fraction(-2184, 73153)


# -- closed formulas on random shoes ------------------------------------------------------------

def by_rank(shoe: Shoe) -> dict[str, int]:
    return dict(zip(RANKS, shoe.rank_counts()))


@settings(max_examples=25, deadline=None)
@given(shoes)
def test_pair_counts_closed_formula(shoe: Shoe) -> None:
    """Perfect / colored / mixed pair and pair counts: sums over faces of falling factorials."""
    n, rest = shoe.size, ff(shoe.size - 2, 4)
    perfect = sum(ff(shoe.count(f), 2) for f in FACES)
    colored = sum(shoe.count(f) * shoe.count(g) for f in FACES for g in FACES
                  if f.rank == g.rank and f.suit != g.suit and f.colour == g.colour)
    mixed = sum(shoe.count(f) * shoe.count(g) for f in FACES for g in FACES
                if f.rank == g.rank and f.colour != g.colour)
    pair = sum(ff(k, 2) for k in by_rank(shoe).values())
    assert pair == perfect + colored + mixed
    for hand in HANDS:
        got = rows(f"perfect-pairs-{hand}", "A", shoe)
        assert (got["Perfect pair"], got["Colored pair"], got["Mixed pair"]) == (
            perfect * rest, colored * rest, mixed * rest)
        assert rows(f"{hand}-pair", None, shoe)[f"{hand.capitalize()} pair"] == pair * rest
        assert sum(got.values()) == ff(n, 6)


@settings(max_examples=25, deadline=None)
@given(shoes)
def test_majestic_match_closed_formula(shoe: Shoe) -> None:
    suit = {s: sum(shoe.count(Card(r, s)) for r in RANKS) for s in SUITS}
    royal = sum(2 * shoe.count(Card("K", s)) * shoe.count(Card("Q", s)) for s in SUITS)
    suited = sum(ff(k, 2) for k in suit.values()) - royal
    rest = ff(shoe.size - 2, 4)
    for hand in HANDS:
        got = rows(f"majestic-match-{hand}", None, shoe)
        assert got["Royal Match (suited K and Q)"] == royal * rest
        assert got["Suited Match (any other suited)"] == suited * rest


@settings(max_examples=25, deadline=None)
@given(shoes)
def test_house_money_closed_formula(shoe: Shoe) -> None:
    """Both pairs: Player pair of rank r, then Banker pair of rank s from what is left."""
    n = by_rank(shoe)
    player_pair = sum(ff(k, 2) for k in n.values()) * ff(shoe.size - 2, 4)
    both = sum(ff(n[r], 2) * ff(n[s] - 2 * (r == s), 2) for r in RANKS for s in RANKS) * ff(shoe.size - 4, 2)
    got = rows("house-money", None, shoe)
    assert got["Player and Banker Pair"] == both
    assert got["Player or Banker Pair"] == 2 * (player_pair - both)  # Banker pair: same count


def lucky_nines_closed(shoe: Shoe) -> Counter[str]:
    """Counts per row from the multinomial of nines by suit among the four initial cards."""
    nines = [shoe.count(Card("9", s)) for s in SUITS]
    others = shoe.size - sum(nines)
    out: Counter[str] = Counter()
    for k in itertools.product(range(5), repeat=4):
        t = sum(k)
        if t > 4:
            continue
        arrangements = factorial(4) // (factorial(4 - t) * factorial(k[0]) * factorial(k[1])
                                        * factorial(k[2]) * factorial(k[3]))
        ways = arrangements * ff(others, 4 - t) * ff(shoe.size - 4, 2)
        for s, ks in zip(SUITS, k):
            ways *= ff(nines[SUITS.index(s)], ks)
        one_suit = max(k) == t
        name = {4: "4 Nines", 3: "3 Nines", 2: "2 Nines", 1: "1 Nine", 0: "No nine"}[t]
        if t in (2, 3) and one_suit:
            name = f"{t} Nines Same Suit"
        if t == 1 and k[SUITS.index("D")] == 1:
            name = "1 Nine Diamonds"
        out[name] += ways
    return out


@settings(max_examples=25, deadline=None)
@given(shoes)
def test_lucky_nines_closed_formula(shoe: Shoe) -> None:
    expected = {k: v for k, v in lucky_nines_closed(shoe).items() if v}
    for table in "ABCD":
        assert {k: v for k, v in rows("lucky-nines", table, shoe).items() if v} == expected


def test_lucky_nines_eight_decks() -> None:
    """8 decks: the closed formula, and P(no nine) = C(384, 4) / C(416, 4)."""
    got = rows("lucky-nines", "A", EIGHT)
    assert got == dict(lucky_nines_closed(EIGHT))
    assert Fraction(got["No nine"], sum(got.values())) == Fraction(ff(384, 4), ff(416, 4))


def test_lucky_nines_at_least_reading_settles_alike() -> None:
    """Reading the rows as 'at least k nines (of one suit)' pays every deal the same."""
    w = W["lucky-nines"]

    def at_least(k: int, suited: bool):
        def pred(o: opening.Opening) -> bool:
            suits = Counter(c.suit for c in (*o.player, *o.banker) if c is not None)
            found = max(suits.values(), default=0) if suited else sum(suits.values())
            return found >= k
        return pred

    alt = Wager(w.id, w.name, w.cite, tuple(
        o if "Diamonds" in o.name else Outcome(o.name, at_least(int(o.name[0]), "Same" in o.name))
        for o in w.outcomes), w.paytables, w.otherwise, level=w.level)
    for table in w.paytables:
        for result in NINES.distribution(EIGHT).counts:
            assert table.pays.get(alt.settle(table, result)) == table.pays.get(w.settle(table, result))


# -- the level mechanism -------------------------------------------------------------------------

PLAYER_RANKS = opening_level("test-player-ranks", "ranks of the Player's two cards", opening.rank, ("player",))
ALL_RANKS = opening_level("test-all-ranks", "ranks of the four initial cards", opening.rank)


def push(counts: dict, f) -> Counter:
    out: Counter = Counter()
    for k, v in counts.items():
        out[f(k)] += v
    return out


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shoes)
def test_projections_and_features_agree(shoe: Shoe) -> None:
    """A coarser projection equals the finer one pushed forward; a feature equals the
    unfeatured level pushed through it; Player and Banker are exchangeable."""
    faces = PLAYER_FACES.distribution(shoe).counts
    assert push(faces, lambda o: opening.Opening(tuple(c.rank for c in o.player), ())) == \
        Counter(PLAYER_RANKS.distribution(shoe).counts)
    assert push(ALL_RANKS.distribution(shoe).counts, equality_pattern) == Counter(RANK_PATTERN.distribution(shoe).counts)
    assert push(BANKER_FACES.distribution(shoe).counts, lambda o: opening.Opening(o.banker, ())) == Counter(faces)


small_decks = st.lists(st.sampled_from(FACES), min_size=1, max_size=7).map(Shoe.from_cards)


@settings(max_examples=30, deadline=None)
@given(small_decks)
def test_levels_against_the_oracle_and_voids(shoe: Shoe) -> None:
    """Every level against the brute-force oracle (physical cards, its own drawing rules);
    short shoes are void exactly where the coup enumerator says."""
    for spec in (PLAYER_FACES, BANKER_FACES, RANK_PATTERN, NINES, ALL_RANKS):
        d = spec.distribution(shoe)
        counts, void = oracle.tally(shoe, spec.from_deal)
        assert (d.counts, d.void) == (dict(counts), void)
        assert d.void == coup_distribution(shoe).void
        assert sum(d.counts.values()) + d.void == d.universe == ff(shoe.size, min(shoe.size, 6))


def test_opening_spec_rejects_unknown_hands() -> None:
    with pytest.raises(ValueError):
        opening_level("x", "", opening.rank, ("dealer",))  # type: ignore[arg-type]
