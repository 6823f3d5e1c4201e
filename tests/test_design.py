"""Paytable design: the exact return expression, the solver fed back through ``analyze`` and
through the brute-force oracle, the bracketing pays, sweeps and the command line."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import oracle
import pytest
from conftest import SLOW, shoe_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.catalogue import get_wager
from exactodds.catalogue.model import Pay
from exactodds.cli.app import app
from exactodds.errors import InputError
from exactodds.figures.analysis import analyze
from exactodds.figures.design import (
    all_unknowns,
    analyze_with,
    find_unknown,
    parse_edge,
    return_expression,
    solve_edge,
    sweep,
)
from exactodds.game.cards import Shoe

EIGHT = Shoe.standard(8)
SMALL = shoe_of("7S 7H 7D 3S 4H KD QC 9S AS 2C")


def brute_return(wager_id: str, table, shoe: Shoe) -> Fraction:
    """The return by dealing every ordered card sequence of ``shoe`` (tests/oracle.py) and
    settling each round by the wager's rule: no engine count involved."""
    w = get_wager(wager_id)
    total = 0
    num = Fraction(0)
    for player, banker, ways in oracle.rounds(shoe):
        total += ways
        if player is oracle.VOID:
            continue
        name = w.settle(table, w.level.from_deal(player, banker))
        pay = table.pays.get(name) or w.otherwise_pay(table)
        num += ways * pay.net
    return num / total


def test_expression_at_the_current_pays_is_the_analysis() -> None:
    for wager_id in ("banker", "dragon-7", "perfect-pairs-player", "lucky-nines"):
        w = get_wager(wager_id)
        a = analyze(w, None, EIGHT)
        unknowns = all_unknowns(w, a.paytable)
        expr = return_expression(a, unknowns)
        values = {}
        for u in unknowns:
            net = a.paytable.pays[u.outcome].net
            values[u.symbol] = 1 - net if u.kind == "commission" else net
        import sympy

        at = expr.subs({sympy.Symbol(k): sympy.Rational(v.numerator, v.denominator) for k, v in values.items()})
        assert Fraction(int(at.p), int(at.q)) == a.return_


@pytest.mark.parametrize("wager_id, name, target, step", [
    ("dragon-7", "Dragon 7", Fraction(5, 100), Fraction(1)),
    ("panda-8", "Panda 8", Fraction(3, 100), Fraction(1, 2)),
    ("banker", "commission", Fraction(1, 100), None),
    ("tie", "Tie", Fraction(10, 100), Fraction(1)),
])
def test_solution_reanalysed_gives_exactly_the_target(wager_id, name, target, step) -> None:
    w = get_wager(wager_id)
    table = w.default_paytable
    u = find_unknown(w, table, name)
    s = solve_edge(w, table, EIGHT, u, target, step)
    assert s.value is not None
    pay = Pay.commission(s.value) if u.kind == "commission" else Pay.to(s.value)
    new = replace(table, pays={**table.pays, u.outcome: pay})
    assert analyze(replace(w, paytables=(new,)), new.id, EIGHT).house_edge == target
    if step is not None:
        assert s.below is not None and s.above is not None
        (lo, lo_edge), (hi, hi_edge) = s.below, s.above
        assert lo <= s.value <= hi and hi - lo in (0, step) and lo % step == 0 and hi % step == 0
        assert lo_edge >= target >= hi_edge  # a larger pay, a smaller edge
        for v, e in ((lo, lo_edge), (hi, hi_edge)):
            t2 = replace(table, pays={**table.pays, u.outcome: Pay.to(v)})
            assert analyze(replace(w, paytables=(t2,)), t2.id, EIGHT).house_edge == e


def test_solution_on_a_small_shoe_against_the_oracle() -> None:
    w = get_wager("dragon-7")
    u = find_unknown(w, w.default_paytable, "Dragon 7")
    s = solve_edge(w, w.default_paytable, SMALL, u, Fraction(1, 20))
    assert s.value is not None
    table = replace(w.default_paytable, pays={"Dragon 7": Pay.to(s.value)})
    assert -brute_return("dragon-7", table, SMALL) == Fraction(1, 20)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fractions(min_value=Fraction(-3, 10), max_value=Fraction(9, 10), max_denominator=1000),
       st.sampled_from(["Mixed pair", "Colored pair", "Perfect pair"]))
