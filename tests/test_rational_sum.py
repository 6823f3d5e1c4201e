"""exact.rational_sum: the pairwise sum equals the left-to-right sum, exactly (no float); exact.reduced
is Fraction(n, d) made faster: the same value, lowest terms, hash and arithmetic."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from exactodds.exact import rational_sum, reduced


@given(st.lists(st.fractions(max_denominator=10**45) | st.integers(-10**30, 10**30).map(Fraction), max_size=60))
def test_pairwise_sum_is_the_sum(terms) -> None:
    got = rational_sum(terms)
    assert type(got) is Fraction and got == sum(terms, Fraction(0))


@given(st.integers(-10**70, 10**70), st.integers(1, 10**70))
def test_reduced_is_the_fraction(numerator: int, denominator: int) -> None:
    got, want = reduced(numerator, denominator), Fraction(numerator, denominator)
    assert type(got) is Fraction and (got.numerator, got.denominator) == (want.numerator, want.denominator)
    assert got == want and hash(got) == hash(want) and got + 1 == want + 1 and str(got) == str(want)
