"""Wagers and paytables from TOML files: examples against the brute-force oracle, the facts
against the catalogue's own predicates, every bad-file path, the commands and certificates."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import oracle
import pytest
from conftest import shoe_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from exactodds.catalogue import CATALOGUE, get_wager
from exactodds.catalogue.facts import FACTS, facts_markdown
from exactodds.catalogue.files import (
    MAX_FILE_BYTES,
    FileWager,
    load_wager_files,
    parse_definition,
    parse_pay,
    parse_wager_text,
    registered,
    report_inputs,
)
from exactodds.cli.app import app
from exactodds.engine.levels import LEVELS
from exactodds.errors import InputError
from exactodds.figures.analysis import analyze
from exactodds.game.cards import Card, Shoe
from exactodds.games.certificate import certify, verify_report

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def example(name: str) -> str:
    return str(EXAMPLES / name)


# -- the documented examples against the brute-force oracle ---------------------------------------
# Each classifier reads the dealt cards directly (no fact, no level): an independent statement of
# what the example's outcomes mean, settled first-match as the file says.

def _points(cards: Sequence[Card]) -> int:
    return sum(c.value for c in cards) % 10


def _banker_three_card_eight(p: Sequence[Card], b: Sequence[Card]) -> str:
    if len(b) == 3 and _points(b) == 8 and _points(b) > _points(p):
        return "Banker wins with a 3-card 8"
    return "Loses"


def _monochrome(p: Sequence[Card], b: Sequence[Card]) -> str:
    cards = [*p, *b]
    if len({c.suit for c in cards}) == 1:
        return "All cards one suit"
    if len({c.suit in "HD" for c in cards}) == 1:
        return "All cards one colour, four cards" if len(cards) == 4 else "All cards one colour, five or six cards"
    return "Mixed colours"


def _player_suited_start(p: Sequence[Card], b: Sequence[Card]) -> str:
    first, second = p[0], p[1]
    if first.suit != second.suit:
        return "Not suited"
    if first.rank == second.rank:
        return "Suited pair"
    if {first.rank, second.rank} == {"K", "Q"}:
        return "Suited king and queen"
    return "Suited"


def _three_card_nine(p: Sequence[Card], b: Sequence[Card]) -> str:
    p9, b9 = len(p) == 3 and _points(p) == 9, len(b) == 3 and _points(b) == 9
    if p9 and b9:
        return ("Both hands 3-card 9, all cards one suit" if len({c.suit for c in (*p, *b)}) == 1
                else "Both hands 3-card 9")
    return "One hand 3-card 9" if p9 or b9 else "No 3-card 9"


def _dragon_7(p: Sequence[Card], b: Sequence[Card]) -> str:
    return "Dragon 7" if len(b) == 3 and _points(b) == 7 and _points(p) < 7 else "No Dragon 7"


ORACLE_CASES: list[tuple[str, str, Callable[[Sequence[Card], Sequence[Card]], str], list[str]]] = [
    ("banker-three-card-eight.toml", "banker-three-card-eight", _banker_three_card_eight,
     ["AS 2H 3D 4C 5S 6H 7D 8C 9S KH", "5S 3H 10D KC 8S 2H 4D AC 6S"]),
    ("monochrome.toml", "monochrome", _monochrome,
     ["AS 2S 3S 4S 9S KS 5H 6H 7D 8C", "KS QS 9S 8S 2H 3H 4D 5D AC"]),
    ("player-suited-start.toml", "player-suited-start", _player_suited_start,
     ["KS QS KS 9H 9H 3D 4C 5S QH 7S", "QD KD 2D 2D 6C 7H 8S AS"]),
    ("three-card-nine-progressive.toml", "three-card-nine-progressive", _three_card_nine,
     ["KS 4S 5S 2S AS 6S 3H 7D 10C QS"]),
    ("dragon-7-30to1.toml", "dragon-7", _dragon_7, ["AS 2H 3D 4C 5S 6H 7D 8C 9S KH"]),
]


@pytest.mark.parametrize("file, wager_id, classify, shoes", ORACLE_CASES, ids=[c[0] for c in ORACLE_CASES])
def test_examples_agree_with_the_brute_force_oracle(file: str, wager_id: str, classify: Any, shoes: list[str]) -> None:
    [wager] = load_wager_files([example(file)])
    assert wager.id == wager_id
    seen: set[str] = set()
    for text in shoes:
        shoe = shoe_of(text)
        counts, void = oracle.tally(shoe, classify)
        for table in wager.paytables:
            a = analyze(wager, table.id, shoe)
            engine = {r.name: r.count for r in a.rows if r.count and not r.name.startswith("Round void")}
            assert engine == {k: v for k, v in counts.items() if v}, (file, table.id, text)
            assert a.total == sum(counts.values()) + void
        seen |= set(counts)
    # not vacuous: every outcome of the example happens in some shoe
    assert seen == {o.name for o in wager.outcomes} | {wager.otherwise}


def test_examples_at_eight_decks_add_up_and_are_second_method_checked() -> None:
    wagers = load_wager_files(sorted(str(p) for p in EXAMPLES.glob("*.toml")))
    assert {w.id for w in wagers} == {"banker-three-card-eight", "monochrome", "player-suited-start",
                                       "three-card-nine-progressive", "dragon-7", "my-wager"}
    doc = certify(wagers, None, Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=False)
    assert doc["summary"]["all_checks_hold"] is True
    assert doc["summary"]["second_method_agrees"] == doc["summary"]["tables"] == 8


# -- the facts mean what the catalogue's predicates mean ---------------------------------------

CATALOGUE_TWINS = [
    ("sun-7", """
