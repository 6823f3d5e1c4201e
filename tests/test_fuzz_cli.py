"""Fuzzing every command's options with bad values (issue 9).

The contract for bad input, whatever it is -- huge, negative, NaN or infinite numbers,
empty text, Unicode, overlong strings, unknown ids, malformed ``--remove``/``--meter``/
``--shoe`` values and files, unreadable reports and logs -- is: exit status 2, exactly one
line on stderr starting ``exactodds: error: ``, nothing on stdout, and no file created in
the working folder.

Every command runs in-process (typer's CliRunner, stderr apart) in an empty working
folder. A value counts as bad only if the library rejects it (``assume``), so a value
that happens to be valid is skipped, never run. Examples are few and derandomized (the
whole file takes well under 30 s); the nastiest values are always tried first
(``NASTY``). Cases that fail in commands owned by other engineers are listed in
``KNOWN`` as strict xfails naming the defect. Endless inputs (``/dev/zero``) run in a
subprocess with limited memory, so a defect there fails the test instead of the machine.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.catalogue import CATALOGUE, get_wager
from exactodds.cli.app import app, parse_meters
from exactodds.errors import InputError
from exactodds.figures.commission import (
    RULES,
    commission_rate,
    parse_amounts,
    parse_increment,
    parse_money,
)
from exactodds.figures.settlement import meter_amounts
from exactodds.game.shoespec import resolve_shoe
from exactodds.inputs import parse_number
from exactodds.parallel import max_workers

runner = CliRunner()
FUZZ = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

NASTY = ["", " ", "\t", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "-1", "-0.5", "1e999", "1e100000000",
         "1e-100000000", "9" * 5000, "-" + "9" * 5000, "1/0", "0x1F", "1_000_000_000_000", "١٢٣", "８", "💥", "ß",
         "\u202e", "x" * 100_000, "é=3", "K=-1", "KS=1e9", "9*9*9", "a\nb", "=", ",,,", "{", "[]", "null"]
"""Bad values every option is offered first (each skipped where it happens to be valid)."""


def values() -> st.SearchStrategy[str]:
    """Nasty fixed values, then anything: Unicode text, number-like text, long runs."""
    numberish = st.from_regex(r"\A[-+]?[0-9]{0,12}([./][0-9]{0,8})?([eE][-+]?[0-9]{1,12})?\Z")
    return st.one_of(st.sampled_from(NASTY), st.text(max_size=40), numberish,
                     st.builds(lambda c, n: c * n, st.sampled_from("9-x/é"), st.integers(200, 20_000)))


def rejects(check: Callable[[], Any]) -> bool:
    """Whether the library refuses the value (an InputError or a bad-value error)."""
    try:
        check()
    except (InputError, ValueError, ZeroDivisionError, OverflowError):
        return True
    return False


def int_in(lo: int, hi: int) -> Callable[[str], bool]:
    """Valid for a typer int option: Python's int() reads it and it is in range."""
    def valid(v: str) -> bool:
        try:
            return lo <= int(v) <= hi
        except ValueError:
            return False
    return valid


def number_in(lo: Fraction, hi: Fraction | None) -> Callable[[str], bool]:
    def valid(v: str) -> bool:
        return not rejects(lambda: _in(parse_number(v, "x"), lo, hi))
    return valid


def _in(x: Fraction, lo: Fraction, hi: Fraction | None) -> None:
    if x < lo or (hi is not None and x > hi):
        raise InputError("out of range")


def _commission_wager(v: str) -> None:
    w = get_wager(v)
    commission_rate(w.default_paytable)


def _royal_meter(v: str) -> None:
    meter_amounts(CATALOGUE["royal-9"].default_paytable, parse_meters([v]))


