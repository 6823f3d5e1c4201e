"""Certification reports, verify, commission rounding and the House Money ride."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import oracle
import pytest
import typer
from conftest import SMALL_SHOES, shoe_of
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.catalogue import CATALOGUE
from exactodds.engine.levels import coup_from_deal
from exactodds.errors import InputError
from exactodds.figures.commission import commission_analysis, edge_table, parse_money, rounded_commission
from exactodds.figures.ride import pair_coup_distribution, ride_analysis
from exactodds.game.cards import Shoe
from exactodds.games.certificate import (
    ReportError,
    build_report,
    certify,
    fingerprint,
    read_report,
    verify_report,
)
from exactodds.report.certify import render_csv, render_markdown

# Published 8-deck counts (Wizard of Odds, "Baccarat"): independent of this code.
U8 = 4_998_398_275_503_360
BANKER8 = 2_292_252_566_437_888
PLAYER8 = 2_230_518_282_592_256


@pytest.fixture(scope="module")
def report() -> dict:
    wagers = ["dragon-7", "tie"] + [w for w in ("player-pair",) if w in CATALOGUE]
    return certify(wagers, None, Shoe.standard(8), sensitivity_decks=(6, 8))


def test_report_contents(report: dict) -> None:
    assert report["fingerprint"]["value"] == fingerprint(report)
    by = {(x["wager"], x["paytable"]): x for x in report["games"][0]["tables"]}
    d7 = by[("dragon-7", "40to1")]
    counts = {o["outcome"]: o["count"] for o in d7["outcome_table"]["outcomes"]}
    assert counts["Dragon 7"] == 112_633_011_329_024  # published
    assert d7["verification"]["second_method"]["agrees"] is True
    assert d7["effects_of_removal"]["identity"]["holds"] is True
    assert [s["decks"] for s in d7["sensitivity"]] == [6, 8]
    assert d7["citations"]["wager"].startswith("58 Pa. Code")
    if ("player-pair", "11to1") in by:
        sm = by[("player-pair", "11to1")]["verification"]["second_method"]
        assert sm["agrees"] is True and "52 × 52" in sm["method"]
    md = render_markdown(report)
    for heading in ("## Baccarat", "### Readings", "- Method: ", "#### Outcomes", "#### Effects of removal",
                    "#### Deck-count sensitivity", "#### Verification", "AGREES exactly", "Drawing rules, Table 1"):
        assert heading in md
    assert "outcome,baccarat,dragon-7/40to1,Dragon 7" in render_csv(report)


def test_second_method_catches_a_wrong_count(report: dict, monkeypatch) -> None:
    """The rank-class recomputation is real: corrupt the value-class walk and it disagrees."""
    from exactodds.engine.level import Level
    from exactodds.engine.levels import COUP

    real = Level.priced

    def skewed(self, shoe):
        universe, counts, void = real(self, shoe)
        if self is COUP:
            counts = counts.copy()
            counts[0] += 1
            universe += 1
        return universe, counts, void
    monkeypatch.setattr(Level, "priced", skewed)
    doc = build_report({"wagers": ["dragon-7"], "paytable": None, "shoe": {"decks": 8},
                        "sensitivity_decks": [8], "effects_of_removal": False})
    assert doc["games"][0]["tables"][0]["verification"]["second_method"]["agrees"] is False
    assert doc["summary"]["all_checks_hold"] is False


def test_verify_holds_and_catches_edits(report: dict) -> None:
    text = json.dumps(report, indent=2)
    assert verify_report(read_report(text)).holds
    doc = json.loads(text)
    doc["games"][0]["tables"][0]["outcome_table"]["house_edge"] = "1/13"
    edited = json.dumps(doc)
    v = verify_report(read_report(edited))
    assert not v.holds and not v.fingerprint_ok and not v.recomputed_ok
    doc = json.loads(edited)  # an editor who also refreshes the fingerprint
    doc["fingerprint"]["value"] = fingerprint(doc)
    v = verify_report(doc)
    assert not v.holds and v.fingerprint_ok and not v.recomputed_ok
    assert any("house_edge" in p for p in v.problems)
    for bad in ("{", "[]", '{"report": "something else"}'):
        with pytest.raises(ReportError):
            read_report(bad)


def _app() -> typer.Typer:
    from exactodds.cli.app import app
    from exactodds.cli.certify import register
    if "verify" not in {c.name for c in app.registered_commands}:
        register(app)
    return app


def test_cli_eor_certify_verify_exit_codes(tmp_path: Path, report: dict) -> None:
    runner = CliRunner()
    app = _app()
    r = runner.invoke(app, ["eor", "dragon-7"])
    assert r.exit_code == 0 and "holds exactly" in r.output
    r = runner.invoke(app, ["eor", "dragon-7", "--shoe", "decks=6", "--remove", "9,9", "-f", "json"])
    assert r.exit_code == 0 and json.loads(r.output)["shoe"]["cards"] == 310
    good = tmp_path / "r.json"
    good.write_text(json.dumps(report))
    assert runner.invoke(app, ["verify", str(good)]).exit_code == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(report).replace('"cards": 416', '"cards": 415', 1))
    assert runner.invoke(app, ["verify", str(bad)]).exit_code == 1
    junk = tmp_path / "junk.json"
    junk.write_text("not json")
    for args in (["verify", str(junk)], ["verify", str(tmp_path / "none.json")], ["eor", "dragon-8"],
                 ["eor", "dragon-7", "--remove", "33*9"], ["certify"], ["ride", "tie", "--fraction", "2"],
                 ["commission", "banker", "-p", "ez"], ["commission", "--wager-amount", "-3"]):
        out = tmp_path / "out.md"
        r = runner.invoke(app, [*args, "-o", str(out)] if args[0] in ("eor", "certify") else args)
        assert r.exit_code == 2, args
        assert not out.exists()


# -- commission rounding ------------------------------------------------------------------------------

def test_commission_at_7_50_rounded_to_25_cents_against_published_counts() -> None:
    c = commission_analysis("banker", "5pct", Shoe.standard(8), "7.50", "0.25")
    assert c.commission == Fraction(1, 2)  # 5% of $7.50 = 37.5¢, rounded up to 50¢
    assert c.analysis.return_ == (BANKER8 * Fraction(14, 15) - PLAYER8) / U8
    exact = commission_analysis("banker", "5pct", Shoe.standard(8), "7.50", None)
    assert exact.analysis.return_ == (BANKER8 * Fraction(19, 20) - PLAYER8) / U8
    four = commission_analysis("banker", "4pct", Shoe.standard(8), "7.50", "rule")  # § 545.13(d): 20¢
    assert four.commission == Fraction(2, 5)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**6), st.sampled_from([Fraction(1, 20), Fraction(1, 25)]),
       st.sampled_from([Fraction(1, 4), Fraction(1, 5), Fraction(1, 20)]))
def test_rounded_commission_is_the_next_multiple(cents: int, rate: Fraction, q: Fraction) -> None:
    amount = Fraction(cents, 100)
    c = rounded_commission(amount, rate, q)
    assert (c / q).denominator == 1 and rate * amount <= c < rate * amount + q


def test_edge_table_and_money_parsing() -> None:
    rows = edge_table("banker", "5pct", Shoe.standard(8), [Fraction(5), Fraction(10)], Fraction(1, 4))
    assert rows[0].analysis.return_ == rows[1].analysis.return_  # 25¢ and 50¢: no rounding at all
    with pytest.raises(InputError):
        parse_money("1e3", "x")


# -- House Money with the payout ridden -----------------------------------------------------------------

def _pairs(player, banker):
    return (player[0].rank == player[1].rank, banker[0].rank == banker[1].rank, coup_from_deal(player, banker))


@pytest.mark.parametrize("name", ["thirteen-pairs", "ten-low", "five-cards", "four-cards", "three-cards"])
def test_pair_coup_distribution_against_the_oracle(name: str) -> None:
    shoe = SMALL_SHOES[name]
    counts, void = oracle.tally(shoe, _pairs)
    d = pair_coup_distribution(shoe)
    assert dict(d.counts) == {k: v for k, v in counts.items() if v} and d.void == void


def test_ride_figures() -> None:
    shoe = Shoe.standard(8)
    r0 = ride_analysis("banker", "5pct", shoe, 0)
    assert r0.return_ == (r0.house_money_return + r0.main_return) / 2  # no ride: the two wagers side by side
    assert r0.main_return == (BANKER8 * Fraction(19, 20) - PLAYER8) / U8
    if "house-money" in CATALOGUE:
        from exactodds.figures.analysis import analyze
        assert r0.house_money_return == analyze("house-money", None, shoe).return_  # catalogue's own enumeration
    r1 = ride_analysis("banker", "5pct", shoe, 1)
    half = ride_analysis("banker", "5pct", shoe, "1/2")
    assert r1.return_ - r0.return_ == 2 * (half.return_ - r0.return_)  # linear in the ridden fraction
    assert sum(x.count for x in r1.rows) == U8


def test_ride_on_a_small_shoe_against_the_oracle() -> None:
    """The combined net, settled card by card from the oracle's deals."""
    shoe = shoe_of("9S 9H 9D KS KH QC 8D 8C 7S 5H")
    r = ride_analysis("player", None, shoe, "1/3", 2)
    w = CATALOGUE["player"]
    t = w.default_paytable
    acc, total = Fraction(0), 0
    for player, banker, ways in oracle.rounds(shoe):
        total += ways
        if player is oracle.VOID:
            continue
        pp, bp = player[0].rank == player[1].rank, banker[0].rank == banker[1].rank
        k = 15 if pp and bp else 3 if pp or bp else None
        x = (t.pays.get(w.settle(t, coup_from_deal(player, banker))) or w.otherwise_pay(t)).net
        net = -1 + 2 * x if k is None else k + (2 + Fraction(k, 3)) * x
        acc += net * ways
    assert r.return_ == acc / total / 3
