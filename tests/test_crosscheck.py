"""The cross-check: our simulator passes it; deliberately buggy simulators do not.

Buggy simulators are built here: one whose Banker on 3 draws against a Player third
card of 8 (§ 629a.10(c)(2)(iii) Table 1 says stay), one that settles a Banker tie as
a loss. The violations the audit reports are compared with the rounds found by an
independent scan of the log text; the statistics must fail on their own too.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run_simulation_cli

from exactodds.errors import InputError
from exactodds.game import rules
from exactodds.game.cards import Shoe
from exactodds.simulation.crosscheck import (
    audit_round,
    coup_wager_tables,
    crosscheck_counts,
    crosscheck_log,
    goodness_of_fit,
    results_fit,
)
from exactodds.simulation.handlog import (
    LogFile,
    LoggedRound,
    families_from_sim,
    read_file,
    render_counts,
    render_log,
    sim_meta,
)
from exactodds.simulation.simulate import DrawRules, simulate
from exactodds.simulation.statistics import Cell, chi_square, return_test

EIGHT = Shoe.standard(8)
VALUE = {"A": 1, "T": 0, "10": 0, "J": 0, "Q": 0, "K": 0, **{str(v): v for v in range(2, 10)}}


def read_all(path: Path) -> object:
    """Read a file through to its end (a hand log is read lazily)."""
    data = read_file(path)
    if isinstance(data, LogFile):
        for _ in data.chunks():
            pass
    return data


def read_all_rounds(path: Path) -> list[LoggedRound]:
    data = read_file(path)
    assert isinstance(data, LogFile)
    return list(data.rounds())


run = run_simulation_cli


STANDARD = DrawRules()
BUGGY_BANKER_3 = DrawRules(banker_draws=lambda b, t: True if (b == 3 and t == 8) else rules.banker_draws(b, t))


def write_log(tmp: Path, name: str, rounds: int, seed: int, mode: str = "fresh",
              draw_rules: DrawRules = STANDARD) -> Path:
    sim = simulate(rounds, mode, EIGHT, seed=seed, keep_hands=True, draw_rules=draw_rules)
    assert sim.log is not None
    path = tmp / name
    path.write_text(render_log(sim.log, sim_meta(sim)))
    return path


# -- our simulator passes ---------------------------------------------------------------------
def test_own_fresh_log_passes(tmp_path: Path) -> None:
    path = write_log(tmp_path, "fresh.csv", 40_000, seed=21)
    result = crosscheck_log(read_file(path), EIGHT, 14)
    assert result.audit is not None and result.audit.violations == []
    assert result.consistent, result.failures()
    assert result.comparable.rounds == 40_000
    code, out, _ = run("crosscheck", str(path))
    assert code == 0 and "Verdict: consistent" in out


def test_own_counts_pass(tmp_path: Path) -> None:
    sim = simulate(3_000_000, "fresh", EIGHT, seed=5)
    pairs, _ = coup_wager_tables()
    path = tmp_path / "counts.csv"
    path.write_text(render_counts(families_from_sim(sim, pairs), sim_meta(sim)))
    result = crosscheck_counts(read_file(path), EIGHT)
    assert result.consistent, result.failures()
    assert all(f.rounds == 3_000_000 for f in result.comparable.families)


def test_own_shoe_log_passes_and_flags_later_rounds(tmp_path: Path) -> None:
    path = write_log(tmp_path, "shoe.csv", 40_000, seed=22, mode="shoe")
    result = crosscheck_log(read_file(path), EIGHT, 14)
    assert result.consistent, result.failures()
    assert result.not_comparable is not None
    # about 80 rounds a shoe, of which the first 67 are comparable
    assert 0 < result.not_comparable.rounds < result.comparable.rounds
    assert result.comparable.rounds + result.not_comparable.rounds == 40_000
    assert any("not directly comparable" in n for n in result.notes)
    code, out, _ = run("crosscheck", str(path))
    assert code == 0 and "Not directly comparable" in out


def test_the_text_table_fits_and_names_what_it_shortens(tmp_path: Path) -> None:
    """The terminal view of a shoe-mode cross-check: every table line within 100 columns, no
    number broken across lines (each test's rounds on its first line), the largest deviation
    named with its outcome below the table, and every shortened label given in full."""
    path = write_log(tmp_path, "shoe.csv", 12_000, seed=23, mode="shoe")
    result = crosscheck_log(read_file(path), EIGHT, 14)
    code, out, _ = run("crosscheck", str(path))
    assert code == 0
    lines = out.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("Test: wager")]
    assert len(starts) == 2                                   # comparable rounds, then the later ones
    for start in starts:
        end = next(i for i in range(start, len(lines)) if not lines[i].strip() or lines[i].startswith(("Largest",
                                                                                                        "Tests")))
        table = lines[start:end]
        assert max(map(len, table)) <= 100, max(table, key=len)
        firsts = [line for line in table if line[:1].strip() and "  " in line]
        for f in result.comparable.families if start == starts[0] else []:
            assert any(f"{f.rounds:,}" in line for line in firsts), f
    worst = max(((abs(c.z), f, c) for f in result.comparable.families for c in f.cells if c.z is not None),
                key=lambda t: t[0])
    largest = next(line for line in lines if line.startswith("Largest z, by test:"))
    assert largest.startswith(f"Largest z, by test: {worst[2].z:+.2f} {worst[1].wager} ({worst[1].paytable}) at "
                              f"{worst[2].name}")
    described = next(line for line in lines if line.startswith("Tests named short above, in full:"))
    assert all(f.paytable in described for f in result.comparable.families
               if len(f.paytable) > 24 and any(c in f.paytable for c in ":("))


# -- buggy simulators are caught ---------------------------------------------------------------
def scan_banker_3_vs_8(path: Path) -> set[int]:
    """Rounds where the Banker drew on 3 against a Player third card of 8, read from the text."""
    found = set()
    for line in path.read_text().splitlines()[2:]:
        rnd, player, banker = line.split(",")
        p = [VALUE[c[:-1]] for c in player.split()]
        b = [VALUE[c[:-1]] for c in banker.split()]
        if len(p) == 3 and p[2] == 8 and len(b) == 3 and sum(b[:2]) % 10 == 3 and sum(p[:2]) % 10 < 8:
            found.add(int(rnd))
    return found


def test_banker_3_drawing_against_8_is_caught_by_audit_and_statistics(tmp_path: Path) -> None:
    path = write_log(tmp_path, "bug.csv", 40_000, seed=23, draw_rules=BUGGY_BANKER_3)
    result = crosscheck_log(read_file(path), EIGHT, 14)
    assert result.audit is not None
    expected = scan_banker_3_vs_8(path)
    assert len(expected) > 50
    assert {v.round for v in result.audit.violations} == expected
    assert all("Banker drew on 3 against a Player third card of 8" in v.message for v in result.audit.violations)
    # the statistics fail on their own, audit aside
    results = result.comparable.families[0]
    assert results.wager == "round results"
    assert results.chi_square.p_value < result.threshold
    assert not result.consistent
    code, out, _ = run("crosscheck", str(path))
    assert code == 1 and "INCONSISTENT" in out and "round " in out


def test_tie_paid_as_a_loss_is_caught(tmp_path: Path) -> None:
    sim = simulate(200_000, "fresh", EIGHT, seed=6)
    counts = families_from_sim(sim, [("banker", "5pct")])
    fam = counts[("banker", "5pct")]
    fam["Player wins"] += fam.pop("Tie")  # the bug: a Banker tie settled as a loss
    path = tmp_path / "tie_bug.csv"
    path.write_text(render_counts(counts))
    result = crosscheck_counts(read_file(path), EIGHT)
    f = result.comparable.families[0]
    assert f.chi_square.p_value < result.threshold
    assert f.return_test is not None and f.return_test.p_value < result.threshold
    assert f.return_test.observed < f.return_test.exact
    assert not result.consistent
    code, out, _ = run("crosscheck", str(path), "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert doc["consistent"] is False and doc["failures"]


def test_rule_bug_fails_the_round_results_test_without_any_log() -> None:
    # statistics alone, no audit: the buggy simulator's own round-result counts
    bug = simulate(100_000, "fresh", EIGHT, seed=9, draw_rules=BUGGY_BANKER_3)
    good = simulate(100_000, "fresh", EIGHT, seed=9)
    assert results_fit(good.coup_counts(), EIGHT).chi_square.p_value > 1e-3
    assert results_fit(bug.coup_counts(), EIGHT).chi_square.p_value < 1e-12


# -- the rule audit on hand-made rounds ------------------------------------------------------------
@pytest.mark.parametrize("player,banker,fragment", [
    ([5, 4, 1], [3, 3], "§ 629a.10(a)"),                 # Player natural 9 drew
    ([2, 2], [6, 0], "§ 629a.10(b)(1)"),                 # Player 4 stood
    ([3, 3, 1], [2, 0, 1], "§ 629a.10(b)(2)"),           # Player 6 drew
    ([3, 3], [4, 2, 5], "§ 629a.10(c)(1)"),              # Player stood, Banker 6 drew
    ([1, 2, 4], [5, 0], "(iii)"),                        # § 629a.10(g): Banker 5 vs 4 must draw
    ([1, 2, 5], [3, 4, 1], "(ii)"),                      # Banker 7 drew
    ([1, 2, 5], [1, 1], "(i)"),                          # Banker 2 stood
    ([1], [2, 3], "§ 629a.8(c)"), ([1, 2, 3, 4], [2, 3], "§ 629a.9(c)"),
])
def test_audit_names_the_broken_rule(player: list[int], banker: list[int], fragment: str) -> None:
    problems = audit_round(player, banker)
    assert len(problems) == 1 and fragment in problems[0]


@pytest.mark.parametrize("player,banker", [
    ([1, 2, 4], [5, 0, 3]), ([1, 2, 8], [3, 0]), ([1, 2, 9], [3, 0, 0]), ([4, 4], [2, 0]),
    ([3, 3], [4, 1, 9]), ([3, 3], [4, 2]), ([0, 0, 0], [0, 0, 0]), ([1, 2, 6], [6, 0, 2]),
])
def test_audit_accepts_legal_rounds(player: list[int], banker: list[int]) -> None:
    assert audit_round(player, banker) == []


# -- the statistics against textbook formulas ----------------------------------------------------
def test_chi_square_p_value_and_merging() -> None:
    # df = 2: the upper tail is exp(-x/2) exactly
    cells = [Cell(n, o, p, 100 * p, None) for n, o, p in
             [("a", 30, Fraction(1, 4)), ("b", 45, Fraction(1, 2)), ("c", 25, Fraction(1, 4))]]
    x = Fraction(5 ** 2, 25) + Fraction(5 ** 2, 50) + 0
    cs = chi_square(cells)
    assert cs.df == 2 and math.isclose(cs.statistic, float(x))
    assert math.isclose(cs.p_value, math.exp(-float(x) / 2), rel_tol=1e-12)
    # expected 1, 2, 3, 94: 1+2 = 3 < 5, then 3+3 = 6: two cells remain, df = 1
    small = [Cell(n, o, Fraction(e, 100), Fraction(e), None) for n, o, e in
             [("x", 0, 1), ("y", 4, 2), ("z", 5, 3), ("w", 91, 94)]]
    cs = chi_square(small)
    assert cs.merged == (("x", "y", "z"),) and cs.df == 1 and cs.groups == 2
    assert math.isclose(cs.statistic, float(Fraction(3 ** 2, 6) + Fraction(3 ** 2, 94)))
    impossible = chi_square([Cell("never", 1, Fraction(0), Fraction(0), None)] + cells)
    assert impossible.impossible == ("never",) and impossible.p_value == 0


def test_return_test_is_exact_and_standard() -> None:
    observed = {"win": 55, "lose": 45}
    nets = {"win": Fraction(1), "lose": Fraction(-1)}
    rt = return_test(observed, nets, Fraction(0), Fraction(1), 0.05)
    assert rt.observed == Fraction(1, 10)
    assert math.isclose(rt.z, 1.0)
    assert math.isclose(rt.p_value, math.erfc(1 / math.sqrt(2)))
    half = 1.959963984540054 * math.sqrt((1 - 0.01) * 100 / 99 / 100)
    assert math.isclose(rt.ci_low, 0.1 - half) and math.isclose(rt.ci_high, 0.1 + half)


def test_expected_counts_are_exact_fractions() -> None:
    f = goodness_of_fit("tie", "8to1", {"Tie": 10, "No tie": 90}, EIGHT)
    for c in f.cells:
        assert isinstance(c.expected, Fraction) and c.expected == 100 * c.probability


# -- malformed input ------------------------------------------------------------------------------
@pytest.mark.parametrize("text,fragment", [
    ("round,player,banker\n1,KS 9H,4D 2C\n2,KS ZH,4D 2C\n", "line 3"),
    ("round,player,banker\n1,KS 9H,4D 2C\n\n# comment\n2,KS 9H\n", "line 5"),
    ("round,player,banker\n1,KS 9H,4D 2C\n1,KS 9H,4D 2C\n", "line 3: round 1 already appears on line 2"),
    ("round,player,banker\nx,KS 9H,4D 2C\n", "line 2: round number"),
    ("round,player,banker\n1,,4D 2C\n", "line 2: the player hand is empty"),
    ("round,card\n1,KS\n", "line 1: unrecognised header"),
    ("", "empty"),
    ("wager,paytable,outcome,count\nbanker,5pct,Banker wins,10\nbanker,5pct,Dragon,3\n", "line 3"),
    ("wager,paytable,outcome,count\nbankr,5pct,Banker wins,10\n", "line 2: unknown wager"),
    ("wager,paytable,outcome,count\nbanker,5pct,Tie,-1\n", "line 2: count must be at least 0"),
    ("wager,paytable,outcome,count\nbanker,7pct,Tie,1\n", "line 2: paytable"),
])
def test_malformed_files_name_the_line(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(InputError, match=fragment):
        read_all(path)
    out = tmp_path / "report.json"
    code, stdout, stderr = run("crosscheck", str(path), "-o", str(out))
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and stderr.startswith("exactodds: error:") and fragment.split(":")[0] in stderr
    assert not out.exists()


def test_missing_file_and_bad_options(tmp_path: Path) -> None:
    code, _, err = run("crosscheck", str(tmp_path / "nope.csv"))
    assert code == 2 and "no such file" in err
    path = write_log(tmp_path, "ok.csv", 200, seed=1)
    code, _, err = run("crosscheck", str(path), "--alpha", "2")
    assert code == 2 and "--alpha" in err


def test_simulate_command_writes_files_atomically(tmp_path: Path) -> None:
    log, counts = tmp_path / "log.csv", tmp_path / "counts.csv"
    code, out, _ = run("simulate", "-n", "20000", "--seed", "4", "--log", str(log), "--counts", str(counts),
                       "-w", "banker", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["rounds"] == 20000 and {w["paytable"] for w in doc["wagers"]} >= {"5pct", "ez"}
    assert sum(doc["wagers"][0]["counts"].values()) == 20000
    assert list(read_all_rounds(log))[-1].round == 20000
    assert run("crosscheck", str(log))[0] == 0 and run("crosscheck", str(counts))[0] == 0
    code, _, err = run("simulate", "-n", "10", "--cover", "5", "--mode", "shoe", "--log", str(tmp_path / "x.csv"))
    assert code == 2 and "629a.5" in err and not (tmp_path / "x.csv").exists()