VALID: dict[str, Callable[[str], bool]] = {
    "decks": int_in(1, 1000),
    "shoe": lambda v: not rejects(lambda: resolve_shoe(8, v, None)),
    "remove": lambda v: not rejects(lambda: resolve_shoe(8, None, v)),
    "wager": lambda v: v in CATALOGUE,
    "banker-paytable": lambda v: v in {p.id for p in CATALOGUE["banker"].paytables},
    "tie-paytable": lambda v: v in {p.id for p in CATALOGUE["tie"].paytables},
    "format": lambda v: v in ("table", "json", "csv", "markdown"),
    "input-order": lambda v: v in ("previous", "factory", "none"),
    "report-format": lambda v: v in ("json", "csv", "markdown", "table", "html"),
    "meter": lambda v: not rejects(lambda: _royal_meter(v)),
    "money": lambda v: not rejects(lambda: parse_money(v, "x")),
    "rounding": lambda v: not rejects(lambda: parse_increment(v, Fraction(1, 20))),
    "rule": lambda v: v in RULES,
    "amounts": lambda v: not rejects(lambda: parse_amounts(v)),
    "commission-wager": lambda v: not rejects(lambda: _commission_wager(v)),
    "fraction": number_in(Fraction(0), Fraction(1)),
    "stake": lambda v: number_in(Fraction(0), None)(v) and parse_number(v, "x") > 0,
    "ride-main": lambda v: v in ("banker", "player"),
    "rounds": int_in(1, 10**12),
    "seed": int_in(-(2**63), 2**63),
    "cover": int_in(14, 10**6),
    "workers": int_in(1, max_workers()),
    "mode": lambda v: v in ("fresh", "shoe"),
    "wager-spec": lambda v: v in CATALOGUE or (v.partition(":")[0] in CATALOGUE and v.partition(":")[2] in
                                               {p.id for p in CATALOGUE[v.partition(":")[0]].paytables}),
    "alpha": lambda v: not rejects(lambda: _alpha(v)),
    "show": int_in(0, 10**9),
    "crosscheck-decks": int_in(1, 1000),
    "seen": lambda v: not rejects(lambda: _seen(v)),
    "edge": lambda v: not rejects(lambda: _edge(v)),
    "mystery-minimum": lambda v: not rejects(lambda: _mystery(v, "500", "2%")),
    "mystery-rate": lambda v: not rejects(lambda: _mystery("100", "500", v)),
}


def _alpha(v: str) -> None:
    a = float(v)
    if not 0 < a < 1:
        raise ValueError(v)


# (command, fixed valid arguments, option, kind of value); option None: the value is positional
CASES: list[tuple[str, list[str], str | None, str]] = [
    ("list", [], "--format", "format"),
    ("analyze", ["banker"], "--decks", "decks"),
    ("analyze", ["banker"], "--shoe", "shoe"),
    ("analyze", ["banker"], "--remove", "remove"),
    ("analyze", ["banker"], "--paytable", "banker-paytable"),
    ("analyze", ["banker"], "--format", "format"),
    ("analyze", ["royal-9"], "--meter", "meter"),
    ("analyze", [], None, "wager"),
    ("eor", ["dragon-7"], "--decks", "decks"),
    ("eor", ["dragon-7"], "--shoe", "shoe"),
    ("eor", ["dragon-7"], "--remove", "remove"),
    ("eor", ["dragon-7"], "--format", "format"),
    ("eor", [], None, "wager"),
    ("commission", [], "--wager-amount", "money"),
    ("commission", [], "--commission-rounding", "rounding"),
    ("commission", [], "--rule", "rule"),
    ("commission", [], "--amounts", "amounts"),
    ("commission", [], "--paytable", "banker-paytable"),
    ("commission", [], "--shoe", "shoe"),
    ("commission", [], None, "commission-wager"),
    ("ride", [], "--fraction", "fraction"),
    ("ride", [], "--main-stake", "stake"),
    ("ride", [], "--decks", "decks"),
    ("ride", [], "--remove", "remove"),
    ("ride", [], None, "ride-main"),
    ("certify", ["tie", "--no-eor"], "--paytable", "tie-paytable"),
    ("certify", ["tie", "--no-eor"], "--decks", "decks"),
    ("certify", ["tie", "--no-eor"], "--shoe", "shoe"),
    ("certify", ["tie", "--no-eor"], "--format", "report-format"),
    ("certify", ["--no-eor"], None, "wager"),
    ("mystery", [], "--format", "format"),
    ("mystery", ["--maximum=500", "--rate=2%"], "--minimum", "mystery-minimum"),
    ("mystery", ["--minimum=100", "--maximum=500"], "--rate", "mystery-rate"),
    ("design", ["dragon-7", "--solve=Dragon 7"], "--target-edge", "edge"),
    ("design", ["dragon-7"], "--solve", "wager"),
    ("analyze", ["banker"], "--seen", "seen"),
    ("midhand", [], "--decks", "decks"),
    ("tables", [], "--decks", "decks"),
    ("simulate", ["--rounds=1000"], "--decks", "decks"),
    ("simulate", ["--rounds=1000"], "--cover", "cover"),
    ("simulate", ["--rounds=1000"], "--wager", "wager-spec"),
    ("simulate", ["--rounds=1000", "-w", "banker"], "--paytable", "banker-paytable"),
    ("simulate", ["--rounds=1000"], "--workers", "workers"),
    ("simulate", ["--rounds=1000"], "--mode", "mode"),
    ("simulate", ["--rounds=1000"], "--format", "format"),
    ("simulate", [], "--rounds", "rounds"),
    ("simulate", ["--rounds=1000"], "--seed", "seed"),
    ("crosscheck", ["LOG"], "--decks", "crosscheck-decks"),
    ("crosscheck", ["LOG"], "--cover", "cover"),
    ("crosscheck", ["LOG"], "--alpha", "alpha"),
    ("crosscheck", ["LOG"], "--wager", "wager"),
    ("crosscheck", ["LOG"], "--show", "show"),
    ("shufflecheck", ["LOG"], "--alpha", "alpha"),
    ("shufflecheck", ["LOG"], "--input", "input-order"),
    ("crosscheck", ["LOG"], "--format", "format"),
]