id = "sun-7-file"
name = "Sun 7 as a file"
level = "coup"
[[outcomes]]
name = "Sun 7: Banker wins with three cards totalling 7"
when = { winner = "banker", banker_total = 7, banker_cards = 3 }
[[paytables]]
id = "40to1"
pays = { "Sun 7: Banker wins with three cards totalling 7" = "40 to 1" }
"""),
    ("nine-over-seven", """
id = "nine-over-seven-file"
name = "9 over 7"
level = "coup"
[[outcomes]]
name = "9 over 7: either hand wins with 9 over a losing 7"
when = { winner_total = 9, loser_total = 7 }
[[paytables]]
id = "25to1"
pays = { "9 over 7: either hand wins with 9 over a losing 7" = "25 to 1" }
"""),
    ("house-money", """
id = "house-money-file"
name = "House Money"
level = "opening-rank-pattern"
otherwise = "No pair"
[[outcomes]]
name = "Player and Banker Pair"
when = { player_pair = true, banker_pair = true }
[[outcomes]]
name = "Player or Banker Pair"
when = [{ player_pair = true }, { banker_pair = true }]
[[paytables]]
id = "15to1-3to1"
pays = { "Player and Banker Pair" = "15 to 1", "Player or Banker Pair" = "3 to 1" }
"""),
    ("lucky-nines", """
id = "lucky-nines-file"
name = "Lucky Nines A"
level = "opening-nines"
otherwise = "No nine"
[[outcomes]]
name = "4 Nines"
when = { nines = 4 }
[[outcomes]]
name = "3 Nines Same Suit"
when = { nines = 3, nines_one_suit = true }
[[outcomes]]
name = "3 Nines"
when = { nines = 3 }
[[outcomes]]
name = "2 Nines Same Suit"
when = { nines = 2, nines_one_suit = true }
[[outcomes]]
name = "2 Nines"
when = { nines = 2 }
[[outcomes]]
name = "1 Nine Diamonds"
when = { nines = 1, nine_suit = "D" }
[[outcomes]]
name = "1 Nine"
when = { nines = 1 }
[[paytables]]
id = "A"
pays = { "4 Nines" = "500 to 1", "3 Nines Same Suit" = "250 to 1", "3 Nines" = "20 to 1", "2 Nines Same Suit" = "8 to 1", "2 Nines" = "5 to 1", "1 Nine Diamonds" = "2 to 1", "1 Nine" = "1 to 1" }
"""),
    ("heavenly-9-progressive", """
