"""``exactodds shufflecheck`` (issue 28 item 4): a shuffler's output tested against a uniform shuffle.

Every statistic's exact expectation is checked against enumeration of every order of a
tiny shoe (every arrangement of a multiset with copies, and every permutation of distinct
cards for the Eulerian law of rising sequences); the file format's errors are one line and
exit 2 (hypothesis on malformed lines); a few hundred riffled orders are flagged and
correct orders pass. Power on 8-deck shoes is measured by ``scripts/power.py
--shufflecheck``, not here.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.game.cards import FACES, Card, Shoe
from exactodds.report.simulation import TIDY_CSV
from exactodds.simulation.shufflecheck import (
    OrderTally,
    StreamTally,
    arrangements,
    check_shuffles,
    gap_law,
    pair_moment_sums,
    pair_moments,
    precede,
)
from exactodds.simulation.shufflers import write_orders, write_stream

A, B, C = (FACES.index(Card(r, "S")) for r in ("A", "2", "3"))
PAIRS = Shoe.from_counts({Card("A", "S"): 2, Card("2", "S"): 2, Card("3", "S"): 2})
"""Six cards, two copies of each of three faces: 90 distinct orders."""


def all_orders(shoe: Shoe) -> list[tuple[int, ...]]:
    cards = [i for i, n in enumerate(shoe.counts) for _ in range(n)]
    return sorted(set(itertools.permutations(cards)))


def feed_each(shoe: Shoe, inp: tuple[int, ...], outs: list[tuple[int, ...]]) -> OrderTally:
    tally = OrderTally(shoe)
    o = np.array(outs, dtype=np.uint8)
    i = np.broadcast_to(np.array(inp, dtype=np.uint8), o.shape)
    tally.feed(o, i, np.ones(len(outs), dtype=bool), list(range(1, len(outs) + 1)))
    return tally


def test_precede_by_enumeration() -> None:
    for a, b in ((1, 1), (2, 2), (2, 3), (3, 1)):
        orders = set(itertools.permutations("f" * a + "g" * b))
        for k in range(1, a + 1):
            for j in range(1, b + 1):
                hits = sum(1 for o in orders
                           if [x for x, c in enumerate(o) if c == "g"][j - 1] < [x for x, c in enumerate(o) if c == "f"][k - 1])
                assert precede(a, b, k, j) == Fraction(hits, len(orders))


def test_gap_law_by_enumeration() -> None:
    for n, c in ((6, 2), (7, 3), (5, 5)):
        counts: Counter[int] = Counter()
        for spots in itertools.combinations(range(n), c):
            counts.update(b - a for a, b in zip(spots, spots[1:]))
        total = sum(counts.values())
        assert gap_law(n, c) == {d: Fraction(counts[d], total) for d in gap_law(n, c)}
        assert sum(gap_law(n, c).values()) == 1


def test_arrangements() -> None:
    assert arrangements(PAIRS) == len(all_orders(PAIRS)) == 90
    assert arrangements(Shoe.standard(1)) == math.factorial(52)


@pytest.mark.parametrize("inp", [(A, A, B, B, C, C), (A, B, C, A, B, C), (C, A, A, B, C, B)])
def test_expectations_by_enumeration(inp: tuple[int, ...]) -> None:
    """Over every one of the 90 orders (a uniform shuffle exactly), each statistic's total is
    its exact expectation times 90; the correlation has mean 0 and its exact variance."""
    outs = all_orders(PAIRS)
    t = feed_each(PAIRS, inp, outs)
    for s in (t.successor, t.carry, t.rising, t.rises, t.same, t.gaps):
        assert s.count == 90
        assert Fraction(s.observed) == Fraction(s.expected, s.scale), s.name
    assert t.corr_t == 0
    assert Fraction(t.corr_sq) == t.corr_var  # Σ over all orders of T'² = 90 · Var(T') exactly
    n = PAIRS.size
    mean = Fraction(t.successor.expected, n * 90)  # the same for every order (one input)
    # Σ over all orders of (S - E)² is the sum of the 90 orders' exact variances
    assert Fraction(t.successor.sum_sq, n * n) == Fraction(t.successor_var, n ** 3 * (n - 1) * (n - 2) * (n - 3)) > 0
    assert mean == Fraction(t.successor.observed, 90)


def test_pair_moments_written_out_match_the_partition_expansion() -> None:
    """The successor variance's closed form equals the general set-partition expansion (a
    second method), on random pair-count matrices and copy counts."""
    rng = np.random.default_rng(7)
    w = rng.integers(0, 4, size=(6, 52, 52)).astype(np.int64)
    c = rng.integers(0, 9, size=52).astype(np.int64)
    for k, fast in zip((2, 3, 4), pair_moments(w, c)):
        assert (fast == pair_moment_sums(w, c, k)).all()


def test_rising_sequences_are_eulerian_for_distinct_cards() -> None:
    """Five distinct cards, all 120 orders: the rising sequences follow the Eulerian numbers
    1, 26, 66, 26, 1, and the exact expectation the tally uses is their mean, 3."""
    shoe = Shoe.from_counts({FACES[i]: 1 for i in range(5)})
    inp = (3, 0, 4, 1, 2)
    dist: Counter[int] = Counter()
    t = OrderTally(shoe)
    for out in itertools.permutations(range(5)):
        before = t.rising.observed
        t.feed(np.array([out], dtype=np.uint8), np.array([inp], dtype=np.uint8), np.ones(1, dtype=bool), [1])
        dist[t.rising.observed - before] += 1
    assert [dist[r] for r in range(1, 6)] == [1, 26, 66, 26, 1]
    assert Fraction(t.successor.sum_sq, 25) == Fraction(t.successor_var, 5 ** 3 * 4 * 3 * 2) > 0  # exact variance
    assert Fraction(t.rising.expected, t.rising.scale) == 120 * 3


def test_position_chi_square_has_mean_df() -> None:
    """(N-1)/N times Pearson's statistic of one order's rank-by-band table averages exactly its
    degrees of freedom over every order (the law the pooled test's chi-square rests on)."""
    stats = []
    for out in all_orders(PAIRS):
        t = OrderTally(PAIRS)
        t.feed(np.array([out], dtype=np.uint8), np.zeros((1, 6), dtype=np.uint8), np.zeros(1, dtype=bool), [1])
        fam = t.tests()[0]
        stats.append(fam.chi_square.statistic)
        df = fam.chi_square.df
    assert df == (3 - 1) * (6 - 1)
    assert sum(stats) / len(stats) == pytest.approx(df, rel=1e-12)


# -- the command ------------------------------------------------------------------------------------
def run(*args: str) -> tuple[int, str, str]:
    """``exactodds shufflecheck ARGS`` in-process, with the app's one-line error handling."""
    import typer
    from typer.testing import CliRunner

    from exactodds.cli.app import _OneLineErrors
    from exactodds.cli.shufflecheck import register

    app = typer.Typer(cls=_OneLineErrors, add_completion=False, pretty_exceptions_enable=False)
    app.callback()(lambda: None)  # a group, as the real app: the command is named
    register(app)
    res = CliRunner().invoke(app, ["shufflecheck", *args])
    return res.exit_code, res.stdout, res.stderr


def orders_file(path: Path, orders: int, shuffler: str, seed: int, decks: int = 8) -> Path:
    with open(path, "w") as fh:
        write_orders(fh, orders, shuffler, seed, Shoe.standard(decks))
    return path


@pytest.mark.parametrize("shuffler", ["riffle3", "riffle1strip", "onepass"])
def test_a_few_hundred_defective_orders_are_flagged(tmp_path: Path, shuffler: str) -> None:
    path = orders_file(tmp_path / "o.txt", 200, shuffler, 1)
    code, out, err = run(str(path))
    assert code == 1 and err == ""
    assert "Verdict: INCONSISTENT with a uniform shuffle" in out


def test_naive_swap_of_factory_order_is_flagged(tmp_path: Path) -> None:
    r = check_shuffles(str(orders_file(tmp_path / "o.txt", 1000, "naive", 2)))
    assert r.verdict == "inconsistent"
    assert any(f.startswith("position correlation") for f in r.failures())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_correct_orders_pass(tmp_path: Path, seed: int) -> None:
    path = orders_file(tmp_path / "o.txt", 200, "uniform", seed)
    code, out, err = run(str(path))
    assert (code, err) == (0, ""), out
    assert "Verdict: consistent with a uniform shuffle" in out


def test_formats(tmp_path: Path) -> None:
    path = orders_file(tmp_path / "o.txt", 60, "riffle3", 4, decks=1)
    code, out, _ = run(str(path), "-f", "json")
    doc = json.loads(out)
    assert code == 1 and doc["verdict"] == "inconsistent" and doc["orders"] == 60 and doc["shoe"]["decks"] == 1
    assert doc["orders_with_input"] == 60  # the first line gives its input ('INPUT | OUTPUT')
    held = [f["chi_square"]["holm_p_value"] for f in doc["families"] if f["chi_square"]["conclusive"]]
    assert len(held) == doc["tests"] and min(held) < doc["alpha"]
    code, out, _ = run(str(path), "-f", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 1 and rows[0] == list(TIDY_CSV)
    assert ["verdict", "", "", "", "", "inconsistent", ""] in rows
    code, out, _ = run(str(path))
    table = [line for line in out.splitlines() if "  " in line.strip()]  # rows have column gaps
    assert code == 1 and table and max(len(line) for line in table) <= 100
    assert "Holm p" in out and "FAIL" in out
    code, out, _ = run(str(path), "-f", "markdown")
    assert code == 1 and "| Test" in out and "Verdict: INCONSISTENT" in out
    target = tmp_path / "report.json"
    code, out, _ = run(str(path), "-f", "json", "-o", str(target))
    assert code == 1 and out == "" and json.loads(target.read_text())["verdict"] == "inconsistent"


def test_input_orders(tmp_path: Path) -> None:
    """Inputs given on each line, from factory order, or unknown (no input-relative test)."""
    shoe = Shoe.standard(1)
    rng = np.random.default_rng(5)
    text = []
    for _ in range(40):
        inp = rng.permutation(52)
        out = inp.copy()  # a 'shuffler' that returns its input unchanged
        text.append(" ".join(str(FACES[i]) for i in inp) + " | " + " ".join(str(FACES[i]) for i in out))
    path = tmp_path / "given.txt"
    path.write_text("\n".join(text) + "\n")
    r = check_shuffles(str(path))
    assert r.with_input == 40 and r.verdict == "inconsistent"
    names = {f.paytable.split(":")[0] for f in r.families}
    path = orders_file(tmp_path / "o.txt", 40, "uniform", 3, decks=1)
    lines = path.read_text().splitlines()
    lines[1] = lines[1].split("|")[1]  # the generator gives the first order's input; drop it
    path.write_text("\n".join(lines) + "\n")
    none = check_shuffles(str(path), input_order="none")
    assert none.with_input == 0 and none.verdict == "consistent"
    assert {f.paytable.split(":")[0] for f in none.families} == names - {
        "successor pairs retained", "carry-over", "rising sequences", "position correlation"}
    factory = check_shuffles(str(path), input_order="factory")
    assert factory.with_input == 40 and factory.verdict == "consistent"
    assert arrangements(shoe) > 10**60


def test_too_little_output_is_inconclusive(tmp_path: Path) -> None:
    path = orders_file(tmp_path / "o.txt", 1, "uniform", 0)
    code, out, _ = run(str(path))
    assert code == 0 and "Verdict: inconclusive" in out


def test_repeated_order_fails(tmp_path: Path) -> None:
    path = orders_file(tmp_path / "o.txt", 40, "uniform", 0, decks=1)
    lines = path.read_text().splitlines()
    lines.append(lines[5])
    path.write_text("\n".join(lines) + "\n")
    r = check_shuffles(str(path))
    assert r.verdict == "inconsistent" and any(f.startswith("repeated orders") for f in r.failures())
    assert any("the first, line 42, repeats line 6" in n for n in r.notes)


GOOD = " ".join(str(f) for f in FACES)
MUTATIONS = {
    "unknown card": (lambda line: line.replace("KS", "ZS", 1), "unknown card"),
    "no suit": (lambda line: line.replace("KS", "K", 1), "has no suit"),
    "card missing": (lambda line: line.rsplit(" ", 1)[0], "has 51 cards"),
    "card twice": (lambda line: line.replace("KS", "QS", 1), "holds 2 QS"),
    "two bars": (lambda line: f"{line} | {line} | {line}", "more than one '|'"),
    "short input": (lambda line: f"AS 2S | {line}", "input order has 2 cards"),
    "NUL byte": (lambda line: line + "\0", "NUL byte"),
}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 5), st.sampled_from(sorted(MUTATIONS)), st.integers(0, 3))
def test_malformed_lines_are_one_error_line(tmp_path: Path, at: int, mutation: str, comments: int) -> None:
    """A malformed order line anywhere: exit 2, one 'exactodds: error:' line naming the file and
    the line, nothing on stdout."""
    change, words = MUTATIONS[mutation]
    lines = ["# decks=1"] + ["# a comment"] * comments + [GOOD] * 6
    lines[1 + comments + at] = change(GOOD)
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("exactodds: error: ")
    assert f"line {2 + comments + at}" in err and words in err, err


