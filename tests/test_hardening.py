"""Issue 9: certify on progressives, exact (never irrational) progressive figures, bounded
numeric and file input, forged reports, and command-line consistency.

Each test names the defect it guards; each failed on the code before the fix.
"""

from __future__ import annotations

import csv
import io
import json
import re
import resource
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import exactodds
from exactodds.catalogue import CATALOGUE
from exactodds.cli.app import app
from exactodds.errors import InputError
from exactodds.figures.analysis import analysis_json, analyze
from exactodds.figures.progressive import Linear, meter_variable, progressive_figures
from exactodds.game.cards import Shoe
from exactodds.games import certificate as certify_mod
from exactodds.games.certificate import (
    ReportError,
    certify,
    fingerprint,
    parse_report,
    read_report,
    verify_report,
    verify_text,
)
from exactodds.inputs import (
    MAX_DIGITS,
    MAX_EXPONENT,
    load_json,
    parse_number,
    read_capped,
)
from exactodds.report.certify import render_markdown

ROOT = Path(__file__).resolve().parent.parent
PROGRESSIVES = ("royal-9", "harmony", "heavenly-9-progressive")
RATIO = re.compile(r"-?[0-9]+/[0-9]+")
runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), prog_name="exactodds")


def one_error_line(r: Any, needle: str = "") -> str:
    """The contract for bad input: exit 2, one stderr line, nothing on stdout."""
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("exactodds: error: "), r.stderr
    assert needle in lines[0], lines[0]
    return str(lines[0])


# -- 1. certify on progressives ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def progressive_report() -> dict[str, Any]:
    return certify(list(PROGRESSIVES), None, Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=False)


def test_certify_reports_progressives_exactly(progressive_report: dict[str, Any]) -> None:
    """certify royal-9 / harmony / heavenly-9-progressive ended in a Fraction traceback."""
    entries = progressive_report["games"][0]["tables"]
    assert {x["wager"] for x in entries} == set(PROGRESSIVES)
    for x in entries:
        a = x["outcome_table"]
        form = Linear.parse(a["return"])  # the return is the linear form in the meters ...
        assert str(form) == a["return"] == a["return_expression"]
        assert set(form.variables) == {meter_variable(m["name"]) for m in a["meters"]}
        priced = {meter_variable(k): Fraction(v) for k, v in a["priced_at"].items()}
        rows = sum((Fraction(o["return"]) for o in a["outcomes"]), Fraction(0))
        assert form.at(priced) == rows == -Fraction(a["house_edge"])  # ... tied to the outcome rows
        if a["return_at_reset"] is not None:  # ... and the exact return at reset is a p/q
            assert RATIO.fullmatch(a["return_at_reset"]) and Fraction(a["return_at_reset"]) == rows
        assert x["verification"]["all_hold"]
    md = render_markdown(progressive_report)
    assert "Return at reset: -33099949/92244789" in md and "Long-run return" in md


def test_certify_cli_on_a_progressive_in_markdown() -> None:
    r = run("certify", "heavenly-9-progressive", "--no-eor")
    assert r.exit_code == 0, r.stderr
    assert "M_heavenly_9" in r.stdout and "Return at reset" in r.stdout


def test_verify_recomputes_progressive_figures(progressive_report: dict[str, Any]) -> None:
    text = json.dumps(progressive_report)
    assert verify_text(text).holds
    doc = json.loads(text)
    a = doc["games"][0]["tables"][0]["outcome_table"]
    form = Linear.parse(a["return"])
    a["return"] = a["return_expression"] = str(form + Fraction(1, 10**9))  # a forged constant
    doc["fingerprint"]["value"] = fingerprint(doc)
    v = verify_report(doc)
    assert not v.holds and v.fingerprint_ok and any("return" in p for p in v.problems)


# -- 2. no irrational "exact" value ------------------------------------------------------------------

FIGURE_KEYS = {"pays", "probability", "return", "house_edge", "hit_frequency", "variance", "element_of_risk",
               "return_expression", "return_at_reset", "stake", "reset", "increment", "reserve", "hit_probability",
               "long_run_return"}


def _figures(doc: Any, key: str = "") -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k.endswith("_decimal"):  # display twins of exact members (checked in test_views)
                continue
            if k in ("priced_at", "break_even"):
                out += [(f"{k}/{n}", x) for n, x in v.items() if x is not None and not n.endswith("_decimal")]
            else:
                out += _figures(v, k)
    elif isinstance(doc, list):
        for v in doc:
            out += _figures(v, key)
    elif key in FIGURE_KEYS and doc is not None:
        out.append((key, doc))
    return out


