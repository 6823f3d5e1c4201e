"""JSON Schemas (draft 2020-12) of the wager file and of the JSON outputs.

Four schemas, each one standalone document:

``wager``
    A wager file or a paytable file (:mod:`exactodds.catalogue.files`), as TOML read into
    JSON values. Written from the facts tables (:mod:`exactodds.catalogue.facts`): each
    level's ``when`` lists exactly that level's facts with their allowed values. What a
    schema cannot say -- an outcome no result of the level satisfies, or one shadowed
    by earlier outcomes; a pay naming an undeclared meter -- the loader checks.
``analysis``
    The JSON contract of ``exactodds analyze --format json`` (README, "JSON contract"):
    integers as JSON integers, every exact value a ``"p/q"`` string in lowest terms,
    progressive keys where the paytable has meters.
``certificate``
    The report of ``exactodds certify --format json``.
``document``
    The document-control file of ``certify --document`` (TOML, read as JSON).

``exactodds schema NAME`` prints one; ``docs/schemas/NAME.json`` publishes it (a test
keeps the files equal to :func:`schema_text`). The tests validate every catalogue
analysis and several certificates against them.

>>> sorted(SCHEMAS)
['analysis', 'certificate', 'document', 'wager']
>>> SCHEMAS["wager"]()["$schema"]
'https://json-schema.org/draft/2020-12/schema'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from exactodds.catalogue.facts import FACTS, LEVEL_NOTES, Fact
from exactodds.catalogue.files import (
    ID_PATTERN,
    MAX_ALTERNATIVES,
    MAX_AMOUNT,
    MAX_METERS,
    MAX_NAME,
    MAX_NUMBER,
    MAX_OUTCOMES,
    MAX_PAYTABLES,
    MAX_TEXT,
    NUMBER_PATTERN,
)

DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
RATIO: Final = {"type": "string", "pattern": "^-?[0-9]+/[1-9][0-9]*$",
                "description": "an exact rational p/q in lowest terms (q >= 1 always written)"}
DECIMAL: Final = {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"}
PERCENT: Final = {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?%$"}
COUNT: Final = {"type": "integer", "minimum": 0}
Schema = dict[str, Any]


def _nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def _obj(properties: dict[str, Schema], required: list[str] | None = None, **extra: Any) -> Schema:
    """A closed object: the listed properties, ``required`` (default: all), nothing else."""
    return {"type": "object", "properties": properties,
            "required": list(properties) if required is None else required,
            "additionalProperties": False, **extra}


# -- the wager file ----------------------------------------------------------------------------

def _fact_value(f: Fact) -> Schema:
    one: Schema = {"type": "boolean"} if f.kind == "bool" else {"enum": list(f.values)}
    return {"description": f"{f.meaning} ({f.cite}); a list means any of",
            "anyOf": [one, {"type": "array", "items": one, "minItems": 1, "maxItems": len(f.values)}]}


def wager_schema() -> Schema:
    """The JSON Schema of a wager file or a paytable file."""
    number = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_NUMBER},
                        {"type": "string", "pattern": f"^\\s*{NUMBER_PATTERN}\\s*$"}],
              "description": 'an exact non-negative number: an integer, or a string such as "12", "2.5", "5/2" '
                             "(never a TOML float)"}
    amount = {**number, "anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT}, number["anyOf"][1]]}
    pay = {"type": "string", "maxLength": MAX_NAME,
           "pattern": f"^\\s*(push|loses|lose|{NUMBER_PATTERN}\\s+(to|for)\\s+{NUMBER_PATTERN}|"
                      f"({NUMBER_PATTERN}%?\\s+of\\s+)?(the\\s+)?meter\\s+{ID_PATTERN})\\s*$",
           "description": '"N to M", "N for M", "push", "loses", "meter NAME" or "SHARE of meter NAME"'}
    text = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}
    long_text = {"type": "string", "maxLength": MAX_TEXT}
    ident = {"type": "string", "pattern": f"^{ID_PATTERN}$"}
    meter = _obj({"name": ident, "reset": amount, "increment": number, "reserve": number,
                  "reset_funded_by_reserve": {"type": "boolean"}, "cite": long_text}, ["name"])
    paytable = _obj({"id": ident, "pays": {"type": "object", "minProperties": 1,
                                           "propertyNames": {"maxLength": MAX_NAME},
                                           "additionalProperties": {"$ref": "#/$defs/pay"}},
                     "cite": long_text, "note": long_text,
                     "meters": {"type": "array", "maxItems": MAX_METERS, "items": {"$ref": "#/$defs/meter"}},
                     "stake": amount}, ["id", "pays"])
    paytables = {"type": "array", "minItems": 1, "maxItems": MAX_PAYTABLES, "items": {"$ref": "#/$defs/paytable"}}
    defs: dict[str, Schema] = {"number": number, "pay": pay, "meter": meter, "paytable": paytable}
    branches = []
    for level, facts in FACTS.items():
        defs[f"when-{level}"] = {"type": "object", "description": LEVEL_NOTES[level],
                                 "properties": {f.name: _fact_value(f) for f in facts}, "additionalProperties": False}
        when = {"anyOf": [{"$ref": f"#/$defs/when-{level}"},
                          {"type": "array", "minItems": 1, "maxItems": MAX_ALTERNATIVES,
                           "items": {"$ref": f"#/$defs/when-{level}"}}]}
        defs[f"outcome-{level}"] = _obj({"name": text, "when": when})
        branches.append({"if": {"properties": {"level": {"const": level}}, "required": ["level"]},
                         "then": {"properties": {"outcomes": {"items": {"$ref": f"#/$defs/outcome-{level}"}}}}})
    defs["wager-file"] = {
        **_obj({"id": ident, "name": text, "cite": long_text, "level": {"enum": list(FACTS)}, "reading": long_text,
                "otherwise": text, "settle": {"enum": ["first", "highest"]},
                "outcomes": {"type": "array", "minItems": 1, "maxItems": MAX_OUTCOMES},
                "paytables": paytables}, ["id", "name", "level", "outcomes", "paytables"]),
        "allOf": branches, "description": "a new wager: outcomes tried in order, the first that holds settles"}
    defs["paytable-file"] = {**_obj({"wager": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
                                     "cite": long_text, "paytables": paytables}, ["wager", "paytables"]),
                             "description": "new paytables for a wager that exists (the catalogue's or a file's)"}
    return {"$schema": DRAFT, "title": "exactodds wager file",
            "description": "A wager file (a new wager) or a paytable file (paytables for an existing wager), "
                           "TOML read as JSON. See docs/wager-files.md.",
            "oneOf": [{"$ref": "#/$defs/wager-file"}, {"$ref": "#/$defs/paytable-file"}], "$defs": defs}


# -- the analysis ------------------------------------------------------------------------------

def _shoe() -> Schema:
    return _obj({"decks": _nullable({"type": "integer", "minimum": 1}), "cards": COUNT,
                 "counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}}},
                ["decks", "cards"])


def _analysis(with_version: bool) -> Schema:
    """The analysis object; ``with_version``: as ``analyze`` prints it (certificates drop it)."""
    outcome = _obj({"outcome": {"type": "string"}, "pays": RATIO, "pays_text": {"type": "string"}, "count": COUNT,
                    "probability": RATIO, "return": RATIO})
    expression = {"type": "string", "description": "exact linear form in the meter amounts M_name (dollars)"}
    meter = _obj({"name": {"type": "string"}, "reset": _nullable(RATIO), "increment": _nullable(RATIO),
                  "reserve": RATIO, "reset_funded_by_reserve": {"type": "boolean"}, "hit_probability": RATIO,
                  "cite": {"type": "string"}})
    props: dict[str, Schema] = {
        "wager": {"type": "string"}, "name": {"type": "string"}, "cite": {"type": "string"},
        "paytable": {"type": "string"}, "paytable_cite": {"type": "string"}, "reading": _nullable({"type": "string"}),
        "shoe": {"$ref": "#/$defs/shoe"}, "total": COUNT,
        "outcomes": {"type": "array", "minItems": 1, "items": outcome},
        "return": {"anyOf": [RATIO, expression]}, "house_edge": RATIO, "hit_frequency": RATIO, "variance": RATIO,
        "std_dev": DECIMAL, "element_of_risk": _nullable(RATIO),
        "version": {"type": "string"},
        # progressive paytables only (additive keys)
        "return_expression": expression, "return_at_reset": _nullable(RATIO), "stake": RATIO,
        "meters": {"type": "array", "items": meter}, "priced_at": {"type": "object", "additionalProperties": RATIO},
        "break_even": {"type": "object", "additionalProperties": _nullable(RATIO)},
        "long_run_return": {"anyOf": [RATIO, expression]}, "long_run_formula": {"type": "string"},
    }
    required = ["wager", "name", "cite", "paytable", "paytable_cite", "reading", "shoe", "total", "outcomes",
                "return", "house_edge", "hit_frequency", "variance", "std_dev", "element_of_risk"]
    progressive = ["return_expression", "return_at_reset", "stake", "meters", "priced_at", "break_even",
                   "long_run_return", "long_run_formula"]
    if with_version:
        required.append("version")
    else:
        del props["version"]
    return {**_obj(props, required),
            "if": {"required": ["meters"]},
            "then": {"required": progressive},
            "else": {"properties": {"return": RATIO},
                     "not": {"anyOf": [{"required": [k]} for k in progressive]}}}


def analysis_schema() -> Schema:
    """The JSON Schema of ``exactodds analyze --format json`` (one wager and paytable)."""
    return {"$schema": DRAFT, "title": "exactodds analysis",
            "description": "The JSON contract of 'exactodds analyze --format json': integers are JSON integers, "
                           "every exact value a \"p/q\" string; nothing exact is a float.",
            **_with_decimals(_analysis(True)), "$defs": {"shoe": _shoe()}}


DECIMAL_SIBLING: Final = {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$",
                          "description": "the exact sibling KEY's value to 15 significant digits, for display"}


def _with_decimals(schema: Any) -> Any:
    """Every closed object of ``schema`` also admits ``KEY_decimal`` members: JSON output
    puts one beside each exact ``"p/q"`` value (:func:`exactodds.report.views.json_with_decimals`)."""
    if isinstance(schema, list):
        return [_with_decimals(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _with_decimals(v) for k, v in schema.items()}
    if out.get("additionalProperties") is False:
        out["patternProperties"] = {"_decimal$": DECIMAL_SIBLING}
    return out


# -- the certificate ---------------------------------------------------------------------------

def _effects() -> Schema:
    row: dict[str, Schema] = {"card": {"type": "string"}, "copies": COUNT, "return_after": RATIO, "effect": RATIO,
           "effect_percent": PERCENT}
    computed = _obj({
        "wager": {"type": "string"}, "paytable": {"type": "string"}, "shoe": {"$ref": "#/$defs/shoe"},
        "return": RATIO,
        "ranks": {"type": "array", "items": _obj({**row, "tag": {"type": "integer"}})},
        "faces": {"type": "array", "items": _obj(row)},
        "identity": _obj({"statement": {"type": "string"}, "holds": {"type": ["boolean", "null"]}}),
        "count": _obj({"tags": {"type": "object", "additionalProperties": {"type": "integer"}},
                       "balanced": {"type": "boolean"}, "imbalance": {"type": "integer"},
                       "r_squared": _nullable(RATIO), "correlation": _nullable({"type": "string"})}),
        "method": {"type": "string"}})
    return {"oneOf": [computed, _obj({"skipped": {"type": "string"}})]}


def _verification() -> Schema:
    second = {"type": "object", "properties": {
        "method": _nullable({"type": "string"}), "statement": {"type": "string"},
        "outcomes": {"type": "array", "items": _obj({"outcome": {"type": "string"}, "count": COUNT,
                                                    "agrees": {"type": "boolean"}})},
        "universe": COUNT, "return": RATIO, "agrees": {"type": ["boolean", "null"]},
        "outcomes_not_in_the_analysis": {"type": "object", "additionalProperties": COUNT}},
        "required": ["method", "statement", "agrees"], "additionalProperties": False}
    check = {"type": "object", "properties": {
        "check": {"type": "string"}, "expected": COUNT, "got": COUNT, "holds": {"type": ["boolean", "null"]},
        "applies": {"type": "boolean"},
        "kind": {"const": "game", "description": "a finding about the game (player advantage), not a check of the "
                                                 "mathematics: outside all_hold"}},
        "required": ["check", "holds"], "additionalProperties": False}
    return _obj({"second_method": second, "checks": {"type": "array", "items": check},
                 "all_hold": {"type": "boolean"}})


def certificate_schema() -> Schema:
    """The JSON Schema of ``exactodds certify --format json``."""
    from exactodds.games.certificate import SCHEMA

    sensitivity = _obj({"decks": {"type": "integer", "minimum": 1}, "return": RATIO, "house_edge": RATIO,
                        "variance": RATIO, "hit_frequency": RATIO, "element_of_risk": _nullable(RATIO)})
    definition = _obj({"file": {"type": "string"}, "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                       "content": {"type": "object",
                                   "description": "the wager file's TOML as JSON (docs/schemas/wager.json)"},
                       "text": {"type": "string", "description": "the wager file as submitted: verify recomputes "
                                                                 "sha256 and content from it"}})
    inputs = _obj({
        "wagers": _nullable({"type": "array", "items": {"type": "string"},
                             "description": "null: the whole catalogue; empty only with games "
                                            "(other games alone)"}),
        "paytable": _nullable({"type": "string"}),
        "shoe": {"type": "object"},
        "sensitivity_decks": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 1000}},
        "effects_of_removal": {"type": "boolean"},
        "games": {"type": "array", "minItems": 1, "items": _obj({
            "game": {"type": "string", "description": "a game of the registry (exactodds.games.registry.GAMES)"},
            "rules": {"type": "object", "description": "every field of the game's rules record: its value"}}),
            "description": "the games certified as one entry each (certify --game), under these rules"},
        "definitions": {"type": "array", "minItems": 1, "items": definition,
                        "description": "wager and paytable files the report's wagers come from (embedded, "
                                       "so 'verify' rebuilds them from the report alone)"}},
        ["wagers", "paytable", "shoe", "sensitivity_decks", "effects_of_removal"])
    top = _obj({
        "report": {"const": "exactodds certification report"}, "schema": {"const": SCHEMA}, "inputs": inputs,
        "games": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/game_entry"},
                  "description": "one entry per game, of one shape (exactodds.figures.entry): rules record, "
                                 "readings, schedules and its tables, each with its outcome table and par sheet"},
        "summary": _obj({"tables": COUNT, "second_method_agrees": COUNT, "no_second_method": COUNT,
                         "all_checks_hold": {"type": "boolean"}, "checks_cover": {"type": "string"},
                         "player_advantage": {"type": "array", "items": {"type": "string"},
                                              "description": "game/table id of every table favouring the player"}}),
        "version": {"type": "string"},
        "program": _obj({"name": {"const": "exactodds"}, "version": {"type": "string"},
                         "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"}, "files": COUNT,
                         "covers": {"type": "string"}}),
        "document": {"$ref": "#/$defs/document"},
        "template": _obj({"sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"}, "covers": {"type": "string"}},
                         description="the lab's HTML template the page is rendered with (certify --template); "
                                     "'verify PAGE --template DIR' checks the page with it"),
        "generated_utc": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"},
        "fingerprint": _obj({"algorithm": {"const": "sha256"}, "value": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                             "covers": {"type": "string"}})})
    top["required"] = [k for k in top["required"] if k not in ("document", "template")]  # only when asked
    return {"$schema": DRAFT, "title": "exactodds certification report",
            "description": "The report of 'exactodds certify --format json'; 'exactodds verify' recomputes it.",
            **top, "$defs": {"shoe": _shoe(), "analysis": _analysis(False), "effects": _effects(),
                             "verification": _verification(), "par_sheet": _par_sheet(),
                             "game_entry": _game_entry(sensitivity),
                             "document": {k: v for k, v in document_schema().items() if k != "$schema"}}}


def _game_entry(sensitivity: Schema) -> Schema:
    """A game entry of a certificate (:mod:`exactodds.figures.entry`): one shape for every game,
    its tables a wager-paytable (baccarat: the analysis as outcome table, with citations, effects
    of removal and sensitivity) or a player strategy (an outcome table of the seam)."""
    text = {"type": "string"}
    outcome = _obj({"outcome": text, "pays": RATIO, "pays_text": text, "count": COUNT, "probability": RATIO,
                    "return": RATIO})
    table = _obj({"strategy": text, "universe": text, "basis": {"enum": ["counts", "probabilities"]}, "total": COUNT,
                  "outcomes": {"type": "array", "items": outcome}, "return": RATIO, "house_edge": RATIO,
                  "hit_frequency": RATIO, "variance": RATIO, "std_dev": text, "element_of_risk": _nullable(RATIO)})
    rule = _obj({"field": text, "name": text, "section": text, "flag": text, "value": {}})
    deck = _obj({"id": text, "title": text, "unit": text, "per_deck": COUNT, "decks": _nullable(COUNT),
                 "size": COUNT, "description": text})
    schedule = _obj({"title": text, "cite": text, "columns": {"type": "array", "items": text},
                     "rows": {"type": "array", "items": {"type": "array", "items": text}}})
    row = _obj({
        "id": text, "title": text,
        "outcome_table": {"anyOf": [table, {"$ref": "#/$defs/analysis"}]},
        "par_sheet": {"$ref": "#/$defs/par_sheet"},
        "player_advantage": {"type": "boolean", "description": "the return is above 0: the table favours the player"},
        "verification": {"$ref": "#/$defs/verification"},
        # what a game may add to its tables (baccarat's wager-paytables)
        "wager": text, "paytable": text, "level": text,
        "citations": _obj({"wager": text, "paytable": text}),
        "readings": _obj({"wager": _nullable(text), "paytable": _nullable(text)}),
        "effects_of_removal": {"$ref": "#/$defs/effects"},
        "sensitivity": {"type": "array", "items": sensitivity}},
        ["id", "title", "outcome_table", "par_sheet", "player_advantage", "verification"])
    check = {"type": "object", "required": ["check", "holds"]}
    return _obj({"game": text, "title": text, "citation": text, "deck": deck,
                 "rules": {"type": "array", "items": rule}, "readings": {"type": "array", "items": text},
                 "tables": {"type": "array", "minItems": 1, "items": row},
                 "schedules": {"type": "array", "items": schedule},
                 "player_advantage": _obj({"tables": {"type": "array", "items": text}, "statement": text}),
                 "verification": _obj({"checks": {"type": "array", "items": check}, "all_hold": {"type": "boolean"}})},
                description="one game (issue 26): its rules record, readings, schedules and tables -- each an "
                            "outcome table with its whole par sheet and verification")


def _par_sheet() -> Schema:
    sig = {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"}
    pair = {"type": "array", "items": sig, "minItems": 2, "maxItems": 2}
    pct_pair = {"type": "array", "items": PERCENT, "minItems": 2, "maxItems": 2}
    rng = _obj({"rounds": COUNT, "expected_result": RATIO, "result_90": pair, "result_95": pair,
                "return_90": pct_pair, "return_95": pct_pair})
    top = _obj({"outcome": {"type": "string"}, "win_per_unit": RATIO, "pays_text": {"type": "string"},
                "paid_per_round_per_unit": RATIO, "probability": RATIO, "one_in": sig})
    return _obj({"definition": {"type": "string"}, "standard_deviation": sig,
                 "volatility_index": _obj({"90": sig, "95": sig, "99": sig}), "hit_frequency": RATIO, "hit_one_in": _nullable(sig),
                 "cycle": COUNT, "maximum_payout": _nullable(top), "confidence_ranges": {"type": "array", "items": rng},
                 "player_advantage": {"type": "boolean"}})


def document_schema() -> Schema:
    """The JSON Schema of a ``certify --document`` file (:mod:`exactodds.report.document`)."""
    from exactodds.report.document import document_schema as schema

    return schema()


SCHEMAS: Final[dict[str, Callable[[], Schema]]] = {
    "wager": wager_schema, "analysis": analysis_schema, "certificate": certificate_schema,
    "document": document_schema}


def schema_text(name: str) -> str:
    """The schema ``name`` as published: JSON, two-space indent, keys in written order."""
    return json.dumps(SCHEMAS[name](), indent=2, ensure_ascii=False) + "\n"


__all__ = ["SCHEMAS", "analysis_schema", "certificate_schema", "schema_text", "wager_schema"]