BAD_FILES: dict[str, bytes] = {
    "empty.json": b"",
    "not-json.json": b"not json at all",
    "binary.json": bytes(range(256)) * 8,
    "nan.json": b'{"report": "exactodds certification report", "schema": NaN}',
    "bigint.json": b'{"report": "exactodds certification report", "schema": ' + b"9" * 5000 + b"}",
    "deep.json": b"[" * 200_000,
    "array.json": b"[1, 2, 3]",
    "other.json": b'{"report": "something else"}',
    "markdown.md": b"# Certification report -- exactodds 0.2.0\n",
    "log.csv": b"round,player,banker\n1,KS 9H,ZZ 4D\n",
    "counts.csv": b"wager,paytable,outcome,count\nbanker,5pct,Banker wins,-" + b"9" * 5000 + b"\n",
    "shoe-big.json": b'{"decks": ' + b"1" * 5000 + b"}",
    "shoe-dup.json": b'{"decks": 6, "decks": 8}',
    "shoe-bad.csv": b"card,count\nKS,1e9\n",
}
FILE_CASES: list[tuple[str, list[str], str | None]] = [
    ("verify", [], None), ("crosscheck", [], None), ("analyze", ["banker"], "--shoe"), ("eor", ["tie"], "--shoe"),
    ("shufflecheck", [], None)]
"""(command, fixed arguments, option taking the file; None: the file is positional)."""

KNOWN: dict[tuple[str, str], str] = {}
"""(command, option or value) -> defect, for failures in commands owned by other engineers
(strict xfails: when the defect is fixed the xfail fails, and the entry goes)."""


def _seen(v: str) -> None:
    from exactodds.engine.levels import COUP
    from exactodds.figures.midhand import conditioned_counts, parse_seen
    from exactodds.game.cards import Shoe

    conditioned_counts(COUP, Shoe.standard(8), parse_seen([v]))


def _edge(v: str) -> None:
    from exactodds.figures.design import parse_edge

    parse_edge(v)


def _mystery(lo: str, hi: str, rate: str) -> None:
    from exactodds.figures.progressive import mystery_config

    r = rate.strip()
    rate_v = parse_number(r[:-1], "x") / 100 if r.endswith("%") else parse_number(r, "x")
    mystery_config(parse_number(lo, "x", money=True), parse_number(hi, "x", money=True), rate_v)