id = "heavenly-file"
name = "Heavenly 9 Progressive"
level = "deal-faces"
otherwise = "No 3-card 9"
[[outcomes]]
name = "Player and Banker 3-card 9 tie, all cards same suit"
when = { player_cards = 3, banker_cards = 3, player_total = 9, banker_total = 9, colour = "suit" }
[[outcomes]]
name = "Player and Banker 3-card 9 tie, all cards same colour"
when = { player_cards = 3, banker_cards = 3, player_total = 9, banker_total = 9, one_colour = true }
[[outcomes]]
name = "Player and Banker 3-card 9 tie"
when = { player_cards = 3, banker_cards = 3, player_total = 9, banker_total = 9 }
[[outcomes]]
name = "Banker 3-card 9"
when = { banker_cards = 3, banker_total = 9 }
[[outcomes]]
name = "Player 3-card 9"
when = { player_cards = 3, player_total = 9 }
[[paytables]]
id = "progressive"
stake = 5
meters = [{ name = "heavenly-9", reset = 10000, increment = "1/10", cite = "58 Pa. Code § 631b.2(i)" }]
pays = { "Player and Banker 3-card 9 tie, all cards same suit" = "meter heavenly-9", "Player and Banker 3-card 9 tie, all cards same colour" = "299 for 1", "Player and Banker 3-card 9 tie" = "60 for 1", "Banker 3-card 9" = "9 for 1", "Player 3-card 9" = "8 for 1" }
"""),
    ("match-the-dealer", None),
    ("perfect-pairs-player", """
id = "perfect-pairs-file"
name = "Perfect Pairs (Player)"
level = "opening-player-faces"
settle = "highest"
otherwise = "No pair"
[[outcomes]]
name = "Perfect pair"
when = { player_pair = true, player_suited = true }
[[outcomes]]
name = "Colored pair"
when = { player_pair = true, player_suited = false, player_same_colour = true }
[[outcomes]]
name = "Mixed pair"
when = { player_pair = true, player_same_colour = false }
[[paytables]]
id = "A"
pays = { "Perfect pair" = "25 to 1", "Colored pair" = "12 to 1", "Mixed pair" = "6 to 1" }
"""),
]


@pytest.mark.parametrize("catalogue_id, text", [c for c in CATALOGUE_TWINS if c[1]], ids=[c[0] for c in CATALOGUE_TWINS if c[1]])
def test_a_file_twin_settles_every_result_as_the_catalogue_wager(catalogue_id: str, text: str) -> None:
    """Every result the level can produce is settled on the same outcome by the catalogue's
    Python predicates and by the file's facts; the 8-deck figures then agree exactly."""
    original = get_wager(catalogue_id)
    twin = parse_wager_text(text, f"{catalogue_id}.toml")
    assert twin.level is original.level
    table = twin.paytables[0]
    theirs = original.paytable(table.id)
    for r in original.level.results:
        mine = twin.settle(table, r)
        assert (mine if mine != twin.otherwise else original.otherwise) == original.settle(theirs, r), r
    a, b = analyze(twin, table.id, Shoe.standard(8)), analyze(original, theirs.id, Shoe.standard(8))
    assert a.return_ == b.return_ and a.variance == b.variance


