"""``certify --spanish21`` under a casino's rules (58 Pa. Code ch. 551 as varied by a Rules Submission).

The certificate's figures are held equal to :func:`exactodds.spanish21.figures.spanish21_analysis`
run here under rules built directly (not through the command line); the recorded rules to
values read off the :class:`Rules` here; ``verify`` recomputes under the recorded rules, so
editing them (and re-fingerprinting) makes the figures disagree. A 13-card shoe without
splitting keeps each certificate to about 3 s of CPU (the section's fixed checks dominate).
"""

from __future__ import annotations

import json
from dataclasses import fields
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.blackjack.rules import CITES, Rules, rules_from_record, rules_record
from exactodds.blackjack.shoe import SpanishShoe
from exactodds.cli.app import app
from exactodds.errors import InputError
from exactodds.figures.certify import check_inputs, fingerprint
from exactodds.game.shoespec import resolve_shoe
from exactodds.report.schemas import SCHEMAS
from exactodds.spanish21.figures import spanish21_analysis

SHOE = "A=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=1,K=4"
"""13 cards once the tens are gone: enough for one hand, a double, a redouble and the dealer."""

OPTIONS = ["--h17", "--double-any", "--redouble", "1", "--max-hands", "1", "--no-surrender", "--bonus-on-doubled",
           "--super-bonus-bet", "7.50"]
RULES = Rules(hit_soft_17=True, double_any_cards=True, redoubles=1, max_hands=1, surrender=False,
              bonus_on_doubled=True, super_bonus_bet=Fraction(15, 2))
"""The rules of :data:`OPTIONS`, written here field by field."""


def _recorded_values(rules: Rules) -> dict[str, Any]:
    return {f.name: (f"{v.numerator}/{v.denominator}" if isinstance(v := getattr(rules, f.name), Fraction) else v)
            for f in fields(Rules)}


def test_certify_under_other_rules_equals_the_analysis_and_tampered_rules_do_not_verify(tmp_path: Path) -> None:
    import openpyxl

    stem = tmp_path / "c"
    res = CliRunner().invoke(app, ["certify", "--spanish21", "-s", SHOE, *OPTIONS,
                                   "--formats", "json,markdown,html,xlsx,table", "-o", str(stem)])
    assert res.exit_code == 0, res.stderr
    doc = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    sec = doc["spanish21"]
    shoe = SpanishShoe.from_shoe(resolve_shoe(shoe=SHOE))
    a = spanish21_analysis(shoe, RULES)
    assert a.expected_basic is not None
    assert Fraction(sec["expected_return"]["exact"]) == a.expected
    assert Fraction(sec["expected_return_basic_strategy"]["exact"]) == a.expected_basic
    assert Fraction(sec["super_bonus_probability"]["exact"]) == a.super_bonus_probability
    assert a.expected != spanish21_analysis(shoe, Rules(max_hands=1), basic=False).expected  # the rules apply
    assert all(c["holds"] for c in sec["verification"]["checks"] if c.get("kind") != "game")

    recorded = doc["inputs"]["spanish21"]
    assert {r["rule"]: r["value"] for r in recorded["rules"]} == _recorded_values(RULES)
    assert {r["rule"]: r["as_written"] for r in recorded["rules"]} == _recorded_values(Rules())
    changed = ["hit_soft_17", "double_any_cards", "redoubles", "max_hands", "surrender", "bonus_on_doubled",
               "super_bonus_bet"]
    assert recorded["changed_from_text"] == changed
    assert [r["rule"] for r in recorded["rules"] if r["changed"]] == changed
    assert all(CITES[r["rule"]].startswith(r["section"] + ":") and r["section"].startswith("§ 551.")
               for r in recorded["rules"])
    assert sec["rule_set"] == recorded["rules"]
    assert [e.message for e in jsonschema.Draft202012Validator(SCHEMAS["certificate"]()).iter_errors(doc)] == []

    # every view states the rules
    md = (tmp_path / "c.md").read_text(encoding="utf-8")
    assert "| Hands from splitting pairs (1: no splitting)" in md and md.count("CHANGED") == len(changed)
    page = (tmp_path / "c.html").read_text(encoding="utf-8")
    assert "Rules certified" in page and page.count("<td>CHANGED</td>") == len(changed)
    txt = (tmp_path / "c.txt").read_text(encoding="utf-8")
    assert "Dealer draws to a soft 17 (§ 551.13(b)): yes" in txt and "$7.50" in txt
    cells = list(openpyxl.load_workbook(tmp_path / "c.xlsx")["Spanish 21"].iter_rows(values_only=True))
    assert ("Hands from splitting pairs (1: no splitting)", "§ 551.12(c)", "1", "3", "CHANGED") in \
        [tuple(c)[:5] for c in cells]

    assert CliRunner().invoke(app, ["verify", str(tmp_path / "c.json")]).exit_code == 0

    # the recorded rules edited back to dealer stands on soft 17, re-fingerprinted: the figures disagree
    tampered = RULES.with_(hit_soft_17=False)
    doc["inputs"]["spanish21"] = {"rules": [{**r, "value": _recorded_values(tampered)[r["rule"]],
                                             "changed": r["rule"] in changed[1:]} for r in recorded["rules"]],
                                  "changed_from_text": changed[1:]}
    assert rules_from_record(doc["inputs"]["spanish21"]) == tampered
    doc["fingerprint"]["value"] = fingerprint(doc)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = CliRunner().invoke(app, ["verify", str(path)])
    assert res.exit_code == 1
    assert "/spanish21/expected_return/exact: report says" in res.stdout

    # a rule this program does not know, or a value of the wrong type: one refusal, nothing recomputed
    for bad in ({**doc["inputs"]["spanish21"], "rules": [*recorded["rules"], {**recorded["rules"][0], "rule": "x"}]},
                {**doc["inputs"]["spanish21"], "rules": [{**recorded["rules"][0], "value": "yes"},
                                                         *recorded["rules"][1:]]}):
        doc["inputs"]["spanish21"] = bad
        doc["fingerprint"]["value"] = fingerprint(doc)
        path.write_text(json.dumps(doc), encoding="utf-8")
        res = CliRunner().invoke(app, ["verify", str(path)])
        problems = [line for line in res.stdout.splitlines() if line.startswith("  - ")]
        assert res.exit_code == 1 and len(problems) == 1 and problems[0].startswith("  - inputs/spanish21: ")
        assert "figures not recomputed" in res.stdout


