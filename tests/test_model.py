"""Cards, shoe validation, exact display and the wager model."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, getcontext
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactodds.catalogue import CATALOGUE, get_wager
from exactodds.catalogue.model import Pay
from exactodds.errors import InputError
from exactodds.exact import decimal, ratio, sqrt_decimal
from exactodds.game.cards import FACES, Card, Shoe, falling_factorial, parse_card, parse_rank
from exactodds.game.rules import Coup, banker_draws, play


def test_shoe_validation_errors() -> None:
    with pytest.raises(InputError, match="negative"):
        Shoe((-1,) + (1,) * 51)
    with pytest.raises(InputError, match="empty"):
        Shoe((0,) * 52)
    with pytest.raises(InputError, match="52 faces"):
        Shoe((1,) * 13)
    with pytest.raises(InputError, match="decks"):
        Shoe.standard(0)
    with pytest.raises(InputError, match="none left"):
        Shoe.from_cards([parse_card("KS")]).remove([parse_card("KH")])
    with pytest.raises(InputError, match="unknown card"):
        parse_card("ZZ")
    with pytest.raises(InputError, match="unknown card rank"):
        parse_rank("11")


@given(st.integers(min_value=1, max_value=20))
def test_standard_shoe_counts(decks: int) -> None:
    shoe = Shoe.standard(decks)
    assert shoe.size == 52 * decks and shoe.decks == decks
    assert shoe.value_counts() == (16 * decks,) + (4 * decks,) * 9
    assert shoe.remove([FACES[0]]).decks is None


def test_card_properties() -> None:
    assert [parse_card(t).value for t in "AS 9H 10D JC QS KH".split()] == [1, 9, 0, 0, 0, 0]
    assert parse_card("9d").colour == "red" and parse_card("9c").colour == "black"
    assert str(Card("10", "H")) == "10H"


@given(st.integers(min_value=0, max_value=60), st.integers(min_value=0, max_value=8))
def test_falling_factorial(n: int, k: int) -> None:
    expected = 1
    for i in range(k):
        expected *= max(n - i, 0)
    assert falling_factorial(n, k) == expected


def test_play_follows_table_1_examples() -> None:
    # § 629a.10(g): Banker 5 against a Player third card of 4 draws.
    assert banker_draws(5, 4) and not banker_draws(5, 3)
    assert banker_draws(3, 9) and not banker_draws(3, 8)
    assert not banker_draws(7, 0) and banker_draws(2, 8)
    assert play([3, 4, 2, 1, 8]) == Coup(3, 5, 3, 2)
    assert play([4, 4, 4, 5]) == Coup(8, 9, 2, 2)  # naturals: nobody draws
    assert play([6, 0, 0, 3, 4]) == Coup(6, 7, 2, 3)  # Player stays on 6, Banker 3 draws
    with pytest.raises(ValueError):
        play([1, 1, 1])


fractions = st.fractions(max_denominator=10**9).filter(lambda f: abs(f) < 10**6)


@given(fractions, st.integers(min_value=0, max_value=15))
def test_decimal_display_is_correctly_rounded(x: Fraction, places: int) -> None:
    getcontext().prec = 80
    expected = (Decimal(x.numerator) / Decimal(x.denominator)).quantize(
        Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
    assert Decimal(decimal(x, places)) == expected


@given(st.fractions(min_value=0, max_value=10**6, max_denominator=10**6), st.integers(min_value=0, max_value=12))
def test_sqrt_display_is_correctly_rounded(x: Fraction, places: int) -> None:
    s = Fraction(sqrt_decimal(x, places))
    step = Fraction(1, 10**places)
    # |s - sqrt(x)| <= step/2  <=>  (s - step/2)^2 <= x <= (s + step/2)^2
    assert max(s - step / 2, 0) ** 2 <= x <= (s + step / 2) ** 2


def test_ratio_is_always_p_over_q() -> None:
    assert ratio(Fraction(6, 4)) == "3/2" and ratio(Fraction(-5)) == "-5/1" and ratio(0) == "0/1"


def test_pay_conventions() -> None:
    assert Pay.to(8).net == 8 and Pay.to(1, 2).net == Fraction(1, 2)
    assert Pay.for_(60).net == 59 and Pay.to("5/2").net == Fraction(5, 2)
    assert Pay.push().net == 0 and Pay.lose().net == -1


def test_settle_first_and_fallthrough() -> None:
    banker = get_wager("banker")
    dragon = Coup(3, 7, 3, 3)
    assert dragon.dragon_7
    assert banker.settle(banker.paytable("ez"), dragon) == "Banker wins with a three-card 7 (Dragon 7)"
    assert banker.settle(banker.paytable("5pct"), dragon) == "Banker wins"
    six = Coup(2, 6, 3, 2)
    assert banker.settle(banker.paytable("commission-free"), six) == "Banker wins with 6 points"
    assert banker.settle(banker.paytable("ez"), six) == "Banker wins"
    assert banker.settle(banker.paytable("5pct"), Coup(7, 6, 2, 2)) == "Player wins"


def test_every_wager_is_cited_and_has_a_default() -> None:
    for w in CATALOGUE.values():
        assert "§" in w.cite and w.paytables
        for p in w.paytables:
            assert "§" in p.cite, (w.id, p.id)