def known(*params: Any, key: tuple[str, str]) -> Any:
    """``params`` as a pytest parameter, a strict xfail if ``key`` is a known defect."""
    if key in KNOWN:
        return pytest.param(*params, marks=pytest.mark.xfail(strict=True, reason=KNOWN[key]))
    return pytest.param(*params)


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Input files (bad ones, and one valid hand log) in their own folder."""
    folder = tmp_path_factory.mktemp("fuzz-inputs")
    for name, data in BAD_FILES.items():
        (folder / name).write_bytes(data)
    (folder / "a-file").write_text("x")
    r = runner.invoke(app, ["simulate", "--rounds", "200", "--log", str(folder / "hands.csv")])
    assert r.exit_code == 0, r.stderr
    return folder


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An empty working folder for every run; nothing may be left in it."""
    folder = tmp_path_factory.mktemp("fuzz-cwd")
    old = os.getcwd()
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(old)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29))  # 1.5 GiB


def check_contract(args: list[str], workdir: Path, subprocess_: bool = False) -> None:
    before = sorted(workdir.rglob("*"))
    shown = [a if len(a) < 80 else a[:40] + f"...({len(a)})" for a in args]
    if subprocess_:
        p = subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True, timeout=120,
                           cwd=workdir, check=False, preexec_fn=_limit_memory)
        code, stdout, stderr = p.returncode, p.stdout, p.stderr
    else:
        r = runner.invoke(app, args, prog_name="exactodds")
        assert r.exception is None or isinstance(r.exception, SystemExit), (shown, repr(r.exception))
        code, stdout, stderr = r.exit_code, r.stdout, r.stderr
    after = sorted(workdir.rglob("*"))
    assert code == 2, (shown, code, stdout[-300:], stderr[-300:])
    assert stdout == "", (shown, stdout[-300:])
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("exactodds: error: "), (shown, stderr[-500:])
    assert len(lines[0]) < 1000, (shown, lines[0][:200])
    assert after == before, (shown, after)


def _args(command: str, fixed: list[str], option: str | None, value: str, fixtures: Path) -> list[str]:
    fixed = [str(fixtures / "hands.csv") if a == "LOG" else a for a in fixed]
    return [command, *fixed, f"{option}={value}"] if option else [command, *fixed, "--", value]


@pytest.mark.parametrize("command,fixed,option,kind", [known(*c, key=(c[0], c[2] or c[3])) for c in CASES],
                         ids=[f"{c[0]}-{c[2] or c[3]}" for c in CASES])
@FUZZ
@given(value=values())
def test_bad_option_values(command: str, fixed: list[str], option: str | None, kind: str, value: str,
                           fixtures: Path, workdir: Path) -> None:
    assume(not VALID[kind](value))
    check_contract(_args(command, fixed, option, value, fixtures), workdir)


BAD_OUTPUTS = ["", ".", "..", "/", "no/such/folder/out.txt", "a-file/out.txt", "x" * 300, "bad\x00name",
               "fuzz-subdir"]


OUTPUT_COMMANDS = [("list", []), ("mystery", []), ("analyze", ["banker"]), ("certify", ["tie", "--no-eor", "-d", "6"])]


@pytest.mark.parametrize("command,fixed,output", [known(c, f, o, key=(c, f"--output={o}")) for c, f in OUTPUT_COMMANDS
                                                  for o in BAD_OUTPUTS])
def test_bad_outputs(command: str, fixed: list[str], output: str, fixtures: Path, workdir: Path) -> None:
    (workdir / "fuzz-subdir").mkdir(exist_ok=True)
    target = str(fixtures / output) if output.startswith("a-file") else output
    check_contract([command, *fixed, f"--output={target}"], workdir)


FILE_NAMES = [*BAD_FILES, "missing.json", "", "/", "a-file/x", "x" * 5000, "nul\x00.json", "/dev/zero"]


@pytest.mark.parametrize("command,fixed,option,name", [known(c, f, o, n, key=(c, n)) for c, f, o in FILE_CASES
                                                       for n in FILE_NAMES])
def test_bad_files(command: str, fixed: list[str], option: str | None, name: str, fixtures: Path,
                   workdir: Path) -> None:
    path = name if name in ("", "/", "/dev/zero") or len(name) > 1000 else str(fixtures / name)
    args = [command, *fixed, f"{option}={path}"] if option else [command, *fixed, "--", path]
    check_contract(args, workdir, subprocess_=name == "/dev/zero")


