"""Wager files that ask for too much (issue 18, re-audit): absurd integers and absurd work.

A TOML integer of more than 4,300 digits (decimal; or hexadecimal, octal, binary, which
Python converts without that limit) anywhere in a wager file, and a file whose outcomes,
alternatives and paytables multiply to hours of settling, are each one
``exactodds: error:`` line before any work -- from every command that reads wager files.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.catalogue.files import MAX_PAYTABLES, MAX_WORK, parse_wager_text
from exactodds.cli.app import app
from exactodds.engine.levels import LEVELS
from exactodds.errors import InputError

PLACES = {
    "stake": 'stake = {v}\n',
    "reset": '[[paytables.meters]]\nname = "m"\nreset = {v}\n',
    "increment": '[[paytables.meters]]\nname = "m"\nincrement = {v}\n',
    "fact": None,  # in the outcome's when
    "settle": None,
}


def wager_text(place: str, value: str) -> str:
    """A small valid wager with ``value`` (TOML integer text) put at ``place``."""
    when = f'{{ winner = "banker", banker_total = {value} }}' if place == "fact" else '{ winner = "banker" }'
    head = 'id = "big-number"\nname = "Big"\nlevel = "coup"\n' + (f"settle = {value}\n" if place == "settle" else "")
    pays = '"B" = "1 to 1"' + (', "Jackpot" = "meter m"' if place in ("reset", "increment") else "")
    outcomes = f'[[outcomes]]\nname = "B"\nwhen = {when}\n'
    if place in ("reset", "increment"):
        outcomes += '[[outcomes]]\nname = "Jackpot"\nwhen = { winner = "banker", banker_total = 9, banker_cards = 3 }\n'
    table = f'[[paytables]]\nid = "p"\npays = {{ {pays} }}\n'
    template = PLACES.get(place)
    return head + outcomes + table + (template.format(v=value) if template else "")


@st.composite
def huge_integers(draw: st.DrawFn) -> str:
    """TOML integer text of up to 6,000 digits, in any base TOML allows, maybe signed."""
    n = draw(st.integers(0, 6000))
    base = draw(st.sampled_from(["dec", "hex", "oct", "bin", "under"]))
    digit = draw(st.sampled_from("123456789"))
    if base == "hex":
        return "0x" + draw(st.sampled_from("1fF")) + "f" * n
    if base == "oct":
        return "0o7" + "7" * n
    if base == "bin":
        return "0b1" + "1" * n
    if base == "under":
        return digit + "_000" * (n // 3)
    sign = draw(st.sampled_from(["", "+", "-"]))
    return sign + digit + digit * n


def assert_one_line(r: Any, *fragments: str) -> None:
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("exactodds: error: "), r.stderr
    assert all(f in lines[0] for f in fragments), (fragments, lines[0])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(place=st.sampled_from(sorted(PLACES)), value=huge_integers())
@example(place="stake", value="0o777777777777")  # 14 characters, 6.9e10: within the bound, once taken for beyond it
def test_any_integer_anywhere_is_read_or_one_input_error(place: str, value: str) -> None:
    """Parsing returns a wager or raises one :class:`InputError` line; an integer beyond the
    bounds (10^12 for amounts) is always the error."""
    text = wager_text(place, value)
    try:
        w = parse_wager_text(text, "t.toml")
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("t.toml: ")
        return
    # accepted: the value itself (TOML's 0x/0o/0b prefixes read as Python does) is within 13 decimal digits
    assert abs(int(value.replace("_", ""), 0)) < 10**13, f"{value[:40]}... was accepted by {w.id}"


@pytest.mark.parametrize("value", ["9" * 4301, "9" * 100_000, "0x" + "f" * 5000, "-" + "1" * 5000])
@pytest.mark.parametrize("command", [["analyze", "big-number"], ["certify", "big-number", "--no-eor"],
                                     ["eor", "big-number"], ["tables", "--decks", "8", "-o", "{out}"]])
def test_huge_integers_are_one_line_from_every_command(tmp_path: Any, value: str, command: list[str]) -> None:
    f = tmp_path / "big.toml"
    f.write_text(wager_text("stake", value))
    args = [a.replace("{out}", str(tmp_path / "out")) for a in command[1:]]
    r = CliRunner().invoke(app, [command[0], "--wager-file", str(f), *args])
    assert_one_line(r, "big.toml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.toml"]


def flood(outcomes: int, alternatives: int, paytables: int, level: str = "coup") -> str:
    """A wager of ``outcomes`` outcomes, each a list of ``alternatives`` impossible tables
    before one that can hold, paid by ``paytables`` paytables (the re-audit's 849 KB file:
    256 x 40 x 40)."""
    lines = ['id = "flood"', 'name = "Flood"', f'level = "{level}"']
    impossible = '{ winner = "tie", margin = 3 }'
    for i in range(outcomes):
        alts = [impossible] * (alternatives - 1) + [f"{{ player_total = {i % 10}, banker_total = {i // 10 % 10} }}"]
        lines += ["[[outcomes]]", f'name = "o{i}"', f"when = [{', '.join(alts)}]"]
    for p in range(paytables):
        pays = ", ".join(f'"o{i}" = "{p + 1} to 1"' for i in range(outcomes))
        lines += ["[[paytables]]", f'id = "p{p}"', f"pays = {{ {pays} }}"]
    return "\n".join(lines) + "\n"


def test_the_re_audit_flood_is_refused_at_once(tmp_path: Any) -> None:
    """256 outcomes x 40 alternatives x 40 paytables: one line naming the work, not 600 s.
    (The count is recomputed here from the level's results, independently of the message.)"""
    text = flood(100, 40, 40)  # the shape of the 849 KB file, cut to 100 outcomes to stay reachable
    f = tmp_path / "flood.toml"
    f.write_text(text)
    work = len(LEVELS["coup"].results) * 100 * 40 * (40 + 1)
    start = time.process_time()
    r = CliRunner().invoke(app, ["analyze", "--wager-file", str(f), "flood"])
    assert time.process_time() - start < 60  # a guard against a hang, not a benchmark
    assert_one_line(r, "flood.toml", "too much work", f"{work:,}", f"{MAX_WORK:,}")


def test_the_work_bound_is_exact() -> None:
    """A file at the bound is read; one table more of facts and it is refused."""
    results = len(LEVELS["coup"].results)
    paytables = 3
    per = results * (paytables + 1)
    n = MAX_WORK // per  # 'when' tables allowed
    outcomes = 90  # all (player, banker) totals below 9/9 that coup can produce are reachable
    alternatives = n // outcomes
    assert alternatives >= 2
    ok = flood(outcomes, alternatives, paytables)
    assert parse_wager_text(ok, "ok.toml").conditions == outcomes * alternatives
    over = MAX_WORK // (outcomes * per) + 1
    with pytest.raises(InputError, match="too much work"):
        parse_wager_text(flood(outcomes, over, paytables), "over.toml")


def test_paytable_files_cannot_pile_up_paytables(tmp_path: Any) -> None:
    """Paytable files extending one wager are bounded in all, not each."""
    files = []
    for k in range(3):
        f = tmp_path / f"p{k}.toml"
        tables = "".join(f'[[paytables]]\nid = "x{k}-{i}"\npays = {{ "Banker wins" = "{i + 1} to 1" }}\n'
                         for i in range(MAX_PAYTABLES // 2))
        f.write_text('wager = "banker"\n' + tables)
        files += ["--wager-file", str(f)]
    r = CliRunner().invoke(app, ["analyze", *files, "banker"])
    assert_one_line(r, "paytables", f"at most {MAX_PAYTABLES} in all")