def test_match_the_dealer_facts() -> None:
    w = parse_wager_text("""
id = "match-file"
name = "Match"
level = "spanish21-match"
[[outcomes]]
name = "two matches"
when = { matches = 2 }
[[outcomes]]
name = "one same-suit match"
when = { same_suit_matches = 1, other_suit_matches = 0 }
[[paytables]]
id = "x"
pays = { "two matches" = "20 to 1", "one same-suit match" = "9 to 1" }
""", "m.toml")
    a = analyze(w, "x", Shoe.standard(6))
    assert a.total == 288 * 287 * 286 * 285 and {r.name for r in a.rows} == {"two matches", "one same-suit match", "Loses"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_when_tables_match_exactly_the_results_whose_facts_hold(data: st.DataObject) -> None:
    level = data.draw(st.sampled_from(sorted(FACTS)))
    facts = data.draw(st.lists(st.sampled_from(FACTS[level]), min_size=1, max_size=3, unique_by=lambda f: f.name))
    when = {f.name: data.draw(st.lists(st.sampled_from(f.values), min_size=1, max_size=len(f.values), unique=True))
            for f in facts}
    results = LEVELS[level].results
    holds = [r for r in results if all(f.read(r) in when[f.name] for f in facts)]
    doc = {"id": "random", "name": "Random", "level": level,
           "outcomes": [{"name": "hit", "when": when}], "paytables": [{"id": "t", "pays": {"hit": "1 to 1"}}]}
    if not holds:
        with pytest.raises(InputError, match=r"paytables\[0\]\.pays\.\"hit\": outcome 'hit' is unreachable: no result"):
            parse_definition(doc, "random.toml")
        return
    w = parse_definition(doc, "random.toml")
    assert [r for r in results if w.outcomes[0].when(r)] == holds


# -- pays --------------------------------------------------------------------------------------------

def test_pays_parse_exactly() -> None:
    assert parse_pay("30 to 1").net == 30 and parse_pay("30 to 1").text == "30 to 1"
    assert parse_pay("5/2 to 1").net == Fraction(5, 2)
    assert parse_pay("2.5 to 1").net == Fraction(5, 2)
    assert parse_pay("1 to 2").net == Fraction(1, 2)
    assert parse_pay("9 for 1").net == 8
    assert parse_pay("push").net == 0 and parse_pay("loses").net == -1
    assert parse_pay("0.1 to 1").net == Fraction(1, 10)  # exact, never 0.1000000000000000055…
    m = parse_pay("50% of meter grand", ["grand"])
    assert (m.meter, m.share) == ("grand", Fraction(1, 2))
    for bad in ("30 to", "thirty to 1", "30 to 0", "0 for 1", "-3 to 1", "1e3 to 1", "30 TO 1", "meter grand",
                "200% of meter g", "99999999999999 to 1"):
        with pytest.raises(InputError):
            parse_pay(bad, ["g"])


# -- bad files: one line naming the file, the key and what is wrong -----------------------------

GOOD = """id = "t"
name = "T"
level = "coup"
[[outcomes]]
name = "Banker 3-card 8"
when = { winner = "banker", banker_total = 8, banker_cards = 3 }
[[outcomes]]
name = "Banker wins"
when = { winner = "banker" }
[[paytables]]
id = "a"
pays = { "Banker 3-card 8" = "10 to 1", "Banker wins" = "1 to 2" }
"""

BAD_FILES = [
    (GOOD.replace("banker_total = 8", "banker_totl = 8"),
     r"outcomes\[0\]\.when\.banker_totl: unknown fact of level 'coup' \(did you mean 'banker_total'\?\)"),
    (GOOD.replace("banker_total = 8", "banker_total = \"8\""),
     r"outcomes\[0\]\.when\.banker_total: banker_total is an integer, not a string '8'"),
    (GOOD.replace("banker_total = 8", "banker_total = 10"),
     r"outcomes\[0\]\.when\.banker_total: 10 is not a value of banker_total \(allowed: 0 to 9\)"),
    (GOOD.replace('winner = "banker", banker', 'winner = "bankr", banker'),
     r"outcomes\[0\]\.when\.winner: 'bankr' is not a value of winner .*did you mean 'banker'"),
    (GOOD.replace("banker_total = 8", "banker_total = 8.0"),
     r"outcomes\[0\]\.when\.banker_total: 8\.0 is a floating-point number; write it as a string"),
    (GOOD.replace('"10 to 1"', '"10 too 1"'), r"paytables\[0\]\.pays\.\"Banker 3-card 8\": '10 too 1' is not a pay"),
    (GOOD.replace('"10 to 1"', "10"), r"paytables\[0\]\.pays\.\"Banker 3-card 8\": must be a string, not an integer"),
    (GOOD.replace('id = "t"', 'id = "banker"'), r"id: 'banker' is already a catalogue wager"),
    (GOOD.replace('id = "t"', 'id = "../t"'), r"id: '\.\./t' is not an id"),
    (GOOD.replace('name = "Banker wins"', 'name = "Banker 3-card 8"'),
     r"outcomes\[1\]\.name: outcome 'Banker 3-card 8' is named twice"),
    (GOOD.replace('level = "coup"', 'level = "coupe"'), r"level: unknown level 'coupe' \(did you mean 'coup'\?\)"),
    (GOOD.replace("[[outcomes]]", "[[outcome]]", 1), r"outcome: unknown key \(did you mean 'outcomes'\?\)"),
    (GOOD.replace('id = "a"', 'id = "a"\nstake = "0"'), r"paytables\[0\]\.stake: must be more than 0"),
    (GOOD.replace('pays = {', 'pays = { "Nobody" = "2 to 1",'), r"paytables\[0\]\.pays\.\"Nobody\": not an outcome"),
    (GOOD.replace('banker_cards = 3 }', 'banker_cards = 3, player_natural = true }'),
     (r"paytables\[0\]\.pays\.\"Banker 3-card 8\": outcome 'Banker 3-card 8' is unreachable: no result of the 'coup' "
     r"level satisfies")),
    # the general outcome first shadows the particular one
    (GOOD.replace('name = "Banker 3-card 8"\nwhen = { winner = "banker", banker_total = 8, banker_cards = 3 }',
                  'name = "X"\nwhen = { winner = "banker" }').replace(
        'name = "Banker wins"\nwhen = { winner = "banker" }',
        'name = "Banker 3-card 8"\nwhen = { winner = "banker", banker_total = 8, banker_cards = 3 }').replace(
        '"Banker wins" = "1 to 2"', '"X" = "1 to 2"'),
     (r"outcome 'Banker 3-card 8' is unreachable under paytable 'a': every round it matches is settled on an "
     r"earlier outcome \('X'\)")),
    (GOOD + '\n[[paytables]]\nid = "a"\npays = { "Banker wins" = "1 to 1" }\n',
     r"paytables\[1\]\.id: paytable 'a' is already a paytable of this wager"),
    (GOOD.replace('"Banker wins" = "1 to 2"', '"Banker wins" = "meter jackpot"'),
     r"meter 'jackpot' is not declared in this paytable's meters"),
    (GOOD.replace(', "Banker wins" = "1 to 2"', ''), r"outcomes\[1\]: outcome 'Banker wins' is paid by no paytable"),
    ("id = \"t\"\nname = ", r"not valid TOML"),
    ('wager = "dragon-8"\n[[paytables]]\nid = "x"\npays = { "Dragon 7" = "30 to 1" }\n',
     r"wager: unknown wager 'dragon-8' \(did you mean 'dragon-7'\?\)"),
    ('wager = "dragon-7"\n[[paytables]]\nid = "40to1"\npays = { "Dragon 7" = "30 to 1" }\n',
     r"paytables\[0\]\.id: paytable '40to1' is already a paytable of this wager"),
    (GOOD.replace('when = { winner = "banker" }', "when = []"), r"outcomes\[1\]\.when: an empty list matches no round"),
    (GOOD.replace('name = "T"', 'name = 2026-11-01'), r"name: a date is not allowed in a wager file"),
]


@pytest.mark.parametrize("text, message", BAD_FILES)
def test_bad_files_are_one_line_naming_file_key_and_fault(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "submission.toml"
    path.write_text(text, encoding="utf-8")
    r = run("analyze", "--wager-file", str(path), "t")
    assert r.exit_code == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"exactodds: error: {path}: ")
    assert re.search(message, lines[0]), lines[0]


def test_files_that_are_not_wager_files(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MAX_FILE_BYTES + "\n")
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"id = \"\xff\"\n")
    for path, message in ((big, "larger than 1 MiB"), (fifo, "not a regular file"), (binary, "not UTF-8"),
                          (tmp_path / "missing.toml", "cannot read the wager file"), (tmp_path, "not a regular file")):
        r = run("analyze", "--wager-file", str(path), "banker")
        assert r.exit_code == 2 and r.stdout == "" and message in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_a_file_that_extends_another_file(tmp_path: Path) -> None:
    extra = tmp_path / "more.toml"
    extra.write_text('wager = "monochrome"\n[[paytables]]\nid = "B"\n'
                     'pays = { "All cards one suit" = "50 to 1", "All cards one colour, four cards" = "5 to 1" }\n')
    [w] = load_wager_files([example("monochrome.toml"), extra])
    assert [t.id for t in w.paytables] == ["A", "B"] and len(w.definitions) == 2
    # the paytable file alone does not know the wager
    with pytest.raises(InputError, match="unknown wager 'monochrome'"):
        load_wager_files([extra])


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_loads_or_is_one_input_error(text: str) -> None:
    try:
        parse_wager_text(text, "fuzz.toml")
    except InputError as exc:
        assert str(exc).startswith("fuzz.toml: ") and "\n" not in str(exc).strip()


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                           lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
                           max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["id", "name", "level", "outcomes", "paytables", "wager", "cite", "x"]),
                       json_values, max_size=6))
