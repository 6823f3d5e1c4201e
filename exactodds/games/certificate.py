"""Certification reports: every figure of a wager, recomputed independently, fingerprinted.

:func:`certify` builds one JSON document (the report) whose figures are a list ``games`` of
entries of one shape (:mod:`exactodds.figures.entry`, schema 7): baccarat's for some wagers -- or
the whole catalogue -- on one shoe (:func:`baccarat_entry`), then one per other game asked for
(:func:`exactodds.figures.entry.game_entry`). Baccarat's tables are its wager-paytables: per
paytable, the citations and readings, the outcome table
with exact counts and the figures of :func:`~exactodds.figures.analysis.analysis_json` (which
carries the progressive figures of progressive paytables), the effects of removal
(:mod:`exactodds.figures.eor`), the deck-count sensitivity (6, 7, 8 decks by default) and a
verification section:

* **Second method.** For every level, every outcome count is recomputed by
  :mod:`exactodds.figures.second_method` -- a computation that uses no count of the
  engine: a rank × suit cell walk for ``coup`` and ``deal-faces``, a direct enumeration
  of card faces for the opening levels and Royal 9, a face-level count of the player's
  two cards and the up card for Match-The-Dealer, the brute-force deal of every card
  ordering for shoes of fewer than six cards -- settled with the wager's own rule and
  compared exactly, row by row, with the return recomputed from those counts. Each entry
  names its method in words. A level without a second method would say so explicitly;
  no agreement is claimed that was not computed.
* **Consistency checks** on every paytable: the outcome counts add up to the universe
  ``N·(N−1)·…·(N−U+1)`` computed afresh; the effects-of-removal identity
  ``Σ n·Return(shoe − card) = N·Return(shoe)`` holds exactly.

The report carries the package version, its inputs and a SHA-256 fingerprint of its
canonical content (JSON with sorted keys, no insignificant whitespace, UTF-8, the
``fingerprint`` member left out). :func:`verify_report` checks, cheaply and first, the
structure (no member outside the schema; :func:`parse_report` refuses repeated keys), the
fingerprint and the inputs (known wagers, no repeats, bounded deck lists), and only then
recomputes the whole report from its inputs, comparing every figure exactly.
Its Markdown, CSV and HTML views (:mod:`exactodds.report.certify`, :mod:`exactodds.report.html`)
are for people and spreadsheets; only the JSON can be verified, and the Markdown says so.

Progressive paytables: the ``return`` of the analysis is the exact linear form in the
meter amounts (``p/q*M_name`` terms and a ``p/q`` constant,
:class:`exactodds.figures.progressive.Linear`), ``return_at_reset`` the exact ``p/q`` at
the regulated resets; a check ties the form to the outcome rows.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from exactodds.catalogue import CATALOGUE, get_wager
from exactodds.catalogue.model import Paytable, Wager
from exactodds.errors import InputError
from exactodds.exact import ratio
from exactodds.figures.analysis import VOID, Analysis, analysis_json, analyze_pairs
from exactodds.figures.eor import (
    EffectsOfRemoval,
    Progress,
    effects_for,
    eor_json,
)
from exactodds.figures.parsheet import par_sheet, player_advantage_check
from exactodds.figures.plan import compile_plans
from exactodds.figures.second_method import outcome_counts
from exactodds.game.cards import Shoe, falling_factorial
from exactodds.game.rules import (
    BANKER_DRAWS_AGAINST,
)
from exactodds.game.rules import CITATION as RULES_CITATION
from exactodds.game.shoespec import (
    RANK_REMOVAL_READING,
    RANK_SPREAD_READING,
    shoe_from_spec,
    shoe_spec,
)
from exactodds.inputs import json_error, load_json, shown
from exactodds.version import __version__

REPORT_KIND: Final = "exactodds certification report"
SCHEMA: Final = 7
"""3: an outcome is named by its member ``outcome`` (was ``name``), as in every CSV, JSON and DataFrame;
4: the optional member ``template`` (a lab's HTML template, by its SHA-256); 5: the games of the seam
(:mod:`exactodds.game.protocol`) as a list ``games`` of game entries, each with its rules record and a
whole par sheet per strategy (:func:`exactodds.figures.entry.game_entry`; inputs ``games`` replaces the
flag ``paigow``); 6: Spanish 21's main wager is a game entry like the others (``--game spanish21``), its
own section ``spanish21`` and input ``spanish21`` gone; 7: one list ``games`` of entries of one shape
(:mod:`exactodds.figures.entry`), baccarat's among them -- its wager-paytables the ``tables`` of its entry,
its shoe, method, readings and drawing rules its ``deck``, ``readings`` and ``schedules`` -- the top-level
``shoe``, ``method``, ``readings``, ``drawing_rules`` and ``entries`` gone. A report of an older schema is
refused in one line (certify it again)."""
SENSITIVITY_DECKS: Final = (6, 7, 8)
MAX_SENSITIVITY: Final = 16
"""Most deck counts a report's sensitivity section may list (bounds a recomputation)."""
TOP_KEYS: Final = frozenset({"report", "schema", "inputs", "games", "summary", "version", "program", "generated_utc",
                             "fingerprint"})
"""Every report's members: ``games`` holds every figure (one entry per game, :mod:`exactodds.figures.entry`),
the others say what made it and how it is checked."""
OPTIONAL_KEYS: Final = frozenset({"document", "template"})
"""Top-level members a report may have besides :data:`TOP_KEYS`: ``document`` (document control,
``--document``) and ``template`` (the lab's HTML template its page is rendered with,
``--template``), fingerprinted but not recomputed."""
MAX_GAMES: Final = 16
"""Most game entries a report's inputs may ask for (bounds a recomputation)."""
INPUT_KEYS: Final = frozenset({"wagers", "paytable", "shoe", "sensitivity_decks", "effects_of_removal"})
FINGERPRINT_KEYS: Final = frozenset({"algorithm", "value", "covers"})
VOLATILE_KEYS: Final = ("fingerprint", "generated_utc", "version", "program", "document", "template")
"""Top-level keys a recomputation does not compare (the fingerprint still covers the last three)."""

READINGS: Final = (
    ("Universe: ordered sequences of U = min(N, 6) cards off the top of the shoe (N cards); "
     "cards dealt to no hand are counted, not enumerated, so every table totals N·(N−1)·…·(N−U+1)."),
    f"Drawing rules: {RULES_CITATION}; dealing order § 629a.8(c) (cards 1, 3 Player; 2, 4 Banker).",
    "A round a short shoe cannot finish is void and every wager pushes (58 Pa. Code § 629a.13(e)).",
    ("Where several winning outcomes of one wager happen at once, only one is paid (the highest, or the "
     "first in the regulation's order where the wager says so)."),
    ("Progressive paytables are priced with every meter at its regulated reset (0 where none is set); "
     "the exact return as a function of the meters is given alongside."),
    RANK_SPREAD_READING,
    RANK_REMOVAL_READING,
    ("Effects of removal: Return(shoe − card) − Return(shoe); the effect of a rank is the count-weighted "
     "mean over its faces."),
)

METHOD: Final = (
    "Counts are exact integers from a composition enumerator: every deal shape (the class of each card a "
    "round uses, dealt per § 629a.8-629a.10) is enumerated once, grouped by multiset of classes, and priced "
    "for the shoe by falling factorials Π n_c·(n_c−1)·… × (N−m)·…·(N−U+1). Probabilities and returns are "
    "reduced fractions computed from those integers; decimals are display only. Every table is recomputed "
    "by a second method that uses no count of the enumerator (a rank × suit cell walk, a direct enumeration "
    "of card faces, or the brute-force deal of a short shoe; each table names its own) and compared exactly; "
    "the engine is also tested against a brute-force deal of every physical card sequence of small shoes."
)

CHECKS_COVER: Final = (
    "the mathematics only: every count adds up, every identity holds and the second method agrees where "
    "there is one. Whether a paytable favours the player is a separate finding (player_advantage), not a check "
    "of the mathematics.")
MAX_DEFINITION_BYTES: Final = 64 * 1024
"""Most bytes of embedded wager files ``verify`` recomputes (bounds the work a report can ask for)."""
SOURCE_DATE_EPOCH: Final = "SOURCE_DATE_EPOCH"
"""The reproducible-builds variable: seconds since 1970 UTC, fixes ``generated_utc``."""
MAX_EPOCH: Final = 253402300799
"""The last second of the year 9999 (a 12-digit ``SOURCE_DATE_EPOCH``): the latest time a report can state."""


DRAWING_STATEMENT: Final = (
    "Either hand a Natural (8 or 9 on two cards): no card is drawn (§ 629a.10(a)). Player draws on 0-5, stays on 6-7 "
    "(§ 629a.10(b)). Banker: if the Player stayed, draws on 0-5; if the Player drew, draws on 0-2, stays on 7, and on "
    "3-6 by Table 1 against the value of the Player's third card (D draws, S stays) (§ 629a.10(c)).")


def drawing_rules() -> dict[str, Any]:
    """The drawing rules printed from the rules data (:mod:`exactodds.game.rules`), § 629a.10: the
    baccarat entry's schedule Table 1 (a :class:`~exactodds.game.protocol.Schedule`), its rows the
    Banker's point counts, its columns the value of the Player's third card; the naturals and the
    Player's and Banker's other draws are stated in words (:data:`DRAWING_STATEMENT`, a reading of
    the entry; ``tests/test_certify.py`` checks the words against the rules data)."""
    from exactodds.game.protocol import Schedule

    return Schedule("Drawing rules, Table 1: the Banker's point count (rows) against the value of the Player's third "
                    "card (columns); D draws, S stays", "58 Pa. Code § 629a.10(c)(2)(iii) Table 1",
                    ("Banker", *map(str, range(10))),
                    tuple((str(b), *("D" if v in vs else "S" for v in range(10)))
                          for b, vs in sorted(BANKER_DRAWS_AGAINST.items()))).to_json()


PROGRAM_SUFFIXES: Final = (".py", ".html", ".css", ".j2", ".npz", ".json")
"""What a program hash covers: the source, the templates, and the exact tables the package
ships (the shape tables, the standard shoes' counts, Pai Gow's arrays), which determine
figures as much as the code does."""


def program_files() -> list[Path]:
    """The installed package's files the program hash covers, sorted by path."""
    root = Path(__file__).resolve().parent.parent
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in PROGRAM_SUFFIXES
                  and "__pycache__" not in p.parts)


