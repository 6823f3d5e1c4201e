"""``certify --game spanish21`` (issue 26): Spanish 21's main wager as a game entry of the seam.

The certificate is made on a small shoe (the game's shoe monkeypatched: a whole 48-card deck
takes minutes) under a casino's rules given as options; its par sheets are held equal to the
exact distribution computed here directly; ``verify`` recomputes them from the report (JSON and
HTML page), and a tampered figure or a report of the old schema (5, with its own ``spanish21``
section) does not hold. The blackjack rules record of the ``spanish21`` command reads back.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import fields
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.blackjack.distribution import distribution
from exactodds.blackjack.engine import Game
from exactodds.blackjack.rules import Rules, rules_from_record, rules_record
from exactodds.blackjack.shoe import SpanishShoe
from exactodds.cli.app import app
from exactodds.errors import InputError
from exactodds.games.certificate import SchemaError, fingerprint, verify_text
from exactodds.report.schemas import SCHEMAS
from exactodds.spanish21 import game as s21

SHOE = SpanishShoe((1, 1, 1, 1, 1, 1, 1, 1, 1, 4), {6: (1, 0, 0, 0), 7: (1, 0, 0, 0), 8: (1, 0, 0, 0)})
"""13 cards: enough for one hand, a double, a redouble and the dealer."""

OPTIONS = ["--h17", "--double-any", "--redouble", "1", "--max-hands", "1", "--no-surrender", "--bonus-on-doubled",
           "--super-bonus-bet", "7.50"]
RULES = Rules(hit_soft_17=True, double_any_cards=True, redoubles=1, max_hands=1, surrender=False,
              bonus_on_doubled=True, super_bonus_bet=Fraction(15, 2))
"""The rules of :data:`OPTIONS`, written here field by field."""


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    s21.clear_solved()
    monkeypatch.setattr(s21.Spanish21Rules, "shoe_values", lambda self: SHOE)
    yield
    s21.clear_solved()


@pytest.mark.skipif(not os.environ.get("EXACTODDS_SLOW"), reason="12 s of CPU (a whole certificate of the game): set EXACTODDS_SLOW=1; CI runs it")
def test_certify_game_spanish21_holds_and_tampering_does_not(small: None, tmp_path: Path) -> None:
    stem = tmp_path / "s21"
    res = CliRunner().invoke(app, ["certify", "--game", "spanish21", "--decks", "6", *OPTIONS,
                                   "--formats", "json,html,csv,markdown,table", "-o", str(stem)])
    assert res.exit_code == 0, res.stderr
    doc = json.loads((tmp_path / "s21.json").read_text())
    jsonschema.validate(doc, SCHEMAS["certificate"]())
    assert doc["schema"] == 7 and "spanish21" not in doc
    (entry,) = doc["games"]
    assert entry["game"] == "spanish21" and entry["deck"]["description"] == "6 decks of 48 cards (288)"
    assert {r["field"]: r["value"] for r in entry["rules"]}["super_bonus_bet"] == "7.50"
    assert "Spanish 21 main wager: 6 decks of 48 cards (288)" in (tmp_path / "s21.md").read_text()
    cd = Game(SHOE, RULES)
    want = distribution(cd)
    got = entry["tables"][0]
    assert Fraction(got["outcome_table"]["variance"]) == want.variance
    assert Fraction(got["outcome_table"]["return"]) == want.mean == cd.solve().expected
    assert got["par_sheet"]["standard_deviation"] and entry["verification"]["all_hold"]
    assert "net" in (tmp_path / "s21.csv").read_text() and "Spanish 21" in (tmp_path / "s21.md").read_text()
    for name in ("s21.json", "s21.html"):
        verdict = CliRunner().invoke(app, ["verify", str(tmp_path / name)])
        assert verdict.exit_code == 0, verdict.output
    got["outcome_table"]["return"] = "1/2"
    doc["fingerprint"]["value"] = fingerprint(doc)
    assert not verify_text(json.dumps(doc).encode()).holds
    old = json.loads((tmp_path / "s21.json").read_text())
    old["schema"] = 6
    old["fingerprint"]["value"] = fingerprint(old)
    with pytest.raises(SchemaError, match="schema 6 is older") as refused:  # one line (exit 2 at the command)
        verify_text(json.dumps(old).encode())
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("args", [
    ["--max-hands", "9"], ["--redouble", "7"], ["--players", "9"], ["--super-bonus-bet", "abc"],
    ["--redouble", "x"], ["--no-such-rule"],
])
def test_bad_rule_values_are_one_error_line(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "c.json"
    res = CliRunner().invoke(app, ["certify", "--game", "spanish21", *args, "-o", str(out)])
    assert res.exit_code == 2 and res.stdout == "" and not out.exists()
    assert res.stderr.startswith("exactodds: error:") and res.stderr.count("\n") == 1


def test_rule_options_without_the_game_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    res = CliRunner().invoke(app, ["certify", "tie", "--h17", "-o", str(out)])
    assert res.exit_code == 2 and res.stdout == "" and not out.exists()
    assert res.stderr.startswith("exactodds: error:") and "--game spanish21" in res.stderr
    assert res.stderr.count("\n") == 1


def _recorded_values(rules: Rules) -> dict[str, Any]:
    return {f.name: (f"{v.numerator}/{v.denominator}" if isinstance(v := getattr(rules, f.name), Fraction) else v)
            for f in fields(Rules)}


BOOL_RULES = [f.name for f in fields(Rules) if f.type in ("bool", bool)]


@given(st.fixed_dictionaries({n: st.booleans() for n in BOOL_RULES}), st.integers(0, 3), st.integers(1, 4),
       st.one_of(st.none(), st.fractions(Fraction(1, 100), 10**6, max_denominator=10**20)), st.integers(0, 6))
@settings(max_examples=40, deadline=None)
def test_rules_record_reads_back(flags: dict[str, bool], redoubles: int, max_hands: int,
                                 bet: Fraction | None, players: int) -> None:
    rules = Rules(**flags, redoubles=redoubles, max_hands=max_hands, super_bonus_bet=bet, other_players=players)
    record = rules_record(rules)
    assert rules_from_record(json.loads(json.dumps(record))) == rules
    assert {r["rule"]: r["value"] for r in record["rules"]} == _recorded_values(rules)


@given(st.integers(0, 15), st.sampled_from(["value", "as_written", "changed", "section", "name", "rule", "extra"]),
       st.one_of(st.none(), st.booleans(), st.integers(-5, 99), st.text(max_size=8), st.just("1e999999999")))
@settings(max_examples=120, deadline=None)
def test_an_edited_record_is_refused_or_means_what_it_says(index: int, key: str, value: object) -> None:
    """Any one member of a recorded rule changed: refused in one InputError, or read back as
    rules whose record is exactly the edited one (nothing silently ignored)."""
    record = rules_record(RULES)
    rules = [dict(r) for r in record["rules"]]
    rules[index][key] = value
    edited = {**record, "rules": rules}
    try:
        got = rules_from_record(edited)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert rules_record(got) == edited