def test_any_document_loads_or_is_one_input_error(doc: dict[str, Any]) -> None:
    try:
        parse_definition(doc, "doc.toml")
    except InputError as exc:
        assert str(exc).startswith("doc.toml: ") and "\n" not in str(exc)


# -- registration, the API, certificates ---------------------------------------------------

def test_registered_restores_the_catalogue() -> None:
    before = dict(CATALOGUE)
    wagers = load_wager_files([example("monochrome.toml"), example("dragon-7-30to1.toml")])
    with registered(wagers):
        assert get_wager("monochrome") is wagers[0]
        assert [t.id for t in get_wager("dragon-7").paytables] == ["40to1", "30to1"]
    assert CATALOGUE == before and "monochrome" not in CATALOGUE


def test_certify_embeds_definitions_and_verify_rebuilds_them() -> None:
    wagers = load_wager_files([example("banker-three-card-eight.toml"), example("dragon-7-30to1.toml")])
    doc = certify(wagers, None, Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=False)
    defs = doc["inputs"]["definitions"]
    assert [d["file"] for d in defs] == ["banker-three-card-eight.toml", "dragon-7-30to1.toml"]
    raw = (EXAMPLES / "banker-three-card-eight.toml").read_bytes()
    import hashlib
    assert defs[0]["sha256"] == hashlib.sha256(raw).hexdigest()
    assert [(e["wager"], e["paytable"]) for e in doc["games"][0]["tables"]] == [
        ("banker-three-card-eight", "30to1"), ("banker-three-card-eight", "25to1"),
        ("dragon-7", "40to1"), ("dragon-7", "30to1")]
    text = json.dumps(doc)
    assert "monochrome" not in CATALOGUE and verify_report(json.loads(text)).holds
    # change a pay in the embedded definition and re-sign: the recomputation disagrees
    forged = json.loads(text)
    forged["inputs"]["definitions"][0]["content"]["paytables"][0]["pays"]["Banker wins with a 3-card 8"] = "35 to 1"
    from exactodds.games.certificate import fingerprint
    forged["fingerprint"]["value"] = fingerprint(forged)
    v = verify_report(forged)
    # the embedded text no longer says what the content says: caught before any recomputation
    assert not v.holds and any("pays" in p or "return" in p or "content" in p for p in v.problems)


