"""Certification reports: every figure of a wager, recomputed independently, fingerprinted.

:func:`certify` builds one JSON document (the report) for some wagers -- or the whole
catalogue -- on one shoe: per paytable, the citations and readings, the outcome table
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
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from exactodds import __version__
from exactodds.catalogue import CATALOGUE, get_wager
from exactodds.catalogue.model import Paytable, Wager
from exactodds.errors import InputError
from exactodds.exact import ratio
from exactodds.figures.analysis import VOID, Analysis, analysis_json, analyze
from exactodds.figures.eor import (
    EffectsOfRemoval,
    Progress,
    effects_for,
    eor_json,
)
from exactodds.figures.second_method import level_of, outcome_counts
from exactodds.game.cards import Shoe, falling_factorial
from exactodds.game.rules import CITATION as RULES_CITATION
from exactodds.game.shoespec import (
    RANK_REMOVAL_READING,
    RANK_SPREAD_READING,
    shoe_from_spec,
    shoe_spec,
)
from exactodds.inputs import json_error, load_json, shown

REPORT_KIND: Final = "exactodds certification report"
SCHEMA: Final = 1
SENSITIVITY_DECKS: Final = (6, 7, 8)
MAX_SENSITIVITY: Final = 16
"""Most deck counts a report's sensitivity section may list (bounds a recomputation)."""
TOP_KEYS: Final = frozenset({"report", "schema", "inputs", "shoe", "method", "readings", "entries", "summary",
                             "version", "generated_utc", "fingerprint"})
INPUT_KEYS: Final = frozenset({"wagers", "paytable", "shoe", "sensitivity_decks", "effects_of_removal"})
FINGERPRINT_KEYS: Final = frozenset({"algorithm", "value", "covers"})
VOLATILE_KEYS: Final = ("fingerprint", "generated_utc", "version")
"""Top-level keys a recomputation does not compare (the fingerprint still covers the last two)."""

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
    "of card faces, or the brute-force deal of a short shoe; each entry names its own) and compared exactly; "
    "the engine is also tested against a brute-force deal of every physical card sequence of small shoes."
)


