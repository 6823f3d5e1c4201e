"""Shoe specifications: round trips through every input form, the documented readings,
and one-line input errors for everything malformed (hypothesis-driven)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.errors import InputError
from exactodds.game.cards import FACES, RANKS, SUITS, Card, Shoe
from exactodds.game.shoespec import (
    parse_removals,
    parse_shoe_spec,
    rank_removal_card,
    resolve_shoe,
    shoe_from_spec,
    shoe_spec,
    spread_ranks,
)

face_counts = st.lists(st.integers(0, 9), min_size=52, max_size=52).filter(lambda c: sum(c) > 0)
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SLOW
@given(counts=face_counts)
def test_face_counts_round_trip_through_spec_json_and_csv(counts: list[int], tmp_path_factory) -> None:
    shoe = Shoe(tuple(counts))
    spec = ",".join(f"{c}={n}" for c, n in zip(FACES, counts) if n)
    assert resolve_shoe(shoe=spec) == shoe
    folder = tmp_path_factory.mktemp("shoes")
    (folder / "s.json").write_text(json.dumps({"counts": {str(c): n for c, n in zip(FACES, counts)}}))
    assert resolve_shoe(shoe=str(folder / "s.json")) == shoe
    (folder / "s.csv").write_text("card,count\n" + "".join(f"{c},{n}\n" for c, n in zip(FACES, counts)))
    assert resolve_shoe(shoe=str(folder / "s.csv")) == shoe
    assert shoe_from_spec(shoe_spec(shoe)) == shoe
    assert parse_shoe_spec(json.dumps(shoe.to_json())) == shoe  # the JSON contract's shoe object


@SLOW
@given(st.dictionaries(st.sampled_from(RANKS), st.integers(0, 40), min_size=1).filter(lambda d: sum(d.values()) > 0))
def test_rank_counts_spread_as_documented(ranks: dict[str, int]) -> None:
    shoe = resolve_shoe(shoe=",".join(f"{r}={n}" for r, n in ranks.items()))
    assert shoe == spread_ranks(ranks)
    for r in RANKS:
        per_suit = [shoe.count(Card(r, s)) for s in SUITS]
        n = ranks.get(r, 0)
        assert sum(per_suit) == n
        assert per_suit == sorted(per_suit, reverse=True)  # the remainder goes to S, H, D, C in order
        assert max(per_suit) - min(per_suit) <= 1


@SLOW
@given(face_counts, st.lists(st.sampled_from([*RANKS, *(str(c) for c in FACES)]), max_size=12))
def test_removals_take_the_documented_card_or_fail_cleanly(counts: list[int], tokens: list[str]) -> None:
    shoe = Shoe(tuple(counts))
    try:
        out = resolve_shoe(shoe=",".join(f"{c}={n}" for c, n in zip(FACES, counts) if n), remove=",".join(tokens))
    except InputError:
        return  # removing a card the shoe does not have, or emptying it
    expected = list(counts)
    for t in tokens:  # the reading, written out independently
        if t[-1] in SUITS and t not in RANKS:
            i = FACES.index(Card(t[:-1], t[-1]))
        else:
            cand = [FACES.index(Card(t, s)) for s in SUITS]
            i = max(cand, key=lambda j: (expected[j], -j))
        expected[i] -= 1
    assert out.counts == tuple(expected)
    assert out.size == shoe.size - len(tokens)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_a_shoe_or_one_input_error(text: str) -> None:
    try:
        shoe = resolve_shoe(shoe=text) if text.strip() else resolve_shoe(remove=text)
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(shoe, Shoe) and shoe.size > 0


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-5, 500) | st.text(max_size=4),
                    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.sampled_from(
                        ["decks", "counts", "ranks", "remove", "cards", "KS", "9", "x"]), c, max_size=3), max_leaves=8))
def test_any_json_is_a_shoe_or_one_input_error(doc) -> None:
    try:
        shoe = parse_shoe_spec(json.dumps({"x": doc} if not isinstance(doc, dict) else doc))
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert shoe.size > 0


def test_the_issue_example() -> None:
    shoe = resolve_shoe(8, None, "9,9,KS,5")
    assert shoe.size == 412
    assert shoe.count(Card("9", "S")) == 7 and shoe.count(Card("9", "H")) == 7  # S first, then H (ties S,H,D,C)
    assert shoe.count(Card("K", "S")) == 7 and shoe.count(Card("5", "S")) == 7
    assert resolve_shoe(6, None, "3*9").rank_counts()[8] == 21
    assert parse_removals("2x9 KS") == ["9", "9", "KS"]


def test_rank_removal_takes_the_suit_with_most_copies() -> None:
    shoe = Shoe.from_counts({Card("9", "S"): 1, Card("9", "H"): 3, Card("9", "D"): 3, Card("9", "C"): 2})
    assert rank_removal_card(shoe, "9") == Card("9", "H")


@pytest.mark.parametrize("kwargs, message", [
    ({"decks": 6, "shoe": "decks=6"}, "either --decks or --shoe"),
    ({"decks": 0}, "between 1 and 1000"),
    ({"shoe": "KS=-1"}, "whole number"),
    ({"shoe": "KS=0"}, "empty"),
    ({"shoe": "KS=1,9=4"}, "not both"),
    ({"shoe": "KS=1,KS=2"}, "twice"),
    ({"shoe": "ZZ=1"}, "unknown card"),
    ({"shoe": "KS"}, "CARD=COUNT"),
    ({"shoe": "{\"decks\": 8, \"counts\": {}}"}, "one of decks"),
    ({"shoe": "{\"decks\": 8, \"colour\": 1}"}, "unknown key"),
    ({"shoe": "{\"decks\": true}"}, "whole number"),
    ({"shoe": "{\"decks\": 8"}, "not valid JSON"),
    ({"shoe": "no/such/file.json"}, "no such shoe file"),
    ({"decks": 1, "remove": "KS,KS"}, "none left"),
    ({"decks": 1, "remove": "4*9,9"}, "none left"),
    ({"decks": 1, "remove": "52*K"}, "none left"),
    ({"decks": 1, "remove": "11"}, "unknown card rank"),
])
def test_bad_input_is_one_line(kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        resolve_shoe(**kwargs)
    assert "\n" not in str(info.value)


def test_bad_files(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("[1, 2]")
    (tmp_path / "b.csv").write_text("KS,1,2\n")
    (tmp_path / "c.json").write_text('{"ranks": {"KS": 4}}')
    (tmp_path / "d.json").write_text('{"decks": 1, "cards": 51}')
    for name, message in [("a.json", "one JSON object"), ("b.csv", "card,count"), ("c.json", "per rank"),
                          ("d.json", "counts add up to 52")]:
        with pytest.raises(InputError, match=message):
            resolve_shoe(shoe=str(tmp_path / name))