def test_catalogue_reports_carry_no_definitions() -> None:
    ids, extra = report_inputs(["dragon-7"])
    assert ids == ["dragon-7"] and extra == {}


def test_a_wager_built_in_python_cannot_be_embedded() -> None:
    from dataclasses import replace
    w = replace(get_wager("dragon-7"), id="my-dragon")
    with pytest.raises(InputError, match="built in Python"):
        certify([w], None, Shoe.standard(8))


def test_cli_analyze_eor_certify_verify_tables_with_wager_files(tmp_path: Path) -> None:
    f = example("banker-three-card-eight.toml")
    doc = json.loads(run("analyze", "--wager-file", f, "banker-three-card-eight", "-p", "25to1", "-f", "json").stdout)
    assert doc["paytable"] == "25to1" and doc["total"] == 4_998_398_275_503_360
    all_doc = json.loads(run("analyze", "--wager-file", f, "--all", "-f", "json").stdout)
    assert ("banker-three-card-eight", "30to1") in {(w["wager"], w["paytable"]) for w in all_doc["wagers"]}
    eor = run("eor", "--wager-file", f, "banker-three-card-eight", "-f", "json")
    assert eor.exit_code == 0 and json.loads(eor.stdout)["identity"]["holds"] is True
    report = tmp_path / "report.json"
    r = run("certify", "--wager-file", f, "--wager-file", example("dragon-7-30to1.toml"), "dragon-7",
            "-p", "30to1", "--no-eor", "-f", "json", "-o", str(report))
    assert r.exit_code == 0, r.output
    cert = json.loads(report.read_text())
    assert cert["inputs"]["wagers"] == ["dragon-7"] and len(cert["inputs"]["definitions"]) == 1
    v = run("verify", str(report))  # no wager file needed
    assert v.exit_code == 0 and "HOLDS" in v.stdout
    out = tmp_path / "tables"
    t = run("tables", "--wager-file", f, "--decks", "8", "--out", str(out))
    assert t.exit_code == 0, t.output
    assert (out / "8-decks" / "banker-three-card-eight--30to1.json").is_file()
    assert "banker-three-card-eight" in (out / "README.md").read_text()
    assert "banker-three-card-eight" not in CATALOGUE