@pytest.mark.parametrize("args", [
    ["certify"], ["certify", "tie", "--all"], ["analyze", "--all", "banker"],
    ["analyze", "royal-9", "--meter", "mega=1", "--meter", "mega=2"], ["analyze", "--all", "--meter", "mega=1"],
    ["commission", "--wager-amount", "5", "--amounts", "5"], ["analyze", "banker", "-d", "6", "-s", "decks=8"],
    ["eor", "--all", "dragon-7"], ["tables", "--out", "TABLES_FILE"], ["nonsense"], ["--nonsense"],
    ["analyze", "banker", "--shoe", "SHOE_DIR"],
])
def test_bad_combinations(args: list[str], fixtures: Path, workdir: Path) -> None:
    swap = {"TABLES_FILE": str(fixtures / "a-file"), "SHOE_DIR": str(fixtures)}
    check_contract([swap.get(a, a) for a in args], workdir)


COMMA_CASES: list[tuple[str, list[str], str, str]] = [
    ("commission", [], "--wager-amount", "{}"),
    ("commission", [], "--commission-rounding", "{}"),
    ("analyze", ["royal-9"], "--meter", "mega={}"),
    ("analyze", ["banker"], "--decks", "{}"),
    ("design", ["royal-9"], "--meter", "mega={}"),
    ("design", ["dragon-7", "--solve=Dragon 7"], "--target-edge", "{}"),
    ("design", ["dragon-7", "--solve=Dragon 7", "--target-edge=5%"], "--step", "{}"),
    ("design", ["dragon-7"], "--sweep", "Dragon 7={}..50"),
    ("mystery", ["--maximum=500", "--rate=2%"], "--minimum", "{}"),
    ("mystery", ["--minimum=100", "--rate=2%"], "--maximum", "{}"),
    ("mystery", ["--minimum=100", "--maximum=500"], "--rate", "{}"),
    ("mystery", ["--minimum=100", "--maximum=500", "--rate=2%"], "--stake", "{}"),
    ("ride", [], "--fraction", "{}"),
    ("ride", [], "--main-stake", "{}"),
    ("spanish21", [], "--super-bonus-bet", "{}"),
    ("certify", ["--game=spanish21"], "--super-bonus-bet", "{}"),
    ("eor", ["tie"], "--decks", "{}"),
    ("simulate", [], "--rounds", "{}"),
    ("simulate", ["--rounds=1000"], "--seed", "{}"),
    ("simulate", ["--rounds=1000"], "--cover", "{}"),
    ("study", ["dragon-7"], "--shoes", "{}"),
    ("crosscheck", ["LOG"], "--alpha", "{}"),
    ("crosscheck", ["LOG"], "--decks", "{}"),
    ("midhand", [], "--decks", "{}"),
]
"""Every option that takes one number (command, fixed arguments, option, how the number sits in
its value): a comma in it is refused, never read as a thousands separator or decimal point."""

COMMAS = ["7,50", "62,5", "1,00", "1,000", "$1,000.50", "0,5", "5,5%"]


@pytest.mark.parametrize("command,fixed,option,template", COMMA_CASES,
                         ids=[f"{c[0]}-{c[2]}" for c in COMMA_CASES])
@settings(max_examples=8, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate], suppress_health_check=[HealthCheck.too_slow])
@given(number=st.one_of(st.sampled_from(COMMAS),
                        st.from_regex(r"\A\$?[0-9]{1,4}(,[0-9]{1,3})+(\.[0-9]{1,2})?\Z")))
def test_comma_numbers_refused(command: str, fixed: list[str], option: str, template: str, number: str,
                               fixtures: Path, workdir: Path) -> None:
    """Issue 25: ``commission --wager-amount 7,50`` priced $750.00. A number with a comma --
    decimal comma or thousands grouping -- is one error line and exit 2 on every numeric option."""
    check_contract(_args(command, fixed, option, template.format(number), fixtures), workdir)


@pytest.mark.parametrize("text", COMMAS)
def test_parse_number_refuses_commas(text: str) -> None:
    """The one reader of typed numbers names the comma (money or not)."""
    for money in (False, True):
        with pytest.raises(InputError, match="comma"):
            parse_number(text.rstrip("%"), "--x", money=money)
    with pytest.raises(InputError, match="comma"):
        parse_money(text.rstrip("%"), "--wager-amount")