def test_a_report_written_before_rules_were_recorded_reads_as_written() -> None:
    inputs = {"wagers": [], "paytable": None, "shoe": {"decks": 6}, "sensitivity_decks": [6],
              "effects_of_removal": True}
    assert check_inputs({**inputs, "spanish21": True}) == []
    assert check_inputs({**inputs, "spanish21": rules_record(RULES)}) == []
    assert check_inputs({**inputs, "spanish21": False})[0].startswith("inputs/spanish21: ")


@pytest.mark.parametrize("args", [
    ["--max-hands", "9"], ["--redouble", "7"], ["--players", "9"], ["--super-bonus-bet", "abc"],
    ["--super-bonus-bet", "-5"], ["--redouble", "x"], ["--no-such-rule"],
])
def test_bad_rule_values_are_one_error_line(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "c.json"
    res = CliRunner().invoke(app, ["certify", "--spanish21", "-s", SHOE, *args, "-o", str(out)])
    assert res.exit_code == 2 and res.stdout == "" and not out.exists()
    assert res.stderr.startswith("exactodds: error:") and res.stderr.count("\n") == 1


def test_rule_options_without_spanish21_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    res = CliRunner().invoke(app, ["certify", "tie", "--h17", "-o", str(out)])
    assert res.exit_code == 2 and res.stdout == "" and not out.exists()
    assert res.stderr.startswith("exactodds: error:") and "--spanish21" in res.stderr and res.stderr.count("\n") == 1


def test_the_rule_options_are_one_declaration_in_both_commands() -> None:
    import typer.main

    from exactodds.cli.options import SPANISH21_RULE_OPTIONS

    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    names = {n for n, _, _ in SPANISH21_RULE_OPTIONS}

    def options(command: str) -> dict[str, tuple[tuple[str, ...], str | None]]:
        cmd = group.get_command(ctx, command)  # type: ignore[attr-defined]
        return {p.name: (tuple(p.opts), getattr(p, "help", None)) for p in cmd.params if p.name in names}

    assert set(options("spanish21")) == names and options("spanish21") == options("certify")


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


def test_a_spanish21_only_certificate_has_its_rows_in_csv_and_no_empty_paytable_table(tmp_path: Path) -> None:
    """``certify --spanish21`` alone: the CSV carries the section's figures (equal to the JSON's and to
    :func:`spanish21_analysis`), and the summaries say there is no baccarat wager instead of
    printing an empty table."""
    import csv

    stem = tmp_path / "s"
    res = CliRunner().invoke(app, ["certify", "--spanish21", "-s", SHOE, *OPTIONS,
                                   "--formats", "json,csv,table,markdown,html,xlsx", "-o", str(stem)])
    assert res.exit_code == 0, res.stderr
    doc = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert doc["entries"] == []
    cards = doc["spanish21"]["shoe"]["cards"]  # the shoe line is Spanish 21's: the report's shoe less its tens
    assert doc["shoe"]["description"].startswith("Spanish 21: ") and f"{cards:,}" in doc["shoe"]["description"]
    rows = [r for r in csv.DictReader((tmp_path / "s.csv").open(encoding="utf-8")) if r["table"] == "spanish_21"]
    by_item = {r["item"]: r for r in rows}
    a = spanish21_analysis(SpanishShoe.from_shoe(resolve_shoe(shoe=SHOE)), RULES)
    play = by_item["composition-dependent play"]
    assert Fraction(play["return"]) == a.expected and Fraction(play["house_edge"]) == -a.expected
    assert a.expected_basic is not None
    assert Fraction(by_item["basic (total-dependent) strategy"]["return"]) == a.expected_basic
    assert Fraction(by_item["insurance (§ 551.10)"]["return"]) == a.insurance
    bonus = next(r for item, r in by_item.items() if item.startswith("super bonus"))
    assert Fraction(bonus["probability"]) == a.super_bonus_probability
    assert all(r["return_decimal"] or r["probability_decimal"] for r in rows)   # a decimal beside each exact value
    assert play["player_advantage"] == ("yes" if a.expected > 0 else "no")
    for name in ("s.txt", "s.md", "s.html"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert "No baccarat wager in this report: it certifies Spanish 21" in text, name
        assert "Wager -- paytable" not in text and "Wager — paytable" not in text, name
    import openpyxl

    summary = [c for row in openpyxl.load_workbook(tmp_path / "s.xlsx")["Summary"].iter_rows(values_only=True)
               for c in row if c is not None]
    assert any(str(c).startswith("No baccarat wager in this report") for c in summary) and "Paytable" not in summary
    assert CliRunner().invoke(app, ["verify", str(tmp_path / "s.html")]).exit_code == 0