class ReportError(Exception):
    """A report that cannot be read (not JSON, not a report, too large): exit 2."""


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
        return {"method": None, "statement": f"no second method for the {level_of(a.wager)[0]!r} level",
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


def _sensitivity(w: Wager[Any], t: Paytable, decks: Sequence[int]) -> list[dict[str, Any]]:
    out = []
    for d in decks:
        a = analyze(w, t.id, Shoe.standard(d))
        out.append({"decks": d, "return": ratio(a.return_), "house_edge": ratio(a.house_edge),
                    "variance": ratio(a.variance), "hit_frequency": ratio(a.hit_frequency),
                    "element_of_risk": None if a.element_of_risk is None else ratio(a.element_of_risk)})
    return out


def _entry(a: Analysis, e: EffectsOfRemoval | None, skipped: str | None, decks: Sequence[int]) -> dict[str, Any]:
    doc = analysis_json(a)
    doc.pop("version", None)
    second = _second_method(a)
    checks = _checks(a, e)
    verified = bool(second["agrees"] is not False and all(c["holds"] is not False for c in checks))
    return {
        "wager": a.wager.id,
        "paytable": a.paytable.id,
        "level": a.wager.level.name,
        "citations": {"wager": a.wager.cite, "paytable": a.paytable.cite},
        "readings": {"wager": a.wager.reading or None, "paytable": a.paytable.note or None},
        "analysis": doc,
        "effects_of_removal": eor_json(e) if e is not None else {"skipped": skipped or "not requested"},
        "sensitivity": _sensitivity(a.wager, a.paytable, decks),
        "verification": {"second_method": second, "checks": checks, "all_hold": verified},
    }


def _targets(wagers: Iterable[str] | None, paytable: str | None) -> list[tuple[Wager[Any], Paytable]]:
    ws = [get_wager(x) for x in wagers] if wagers is not None else list(CATALOGUE.values())
    if not ws:
        raise InputError("no wager to certify")
    if paytable is not None and len(ws) != 1:
        raise InputError("--paytable needs exactly one WAGER")
    return [(w, t) for w in ws for t in ([w.paytable(paytable)] if paytable is not None else w.paytables)]


def paigow_section() -> dict[str, Any]:
    """Pai Gow (ch. 535) in a certificate: both player strategies' exact figures, returns by
    wager amount with the vigorish rounded (§ 535.10(k)), and the identities checked on them.

    Its second computation is not at full size: the tests hold the grouped count equal to a
    plain deal-by-deal count, written separately from the regulation, on reduced tile sets;
    the report says so rather than claim agreement.
    """
    from math import comb

    from exactodds.paigow import STRATEGIES, paigow_analysis, paigow_json, vigorish_table

    analyses = [paigow_analysis(s) for s in STRATEGIES]
    doc = paigow_json(analyses, vigorish_table())
    doc.pop("version", None)
    net_win = 1 - Fraction(5, 100)
    checks = []
    for a in analyses:
        checks += [
            {"check": f"{a.strategy}: wins + ties + losses = C(32,4)·C(28,4) deals",
             "expected": comb(32, 4) * comb(28, 4), "got": a.wins + a.ties + a.losses,
             "holds": a.wins + a.ties + a.losses == a.universe == comb(32, 4) * comb(28, 4)},
            {"check": f"{a.strategy}: return = (0.95·wins − losses) / deals, recomputed from the counts",
             "holds": a.return_vigorish == (net_win * a.wins - a.losses) / a.universe == -a.house_edge},
        ]
    house, optimal = analyses
    checks.append({"check": "the optimal setting's return is at least the house way's",
                   "holds": optimal.return_vigorish >= house.return_vigorish})
    doc["verification"] = {
        "second_method": {"method": None, "agrees": None,
                          "statement": "no second computation at full size; the test suite holds the grouped count "
                                       "equal to a plain deal-by-deal count (a separate implementation) on reduced "
                                       "tile sets"},
        "checks": checks, "all_hold": all(c["holds"] for c in checks)}
    return doc


def build_report(inputs: dict[str, Any], progress: Progress | None = None) -> dict[str, Any]:
    """The report's content (without fingerprint, time or version) from its inputs."""
    from exactodds.catalogue.files import registered_definitions

    shoe = shoe_from_spec(inputs["shoe"])
    with registered_definitions(inputs.get("definitions")):  # wagers from files, embedded in the inputs
        pairs = [] if inputs.get("paigow") and inputs["wagers"] == [] else \
            _targets(inputs["wagers"], inputs.get("paytable"))
    decks = tuple(inputs.get("sensitivity_decks", SENSITIVITY_DECKS))
    effects: dict[tuple[str, str], EffectsOfRemoval] = {}
    skipped: dict[tuple[str, str], str] = {}
    if inputs.get("effects_of_removal", True):
        results, skips = effects_for(pairs, shoe, progress)
        effects = {(e.wager.id, e.paytable.id): e for e in results}
        skipped = {(s.wager, s.paytable): s.reason for s in skips}
    entries = []
    for i, (w, t) in enumerate(pairs, 1):
        a = analyze(w, t.id, shoe)
        entries.append(_entry(a, effects.get((w.id, t.id)), skipped.get((w.id, t.id)), decks))
        if progress:
            progress(i, len(pairs), f"report {w.id} ({t.id})")
    doc: dict[str, Any] = {
        "report": REPORT_KIND,
        "schema": SCHEMA,
        "inputs": inputs,
        "shoe": shoe.to_json() | {"description": shoe.describe()},
        "method": METHOD,
        "readings": list(READINGS),
        "entries": entries,
        "summary": {"paytables": len(entries),
                    "second_method_agrees": sum(1 for x in entries if x["verification"]["second_method"]["agrees"]),
                    "no_second_method": sum(1 for x in entries
                                            if x["verification"]["second_method"]["agrees"] is None),
                    "all_checks_hold": all(x["verification"]["all_hold"] for x in entries)},
    }
    if inputs.get("paigow"):
        if progress:
            progress(len(pairs), len(pairs) + 1, "Pai Gow")
        doc["paigow"] = paigow_section()
        doc["summary"]["all_checks_hold"] = doc["summary"]["all_checks_hold"] and doc["paigow"]["verification"]["all_hold"]
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
            paigow: bool = False) -> dict[str, Any]:
    """A fingerprinted certification report for ``wagers`` (None: the whole catalogue; ``[]``
    with ``paigow``: Pai Gow alone); ``paigow`` adds the Pai Gow section (ch. 535).

    ``wagers`` are ids or wager objects; a wager from a wager file has its definition
    embedded in the inputs (``definitions``), so :func:`verify_report` rebuilds it.
    """
    if len(sensitivity_decks) > MAX_SENSITIVITY or len(set(sensitivity_decks)) != len(sensitivity_decks):
        raise InputError(f"give at most {MAX_SENSITIVITY} different sensitivity deck counts")
    for d in sensitivity_decks:
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 1000:
            raise InputError(f"sensitivity deck counts must be 1 to 1000, got {d!r}")
    from exactodds.catalogue.files import report_inputs

    ids: list[str] | None
    embedded: dict[str, Any]
    if paigow and wagers is not None and not list(wagers):
        ids, embedded = [], {}
    else:
        ids, embedded = report_inputs(wagers)
    if paigow:
        embedded = {**embedded, "paigow": True}
    inputs = {"wagers": ids, "paytable": paytable,
              "shoe": shoe_spec(shoe or Shoe.standard(8)), "sensitivity_decks": list(sensitivity_decks),
              "effects_of_removal": effects_of_removal, **embedded}
    doc = build_report(inputs, progress)
    stamp = (now or _dt.datetime.now(_dt.UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    doc = {**doc, "version": __version__, "generated_utc": stamp}
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
        raise ReportError(f"report schema {schema} is newer than this exactodds reads ({SCHEMA})")
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
    extra, missing = set(doc) - TOP_KEYS - {"paigow"}, TOP_KEYS - set(doc)
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
    return problems


def check_inputs(inputs: Any) -> list[str]:
    """What is wrong with a report's ``inputs``, cheaply, before any recomputation: exactly the
    members :func:`certify` writes (``definitions`` only for wagers from files, which must
    rebuild); wagers known and not repeated (at most the catalogue); deck counts 1..1000, not
    repeated, at most :data:`MAX_SENSITIVITY`; a readable shoe."""
    from exactodds.catalogue.files import registered_definitions

    if not isinstance(inputs, dict):
        return ["inputs must be an object"]
    if not INPUT_KEYS <= set(inputs) <= INPUT_KEYS | {"definitions", "paigow"}:
        return [f"inputs must have exactly the members {', '.join(sorted(INPUT_KEYS))} "
                "(and 'definitions' for wagers from files, 'paigow' for Pai Gow)"]
    if "paigow" in inputs and inputs["paigow"] is not True:
        return ["inputs/paigow must be true when present"]
    if inputs["wagers"] == [] and inputs.get("paigow"):
        inputs = {**inputs, "wagers": None, "paytable": None}  # Pai Gow alone: nothing else to check
    try:
        with registered_definitions(inputs.get("definitions")):
            return _check_inputs(inputs)
    except InputError as exc:
        return [f"inputs/definitions: {exc}"]


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
    return Verdict(not found, fp_ok, not diffs, found, notes)


def verify_text(text: str | bytes, progress: Progress | None = None) -> Verdict:
    """:func:`parse_report` then :func:`verify_report`; :class:`ReportError` if it is no report."""
    doc, repeated = parse_report(text)
    return verify_report(doc, progress, repeated)


__all__ = [
    "ReportError",
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