def test_highest_settlement_across_the_order_of_pays(target, name) -> None:
    """Perfect Pairs settles on the best-paying pair that holds: solving one pay over a wide
    range of edges moves it past the others, and the answer must still re-analyse exactly."""
    w = get_wager("perfect-pairs-player")
    table = w.default_paytable
    u = find_unknown(w, table, name)
    s = solve_edge(w, table, EIGHT, u, target)
    if s.value is None:  # only an edge the pay cannot reach (the others' pairs cap the loss)
        lowest = solve_edge(w, table, EIGHT, u, Fraction(-100))
        assert lowest.value is not None
        with_min = replace(table, pays={**table.pays, name: Pay.to(-1)})
        assert analyze(replace(w, paytables=(with_min,)), table.id, EIGHT).house_edge < target
        return
    new = replace(table, pays={**table.pays, name: Pay.to(s.value)})
    assert analyze(replace(w, paytables=(new,)), new.id, EIGHT).house_edge == target


def test_meter_solution_is_the_break_even_identity() -> None:
    w = get_wager("heavenly-9-progressive")
    table = w.default_paytable
    u = find_unknown(w, table, "heavenly-9")
    s = solve_edge(w, table, EIGHT, u, Fraction(0))
    from exactodds.figures.progressive import progressive_figures

    assert s.value == progressive_figures(analyze(w, None, EIGHT)).break_even["heavenly-9"]
    assert analyze(w, None, EIGHT, {"heavenly-9": s.value}).house_edge == 0


def test_sweep_rows_are_analyses_and_monotone() -> None:
    w = get_wager("dragon-7")
    u = find_unknown(w, w.default_paytable, "Dragon 7")
    rows = sweep(w, w.default_paytable, EIGHT, u, Fraction(30), Fraction(50), Fraction(5))
    assert [r.value for r in rows] == [30, 35, 40, 45, 50]
    for r in rows:  # one compiled plan for the sweep: each row the plain analysis of its paytable
        plain = analyze_with(w, w.default_paytable, EIGHT, u, r.value)
        assert r.analysis == plain and (r.analysis.house_edge, r.analysis.variance) == (plain.house_edge, plain.variance)
    assert rows[2].analysis.house_edge == analyze("dragon-7", None, EIGHT).house_edge
    edges = [r.analysis.house_edge for r in rows]
    assert edges == sorted(edges, reverse=True)
    # linear in the pay: equal steps, equal differences
    assert len({b - a for a, b in zip(edges, edges[1:])}) == 1


def test_parse_edge_and_errors() -> None:
    assert parse_edge("5%") == Fraction(1, 20) == parse_edge("0.05")
    w = get_wager("dragon-7")
    with pytest.raises(InputError, match="not an outcome or meter"):
        find_unknown(w, w.default_paytable, "Dragon 8")


runner = CliRunner()


