"""exact.rational_sum: the pairwise sum equals the left-to-right sum, exactly (no float)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from exactodds.exact import rational_sum


@given(st.lists(st.fractions(max_denominator=10**45) | st.integers(-10**30, 10**30).map(Fraction), max_size=60))
def test_pairwise_sum_is_the_sum(terms) -> None:
    got = rational_sum(terms)
    assert type(got) is Fraction and got == sum(terms, Fraction(0))