def _exact_figure(key: str, value: Any) -> None:
    """A ``p/q`` in lowest terms, or a linear form with p/q coefficients that reads back."""
    assert isinstance(value, str), (key, value)
    if RATIO.fullmatch(value):
        p, q = (int(x) for x in value.split("/"))
        assert q > 0 and Fraction(p, q) == Fraction(value) and f"{Fraction(p, q).numerator}" == str(p), (key, value)
        return
    assert "**" not in value and "sqrt" not in value, (key, value)
    form = Linear.parse(value)
    assert not form.is_constant and str(form) == value, (key, value)


@pytest.mark.parametrize("decks", range(1, 13))
def test_every_progressive_figure_is_exact_at_1_to_12_decks(decks: int) -> None:
    """harmony C at 7 decks had long_run_return -128...*5**(5/29)*6**(24/29)*... (nsimplify)."""
    for w in PROGRESSIVES:
        for t in CATALOGUE[w].paytables:
            a = analyze(w, t.id, Shoe.standard(decks))
            doc = analysis_json(a)
            for key, value in _figures(doc):
                _exact_figure(key, value)
            # the long-run return, recomputed from the JSON alone (docs: reset at R where the
            # house funds it, 0 where the reserve does or none is set; + increment + reserve)
            form = Linear.parse(doc["return_expression"])
            base = form.at({meter_variable(m["name"]): Fraction(m["reset"]) if m["reset"] is not None
                            and not m["reset_funded_by_reserve"] else Fraction(0) for m in doc["meters"]})
            lr = doc["long_run_return"]
            if all(m["increment"] is not None for m in doc["meters"]):
                rates = sum((Fraction(m["increment"]) + Fraction(m["reserve"]) for m in doc["meters"]), Fraction(0))
                assert Fraction(lr) == base + rates, (w, t.id, decks)
            else:
                assert Linear.parse(lr).constant == base + sum(Fraction(m["reserve"]) for m in doc["meters"])


def test_committed_tables_hold_only_exact_figures() -> None:
    """tables/7-decks/harmony--C.json held a power of 5**(5/29); every figure reads back now."""
    files = sorted((ROOT / "tables").glob("*-decks/*.json"))
    assert files
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        for key, value in _figures(doc):
            _exact_figure(key, value)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["M_a", "M_b", "rate_c"]),
                       st.fractions(min_value=-10**12, max_value=10**12, max_denominator=10**9)),
       st.fractions(min_value=-10**12, max_value=10**12, max_denominator=10**9))
def test_linear_forms_round_trip(coefficients: dict[str, Fraction], constant: Fraction) -> None:
    form = Linear.of(coefficients, constant)
    assert Linear.parse(str(form)) == form
    values = {v: Fraction(i + 2, 3) for i, v in enumerate(["M_a", "M_b", "rate_c"])}
    assert form.at(values) == constant + sum((c * values[v] for v, c in coefficients.items()), Fraction(0))


@pytest.mark.parametrize("text", ["", "1/0", "x", "1/2*M_a +", "1/2 1/3", "1.5*M_a", "1/2*M_a + 1/3*M_a",
                                  "2**(1/3)", "1/2*M_a*M_b", "+ 1/2", "2/4", "1/3*M_b + 1/2*M_a", "1/2  - 1/3"])
def test_linear_parse_refuses_anything_else(text: str) -> None:
    with pytest.raises(InputError):
        Linear.parse(text)


def test_expression_coefficients_are_hit_probability_over_stake() -> None:
    a = analyze("royal-9", "5usd", Shoe.standard(6))
    f = progressive_figures(a)
    for m in f.meters:
        assert f.expression.coeff(meter_variable(m.name)) == f.hit_probability[m.name] / f.stake


@pytest.mark.parametrize("args", [["--help"], ["list"], ["analyze", "banker"]])
def test_cold_start_imports_no_sympy_or_scipy(args: list[str]) -> None:
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "exactodds", *args], capture_output=True,
                       text=True, timeout=120, check=True)
    imported = {line.rsplit("|", 1)[-1].strip() for line in r.stderr.splitlines() if "|" in line}
    assert not {m for m in imported if m.split(".")[0] in ("sympy", "scipy")}