def test_cli_solve_json_and_errors(tmp_path) -> None:
    r = runner.invoke(app, ["design", "dragon-7", "--solve", "Dragon 7", "--target-edge", "5%", "-f", "json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["house_edge_reanalysed"] == doc["target_edge"] == "1/20"
    assert Fraction(doc["below"]["value"]) == 41 and Fraction(doc["above"]["value"]) == 42
    r = runner.invoke(app, ["design", "dragon-7", "--sweep", "Dragon 7=30..50:10", "-f", "csv"])
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 4
    plot = tmp_path / "edge.svg"
    r = runner.invoke(app, ["design", "dragon-7", "--sweep", "Dragon 7=30..32", "--plot", str(plot)])
    assert r.exit_code == 0 and plot.read_bytes().lstrip().startswith(b"<?xml")
    for bad in (["design", "dragon-7", "--solve", "Dragon 7"],
                ["design", "dragon-7", "--solve", "Nope", "--target-edge", "5%"],
                ["design", "dragon-7", "--sweep", "Dragon 7=50..30"],
                ["design", "dragon-7", "--sweep", "Dragon 7=1..1e9:1e-9"],
                ["design", "dragon-7", "--plot", str(tmp_path / "x.png")]):
        r = runner.invoke(app, bad)
        assert r.exit_code == 2 and r.stdout == "" and r.stderr.startswith("exactodds: error:"), bad
    assert not (tmp_path / "x.png").exists()


# -- a designer's must-hit-by mystery configuration (§ 631b.6(c)) ----------------------------

def _mystery_by_cycle(lo: Fraction, hi: Fraction, rate: Fraction, stake: Fraction) -> Fraction:
    """Long-run return from the distribution of K written out: the meter after k wagers is
    lo + k·rate·stake and pays at the first k that exceeds the drawn X ~ U[lo, hi], so
    P(K = k) = |[lo + (k−1)·c, lo + k·c) ∩ [lo, hi]| / (hi − lo) with c = rate·stake;
    return = E[paid] / E[wagered] = E[lo + K·c] / E[K·stake] (renewal-reward)."""
    c = rate * stake
    width = hi - lo
    k, e_k = 1, Fraction(0)
    while lo + (k - 1) * c < hi:
        p = (min(lo + k * c, hi) - (lo + (k - 1) * c)) / width
        e_k += k * p
        k += 1
    return (lo + e_k * c) / (e_k * stake)


# 40 examples with EXACTODDS_SLOW=1 (CI's slow step), 12 in the README's test command (10 s -> 3 s)
@settings(max_examples=40 if SLOW else 12, deadline=None)
@given(st.integers(0, 300), st.integers(1, 400), st.fractions(Fraction(1, 200), Fraction(1, 10), max_denominator=400),
       st.sampled_from([Fraction(1), Fraction(2), Fraction(5), Fraction(5, 2)]))
def test_mystery_configuration_against_the_cycle_distribution(lo, width, rate, stake) -> None:
    from exactodds.figures.progressive import mystery_config, mystery_long_run

    c = mystery_config(Fraction(lo), Fraction(lo + width), rate, stake)
    assert mystery_long_run(c) == _mystery_by_cycle(Fraction(lo), Fraction(lo + width), rate, stake)


def test_mystery_cli_configuration_and_errors() -> None:
    r = runner.invoke(app, ["mystery", "--minimum", "$250", "--maximum", "1000", "--rate", "2%", "--stake", "5",
                            "-f", "json"])
    assert r.exit_code == 0, r.output
    (row,) = json.loads(r.stdout)["configurations"]
    assert Fraction(row["long_run_return"]) == _mystery_by_cycle(Fraction(250), Fraction(1000), Fraction(1, 50),
                                                                 Fraction(5))
    # the regulated configuration D at $5 (§ 631b.6(c)(4)) is the same configuration, the same figure
    reg = json.loads(runner.invoke(app, ["mystery", "-f", "json"]).stdout)["configurations"]
    assert [r["long_run_return"] for r in reg if r["config"] == "mhb-D-$5"] == [row["long_run_return"]]
    for bad in (["mystery", "--minimum", "500", "--maximum", "100", "--rate", "1%"],
                ["mystery", "--minimum", "100", "--maximum", "500"],
                ["mystery", "--minimum", "100", "--maximum", "500", "--rate", "0"],
                ["mystery", "--minimum", "100", "--maximum", "1e30", "--rate", "1e-30"],
                ["mystery", "--stake", "5"]):
        r = runner.invoke(app, bad)
        assert r.exit_code == 2 and r.stdout == "" and r.stderr.startswith("exactodds: error:"), bad


def test_human_views_show_no_long_fraction() -> None:
    import re

    for args in (["design", "dragon-7"], ["design", "heavenly-9-progressive"],
                 ["design", "dragon-7", "--solve", "Dragon 7", "--target-edge", "5%"],
                 ["design", "banker", "--solve", "commission", "--target-edge", "1%", "-f", "markdown"]):
        r = runner.invoke(app, args)
        assert r.exit_code == 0, r.output
        assert not [t for t in re.findall(r"-?\d+/\d+", r.stdout) if len(t) > 20], args


def test_wager_file_solution_reanalysed_from_a_new_file(tmp_path) -> None:
    """A TOML wager (not in the catalogue): solve, then write the bracketing pays into a new
    file and analyse it by the plain ``analyze`` command."""
    src = "docs/examples/banker-three-card-eight.toml"
    r = runner.invoke(app, ["design", "banker-three-card-eight", "--wager-file", src,
                            "--solve", "Banker wins with a 3-card 8", "--target-edge", "4%", "-f", "json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["house_edge_reanalysed"] == "1/25"
    for side in ("below", "above"):
        pay = Fraction(doc[side]["value"])
        text = open(src).read().replace('"30 to 1"', f'"{pay} to 1"')
        path = tmp_path / f"{side}.toml"
        path.write_text(text)
        a = runner.invoke(app, ["analyze", "banker-three-card-eight", "--wager-file", str(path), "-f", "json"])
        assert a.exit_code == 0, a.output
        assert json.loads(a.stdout)["house_edge"] == doc[side]["house_edge"]
    assert Fraction(doc["below"]["house_edge"]) > Fraction(1, 25) > Fraction(doc["above"]["house_edge"])


def test_target_edges_no_solution_sweep_steps_and_plot_files(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 25: --target-edge 150% ran and exited 0 with "no solution"; a sweep step of 0
    stepped by 1; --plot x.pdf (or no suffix) wrote a PNG."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> tuple[int, str, str]:
        r = runner.invoke(app, ["design", *args])
        return r.exit_code, r.stdout, r.stderr

    for bad in (["dragon-7", "--solve", "Dragon 7", "--target-edge", "150%"],
                ["dragon-7", "--solve", "Dragon 7", "--target-edge", "1"],
                ["dragon-7", "--sweep", "Dragon 7=30..32:0"],
                ["dragon-7", "--sweep", "Dragon 7=30..32", "--plot", "edge"],
                ["dragon-7", "--sweep", "Dragon 7=30..32", "--plot", "edge.gif"]):
        code, out, err = run(*bad)
        assert code == 2 and out == "" and err.startswith("exactodds: error:") and err.count("\n") == 1, (bad, err)
    assert list(tmp_path.iterdir()) == []
    # no commission makes Banker's house edge 90 %: the report says so and the exit status is 1
    code, out, err = run("banker", "-p", "5pct", "--solve", "commission", "--target-edge", "90%")
    assert code == 1 and "No value of it gives that house edge." in out and err == ""
    code, out, _ = run("banker", "-p", "5pct", "--solve", "commission", "--target-edge", "1%")
    assert code == 0
    for name, magic in (("e.pdf", b"%PDF"), ("e.svg", b"<?xml"), ("e.PNG", b"\x89PNG")):
        code, out, err = run("dragon-7", "--sweep", "Dragon 7=30..31", "--plot", name, "-o", "s.csv", "-f", "csv")
        assert code == 0, err
        assert (tmp_path / name).read_bytes().startswith(magic), name


def test_matplotlib_warnings_stay_off_stderr(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A glyph missing from matplotlib's font was a warning on stderr (issue 25): a command's
    stderr is one error line or nothing. A real process, so that warnings reach stderr."""
    import subprocess
    import sys

    wager = tmp_path / "cards.toml"
    wager.write_text('id = "cards"\nname = "\U0001F0A1 \u4e5d\u70b9"\ncite = "test"\nlevel = "coup"\n\n'
                     '[[outcomes]]\nname = "Banker eight"\nwhen = { winner = "banker", banker_total = 8 }\n\n'
                     '[[paytables]]\nid = "A"\npays = { "Banker eight" = "5 to 1" }\n')
    p = subprocess.run([sys.executable, "-m", "exactodds", "design", "--wager-file", str(wager), "cards",
                        "--sweep", "Banker eight=5..6", "--plot", str(tmp_path / "c.png"), "-d", "1"],
                       capture_output=True, text=True, timeout=120, check=False)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert (tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")
