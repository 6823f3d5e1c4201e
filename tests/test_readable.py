"""Numbers a person reads (issue 25): ``Analysis.std_dev`` an exact value like the figures
beside it, and human views that show decimals -- never a raw fraction, nothing decimal
labelled exact."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactodds import analyze
from exactodds.exact import Sqrt

squares = st.fractions(min_value=0, max_value=10**6, max_denominator=10**12)


@given(squares, st.integers(0, 30))
def test_sqrt_decimal_is_correctly_rounded(x: Fraction, places: int) -> None:
    """The decimal is within half a unit in its last place of √x: checked on squares, in
    Fractions, independently of the integer square root that made it."""
    d = Fraction(Sqrt(x).decimal(places))
    half = Fraction(1, 2 * 10**places)
    assert max(d - half, Fraction(0)) ** 2 <= x <= (d + half) ** 2


@given(squares, squares, st.fractions(min_value=0, max_value=1000, max_denominator=1000))
def test_sqrt_orders_hashes_and_scales_exactly(a: Fraction, b: Fraction, k: Fraction) -> None:
    sa, sb = Sqrt(a), Sqrt(b)
    assert (sa < sb) == (a < b) and (sa == sb) == (a == b) and (sa <= sb) == (a <= b)
    assert (k * sa).square == k * k * a == (sa * k).square
    root = Fraction(int(k.numerator), int(k.denominator))
    assert Sqrt(root * root) == root and hash(Sqrt(root * root)) == hash(root)
    assert (Sqrt(root * root) < root + Fraction(1, 10**9)) and not Sqrt(a) < -1


def test_std_dev_is_exact_and_consistent() -> None:
    """``a.std_dev * 2`` was string repetition ('0.92…0.92…'); now it is 2σ, exactly."""
    a = analyze("banker", shoe="decks=8")
    assert a.std_dev == Sqrt(a.variance) and (a.std_dev * 2).square == 4 * a.variance
    assert a.std_dev * 2 > a.std_dev > 0 and f"{a.std_dev:.4f}" == "0.9274"
    assert a.to_dict()["std_dev"] == "0.9273720218" == str(a.std_dev)  # the JSON contract's member
    with pytest.raises(TypeError):
        float(a.std_dev)  # type: ignore[arg-type]  # no silent float
    with pytest.raises(ValueError):
        Sqrt(Fraction(-1))
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(a.std_dev)) == a.std_dev == copy.deepcopy(a.std_dev)


fractions_ = st.fractions(min_value=-10**9, max_value=10**9, max_denominator=10**15)


@given(fractions_, st.sampled_from(["", "  (12.5%)", " = 0.5", " to 1", ";"]))
def test_human_text_shows_every_fraction_as_a_decimal(x: Fraction, after: str) -> None:
    """Whatever p/q a view writes, a person reads a decimal first: the exact one when it
    terminates (within 15 significant digits), else 15 significant digits correctly rounded,
    with the p/q beside it only when short; a short p/q its decimal or percent follows stays."""
    from exactodds.exact import significant
    from exactodds.report.views import LONG_FRACTION, human

    text = f"{x.numerator}/{x.denominator}"
    shown = human(f"Return {text}{after}")
    assert shown.startswith("Return ") and shown.endswith(after)
    body = shown[len("Return "):len(shown) - len(after)]
    if len(text) <= LONG_FRACTION and after.startswith(("  (", " =")):
        assert body == text
        return
    first = body.split(" ")[0]
    assert "/" not in first and Fraction(first) in (x, Fraction(significant(x, 15)))
    d, places = x.denominator, 0
    while d % 2 == 0 or d % 5 == 0:
        d //= 2 if d % 2 == 0 else 5
    while (x * 10**places).denominator != 1 and places < 400:
        places += 1
    if d == 1 and len(str(abs(x.numerator) * 10**places // x.denominator)) <= 15:
        assert Fraction(first) == x and body == first
    elif len(text) <= LONG_FRACTION:
        assert body == f"{first} ({text})"
    else:
        assert body == first


def test_cli_human_views_have_no_raw_fraction_and_nothing_decimal_labelled_exact() -> None:
    """The findings of issue 25, run through the command line."""
    import re

    from typer.testing import CliRunner

    from exactodds.cli.app import app

    raw = re.compile(r"(?<![\w./(])-?\d+/\d+(?![\w/)])(?!\s*[(=])")  # a p/q with no decimal beside it
    runner = CliRunner()
    for args in (["mystery"], ["ride", "banker"], ["eor", "tie", "-d", "1"], ["commission", "-d", "6"],
                 ["analyze", "royal-9"], ["commission", "--wager-amount", "7.50"]):
        for fmt in ("table", "markdown"):
            r = runner.invoke(app, [*args, "-f", fmt])
            assert r.exit_code == 0, (args, r.output)
            assert not raw.search(r.stdout), (args, fmt, raw.search(r.stdout))
            assert "(exact)" not in r.stdout and "exactly $" not in r.stdout, (args, fmt)
    out = runner.invoke(app, ["mystery"]).stdout
    assert "1667.1667" in out and "16671667/10000" not in out
    assert " 30.2" in runner.invoke(app, ["ride"]).stdout


@given(st.integers(1, 8), st.lists(st.integers(0, 51), max_size=12))
def test_shoe_repr_is_short_and_names_what_was_removed(decks: int, picks: list[int]) -> None:
    """Issue 25: repr(Shoe) dumped 52 counts. Now a line naming the standard shoe and the cards
    removed from it (each with its count), which rebuild the shoe."""
    from collections import Counter

    from exactodds.game.cards import FACES, Shoe, parse_card

    shoe = Shoe.standard(decks).remove([FACES[i] for i, n in Counter(picks).items() for _ in range(min(n, decks))])
    text = repr(shoe)
    assert len(text) < 160 and text.startswith("<Shoe ") and text.endswith(">")
    if shoe.decks is not None:
        assert text == f"<Shoe {shoe.describe()}>"
        return
    head, _, listed = text[1:-1].partition(" less ")
    base = max(shoe.counts)
    assert head == f"Shoe {shoe.size:,} cards: {base} deck{'s' if base != 1 else ''}"
    if len(listed.split(", ")) <= Shoe.REPR_CARDS and "faces" not in listed:
        cards = {parse_card(t.partition("×")[0]): int(t.partition("×")[2] or 1) for t in listed.split(", ")}
        assert Shoe.standard(base).remove([c for c, n in cards.items() for _ in range(n)]) == shoe


def test_effects_of_removal_takes_a_shoe_spec_like_analyze() -> None:
    from exactodds.figures.eor import effects_of_removal
    from exactodds.game.cards import Shoe

    by_spec = effects_of_removal("tie", shoe="decks=2")
    assert by_spec.ranks == effects_of_removal("tie", shoe=Shoe.standard(2)).ranks == \
        effects_of_removal("tie", shoe=2).ranks
    assert by_spec.shoe == analyze("tie", shoe="decks=2").shoe


ids = st.from_regex(r"\A[a-z0-9]{1,8}([-:][a-z0-9]{1,8}){1,4}\Z")


@given(st.lists(st.one_of(ids, st.from_regex(r"\A[A-Za-z§(),.]{1,30}\Z")), min_size=1, max_size=6),
       st.integers(4, 30), st.booleans())
def test_wrapped_tables_never_split_an_identifier(words: list[str], width: int, whole: bool) -> None:
    """Issue 25: table views broke ids such as three-card-6-over-three-card-3 across lines."""
    from exactodds.report.views import _wrapped

    cell = " ".join(words)
    [out] = _wrapped([cell], [width], whole_words=whole)
    lines = out.split("\n")
    for word in words:
        if "-" in word or ":" in word:
            assert any(word in line.split(" ") for line in lines), (word, lines)
    assert "".join(out.split()) == "".join(cell.split())  # only line breaks added, at spaces or in words


def test_list_shows_every_paytable_id_whole() -> None:
    from typer.testing import CliRunner

    from exactodds.catalogue import CATALOGUE
    from exactodds.cli.app import app

    out = CliRunner().invoke(app, ["list"]).stdout
    words = set(out.replace(",", " ").split())
    assert all(p.id in words for w in CATALOGUE.values() for p in w.paytables)
    assert max(len(line) for line in out.splitlines()) <= 100