def test_schema_command_prints_each_schema() -> None:
    for name in ("wager", "analysis", "certificate"):
        r = run("schema", name)
        assert r.exit_code == 0 and json.loads(r.stdout)["$schema"].endswith("2020-12/schema")
    assert run("schema", "nope").exit_code == 2


def test_docs_list_every_fact_of_every_level() -> None:
    text = (ROOT / "docs" / "wager-files.md").read_text(encoding="utf-8")
    assert facts_markdown() in text, "docs/wager-files.md: regenerate the facts tables (facts_markdown())"
    for path in EXAMPLES.glob("*.toml"):
        assert path.name in text


def test_file_wagers_are_file_wagers() -> None:
    [w] = load_wager_files([example("player-suited-start.toml")])
    assert isinstance(w, FileWager) and w.settle_rule == "first" and w.otherwise == "Not suited"
    counts = Counter(w.settle(w.paytables[0], r) for r in w.level.results)
    assert set(counts) == {"Suited pair", "Suited king and queen", "Suited", "Not suited"}


def test_a_whole_catalogue_report_embeds_every_registered_file() -> None:
    wagers = load_wager_files([example("monochrome.toml"), example("dragon-7-30to1.toml")])
    with registered(wagers):
        ids, extra = report_inputs(None)
    assert ids is None and sorted(d["file"] for d in extra["definitions"]) == ["dragon-7-30to1.toml", "monochrome.toml"]
    assert report_inputs(None) == (None, {})
