"""Certificate schema 7 (issue 26): one list ``games`` of entries of one shape, baccarat's among them.

* a report of schema 6 (a genuine one, ``tests/data/certificate-schema6.json``, made by the
  previous revision: ``certify tie -p 8to1 --no-eor --sensitivity-decks 8``) is refused in one
  line, as JSON and embedded in a page, by ``verify`` and ``render``;
* baccarat's figures are those of schema 6, member for member (the old report is the second
  source: another revision's code wrote it);
* every game -- baccarat, Pai Gow, and all three (Spanish 21 with them) in one report -- goes
  through every format in one run; ``verify`` holds on its JSON and its page, and every view shows every table.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import slow_param
from typer.testing import CliRunner

from exactodds.cli.app import app
from exactodds.figures.entry import ENTRY_KEYS, TABLE_EXTRAS, TABLE_KEYS
from exactodds.games.certificate import DRAWING_STATEMENT, SCHEMA, SchemaError, certify, parse_report
from exactodds.report.schemas import SCHEMAS

SCHEMA6 = Path(__file__).parent / "data" / "certificate-schema6.json"
BACCARAT = ["tie", "-p", "8to1", "--no-eor", "--sensitivity-decks", "8"]
SPANISH21 = ["--game", "spanish21", "--decks", "1", "--max-hands", "1"]
CASES = {"baccarat": BACCARAT, "paigow": ["--game", "paigow"], "mixed": [*BACCARAT, "--game", "paigow", *SPANISH21]}
"""Each game through every format: Spanish 21 in the mixed report (its exact solve is the slow part,
made once; alone, through every format but XLSX, in ``tests/test_spanish21_certify.py``)."""


def _page(report_text: str) -> str:
    return ('<!DOCTYPE html><html><body><script type="application/json" id="exactodds-report">'
            f"{report_text}</script></body></html>")


def test_a_schema_6_report_is_refused_in_one_line(tmp_path: Path) -> None:
    assert SCHEMA == 7
    old = json.loads(SCHEMA6.read_text())
    assert old["schema"] == 6 and "entries" in old and "games" not in old  # the shape schema 7 retires
    with pytest.raises(SchemaError, match="schema 6 is older than this exactodds reads [(]7[)]: certify it again"):
        parse_report(SCHEMA6.read_text())
    page = tmp_path / "old.html"
    page.write_text(_page(SCHEMA6.read_text()))
    for args in (["verify", str(SCHEMA6)], ["verify", str(page)], ["verify", str(SCHEMA6), "-f", "json"],
                 ["render", str(SCHEMA6), "-f", "html", "-o", str(tmp_path / "new.html")]):
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 2 and res.stdout == "", args
        assert res.stderr.startswith("exactodds: error:") and res.stderr.count("\n") == 1, args
        assert "certify it again" in res.stderr, args
    assert not (tmp_path / "new.html").exists()


def test_baccarat_figures_are_those_of_schema_6() -> None:
    """The same inputs certified now give every figure the previous schema gave: the analysis,
    par sheet, sensitivity, second method and checks of each wager-paytable, the method, readings
    and drawing rules (now the entry's readings and schedule)."""
    old = json.loads(SCHEMA6.read_text())
    new = certify(old["inputs"]["wagers"], old["inputs"]["paytable"], sensitivity_decks=(8,),
                  effects_of_removal=False)
    (entry,) = new["games"]
    assert entry["game"] == "baccarat" and len(entry["tables"]) == len(old["entries"]) == 1
    for was, now in zip(old["entries"], entry["tables"]):
        assert now["outcome_table"] == was["analysis"]
        for key in ("wager", "paytable", "level", "citations", "readings", "par_sheet", "player_advantage",
                    "effects_of_removal", "sensitivity", "verification"):
            assert now[key] == was[key], key
        assert now["id"] == f"{was['wager']}/{was['paytable']}"
    assert entry["deck"]["description"] == old["shoe"]["description"] and entry["deck"]["size"] == old["shoe"]["cards"]
    method = old["method"].replace("each entry names its own", "each table names its own")  # the one word changed
    assert entry["readings"] == [f"Method: {method}", *old["readings"],
                                 f"Drawing rules: {old['drawing_rules']['statement']}"]
    (table_1,) = entry["schedules"]
    assert table_1["cite"] == old["drawing_rules"]["table_1"]["citation"]
    assert table_1["columns"] == ["Banker", *map(str, old["drawing_rules"]["table_1"]["columns"])]
    assert table_1["rows"] == [[str(r["banker"]), *r["draws"]] for r in old["drawing_rules"]["table_1"]["rows"]]
    assert DRAWING_STATEMENT == old["drawing_rules"]["statement"]
    from exactodds.game import rules  # the words of the statement are the rules data's

    assert sorted(rules.NATURALS) == old["drawing_rules"]["naturals"] == [8, 9]
    assert "(8 or 9 on two cards)" in DRAWING_STATEMENT
    assert sorted(rules.PLAYER_DRAWS_ON) == sorted(rules.BANKER_DRAWS_WHEN_PLAYER_STAYS) == [0, 1, 2, 3, 4, 5]
    assert "Player draws on 0-5, stays on 6-7" in DRAWING_STATEMENT and "Player stayed, draws on 0-5" in DRAWING_STATEMENT
    assert sorted(rules.BANKER_ALWAYS_DRAWS) == [0, 1, 2] and "draws on 0-2" in DRAWING_STATEMENT
    assert table_1["rows"] == [[str(b), *("D" if v in vs else "S" for v in range(10))]
                               for b, vs in sorted(rules.BANKER_DRAWS_AGAINST.items())]
    assert {k: v for k, v in new["summary"].items() if k != "tables"} == \
        {k: v for k, v in old["summary"].items() if k != "paytables"} | {"player_advantage": []}
    assert new["summary"]["tables"] == old["summary"]["paytables"]


def _shape(doc: dict[str, Any]) -> None:
    """Every entry has the one shape, every table the common members (and only what a game may add)."""
    jsonschema.validate(doc, SCHEMAS["certificate"]())
    assert not {"entries", "shoe", "method", "readings", "drawing_rules"} & set(doc)
    for g in doc["games"]:
        assert set(g) == ENTRY_KEYS, g["game"]
        for x in g["tables"]:
            assert TABLE_KEYS <= set(x) <= TABLE_KEYS | TABLE_EXTRAS, (g["game"], x["id"])
            total = x["outcome_table"]["total"]
            assert sum(o["count"] for o in x["outcome_table"]["outcomes"]) == total and x["verification"]["all_hold"]
    ids = [f"{g['game']}/{x['id']}" for g in doc["games"] for x in g["tables"]]
    assert doc["summary"]["tables"] == len(ids) == len(set(ids))
    assert set(doc["summary"]["player_advantage"]) <= set(ids)


@pytest.mark.parametrize("case", [slow_param(c, "10 s of CPU (the three games again)") if c == "mixed" else c for c in CASES])
def test_every_game_through_every_format_verifies(tmp_path: Path, case: str) -> None:
    stem = tmp_path / "c"
    res = CliRunner().invoke(app, ["certify", *CASES[case], "--formats", "json,html,csv,markdown,xlsx,table",
                                   "-o", str(stem)])
    assert res.exit_code == 0, res.stderr
    doc = json.loads((tmp_path / "c.json").read_text())
    _shape(doc)
    games = [g["game"] for g in doc["games"]]
    assert games == {"baccarat": ["baccarat"], "paigow": ["paigow"], "mixed": ["baccarat", "paigow", "spanish21"]}[case]
    for name in ("c.json", "c.html"):
        verdict = CliRunner().invoke(app, ["verify", str(tmp_path / name), "-f", "json"])
        assert verdict.exit_code == 0 and json.loads(verdict.stdout)["holds"], verdict.stdout
    tables = [(g, x) for g in doc["games"] for x in g["tables"]]
    markdown = (tmp_path / "c.md").read_text()
    page = (tmp_path / "c.html").read_text()
    terminal = (tmp_path / "c.txt").read_text()
    rows = list(csv.DictReader(io.StringIO((tmp_path / "c.csv").read_text())))
    for g, x in tables:  # each view shows every table: one shape, whatever the game
        assert f"\n### {x['title']}\n" in markdown and f"## {g['title']}\n" in markdown
        assert f"<h2>{x['title']}</h2>" in page.replace("&#x27;", "'") and f"<h2>{g['title']}</h2>" in page
        summary = [r for r in rows if r["table"] == "summary" and (r["game"], r["id"]) == (g["game"], x["id"])]
        assert len(summary) == 1 and summary[0]["house_edge"] == x["outcome_table"]["house_edge"]
        outcomes = [r for r in rows if r["table"] == "outcome" and (r["game"], r["id"]) == (g["game"], x["id"])]
        assert [int(r["count"]) for r in outcomes] == [o["count"] for o in x["outcome_table"]["outcomes"]]
        assert x["title"].split()[0] in terminal
    assert f"Tables certified       {len(tables)} " in terminal
    from openpyxl import load_workbook

    wb = load_workbook(tmp_path / "c.xlsx")
    assert wb.sheetnames[0] == "Summary" and len(wb.sheetnames) == 1 + len(doc["games"]) + len(tables)


def test_a_forged_or_grafted_entry_does_not_hold() -> None:
    """Schema 7's structure is checked like the rest: a schema-6 member beside ``games``, a
    missing ``games``, a member a table does not have, a flipped verdict of an entry or a table,
    a table moved out of its entry -- each re-fingerprinted -- does not hold."""
    import copy

    from exactodds.games.certificate import fingerprint, verify_report

    doc = certify(["tie"], None, sensitivity_decks=(8,), effects_of_removal=False)
    assert verify_report(copy.deepcopy(doc)).holds

    def forged(edit: Any) -> list[str]:
        bad = copy.deepcopy(doc)
        edit(bad)
        bad["fingerprint"]["value"] = fingerprint(bad)
        verdict = verify_report(bad)
        assert not verdict.holds
        return verdict.problems

    assert any("members not in a report" in p for p in forged(lambda d: d.update(entries=[])))
    assert any("members missing" in p and "games" in p for p in forged(lambda d: d.pop("games")))
    assert any("/games[0]/tables[1]/note" in p for p in forged(lambda d: d["games"][0]["tables"][1].update(note="x")))
    assert forged(lambda d: d["games"][0]["verification"].update(all_hold=False))
    assert forged(lambda d: d["games"][0]["tables"][0]["verification"].update(all_hold=False))
    assert forged(lambda d: d["games"].append({**d["games"][0], "tables": [d["games"][0]["tables"].pop()]}))
    assert any("/games[0]/tables" in p for p in forged(lambda d: d["games"][0]["tables"].pop()))
