"""Issue 25: ``verify`` checks what a person reads.

* A page is verified only as the byte-for-byte rendering of the report it embeds (shipped
  template, or a lab's template whose SHA-256 the report records); every forgery of the
  re-audit's list, built here from a genuine page, exits non-zero (:data:`FORGERIES`).
* Rendering is deterministic: a report with its objects' keys in any order renders the same
  bytes (hypothesis), so certificates holding a wager-file wager or Royal 9 verify.
* Templates are code: Jinja2's sandbox, a bounded child process, one error line.
* The certificate CSV of a progressive with meters, with the fingerprint on every row.
* Several outputs all or none, also across a kill between renames.
* Small refusals: a 4,301-digit integer in --document, SOURCE_DATE_EPOCH, bidi controls.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.catalogue.files import load_wager_files
from exactodds.errors import InputError
from exactodds.figures.progressive import Linear
from exactodds.game.cards import Shoe
from exactodds.games.certificate import SCHEMA, Verdict, certify, fingerprint
from exactodds.io import files as outputs
from exactodds.io.names import TEMP_NAME
from exactodds.report import template as templates
from exactodds.report.certify import CSV_COLUMNS, render_report, verify_page
from exactodds.report.html import embedded_json, render_html
from exactodds.report.template import SHIPPED, load_template

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"


def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": "1700000000", **(env or {})}
    return subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True, env=full,
                          cwd=cwd, timeout=600)


def refingerprint(doc: dict[str, Any]) -> dict[str, Any]:
    doc["fingerprint"]["value"] = fingerprint(doc)
    return doc


def small(paytable: str) -> dict[str, Any]:
    return certify(["tie"], paytable, Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=False)


@pytest.fixture(scope="module")
def tie8() -> dict[str, Any]:
    return small("8to1")


@pytest.fixture(scope="module")
def tie9() -> dict[str, Any]:
    return small("9to1")


@pytest.fixture(scope="module")
def genuine(tie8: dict[str, Any]) -> str:
    return str(render_report(tie8, "html"))


def verdict(page: str | bytes, template: Path | None = None) -> Verdict:
    return verify_page(page, None, template)


# -- a genuine page verifies; rendering is deterministic ----------------------------------------------
def test_a_genuine_page_verifies_byte_for_byte(genuine: str) -> None:
    v = verdict(genuine)
    assert v.holds and v.page_verified and v.exit_code == 0 and "byte for byte" in v.page


def test_wager_file_and_royal_9_pages_verify() -> None:
    """Why-1: the page rendered when certifying (objects in the order they were built) is the
    page rendered again from the embedded JSON (keys sorted): break-even and meters of Royal 9,
    the TOML keys of a wager file."""
    files = load_wager_files([str(EXAMPLES / "dragon-7-30to1.toml")])
    doc = certify(["royal-9", *files], None, Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=False)
    assert list(doc["games"][0]["tables"][0]["outcome_table"]["break_even"]) != sorted(doc["games"][0]["tables"][0]["outcome_table"]["break_even"])
    assert list(doc["inputs"]["definitions"][0]["content"]) != sorted(doc["inputs"]["definitions"][0]["content"])
    v = verdict(str(render_report(doc, "html")))
    assert v.exit_code == 0, (v.problems, v.page)


def _shuffled(x: Any, rng: random.Random) -> Any:
    if isinstance(x, dict):
        keys = list(x)
        rng.shuffle(keys)
        return {k: _shuffled(x[k], rng) for k in keys}
    if isinstance(x, list):
        return [_shuffled(v, rng) for v in x]
    return x


@pytest.fixture(scope="module")
def royal() -> dict[str, Any]:
    files = load_wager_files([str(EXAMPLES / "dragon-7-30to1.toml")])
    return certify(["royal-9", *files], None, Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=True)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32))
def test_every_view_is_independent_of_key_order(royal: dict[str, Any], seed: int) -> None:
    shuffled = _shuffled(royal, random.Random(seed))
    assert shuffled == royal
    for fmt in ("html", "markdown", "csv", "table"):
        assert render_report(shuffled, fmt) == render_report(royal, fmt), fmt


# -- forgeries (issue 25, What-5 first bullet) ----------------------------------------------------
META = '<meta name="exactodds-template" content="shipped">'
HOUSE_EDGE = re.compile(r'(data-path="games/0/tables/0/outcome_table/house_edge" data-value="[^"]*">)([^<]*)(<)')


def _edit_edge(page: str) -> str:
    """The visible house edge of the first entry, changed (the text only)."""
    out, n = HOUSE_EDGE.subn(lambda m: m[1] + "1.000000%" + m[3], page, count=2)
    assert n and out != page
    return out


def _edit_edge_and_value(page: str) -> str:
    """The house edge changed in both its text and its data-value."""
    out = re.sub(r'(data-path="games/0/tables/0/outcome_table/house_edge" data-value=")[^"]*(">)[^<]*<',
                 r'\g<1>1/100\g<2>1/100<', page, count=1)
    assert out != page
    return out


def _with_report(page: str, doc: dict[str, Any]) -> str:
    """``page`` carrying ``doc`` as its embedded report (the visible text unchanged)."""
    start = page.index('<script type="application/json" id="exactodds-report">')
    start = page.index(">", start) + 1
    end = page.index("</script>", start)
    return page[:start] + embedded_json(doc) + page[end:]


def _zeroed_program(page: str, doc: dict[str, Any]) -> str:
    forged = copy.deepcopy(doc)
    forged["program"]["sha256"] = "0" * 64
    refingerprint(forged)
    return _edit_edge(str(render_report(forged, "html")))


def _recorded_template(page: str, doc: dict[str, Any]) -> str:
    forged = copy.deepcopy(doc)
    forged["template"] = {"sha256": "0" * 64, "covers": "the forger's"}
    refingerprint(forged)
    return _edit_edge(_with_report(page, forged)).replace(META, '<meta name="exactodds-template" '
                                                                'content="custom sha256:' + "0" * 64 + '">')


def _own_page(page: str, doc: dict[str, Any]) -> str:
    hidden = '<!-- <script type="application/json" id="exactodds-report">' + embedded_json(doc) + "</script> -->"
    return ("<!DOCTYPE html>\n<html><head>" + META + "<title>Certificate</title></head><body><h1>Tie 8 to 1</h1>"
            "<p>House edge 0.100000%</p>" + hidden + "</body></html>")


def _swap(page: str, _doc: dict[str, Any], other: dict[str, Any]) -> str:
    return _with_report(page, other)


def _edited_report(page: str, doc: dict[str, Any], refp: bool) -> str:
    forged = copy.deepcopy(doc)
    forged["games"][0]["tables"][0]["outcome_table"]["house_edge"] = "1/100"
    return _edit_edge_and_value(_with_report(page, refingerprint(forged) if refp else forged))


def _figure_in_text(page: str) -> str:
    """A digit of the 1-in-N column, in a fullwidth look-alike."""
    i = page.index('data-kind="onein"')
    j = page.index(">1 in ", i) + 6
    return page[:j] + chr(0xFF10 + int(page[j])) + page[j + 1:]


Forgery = Callable[[str, dict[str, Any], dict[str, Any]], str]
FORGERIES: dict[str, Forgery] = {
    # the meta tag
    "meta removed": lambda p, d, o: p.replace(META, ""),
    "meta emptied": lambda p, d, o: p.replace(META, '<meta name="exactodds-template" content="">'),
    "meta custom": lambda p, d, o: p.replace('content="shipped"', 'content="custom sha256:0000"'),
    "meta custom placed before the shipped one": lambda p, d, o: p.replace(
        META, '<meta name="exactodds-template" content="custom sha256:0000">' + META),
    "meta removed, figure edited": lambda p, d, o: _edit_edge(p.replace(META, "")),
    "meta emptied, figure edited": lambda p, d, o: _edit_edge(
        p.replace(META, '<meta name="exactodds-template" content="">')),
    "meta custom, figure edited (the H3 forgery)": lambda p, d, o: _edit_edge(
        p.replace('content="shipped"', 'content="custom sha256:0000"')),
    "meta custom before the shipped one, figure edited": lambda p, d, o: _edit_edge(p.replace(
        META, '<meta name="exactodds-template" content="custom sha256:0000">' + META)),
    "meta in capitals, figure edited": lambda p, d, o: _edit_edge(
        p.replace(META, META.replace("<meta", "<META"))),
    # visible figures
    "house edge text edited": lambda p, d, o: _edit_edge(p),
    "house edge text and data-value edited": lambda p, d, o: _edit_edge_and_value(p),
    "data-value alone edited": lambda p, d, o: p.replace('data-value="', 'data-value="x', 1),
    "a count edited": lambda p, d, o: re.sub(r'(data-kind="count"[^>]*>)(\d)', lambda m: m[1] + str((int(m[2]) + 1) % 10),
                                             p, count=1),
    "visible fingerprint edited": lambda p, d, o: p.replace(d["fingerprint"]["value"][:16], "0" * 16, 1),
    "a badge turned": lambda p, d, o: p.replace('<span class="badge ok">holds</span>',
                                                '<span class="badge bad">FAILS</span>', 1),
    "a digit in a look-alike": lambda p, d, o: _figure_in_text(p),
    "title edited": lambda p, d, o: p.replace("<title>", "<title>Approved: ", 1),
    "a reading edited": lambda p, d, o: p.replace("<li>Universe", "<li>Approved universe", 1),
    "a section removed": lambda p, d, o: re.sub(r'<h3>Verification</h3>.*?</ul>', "", p, count=1, flags=re.S),
    # the program, the template record
    "program.sha256 zeroed, fingerprint recomputed, figure edited": lambda p, d, o: _zeroed_program(p, d),
    "template recorded by the forger, fingerprint recomputed, figure edited": lambda p, d, o: _recorded_template(p, d),
    # someone else's page, another report
    "own page with the genuine report in an HTML comment": lambda p, d, o: _own_page(p, d),
    "genuine page, genuine report commented out beside it": lambda p, d, o: p.replace(
        "</body>", '<!-- <script type="application/json" id="exactodds-report">' + embedded_json(d) + "</script> -->"
        "</body>"),
    "tie 8to1 page carrying the 9to1 report": _swap,
    "9to1 report, its meta custom": lambda p, d, o: _swap(p, d, o).replace('content="shipped"',
                                                                             'content="custom sha256:0"'),
    "embedded report edited, not re-fingerprinted": lambda p, d, o: _edited_report(p, d, False),
    "embedded report edited and re-fingerprinted": lambda p, d, o: _edited_report(p, d, True),
    "a second embedded report": lambda p, d, o: p.replace("</body>", '<script type="application/json" '
                                                          'id="exactodds-report">' + embedded_json(o) + "</script></body>"),
    "embedded JSON re-escaped (same value)": lambda p, d, o: p.replace('"report":"exactodds', '"report":"\\u0065xactodds'),
    # injected content
    "script injected in the body": lambda p, d, o: p.replace("</body>", "<script>alert(1)</script></body>"),
    "script injected in the head": lambda p, d, o: p.replace("</head>", "<script>document.title='x'</script></head>"),
    "style hiding a section": lambda p, d, o: p.replace("</style>", "section.entry{display:none}</style>", 1),
    "refresh to another page": lambda p, d, o: p.replace("<head>", '<head><meta http-equiv="refresh" '
                                                         'content="0;url=https://example.org/">', 1),
    "content after the document": lambda p, d, o: p + "<p>House edge 0.1%</p>",
    "a byte-order mark": lambda p, d, o: "\ufeff" + p,
    "CRLF line endings": lambda p, d, o: p.replace("\n", "\r\n"),
}
"""Each forgery of the re-audit (issue 25, What-5), built from a genuine tie 8to1 page
(``p``), its report (``d``) and the genuine 9to1 report (``o``)."""


@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_forged_page_never_verifies(name: str, genuine: str, tie8: dict[str, Any], tie9: dict[str, Any]) -> None:
    forged = FORGERIES[name](genuine, tie8, tie9)
    assert forged != genuine
    try:
        v = verdict(forged)
    except Exception as exc:  # unreadable (exit 2) is non-zero too, but say which
        assert type(exc).__name__ == "ReportError", exc
        return
    assert v.exit_code != 0 and not v.holds, (name, v.page)


def test_forgeries_exit_non_zero_on_the_command_line(tmp_path: Path, genuine: str, tie8: dict[str, Any],
                                                     tie9: dict[str, Any]) -> None:
    for name, code, fmt in (("meta custom, figure edited (the H3 forgery)", 1, "text"),
                            ("program.sha256 zeroed, fingerprint recomputed, figure edited", 3, "text"),
                            ("tie 8to1 page carrying the 9to1 report", 1, "json")):
        f = tmp_path / "forged.html"
        f.write_text(FORGERIES[name](genuine, tie8, tie9), encoding="utf-8")
        r = run("verify", str(f), "-f", fmt)
        assert r.returncode == code and "HOLDS:" not in r.stdout, (name, r.stdout)
        if fmt == "json":
            got = json.loads(r.stdout)
            assert code == got["exit_code"] and got["holds"] is False and got["page_verified"] is False
        else:
            assert ("PAGE NOT VERIFIED" if code == 3 else "DOES NOT HOLD") in r.stdout


# -- verify's verdicts on the command line --------------------------------------------------------
def test_verify_exit_codes_and_json_verdict(tmp_path: Path) -> None:
    """certify --wager-file dragon-7 -o d7.html && verify d7.html (the README's command) exits 0;
    the JSON verdict says the same; a schema-3 report is refused in one line (exit 2)."""
    d7 = tmp_path / "d7.html"
    r = run("certify", "--wager-file", str(EXAMPLES / "dragon-7-30to1.toml"), "dragon-7", "--no-eor",
            "--sensitivity-decks", "8", "-o", str(d7), "-o", str(tmp_path / "d7.json"))
    assert r.returncode == 0, r.stderr
    r = run("verify", str(d7), "-f", "json")
    got = json.loads(r.stdout)
    assert r.returncode == 0 and got["verdict"] == "holds" and got["page_verified"] is True and got["problems"] == []
    doc = json.loads((tmp_path / "d7.json").read_text())
    assert got["fingerprint"] == doc["fingerprint"]["value"]
    old = dict(doc, schema=SCHEMA - 1)
    (tmp_path / "old.json").write_text(json.dumps(refingerprint(old)))
    r = run("verify", str(tmp_path / "old.json"))
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1 and "older" in r.stderr


def test_a_custom_template_page_is_verified_only_with_the_recorded_template(tmp_path: Path,
                                                                            tie8: dict[str, Any]) -> None:
    lab = tmp_path / "lab"
    lab.mkdir()
    (lab / "certificate.css").write_text((SHIPPED / "certificate.css").read_text() + "\nh1 { color: navy }\n")
    doc = copy.deepcopy(tie8)
    doc["template"] = load_template(lab).record()
    page = render_html(refingerprint(doc), lab)
    assert "h1 { color: navy }" in page
    v = verdict(page)
    assert v.exit_code == 3 and v.report_holds and not v.holds and "--template" in v.page
    assert verdict(page, lab).exit_code == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "certificate.css").write_text("h1 { color: red }\n")
    assert verdict(page, other).exit_code == 3
    assert verdict(_edit_edge(page), lab).exit_code == 1
    (lab / "certificate.css").write_text("h1 { color: green }\n")  # the template changed since: not the one recorded
    assert verdict(page, lab).exit_code == 3


# -- templates are code -------------------------------------------------------------------------------
EXPLOIT = "{{ cycler.__init__.__globals__.os.system('touch PWNED') }}"


@pytest.mark.parametrize("command", ["certify", "render", "verify"])
def test_a_template_cannot_run_python(tmp_path: Path, tie8: dict[str, Any], command: str) -> None:
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "certificate.html.j2").write_text(EXPLOIT)
    report = tmp_path / "r.json"
    doc = copy.deepcopy(tie8)
    doc["template"] = load_template(evil).record()
    report.write_text(json.dumps(refingerprint(doc)))
    page = tmp_path / "r.html"  # a page the shipped template does not make: verify must render with the template
    page.write_text(render_html(doc).replace('content="shipped"', 'content="custom"'))
    args = {"certify": ["certify", "tie", "--no-eor", "--sensitivity-decks", "8", "-o", "out.html"],
            "render": ["render", str(report), "-o", "out.html"],
            "verify": ["verify", str(page)]}[command]
    r = run(*args, "--template", str(evil), cwd=tmp_path)
    assert not (tmp_path / "PWNED").exists()
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("exactodds: error: template:") and "unsafe" in r.stderr
    assert not (tmp_path / "out.html").exists()


def test_templates_run_in_the_sandbox_with_bounded_time_and_memory(tmp_path: Path, tie8: dict[str, Any],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for name, text, words in (
            ("loop", "{% for i in range(100000) %}{% for j in range(100000) %}{{ i }}{% endfor %}{% endfor %}",
             "CPU"),
            ("memory", '{{ "x" * 4000000000 }}', "memory"),
            ("mutate", "{{ entries.append(1) }}", "unsafe"),
            ("private", "{{ title.__class__ }}", "__class__")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "certificate.html.j2").write_text(text)
        monkeypatch.setattr(templates, "CPU_SECONDS", 1)
        with pytest.raises(InputError) as caught:
            render_html(tie8, folder)
        assert "\n" not in str(caught.value) and str(caught.value).startswith("template:")
        assert words in str(caught.value) or name in ("private",), (name, str(caught.value))


def test_bad_template_folders_are_one_line(tmp_path: Path) -> None:
    binary = tmp_path / "binary"
    binary.mkdir()
    (binary / "certificate.html.j2").write_bytes(b"\xff\xfe{{ title }}")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "letterhead.html").write_text("not one of the two files")
    for folder, words in ((binary, "not UTF-8"), (empty, "holds neither"), (tmp_path / "missing", "not a folder")):
        with pytest.raises(InputError, match=words):
            load_template(folder)
    r = run("certify", "tie", "--no-eor", "--template", str(binary), "-o", str(tmp_path / "x.html"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "UTF-8" in r.stderr
    for command in ("certify", "render", "verify"):
        shown = " ".join(run(command, "--help").stdout.split())
        assert "template is code" in shown, command
        if command == "verify":  # the exit statuses, 3 included
            assert "3 if the report holds but its HTML page could not be checked" in shown


# -- the certificate CSV ----------------------------------------------------------------------------
def test_certify_csv_of_a_progressive_with_meters(royal: dict[str, Any]) -> None:
    rows = list(csv.reader(io.StringIO(str(render_report(royal, "csv")))))
    assert tuple(rows[0]) == CSV_COLUMNS
    col = {name: i for i, name in enumerate(rows[0])}
    fp = royal["fingerprint"]["value"]
    assert all(r[col["fingerprint"]] == fp for r in rows[1:])
    summary = [r for r in rows if r[0] == "summary" and r[1] == "baccarat" and r[2].startswith("royal-9/")]
    assert summary
    a = royal["games"][0]["tables"][0]["outcome_table"]
    assert "*M_" in a["return"]
    assert summary[0][col["return"]] == a["return"]
    assert summary[0][col["return_decimal"]] == Linear.parse(a["return"]).readable()
    r = run("certify", "royal-9", "--no-eor", "--sensitivity-decks", "8", "-f", "csv")
    assert r.returncode == 0 and r.stderr == "" and "*M_mega" in r.stdout


# -- all or none ------------------------------------------------------------------------------------
def _names(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def test_an_error_between_renames_rolls_the_set_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "r.json").write_text("old json")
    (tmp_path / "r.md").write_text("old md")
    real = os.replace
    renamed: list[str] = []

    def failing(src: Any, dst: Any) -> None:
        if TEMP_NAME.match(os.path.basename(src)) and not str(dst).endswith(".set"):
            if len(renamed) == 2:
                raise OSError(28, "No space left on device")
            renamed.append(str(dst))
        real(src, dst)

    monkeypatch.setattr(outputs.os, "replace", failing)
    with pytest.raises(InputError, match="no space"):
        outputs.write_all([(tmp_path / "r.json", "new"), (tmp_path / "r.html", "new"), (tmp_path / "r.md", "new")])
    assert len(renamed) == 2
    assert _names(tmp_path) == ["r.json", "r.md"]
    assert (tmp_path / "r.json").read_text() == "old json" and (tmp_path / "r.md").read_text() == "old md"


def test_a_failing_backup_is_one_line_and_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "r.json").write_text("old json")

    def no_room(final: str, backup: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs, "keep_backup", no_room)
    with pytest.raises(InputError, match="no space left") as caught:
        outputs.write_all([(tmp_path / "r.json", "new"), (tmp_path / "r.html", "new")])
    assert "\n" not in str(caught.value)
    assert _names(tmp_path) == ["r.json"] and (tmp_path / "r.json").read_text() == "old json"


KILL = """
import os, sys
from exactodds.io import files
from exactodds.io.names import TEMP_NAME
real = os.replace
done = []
def replace(src, dst):
    real(src, dst)
    if TEMP_NAME.match(os.path.basename(src)) and not str(dst).endswith(".set"):
        done.append(dst)
        if len(done) == int(sys.argv[2]):
            os._exit(9)  # killed between two renames: no handler runs
files.os.replace = replace
folder = sys.argv[1]
files.write_all([(os.path.join(folder, n), "new " + n) for n in ("r.json", "r.html", "r.xlsx", "r.md")])
"""


@pytest.mark.parametrize("after", [1, 3])
def test_a_kill_between_renames_is_rolled_back_by_the_next_run(tmp_path: Path, after: int) -> None:
    (tmp_path / "r.json").write_text("old json")
    (tmp_path / "r.xlsx").write_text("old xlsx")
    before = {n: (tmp_path / n).read_text() for n in _names(tmp_path)}
    p = subprocess.run([sys.executable, "-c", KILL, str(tmp_path), str(after)], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert p.returncode == 9, p.stderr
    left = _names(tmp_path)
    assert any(n.endswith(".set") for n in left)  # the journal is there
    changed = [n for n in ("r.json", "r.html", "r.xlsx", "r.md") if (tmp_path / n).exists()
               and (tmp_path / n).read_text().startswith("new")]
    assert len(changed) == after  # a partial set, as the kill left it
    outputs.write_atomic(tmp_path / "unrelated.txt", "x")  # the next run writing into the folder
    assert _names(tmp_path) == sorted([*before, "unrelated.txt"])
    assert {n: (tmp_path / n).read_text() for n in before} == before


def test_a_set_completes_and_leaves_nothing_behind(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text("old")
    outputs.write_all([(tmp_path / "r.json", "new json"), (tmp_path / "r.html", "new html")])
    assert _names(tmp_path) == ["r.html", "r.json"] and (tmp_path / "r.json").read_text() == "new json"


def test_a_foreign_users_or_malformed_journal_is_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    st = victim.stat()
    marker = tmp_path / ".exo-000000-999999999-0123abcd.set"  # another machine's, old
    entry = {"final": str(victim), "temp": str(tmp_path / "not-ours.tmp"), "dev": st.st_dev, "ino": st.st_ino,
             "backup": None}
    marker.write_text(json.dumps({"outputs": [entry]}))
    os.chmod(marker, 0o600)
    os.utime(marker, (0, 0))
    outputs.write_atomic(tmp_path / "x.txt", "x")
    assert victim.read_text() == "keep me" and marker.exists()
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # well formed, but another user's: not followed either
        entry["temp"] = str(tmp_path / ".exo-000000-999999999-0123abcd.tmp")
        marker.write_text(json.dumps({"outputs": [entry]}))
        os.chown(marker, 65534, 65534)
        os.utime(marker, (0, 0))
        outputs.write_atomic(tmp_path / "x.txt", "y")
        assert victim.read_text() == "keep me" and marker.exists()
        os.chown(marker, 0, 0)  # the same journal, this user's: followed (the check above is the owner's)
        outputs.write_atomic(tmp_path / "x.txt", "z")
        assert not victim.exists() and not marker.exists()


# -- small refusals ---------------------------------------------------------------------------------
def test_document_numbers_epoch_and_bidi_controls_are_one_line(tmp_path: Path) -> None:
    from exactodds.games.certificate import MAX_EPOCH, report_time
    from exactodds.report.document import parse_document

    for text, words in (("game = " + "9" * 4301, "too long"), ('game = "Dragon \u202e7"', "U+202E"),
                        ('lab = "A\u2066B"', "U+2066"), ('[[approval]]\nname = "x\u200f"\nrole = "r"', "U+200F")):
        with pytest.raises(InputError, match=re.escape(words)) as caught:
            parse_document(text)
        assert "\n" not in str(caught.value)
    for raw, ok in ((str(MAX_EPOCH), True), ("0" + str(MAX_EPOCH), True), (str(MAX_EPOCH + 1), False),
                    ("1" * 13, False), ("9" * 5000, False), ("1e9", False), ("0", True)):
        os.environ["SOURCE_DATE_EPOCH"] = raw
        try:
            if ok:
                assert report_time().endswith("Z")
            else:
                with pytest.raises(InputError, match=str(MAX_EPOCH)):
                    report_time()
        finally:
            del os.environ["SOURCE_DATE_EPOCH"]
    wager = (EXAMPLES / "dragon-7-30to1.toml").read_text().replace("house rules", "house \u202erules")
    (tmp_path / "w.toml").write_text(wager)
    r = run("certify", "--wager-file", str(tmp_path / "w.toml"), "dragon-7", "-o", str(tmp_path / "x.json"))
    assert r.returncode == 2 and "U+202E" in r.stderr and r.stderr.count("\n") == 1
    assert not (tmp_path / "x.json").exists()


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", "7", " ", "\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f",
                                         "\u061c", "\u00e9", "\u0085", "\u2028"]), min_size=1, max_size=12))
def test_a_document_field_holds_no_bidi_or_control_character(text: str) -> None:
    from exactodds.inputs import BIDI_CONTROLS
    from exactodds.report.document import parse_document

    try:
        doc = parse_document(f"lab = {json.dumps(text)}")
    except InputError as exc:
        assert "\n" not in str(exc)
        assert set(text) & (BIDI_CONTROLS | {"\u0085", "\u2028"}) or not text.strip()
        return
    assert doc["lab"] == text and not set(text) & BIDI_CONTROLS
