"""CSV for spreadsheets (a decimal beside every p/q, 1 in N) and the Python API (to_dict, to_frame)."""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.cli.app import app
from exactodds.figures.analysis import analysis_json, analyze
from exactodds.figures.eor import effects_of_removal
from exactodds.game.cards import Shoe
from exactodds.games.certificate import certify
from exactodds.report.certify import render_csv
from exactodds.report.figure_views import render_eor
from exactodds.report.formats import render_catalogue
from exactodds.report.formats import render_csv as render_analysis_csv
from exactodds.report.spreadsheet import SIGNIFICANT, decimal_cell, one_in_cell

NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
runner = CliRunner()


def close(cell: str, exact: Fraction) -> bool:
    """``cell`` is ``exact`` correctly rounded to 15 significant digits (checked exactly)."""
    if exact == 0:
        return cell == "0"
    got = Fraction(cell)
    e = 0
    while Fraction(10) ** (e + 1) <= abs(exact):
        e += 1
    while Fraction(10) ** e > abs(exact):
        e -= 1
    half_ulp = Fraction(10) ** (e - SIGNIFICANT + 1) / 2
    return NUMBER.match(cell) is not None and abs(got - exact) <= half_ulp


@given(st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**15))
def test_decimal_cells_are_correctly_rounded_plain_numbers(x: Fraction) -> None:
    cell = decimal_cell(x)
    assert close(cell, x), (x, cell)
    if x > 0:
        assert close(one_in_cell(x), 1 / x)


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def check_pairs(row: dict[str, str]) -> int:
    """Every ``X_decimal`` (and ``X_one_in``) cell against its exact ``X`` column; returns how many."""
    n = 0
    for key, cell in row.items():
        if key.endswith("_decimal"):
            exact = row[key[: -len("_decimal")]]
            if "/" in exact:  # an exact p/q: its decimal is beside it
                assert close(cell, Fraction(exact)), (key, exact, cell)
                n += 1
            else:  # empty, or an integer (copies) that needs none
                assert cell == ""
        if key.endswith("_one_in") and cell:
            p = row.get(key[: -len("_one_in")]) or row["probability_or_effect"]
            assert close(cell, 1 / Fraction(p))
            n += 1
    return n


@pytest.mark.parametrize("wager, paytable", [("banker", "5pct"), ("tie", "8to1"), ("royal-9", "5usd"),
                                             ("lucky-nines", "D")])
def test_analysis_csv_has_a_decimal_beside_every_exact_value(wager: str, paytable: str) -> None:
    a = analyze(wager, paytable, Shoe.standard(8))
    table = rows(render_analysis_csv(a))
    assert [r["item"] for r in table if r["table"] in ("outcome", "total")] == [r.name for r in a.rows] + ["Total"]
    assert sum(check_pairs(r) for r in table) >= 4 * len(a.rows)
    by_name = {r.name: r for r in a.rows}
    for r in table:
        if r["table"] == "outcome":
            assert Fraction(r["probability"]) == by_name[r["item"]].probability


def test_catalogue_eor_and_certificate_csv() -> None:
    shoe = Shoe.standard(8)
    table = rows(render_catalogue([analyze("banker", "5pct", shoe), analyze("dragon-7", "40to1", shoe)], "csv"))
    assert {"house_edge_decimal", "hit_frequency_one_in", "element_of_risk_decimal"} <= set(table[0])
    assert sum(check_pairs(r) for r in table) >= 6
    eor = rows(render_eor(effects_of_removal("dragon-7", None, shoe), "csv"))
    assert len(eor) == 13 and all(check_pairs(r) == 2 for r in eor)
    doc = certify(["dragon-7"], None, shoe, sensitivity_decks=(6, 8))
    cert = rows(render_csv(doc))
    assert {r["table"] for r in cert} == {"summary", "outcome", "confidence_range", "effect_of_removal", "sensitivity"}
    assert all(check_pairs(r) >= 1 for r in cert)


def test_a_spreadsheet_reads_the_decimal_columns_as_numbers() -> None:
    pd = pytest.importorskip("pandas")
    r = runner.invoke(app, ["analyze", "--all", "--format", "csv"])
    frame = pd.read_csv(io.StringIO(r.stdout))
    for column in ("house_edge_decimal", "hit_frequency_decimal", "hit_frequency_one_in"):
        assert frame[column].dtype.kind == "f", column
    assert frame["house_edge"].dtype.kind != "f" and frame["house_edge"][0].count("/") == 1  # p/q stays text


def test_to_dict_is_the_json_contract() -> None:
    a = analyze("panda-8", "25to1", Shoe.standard(6))
    assert a.to_dict() == analysis_json(a)
    assert json.loads(json.dumps(a.to_dict())) == a.to_dict()