@pytest.mark.parametrize(("text", "args", "words"), [
    ("# nothing\n", [], "no shuffled order"),
    (" ".join(str(f) for f in FACES[:50]) + "\n", [], "not a whole number of 52-card decks"),
    (GOOD + "\n", ["--decks", "2"], "the shoe has 104"),
    (GOOD + "\n", ["--decks", "17"], "shoes of 1 to 16 decks, got 17"),
    (GOOD + "\n", ["--decks", "0"], "shoes of 1 to 16 decks, got 0"),
    ("# input=sideways\n" + GOOD + "\n", [], "input='sideways' is not one of"),
    (GOOD + "\n", ["--alpha", "2"], "--alpha must be between 0 and 1"),
    ("# mode=continuous decks=1\nAS AS\n", [], "line 2: AS delivered but every copy is out of the machine"),
    ("# mode=continuous decks=1\nAS\n> 2S\n", [], "line 3: 2S reinserted but no copy of it is out"),
    ("# mode=continuous\n", [], "no delivered card"),
])
def test_bad_files(tmp_path: Path, text: str, args: list[str], words: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    target = tmp_path / "report.txt"
    code, out, err = run(str(path), "-o", str(target), *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err
    assert not target.exists()


# -- continuous shufflers ----------------------------------------------------------------------------
def stream_file(path: Path, blocks: bool, seed: int) -> Path:
    with open(path, "w") as fh:
        write_stream(fh, 400, seed, blocks=blocks)
    return path


def test_continuous_correct_stream_passes_and_block_reinsertion_fails(tmp_path: Path) -> None:
    code, out, _ = run(str(stream_file(tmp_path / "s.txt", False, 1)))
    assert code == 0 and "Verdict: consistent" in out and "2,000 delivered cards" in out
    code, out, _ = run(str(stream_file(tmp_path / "s.txt", True, 1)))
    assert code == 1 and "successor retained" in out.split("Verdict")[1]


def test_continuous_exact_laws_by_enumeration() -> None:
    """A 3-card machine (AS 2S 2S) read completely, every ordering equally likely: each pair
    test's exact conditional mean totals the hits over all orderings; the rank test's too."""
    shoe = Shoe.from_counts({Card("A", "S"): 1, Card("2", "S"): 2})
    hits = Fraction(0)
    mean = Fraction(0)
    for order in set(itertools.permutations([A, B, B])):
        t = StreamTally(shoe)
        for f in order:
            t.deliver(f, "x")
        fam = t.tests()[1]  # same face again
        hits += fam.cells[0].observed
        mean += fam.cells[0].expected
        rank = t.tests()[0]
        assert sum(c.expected for c in rank.cells) == 3
    assert hits == mean


def test_continuous_repeated_window_fails(tmp_path: Path) -> None:
    """A machine that delivers the same 24 cards in the same order after they go back: one
    repeated window, whose union bound (1/29)^24 fails at once."""
    cards = " ".join(str(f) for f in FACES[:24])
    path = tmp_path / "s.txt"
    path.write_text(f"# mode=continuous decks=1\n{cards}\n>\n{cards}\n")
    code, out, _ = run(str(path), "-f", "json")
    doc = json.loads(out)
    fam = next(f for f in doc["families"] if f["paytable"].startswith("repeated sequences"))
    assert code == 1 and fam["outcomes"][0]["observed"] == 1
    assert fam["chi_square"]["p_value"] == pytest.approx(float(Fraction(1, 29) ** 24))


def test_continuous_rank_bias_fails_rank_uniformity() -> None:
    """A machine that, one time in four, delivers its lowest-ranked card: the rank test flags it."""
    shoe = Shoe.standard(8)
    rng = np.random.default_rng(3)
    t = StreamTally(shoe)
    machine = [f for f in range(52) for _ in range(8)]
    for i in range(3000):
        j = min(range(len(machine)), key=lambda x: machine[x] // 4) if rng.random() < 0.25 else \
            int(rng.integers(0, len(machine)))
        t.deliver(machine.pop(j), "x")
        if i % 20 == 19:
            machine += t.since
            t.reinsert(None, "x")
    rank = t.tests()[0]
    assert rank.chi_square.conclusive and rank.chi_square.p_value < 1e-6