def test_cold_start_imports_no_simulation_numpy() -> None:
    """``analyze banker`` loads the pricing engine (numpy) but nothing only other commands
    use: no simulation code, no compiled kernel (numba), no sympy, scipy, matplotlib or dask."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "exactodds", "analyze", "banker"],
                       capture_output=True, text=True, timeout=120, check=True)
    imported = {line.rsplit("|", 1)[-1].strip() for line in r.stderr.splitlines() if "|" in line}
    heavy = {"numba", "sympy", "scipy", "matplotlib", "dask", "distributed", "pydantic"}
    assert not {m for m in imported if m.split(".")[0] in heavy or m.startswith("exactodds.simulation")
                or m.startswith("exactodds.study")}


# -- 3. huge numbers and files ----------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789+-./eE$, ", max_size=30))
def test_parse_number_is_exact_or_one_input_error(text: str) -> None:
    try:
        value = parse_number(text, "x")
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert value == Fraction(text.strip())  # whatever it accepts, it reads exactly as Fraction does


@pytest.mark.parametrize("text", ["1e5000", "1e100000000", "1e-100000000", "9" * (MAX_DIGITS + 1), "nan", "inf",
                                  "-Infinity", "0x10", "١٢", "1_000", "1/0", "", " ", "1e", "e5", "."])
def test_parse_number_refuses_without_converting(text: str) -> None:
    with pytest.raises(InputError):
        parse_number(text, "x")


def test_parse_number_limits() -> None:
    assert parse_number(f"1e{MAX_EXPONENT}", "x") == 10**MAX_EXPONENT
    assert parse_number(f"-2.5e-{MAX_EXPONENT}", "x") == Fraction(-5, 2 * 10**MAX_EXPONENT)
    assert parse_number("$62500", "x", money=True) == 62500
    with pytest.raises(InputError, match="comma"):
        parse_number("$62,500", "x", money=True)


def _limited_run(args: list[str], cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The real command line with 1.5 GiB of address space: a hang or a runaway read fails."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29))
    return subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, preexec_fn=limit, check=False)


@pytest.mark.parametrize("args", [
    ["analyze", "royal-9", "--meter", "mega=1e5000"],
    ["analyze", "royal-9", "--meter", "mega=1e100000000"],
    ["ride", "--fraction", "1e-100000000"],
    ["ride", "--main-stake", "1e100000000"],
    ["verify", "/dev/zero"],
])
def test_huge_numbers_and_endless_files_are_one_line(args: list[str], tmp_path: Path) -> None:
    r = _limited_run(args, tmp_path)
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stderr[-300:])
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("exactodds: error: ") and len(lines[0]) < 300, r.stderr[-300:]


@pytest.mark.parametrize("name,text", [
    ("big.json", '{"decks": ' + "1" * 5000 + "}"),
    ("big2.json", '{"counts": {"KS": ' + "9" * 5000 + "}}"),
    ("big.csv", "K," + "1" * 5000 + "\n"),
    ("nan.json", '{"decks": NaN}'),
    ("dup.json", '{"decks": 1, "decks": 8}'),
    ("many.json", '{"decks": 1, "remove": [' + ",".join(['"9"'] * 100) + "]}"),
])
def test_shoe_files_with_absurd_numbers(name: str, text: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text(text)
    line = one_error_line(run("analyze", "banker", "--shoe", str(path)))
    assert len(line) < 300


@pytest.mark.parametrize("spec", ["decks=" + "1" * 5000, "K=" + "1" * 5000, "1" * 5000])
def test_shoe_specs_with_absurd_numbers(spec: str) -> None:
    assert len(one_error_line(run("analyze", "banker", "--shoe", spec))) < 300


def test_removal_lists_are_bounded() -> None:
    one_error_line(run("analyze", "banker", "--remove", ",".join(["9999*9"] * 100)), "more than")


def test_read_capped_streams_and_refuses(tmp_path: Path) -> None:
    p = tmp_path / "f"
    p.write_bytes(b"x" * 100)
    assert read_capped(p, "file", 100) == b"x" * 100
    with pytest.raises(InputError, match="too large"):
        read_capped(p, "file", 99)
    with pytest.raises(InputError, match="too large"):
        read_capped("/dev/zero", "file", 1 << 20)
    with pytest.raises(InputError, match="folder"):
        read_capped(tmp_path, "file")


def test_long_echoed_input_is_shortened() -> None:
    line = one_error_line(run("analyze", "x" * 5000))
    assert len(line) < 300 and "characters)" in line


# -- 4. forged reports ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def small_report() -> dict[str, Any]:
    return certify(["dragon-7"], None, Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=False)


def _verify_cli(tmp_path: Path, text: str | bytes, name: str = "r.json") -> Any:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return run("verify", str(path))


@pytest.mark.parametrize("key", ["house_edge", "total", "all_checks_hold"])
def test_a_repeated_key_is_a_forgery(small_report: dict[str, Any], key: str, tmp_path: Path) -> None:
    """"house_edge": "1/1000", "house_edge": "<real>" verified: the JSON reader keeps the last."""
    text = json.dumps(small_report, indent=2)
    m = re.search(rf'\n(\s*)"{key}": ([^\n]*?),?\n', text)
    assert m
    forged = text[:m.start()] + f'\n{m.group(1)}"{key}": "1/1000",' + text[m.start():]
    assert json.loads(forged) == small_report  # a last-value reader sees the real report ...
    r = _verify_cli(tmp_path, forged)
    assert r.exit_code == 1 and "appears twice" in r.stdout  # ... and verify says it does not hold
    with pytest.raises(ReportError):
        read_report(forged)


def test_members_outside_the_schema_do_not_hold(small_report: dict[str, Any], tmp_path: Path) -> None:
    doc = json.loads(json.dumps(small_report))
    doc["approved_by"] = "the regulator"
    doc["fingerprint"]["value"] = fingerprint(doc)
    r = _verify_cli(tmp_path, json.dumps(doc))
    assert r.exit_code == 1 and "approved_by" in r.stdout


@pytest.mark.parametrize("change", [
    {"wagers": ["no-such-wager"]}, {"wagers": ["dragon-7"] * 200}, {"wagers": "dragon-7"}, {"wagers": []},
    {"shoe": {"decks": 0}}, {"shoe": {"decks": "1" * 5000}}, {"sensitivity_decks": list(range(1, 200))},
    {"sensitivity_decks": [8, 8]}, {"effects_of_removal": "yes"}, {"paytable": "nope"}, {"extra": 1},
])
def test_tampered_inputs_do_not_hold_and_are_not_recomputed(small_report: dict[str, Any], change: dict[str, Any],
                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tampered inputs exited 2 ("unreadable"); 200 copies of a wager were recomputed (31 s)."""
    doc = json.loads(json.dumps(small_report))
    doc["inputs"].update(change)
    doc["fingerprint"]["value"] = fingerprint(doc)

    def no_recompute(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("recomputed a report whose inputs fail")
    monkeypatch.setattr(certify_mod, "build_report", no_recompute)
    r = _verify_cli(tmp_path, json.dumps(doc))
    assert r.exit_code == 1 and "DOES NOT HOLD" in r.stdout and "inputs" in r.stdout, r.stdout + r.stderr


def test_a_failing_fingerprint_is_not_recomputed(small_report: dict[str, Any],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    doc = json.loads(json.dumps(small_report))
    doc["inputs"]["wagers"] = ["dragon-7", "tie"]
    monkeypatch.setattr(certify_mod, "build_report", lambda *a, **k: pytest.fail("recomputed"))
    v = verify_report(doc)
    assert not v.holds and not v.fingerprint_ok and v.recomputed_ok is None


@pytest.mark.parametrize("text,needle", [
    ("not json", "not a JSON document"), ("# Certification report\n", "never its Markdown"),
    ('{"report": "x"}', "not an exactodds"), ("[1]", "not an exactodds"),
    ('{"report": "exactodds certification report", "schema": 99}', "newer"),
    ('{"a": NaN}', "not a JSON document"), ("{" * 100000, "not a JSON document"),
    ('{"n": ' + "9" * 5000 + "}", "not a JSON document"),
])
def test_unreadable_reports_exit_2(text: str, needle: str, tmp_path: Path) -> None:
    one_error_line(_verify_cli(tmp_path, text), needle)


def test_unreadable_bytes_and_missing_files_exit_2(tmp_path: Path) -> None:
    one_error_line(_verify_cli(tmp_path, b"\xff\xfe{}"), "UTF-8")
    one_error_line(run("verify", str(tmp_path / "none.json")), "no such report")
    one_error_line(run("verify", str(tmp_path)), "folder")


def test_the_markdown_view_says_it_cannot_be_verified(small_report: dict[str, Any]) -> None:
    md = render_markdown(small_report)
    assert "no tool can verify it" in md and "--format json" in md


def test_parse_report_and_load_json_refuse_repeats() -> None:
    _, repeated = parse_report('{"report": "exactodds certification report", "a": {"b": 1, "b": 2}}')
    assert repeated and "'b'" in repeated[0]
    with pytest.raises(ValueError):
        load_json('{"a": 1, "a": 1}')


# -- 5. command-line consistency -----------------------------------------------------------------------

def test_version() -> None:
    r = run("--version")
    assert r.exit_code == 0 and r.stdout == f"exactodds {exactodds.__version__}\n"


def _options(command: str) -> dict[str, tuple[str, ...]]:
    """Each short option of ``command`` -> the long options of the same parameter."""
    group = typer.main.get_command(app)
    cmd = group.commands[command]  # type: ignore[attr-defined]
    return {o: tuple(x for x in p.opts if x.startswith("--")) for p in cmd.params for o in getattr(p, "opts", [])
            if re.fullmatch(r"-[A-Za-z]", o)}


@pytest.mark.parametrize("command", ["analyze", "eor", "commission", "ride", "certify"])
def test_s_is_shoe(command: str) -> None:
    assert _options(command)["-s"] == ("--shoe",)


def test_s_is_never_seed() -> None:
    assert _options("simulate").get("-s") in (None, ("--shoe",))


def test_list_csv_is_csv_and_markdown_is_markdown() -> None:
    r = run("list", "-f", "csv")
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert rows[0] == ["wager", "name", "paytable", "default", "wager_cite", "paytable_cite"]
    assert {(x[0], x[2]) for x in rows[1:]} == {(w.id, p.id) for w in CATALOGUE.values() for p in w.paytables}
    assert all(len(x) == 6 for x in rows) and sum(x[3] == "yes" for x in rows[1:]) == len(CATALOGUE)
    md = run("list", "-f", "markdown").stdout.splitlines()
    assert md[0].startswith("#") and md[2].startswith("| Wager") and set(md[3]) <= set("|-: ")


def test_certify_refuses_an_unknown_format() -> None:
    # -f table is the report's summary now (tests/test_surface.py); a format it has not is one line
    one_error_line(run("certify", "tie", "-f", "docx"), "'docx' is not one of")


def test_ride_only_on_banker_or_player() -> None:
    one_error_line(run("ride", "tie"), "Player or Banker")
    one_error_line(run("ride", "dragon-7"), "Player or Banker")


def test_shell_completion_keeps_the_error_contract(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import shellingham  # type: ignore[import-untyped]

    monkeypatch.setattr(shellingham, "detect_shell", lambda: ("bash", "/bin/bash"))
    r = run("--show-completion")
    assert r.exit_code == 0 and "_EXACTODDS_COMPLETE" in r.stdout
    monkeypatch.setenv("HOME", str(tmp_path))
    r = run("--install-completion")
    assert r.exit_code == 0 and (tmp_path / ".bashrc").exists()
    monkeypatch.setenv("HOME", str(tmp_path / ".bashrc"))  # a file: the install cannot write
    one_error_line(run("--install-completion"))
    monkeypatch.setattr(shellingham, "detect_shell", lambda: ("tcsh", "/bin/tcsh"))
    one_error_line(run("--show-completion"), "shell completion")
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    one_error_line(run("--install-completion"), "could not be detected")


def test_progress_is_the_shared_rich_bar() -> None:
    from exactodds.cli import certify as cli_certify
    from exactodds.io import progress

    assert vars(cli_certify)["stderr_progress"] is progress.stderr_progress
    assert "def stderr_progress" not in Path(cli_certify.__file__).read_text(encoding="utf-8")


def test_readme_links_resolve_in_a_clone() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "shared/spec" not in readme
    for target in re.findall(r"\]\(([^)#:]+)\)", readme):
        assert (ROOT / target).exists(), target
    assert (ROOT / "docs" / "WAGERS.md").read_text(encoding="utf-8").count("## ") > 3


NOT_MINE: dict[str, str] = {}


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=NOT_MINE[p])) if p in NOT_MINE else p
    for p in sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "exactodds").rglob("*.py"))])
def test_code_cites_the_wagers_spec_in_the_repo(path: str) -> None:
    assert "shared/spec/WAGERS.md" not in (ROOT / path).read_text(encoding="utf-8")