def test_to_frame_keeps_exact_values_exact() -> None:
    pytest.importorskip("pandas")
    a = analyze("banker", "5pct", Shoe.standard(8))
    f = a.to_frame()
    assert list(f["outcome"]) == [r.name for r in a.rows]
    assert all(isinstance(x, Fraction) for col in ("pays", "probability", "return") for x in f[col])
    assert sum(f["return"], Fraction(0)) == a.return_ and sum(f["probability"], Fraction(0)) == 1
    assert sum(f["count"]) == a.total == 4_998_398_275_503_360 and all(isinstance(x, int) for x in f["count"])
    assert f.attrs["house_edge"] == a.house_edge
    assert f["probability_float"].dtype.kind == "f"


@pytest.mark.parametrize("wager, paytable", [("banker", "5pct"), ("tie", "8to1"), ("dragon-7", "40to1")])
def test_analysis_csv_carries_the_headline_figures(wager: str, paytable: str) -> None:
    """The summary row's figures, recomputed here from the CSV's own outcome rows (counts and pays)."""
    table = rows(render_analysis_csv(analyze(wager, paytable, Shoe.standard(8))))
    assert table[0]["table"] == "summary" and [r["table"] for r in table].count("summary") == 1
    summary, outcomes = table[0], [r for r in table if r["table"] == "outcome"]
    total = sum(int(r["count"]) for r in outcomes)
    assert int(summary["count"]) == total
    p = {r["item"]: Fraction(int(r["count"]), total) for r in outcomes}
    pay = {r["item"]: Fraction(r["pays"]) for r in outcomes}
    mean = sum(p[k] * pay[k] for k in p)
    assert Fraction(summary["return"]) == mean and Fraction(summary["house_edge"]) == -mean
    assert Fraction(summary["hit_frequency"]) == sum(p[k] for k in p if pay[k] > 0)
    variance = sum(p[k] * pay[k] ** 2 for k in p) - mean**2
    assert Fraction(summary["variance"]) == variance
    sd = Fraction(summary["standard_deviation"])
    assert abs(sd * sd - variance) < Fraction(1, 10**9)
    push = sum(p[k] for k in p if pay[k] == 0)
    assert (summary["element_of_risk"] == "") == (push == 0)
    if push:
        assert Fraction(summary["element_of_risk"]) == -mean / (1 - push)
    assert check_pairs(summary) >= 5


def test_progressive_csv_carries_its_linear_form() -> None:
    """royal-9: the linear form read back, at the priced meters, is the summary's return; at each
    break-even amount (the others priced) it is 0."""
    from exactodds.figures.progressive import Linear

    table = rows(render_analysis_csv(analyze("royal-9", "5usd", Shoe.standard(8))))
    by = {t: [r for r in table if r["table"] == t] for t in {r["table"] for r in table}}
    form = Linear.parse(by["return_expression"][0]["expression"])
    priced = {f"M_{r['item']}": Fraction(r["meter_amount"]) for r in by["priced_at"]}
    assert form.at(priced) == Fraction(by["summary"][0]["return"])
    for r in by["break_even"]:
        assert form.at({**priced, f"M_{r['item']}": Fraction(r["meter_amount"])}) == 0
    assert check_pairs(by["break_even"][0]) >= 1


def test_ride_csv_carries_its_figures() -> None:
    """The summary row's return, recomputed from the CSV's outcome rows (House Money 1 + main 1)."""
    r = runner.invoke(app, ["ride", "-f", "csv"])
    assert r.exit_code == 0, r.output
    table = rows(r.stdout)
    assert table[0]["table"] == "summary" and {t["table"] for t in table[1:]} == {"outcome"}
    outcomes = table[1:]
    universe = sum(int(t["count"]) for t in outcomes)
    net = sum(int(t["count"]) * Fraction(t["net"]) for t in outcomes)
    assert Fraction(table[0]["return"]) == net / (universe * 2)
    mean_square = sum(int(t["count"]) * (Fraction(t["net"]) / 2) ** 2 for t in outcomes) / universe
    assert Fraction(table[0]["variance"]) == mean_square - Fraction(table[0]["return"]) ** 2
    assert float(table[0]["standard_deviation"]) ** 2 == pytest.approx(float(Fraction(table[0]["variance"])), rel=1e-9)
    assert check_pairs(table[0]) >= 6


def test_paigow_csv_carries_the_vigorish_by_amount() -> None:
    """At $20 the vigorish (rounded up to 25 cents) is exactly 5 %: the amount row's house-way and
    optimal returns are then the strategies' returns with 5 % vigorish."""
    r = runner.invoke(app, ["paigow", "-f", "csv"])
    assert r.exit_code == 0, r.output
    table = rows(r.stdout)
    strategies = {t["strategy"]: t for t in table if t["table"] == "strategy"}
    amounts = {Fraction(t["amount"]): t for t in table if t["table"] == "vigorish_by_amount"}
    assert set(strategies) == {"house-way", "optimal"} and len(amounts) > 10
    twenty = amounts[Fraction(20)]
    assert Fraction(twenty["vigorish"]) == 1
    assert twenty["return_house_way"] == strategies["house-way"]["return_vigorish"]
    assert twenty["return_optimal"] == strategies["optimal"]["return_vigorish"]
    assert all(check_pairs(t) >= 3 for t in amounts.values())