def program_identity() -> dict[str, Any]:
    """The running program: version and a SHA-256 over :func:`program_files` (sorted relative
    paths; each path, a NUL, its length, a NUL, its bytes)."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    files = program_files()
    for p in files:
        data = p.read_bytes()
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return {"name": "exactodds", "version": __version__, "sha256": h.hexdigest(), "files": len(files),
            "covers": f"every {', '.join(PROGRAM_SUFFIXES)} file of the installed package, sorted by path"}


def report_time(now: _dt.datetime | None = None) -> str:
    """``generated_utc``: ``now``, else ``SOURCE_DATE_EPOCH`` when set (reproducible builds), else the clock."""
    if now is None and os.environ.get(SOURCE_DATE_EPOCH, "").strip():
        raw = os.environ[SOURCE_DATE_EPOCH].strip()
        digits = raw.lstrip("0") or "0"  # leading zeros are allowed; the value is bounded before int()
        if not re.fullmatch(r"[0-9]+", raw, re.ASCII) or len(digits) > 12 or int(digits) > MAX_EPOCH:
            raise InputError(f"{SOURCE_DATE_EPOCH} must be whole seconds since 1970, 0 to {MAX_EPOCH} "
                             f"(9999-12-31T23:59:59Z), got {shown(raw)}")
        now = _dt.datetime.fromtimestamp(int(digits), _dt.UTC)
    return (now or _dt.datetime.now(_dt.UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")


class ReportError(Exception):
    """A report that cannot be read (not JSON, not a report, too large): exit 2."""


class SchemaError(ReportError):
    """A report of a schema this version does not read (newer, or older than :data:`SCHEMA`):
    refused in one line, also when a page embeds it."""


# -- building ----------------------------------------------------------------------------------
def _second_method(a: Analysis) -> dict[str, Any]:
    """Recompute every outcome count by the second method of the wager's level and compare.

    Per outcome row (the void row included): the second method's count and whether it
    equals the analysis exactly; then the return recomputed from those counts with the
    row's pays. ``agrees`` needs every row, the universe and the return to match, and
    no outcome the analysis lacks.
    """
    second = outcome_counts(a.wager, a.paytable, a.shoe)
    if second is None:
        return {"method": None, "statement": f"no second method for the {a.wager.level.name!r} level",
                "agrees": None}
    counts = dict(second.counts)
    if second.void:
        counts[VOID] = second.void
    rows = [{"outcome": r.name, "count": counts.get(r.name, 0), "agrees": counts.get(r.name, 0) == r.count}
            for r in a.rows]
    extra = sorted(set(counts) - {r.name for r in a.rows})
    ret = sum((r.pay.net * counts.get(r.name, 0) for r in a.rows), Fraction(0)) / second.universe
    agrees = (all(x["agrees"] for x in rows) and not extra and second.universe == a.total
              and ret == a.return_)
    out: dict[str, Any] = {
        "method": second.method,
        "statement": "every outcome count and the return recomputed and compared exactly",
        "outcomes": rows, "universe": second.universe, "return": ratio(ret), "agrees": agrees}
    if extra:
        out["outcomes_not_in_the_analysis"] = {k: counts[k] for k in extra}
    return out


def _checks(a: Analysis, e: EffectsOfRemoval | None) -> list[dict[str, Any]]:
    n = a.shoe.size
    got = sum(r.count for r in a.rows)
    if a.wager.level.baccarat:
        universe = falling_factorial(n, min(n, 6))
        out = [{"check": "outcome counts add up to N·(N−1)·…·(N−U+1)", "expected": universe, "got": got,
                "holds": got == universe}]
    else:  # not a baccarat round (e.g. Spanish 21): the level defines its own universe
        out = [{"check": f"outcome counts add up to the {a.wager.level.name!r} level's total", "expected": a.total,
                "got": got, "holds": got == a.total}]
    if a.paytable.meters:
        from exactodds.figures.progressive import meter_variable, progressive_figures

        f = progressive_figures(a)
        priced = {meter_variable(n): v for n, v in (a.meter_amounts or {}).items()}
        out.append({"check": "the return expression in the meters, at the priced meters, equals the return "
                             "summed over the outcome rows", "holds": f.expression.at(priced) == a.return_})
    if e is not None:
        out.append({"check": "Σ n·Return(shoe − card) = N·Return(shoe)",
                    "holds": e.identity_holds, "applies": e.identity_holds is not None})
        out.append({"check": "effects-of-removal base return equals the analysis return",
                    "holds": e.base_return == a.return_})
    return out


def _sensitivity(by_decks: Sequence[tuple[int, Analysis]]) -> list[dict[str, Any]]:
    out = []
    for d, a in by_decks:
        out.append({"decks": d, "return": ratio(a.return_), "house_edge": ratio(a.house_edge),
                    "variance": ratio(a.variance), "hit_frequency": ratio(a.hit_frequency),
                    "element_of_risk": None if a.element_of_risk is None else ratio(a.element_of_risk)})
    return out


def _table(a: Analysis, e: EffectsOfRemoval | None, skipped: str | None,
           by_decks: Sequence[tuple[int, Analysis]]) -> dict[str, Any]:
    """A wager-paytable as a table of the baccarat entry (:func:`exactodds.figures.entry.table`):
    its analysis (with a progressive's figures) as the outcome table, the par sheet, the second
    method and checks, and what baccarat adds -- citations, readings, effects of removal and the
    deck-count sensitivity."""
    from exactodds.figures.entry import table

    doc = analysis_json(a)
    doc.pop("version", None)
    second = _second_method(a)
    checks = _checks(a, e)
    verified = bool(second["agrees"] is not False and all(c["holds"] is not False for c in checks))
    t = a.outcome_table()
    checks.append(player_advantage_check(t))  # about the game: not part of all_hold
    return table(
        f"{a.wager.id}/{a.paytable.id}", f"{a.wager.name} — paytable {a.paytable.id}", doc, par_sheet(t),
        a.return_ > 0, {"second_method": second, "checks": checks, "all_hold": verified},
        wager=a.wager.id, paytable=a.paytable.id, level=a.wager.level.name,
        citations={"wager": a.wager.cite, "paytable": a.paytable.cite},
        readings={"wager": a.wager.reading or None, "paytable": a.paytable.note or None},
        effects_of_removal=eor_json(e) if e is not None else {"skipped": skipped or "not requested"},
        sensitivity=_sensitivity(by_decks))


def baccarat_entry(shoe: Shoe, tables: list[dict[str, Any]]) -> dict[str, Any]:
    """Baccarat's entry of a report (:func:`exactodds.figures.entry.entry`): the shoe as its deck
    and rules record, the method and readings, the drawing rules (§ 629a.10 Table 1) as its
    schedule, and one table per wager-paytable."""
    from exactodds.figures.entry import entry
    from exactodds.game.protocol import STANDARD_52, rules_record
    from exactodds.games.baccarat import Baccarat, BaccaratShoe

    deck = {**STANDARD_52.to_json(shoe.decks or 1), "decks": shoe.decks, "size": shoe.size,
            "description": shoe.describe()}
    return entry(Baccarat, deck, rules_record(BaccaratShoe(shoe.describe())),
                 [f"Method: {METHOD}", *READINGS, f"Drawing rules: {DRAWING_STATEMENT}"], tables, [drawing_rules()])


def _targets(wagers: Iterable[str] | None, paytable: str | None) -> list[tuple[Wager[Any], Paytable]]:
    ws = [get_wager(x) for x in wagers] if wagers is not None else list(CATALOGUE.values())
    if not ws:
        raise InputError("no wager to certify")
    if paytable is not None and len(ws) != 1:
        raise InputError("--paytable needs exactly one WAGER")
    return [(w, t) for w in ws for t in ([w.paytable(paytable)] if paytable is not None else w.paytables)]


def game_inputs(recorded: Any) -> list[tuple[Any, Any]]:
    """The (game, rules) of a report's ``inputs/games``: a list of at most :data:`MAX_GAMES`
    ``{"game": id, "rules": {field: value}}``, games of the registry certified as one entry
    (not per wager), none twice. Anything else is an :class:`InputError`."""
    from exactodds.games.registry import get_game

    if not isinstance(recorded, list) or not recorded or len(recorded) > MAX_GAMES:
        raise InputError(f"must be a list of 1 to {MAX_GAMES} games")
    out, seen = [], set()
    for item in recorded:
        if not isinstance(item, dict) or set(item) != {"game", "rules"} or not isinstance(item["game"], str):
            raise InputError('every game is {"game": id, "rules": {field: value}}')
        game = get_game(item["game"])
        if game.by_wager or game.id != item["game"] or game.id in seen:
            raise InputError(f"{shown(item['game'])} is not a game certified as one entry, or is named twice")
        seen.add(game.id)
        out.append((game, game.rules(item["rules"])))
    return out


def build_report(inputs: dict[str, Any], progress: Progress | None = None) -> dict[str, Any]:
    """The report's content (without fingerprint, time or version) from its inputs."""
    from exactodds.catalogue.files import registered_definitions

    shoe = shoe_from_spec(inputs["shoe"])
    sections_only = inputs["wagers"] == [] and "games" in inputs
    with registered_definitions(inputs.get("definitions")):  # wagers from files, embedded in the inputs
        pairs = [] if sections_only else _targets(inputs["wagers"], inputs.get("paytable"))
    decks = tuple(inputs.get("sensitivity_decks", SENSITIVITY_DECKS))
    effects: dict[tuple[str, str], EffectsOfRemoval] = {}
    skipped: dict[tuple[str, str], str] = {}
    if inputs.get("effects_of_removal", True):
        results, skips = effects_for(pairs, shoe, progress)
        effects = {(e.wager.id, e.paytable.id): e for e in results}
        skipped = {(s.wager, s.paytable): s.reason for s in skips}
    tables = []
    plans = compile_plans(pairs)  # once: the shoe and every sensitivity deck count tallied by them
    sensitivity = [analyze_pairs(pairs, Shoe.standard(d), plans) for d in decks]
    for i, ((w, t), a) in enumerate(zip(pairs, analyze_pairs(pairs, shoe, plans)), 1):
        by_decks = [(d, each[i - 1]) for d, each in zip(decks, sensitivity)]
        tables.append(_table(a, effects.get((w.id, t.id)), skipped.get((w.id, t.id)), by_decks))
        if progress:
            progress(i, len(pairs), f"report {w.id} ({t.id})")
    games = [baccarat_entry(shoe, tables)] if pairs else []
    if "games" in inputs:
        from exactodds.figures.entry import game_entry

        for game, rules in game_inputs(inputs["games"]):
            if progress:
                progress(len(pairs), len(pairs) + 1, game.title)
            game.prepare(rules, progress)
            games.append(game_entry(game, rules))
    every = [(g, x) for g in games for x in g["tables"]]
    seconds = [x["verification"]["second_method"]["agrees"] for _, x in every]
    doc: dict[str, Any] = {
        "report": REPORT_KIND,
        "schema": SCHEMA,
        "inputs": inputs,
        "games": games,
        "summary": {"tables": len(every),
                    "second_method_agrees": sum(1 for a in seconds if a),
                    "no_second_method": sum(1 for a in seconds if a is None),
                    "all_checks_hold": all(g["verification"]["all_hold"] for g in games),
                    "checks_cover": CHECKS_COVER,
                    "player_advantage": [f"{g['game']}/{x['id']}" for g, x in every if x["player_advantage"]]},
    }
    plain: dict[str, Any] = json.loads(json.dumps(doc, ensure_ascii=False))  # plain JSON types, as read back
    return plain


def canonical(doc: dict[str, Any]) -> bytes:
    """Canonical bytes of a report: JSON, sorted keys, no spaces, UTF-8, without ``fingerprint``."""
    body = {k: v for k, v in doc.items() if k != "fingerprint"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def fingerprint(doc: dict[str, Any]) -> str:
    """SHA-256 (hex) of :func:`canonical`."""
    return hashlib.sha256(canonical(doc)).hexdigest()


def certify(wagers: Iterable[str | Wager[Any]] | None = None, paytable: str | None = None, shoe: Shoe | None = None,
            sensitivity_decks: Sequence[int] = SENSITIVITY_DECKS, effects_of_removal: bool = True,
            progress: Progress | None = None, now: _dt.datetime | None = None,
            document: dict[str, Any] | None = None,
            template: dict[str, str] | None = None,
            games: Sequence[tuple[str, dict[str, Any]]] = ()) -> dict[str, Any]:
    """A fingerprinted certification report for ``wagers`` (None: the whole catalogue; ``[]``
    with ``games``: those games alone); ``games`` adds a game entry for each
    ``(game id, {rules field: value})`` of the registry (:func:`exactodds.figures.entry.game_entry`),
    recorded in the inputs with every rules field (:func:`~exactodds.game.protocol.rules_values`).

    ``wagers`` are ids or wager objects; a wager from a wager file has its definition
    embedded in the inputs (``definitions``), so :func:`verify_report` rebuilds it.
    ``document``: document control (:func:`exactodds.report.document.read_document`),
    embedded and fingerprinted. ``template``: a lab's HTML template
    (:meth:`exactodds.report.template.Template.record`), recorded so that ``verify --template``
    can check a page rendered with it. The time is ``now``, else ``SOURCE_DATE_EPOCH``, else the clock.
    """
    if len(sensitivity_decks) > MAX_SENSITIVITY or len(set(sensitivity_decks)) != len(sensitivity_decks):
        raise InputError(f"give at most {MAX_SENSITIVITY} different sensitivity deck counts")
    for d in sensitivity_decks:
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 1000:
            raise InputError(f"sensitivity deck counts must be 1 to 1000, got {d!r}")
    from exactodds.catalogue.files import report_inputs

    ids: list[str] | None
    embedded: dict[str, Any]
    from exactodds.game.protocol import rules_values

    chosen = [{"game": game.id, "rules": rules_values(rules)}  # an unknown game or rule: one line before any work
              for game, rules in game_inputs([{"game": g, "rules": dict(r)} for g, r in games])] if games else []
    if chosen and wagers is not None and not list(wagers):
        if paytable is not None:
            raise InputError("--paytable chooses a paytable of a WAGER; another game alone has none to choose")
        ids, embedded = [], {}
    else:
        ids, embedded = report_inputs(wagers)
    if "definitions" in embedded:  # only what the report certifies (a paytable file of another paytable is not)
        drop = set(unused_definitions(ids, paytable, embedded["definitions"]))
        kept = [d for i, d in enumerate(embedded["definitions"]) if i not in drop]
        embedded = {**embedded, "definitions": kept} if kept else {k: v for k, v in embedded.items()
                                                                 if k != "definitions"}
    if any("text" not in d for d in embedded.get("definitions", [])):
        raise InputError("a wager built from a parsed document has no file text to embed: certify wagers read "
                         "from wager files (docs/wager-files.md)")
    if chosen:
        embedded = {**embedded, "games": chosen}
    inputs = {"wagers": ids, "paytable": paytable,
              "shoe": shoe_spec(shoe or Shoe.standard(8)), "sensitivity_decks": list(sensitivity_decks),
              "effects_of_removal": effects_of_removal, **embedded}
    stamp = report_time(now)
    doc = build_report(inputs, progress)
    doc = {**doc, "version": __version__, "program": program_identity(), "generated_utc": stamp}
    if document is not None:
        doc["document"] = document
    if template is not None:
        doc["template"] = template
    doc["fingerprint"] = {"algorithm": "sha256", "value": fingerprint(doc),
                          "covers": "canonical JSON of every member except 'fingerprint' "
                                    "(sorted keys, separators ',' ':', UTF-8)"}
    return doc


# -- verifying ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    """Outcome of :func:`verify_report`: ``holds`` and the problems found.

    ``recomputed_ok`` is ``None`` when the figures were not recomputed: a report whose
    structure, fingerprint or inputs fail does not hold whatever its figures say, and is
    not worth the (possibly long) recomputation.
    """

    holds: bool
    fingerprint_ok: bool
    recomputed_ok: bool | None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    page_verified: bool | None = None
    """For an HTML page (None for a JSON report): whether the page is the rendering of its
    report, byte for byte. False with no ``problems``: the report holds but the page could not
    be checked (a custom template not given, or not the one the report records; another
    program's rendering): ``holds`` is then False, and :attr:`exit_code` 3."""
    page: str = ""
    """What was found about the page, in words (empty for a JSON report)."""

    @property
    def report_holds(self) -> bool:
        """The report (the JSON, or the one a page embeds) holds, whatever its page shows."""
        return self.holds or (not self.problems and self.page_verified is False)

    @property
    def exit_code(self) -> int:
        """``verify``'s exit status: 0 holds (and the page is verified), 1 does not hold, 3 the
        report holds but its page is NOT verified (2, unreadable, is a :class:`ReportError`)."""
        return 0 if self.holds else 3 if self.report_holds else 1


def _diff(a: Any, b: Any, path: str, out: list[str], limit: int = 20) -> None:
    if len(out) >= limit:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: {'missing from the report' if k not in a else 'not in the recomputation'}")
            else:
                _diff(a[k], b[k], f"{path}/{k}", out, limit)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items in the report, {len(b)} recomputed")
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b or type(a) is not type(b):
        out.append(f"{path}: report says {_short(a)}, recomputed {_short(b)}")


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 120 else text[:117] + "..."


def parse_report(text: str | bytes) -> tuple[dict[str, Any], list[str]]:
    """The report and the keys it repeats (each a problem: a reader keeping the first value
    and one keeping the last see different reports). Raises :class:`ReportError` for
    anything that is not an exactodds report at all (exit 2)."""
    repeated: list[str] = []

    def record(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                repeated.append(key)
            out[key] = value
        return out

    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ReportError("not a JSON document (not UTF-8 text); verify reads the JSON report "
                              "of 'certify --format json', never its Markdown or CSV view") from None
    try:
        doc = load_json(text, record)
    except (ValueError, RecursionError) as exc:
        raise ReportError(f"not a JSON document ({json_error(exc)}); verify reads the JSON report of "
                          "'certify --format json', never its Markdown or CSV view") from None
    if not isinstance(doc, dict) or doc.get("report") != REPORT_KIND:
        raise ReportError("not an exactodds certification report")
    schema = doc.get("schema")
    if isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA:
        raise SchemaError(f"report schema {schema} is newer than this exactodds reads ({SCHEMA})")
    if isinstance(schema, int) and not isinstance(schema, bool) and schema < SCHEMA:
        raise SchemaError(f"report schema {schema} is older than this exactodds reads ({SCHEMA}): certify it again "
                          "with this version to verify it")
    return doc, [f"the key {shown(k)} appears twice in one object (a forged value may hide behind it)"
                 for k in dict.fromkeys(repeated)]


def read_report(text: str | bytes) -> dict[str, Any]:
    """Parse a report; anything that is not one -- or repeats a key -- raises :class:`ReportError`."""
    doc, repeated = parse_report(text)
    if repeated:
        raise ReportError(repeated[0])
    return doc


def _structure(doc: dict[str, Any]) -> list[str]:
    """What is wrong with the report's outer structure (checked before anything is recomputed)."""
    problems = []
    extra, missing = set(doc) - TOP_KEYS - OPTIONAL_KEYS, TOP_KEYS - set(doc)
    if extra:
        problems.append(f"members not in a report: {', '.join(sorted(shown(k) for k in extra))}")
    if missing:
        problems.append(f"members missing from the report: {', '.join(sorted(missing))}")
    if doc.get("schema") != SCHEMA or isinstance(doc.get("schema"), bool):
        problems.append(f"schema must be {SCHEMA}, the report says {_short(doc.get('schema'))}")
    fp = doc.get("fingerprint")
    if not isinstance(fp, dict) or set(fp) != FINGERPRINT_KEYS or fp.get("algorithm") != "sha256" \
            or not isinstance(fp.get("value"), str) or not re.fullmatch(r"[0-9a-f]{64}", fp["value"]):
        problems.append("fingerprint must be {algorithm: sha256, value: 64 hex digits, covers}")
    if not isinstance(doc.get("inputs"), dict):
        problems.append("inputs must be an object")
    t = doc.get("template")
    if "template" in doc and (not isinstance(t, dict) or set(t) != {"sha256", "covers"}
                              or not isinstance(t["sha256"], str) or not re.fullmatch(r"[0-9a-f]{64}", t["sha256"])
                              or not isinstance(t["covers"], str)):
        problems.append("template must be {sha256: 64 hex digits, covers}")
    return problems


def check_inputs(inputs: Any) -> list[str]:
    """What is wrong with a report's ``inputs``, cheaply, before any recomputation: exactly the
    members :func:`certify` writes (``definitions`` only for wagers from files, which must
    rebuild); wagers known and not repeated (at most the catalogue); deck counts 1..1000, not
    repeated, at most :data:`MAX_SENSITIVITY`; a readable shoe."""
    from exactodds.catalogue.files import registered_definitions

    if not isinstance(inputs, dict):
        return ["inputs must be an object"]
    if not INPUT_KEYS <= set(inputs) <= INPUT_KEYS | {"definitions", "games"}:
        return [f"inputs must have exactly the members {', '.join(sorted(INPUT_KEYS))} "
                "(and 'definitions' for wagers from files, 'games' for other games)"]
    if "games" in inputs:
        try:
            game_inputs(inputs["games"])
        except InputError as exc:
            return [f"inputs/games: {exc}"]
    if inputs["wagers"] == [] and "games" in inputs:
        if inputs["paytable"] is not None or "definitions" in inputs:
            return ["inputs: a report of other games alone has no paytable and no wager file"]
        inputs = {**inputs, "wagers": None, "paytable": None}  # a game section alone: nothing else to check
    defs = inputs.get("definitions")
    if defs is not None:
        if not isinstance(defs, list) or not all(isinstance(d, dict) and isinstance(d.get("text"), str) for d in defs):
            return ["inputs/definitions: every definition must embed the wager file's text (its SHA-256 and "
                    "content are recomputed from it)"]
        if sum(len(d["text"].encode("utf-8")) for d in defs) > MAX_DEFINITION_BYTES:
            raise ReportError(f"the report embeds more than {MAX_DEFINITION_BYTES // 1024} KiB of wager files: more "
                              "work than verify takes on (certify such files and check them apart)")
    try:
        with registered_definitions(defs):
            found = _check_inputs(inputs)
            if not found and defs is not None:
                found = _definitions_used(inputs, defs)
            return found
    except InputError as exc:
        return [f"inputs/definitions: {exc}"]


def unused_definitions(wagers: list[str] | None, paytable: str | None, defs: Sequence[Any]) -> list[int]:
    """Indexes of the embedded definitions nothing in the report certifies: a wager file whose
    wager is not certified, or a paytable file adding none of the certified paytables."""
    if wagers is None:
        return []
    out = []
    for i, d in enumerate(defs):
        content = d.get("content") if isinstance(d, dict) else None
        if not isinstance(content, dict):
            continue  # the rebuild reports it
        wager = content.get("wager", content.get("id"))
        tables = content.get("paytables")
        ids = [t.get("id") for t in tables if isinstance(t, dict)] if isinstance(tables, list) else []
        if wager not in wagers or ("wager" in content and paytable is not None and paytable not in ids):
            out.append(i)
    return out


def _definitions_used(inputs: dict[str, Any], defs: list[Any]) -> list[str]:
    """Nothing embedded that nothing certifies, nothing embedded twice."""
    unused = unused_definitions(inputs["wagers"], inputs["paytable"], defs)
    if unused:
        return [f"inputs/definitions: {', '.join(shown(str(defs[i].get('file'))) for i in unused)} defines nothing "
                "the report certifies"]
    seen = [json.dumps(d, sort_keys=True) for d in defs]
    if len(set(seen)) != len(seen):
        return ["inputs/definitions: a definition is embedded twice"]
    return []


def _check_inputs(inputs: dict[str, Any]) -> list[str]:
    """:func:`check_inputs` once the embedded definitions are registered."""
    problems = []
    wagers = inputs["wagers"]
    if wagers is not None:
        if not isinstance(wagers, list) or not wagers or not all(isinstance(w, str) for w in wagers):
            problems.append("inputs/wagers must be null or a non-empty list of wager ids")
        elif len(set(wagers)) != len(wagers):
            problems.append("inputs/wagers names a wager twice")
        elif len(wagers) > len(CATALOGUE) or any(w not in CATALOGUE for w in wagers):
            problems.append("inputs/wagers names a wager the catalogue does not have")
    paytable = inputs["paytable"]
    if paytable is not None and (not isinstance(paytable, str) or not isinstance(wagers, list) or len(wagers) != 1):
        problems.append("inputs/paytable must be null, or a paytable id with exactly one wager")
    decks = inputs["sensitivity_decks"]
    if (not isinstance(decks, list) or len(decks) > MAX_SENSITIVITY or len(set(map(repr, decks))) != len(decks)
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 1000 for d in decks)):
        problems.append(f"inputs/sensitivity_decks must be at most {MAX_SENSITIVITY} different deck counts 1..1000")
    if not isinstance(inputs["effects_of_removal"], bool):
        problems.append("inputs/effects_of_removal must be true or false")
    if not isinstance(inputs["shoe"], dict):
        problems.append("inputs/shoe must be an object")
    else:
        try:
            shoe_from_spec(inputs["shoe"])
        except InputError as exc:
            problems.append(f"inputs/shoe: {exc}")
    if not problems and paytable is not None:
        try:
            get_wager(wagers[0]).paytable(paytable)
        except InputError as exc:
            problems.append(f"inputs/paytable: {exc}")
    return problems


def verify_report(doc: dict[str, Any], progress: Progress | None = None,
                  problems: Sequence[str] = ()) -> Verdict:
    """Check the structure, the fingerprint and the inputs, then -- only if all three hold --
    recompute every figure from the inputs and compare exactly.

    ``problems`` found while reading (repeated keys) make the report fail at once.
    """
    found = list(problems)
    notes: list[str] = []
    if not found:
        found = _structure(doc)
    fp = doc.get("fingerprint")
    fp_ok = not found and isinstance(fp, dict) and fp.get("value") == fingerprint(doc)
    if not found and not fp_ok:
        found.append("fingerprint: the SHA-256 of the content does not match (the report was altered)")
    if not found:
        found = check_inputs(doc["inputs"])
    if doc.get("version") != __version__:
        notes.append(f"report made by exactodds {_short(doc.get('version'))}, recomputed by {__version__}")
    here, there = program_identity(), doc.get("program")
    if isinstance(there, dict) and there.get("sha256") == here["sha256"]:
        notes.append(f"same program: exactodds {here['version']}, package SHA-256 {here['sha256'][:16]}…")
    else:
        theirs = there.get("sha256") if isinstance(there, dict) else None
        notes.append(f"a different program: the report was made by package SHA-256 {_short(theirs)}, this is "
                     f"{here['sha256']} (exactodds {here['version']}); the figures are recomputed by this one")
    if found:
        notes.append("figures not recomputed: the report does not hold whatever they say")
        return Verdict(False, fp_ok, None, found, notes)
    try:
        fresh = build_report(doc["inputs"], progress)
    except InputError as exc:
        return Verdict(False, fp_ok, None, [f"cannot recompute from the report's inputs: {exc}"], notes)
    diffs: list[str] = []
    _diff({k: v for k, v in doc.items() if k not in VOLATILE_KEYS}, fresh, "", diffs)
    found.extend(diffs)
    if not fresh["summary"]["all_checks_hold"]:
        found.append("a verification check fails in the recomputation")
    if any(d.startswith("/games") and "/tables" in d for d in diffs):
        notes.append(ORDER_NOTE)  # said where it may explain a difference, not on every run
    return Verdict(not found, fp_ok, not diffs, found, notes)


ORDER_NOTE: Final = ("table order matters: baccarat's tables follow inputs/wagers (the catalogue's order for the whole "
                     "catalogue), each wager's paytables in the catalogue's order; a report listing them otherwise "
                     "does not hold")


def verify_text(text: str | bytes, progress: Progress | None = None) -> Verdict:
    """:func:`parse_report` then :func:`verify_report`; :class:`ReportError` if it is no report."""
    doc, repeated = parse_report(text)
    return verify_report(doc, progress, repeated)


__all__ = [
    "ReportError",
    "SchemaError",
    "Verdict",
    "build_report",
    "canonical",
    "certify",
    "check_inputs",
    "fingerprint",
    "parse_report",
    "read_report",
    "verify_report",
    "verify_text",
]
