"""The published JSON Schemas: valid schemas, equal to docs/schemas/, and every output checked."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import SMALL_SHOES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.catalogue import CATALOGUE
from exactodds.catalogue.facts import FACTS
from exactodds.catalogue.files import load_wager_files, parse_definition
from exactodds.errors import InputError
from exactodds.figures.analysis import analysis_json, analyze
from exactodds.game.cards import Shoe
from exactodds.games.certificate import certify
from exactodds.report.schemas import SCHEMAS, schema_text

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.toml"))


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(SCHEMAS[name](), format_checker=jsonschema.FormatChecker())


def errors(name: str, doc: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator(name).iter_errors(doc)]


def plain(doc: Any) -> Any:
    return json.loads(json.dumps(doc))


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schemas_are_valid_and_published(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMAS[name]())
    published = ROOT / "docs" / "schemas" / f"{name}.json"
    assert published.read_text(encoding="utf-8") == schema_text(name), \
        f"{published}: regenerate with 'exactodds schema {name} > {published}'"


def test_every_catalogue_analysis_matches_the_analysis_schema() -> None:
    shoe = Shoe.standard(8)
    checked = 0
    for w in CATALOGUE.values():
        for t in w.paytables:
            doc = plain(analysis_json(analyze(w, t.id, shoe)))
            assert errors("analysis", doc) == [], (w.id, t.id)
            checked += 1
    assert checked == sum(len(w.paytables) for w in CATALOGUE.values()) > 60


def test_unusual_analyses_match_the_schema() -> None:
    custom = Shoe.standard(1).remove(Shoe.standard(1).cards()[:3])
    cases = [analyze("banker", "5pct", SMALL_SHOES["five-cards"]),       # void row
             analyze("royal-9", "5usd", Shoe.standard(6), {"mega": Fraction(62500)}),  # meters given
             analyze("tie", "8to1", custom)]                              # custom shoe: counts
    for a in cases:
        assert errors("analysis", plain(analysis_json(a))) == []
    assert "counts" in analysis_json(cases[2])["shoe"]


def test_the_analysis_schema_catches_what_the_contract_forbids() -> None:
    doc = plain(analysis_json(analyze("banker", "5pct", Shoe.standard(8))))
    for key, value in (("house_edge", 0.0106), ("house_edge", "2/4x"), ("total", "4998398275503360"),
                       ("return", "-1/0"), ("extra", 1)):
        assert errors("analysis", {**doc, key: value}), key
    assert errors("analysis", {k: v for k, v in doc.items() if k != "variance"})
    bad_row = {**doc, "outcomes": [{**doc["outcomes"][0], "probability": 0.5}]}
    assert errors("analysis", bad_row)
    # a fixed-odds return must be p/q; only a progressive may carry the expression
    assert errors("analysis", {**doc, "return": "1/2*M_x - 1/3"})


@pytest.fixture(scope="module")
def certificates() -> list[dict[str, Any]]:
    files = load_wager_files([str(p) for p in EXAMPLES])
    return [
        certify(["dragon-7", "heavenly-9-progressive", "royal-9", "lucky-nines"], None, Shoe.standard(8),
                sensitivity_decks=(6, 8)),
        certify(["perfect-pairs-player", "match-the-dealer"], None, Shoe.standard(6), sensitivity_decks=(8,),
                effects_of_removal=False),
        certify(["banker"], "5pct", SMALL_SHOES["five-cards"], sensitivity_decks=(1,)),
        certify(files, None, Shoe.standard(8), sensitivity_decks=(8,), effects_of_removal=False),
    ]


def test_certificates_match_the_certificate_schema(certificates: list[dict[str, Any]]) -> None:
    for doc in certificates:
        assert errors("certificate", plain(doc)) == []
    assert "definitions" in certificates[-1]["inputs"]
    for d in certificates[-1]["inputs"]["definitions"]:
        assert errors("wager", d["content"]) == []
    assert any("return_expression" in e["outcome_table"] for e in certificates[0]["games"][0]["tables"])  # a progressive
    assert any(o["outcome"].startswith("Round void") for o in certificates[2]["games"][0]["tables"][0]["outcome_table"]["outcomes"])


def test_the_certificate_schema_catches_tampering(certificates: list[dict[str, Any]]) -> None:
    doc = plain(certificates[0])
    doc["games"][0]["tables"][0]["outcome_table"]["house_edge"] = 0.07
    assert errors("certificate", doc)
    doc = plain(certificates[0])
    doc["fingerprint"]["value"] = "not hex"
    assert errors("certificate", doc)


def test_examples_match_the_wager_schema() -> None:
    assert len(EXAMPLES) >= 5
    for path in EXAMPLES:
        assert errors("wager", tomllib.loads(path.read_text(encoding="utf-8"))) == [], path.name


BASE = {"id": "t", "name": "T", "level": "coup",
        "outcomes": [{"name": "w", "when": {"winner": "banker", "banker_total": 8}}],
        "paytables": [{"id": "a", "pays": {"w": "1 to 1"}}]}


@pytest.mark.parametrize("change", [
    {"outcomes": [{"name": "w", "when": {"banker_totl": 8}}]},           # unknown fact
    {"outcomes": [{"name": "w", "when": {"banker_total": 10}}]},         # value out of range
    {"outcomes": [{"name": "w", "when": {"banker_total": "8"}}]},        # wrong type
    {"outcomes": [{"name": "w", "when": {"one_suit": True}}]},           # a deal-faces fact at coup
    {"paytables": [{"id": "a", "pays": {"w": "1 too 1"}}]},              # pay does not parse
    {"paytables": [{"id": "a", "pays": {"w": 2}}]},                      # pay not a string
    {"level": "coupe"}, {"id": "../x"}, {"extra": 1}, {"outcomes": []},
])
def test_bad_documents_fail_the_schema_and_the_loader(change: dict[str, Any]) -> None:
    doc = {**BASE, **change}
    assert errors("wager", doc)
    with pytest.raises(InputError):
        parse_definition(doc, "x.toml")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_documents_the_loader_accepts_match_the_schema(data: st.DataObject) -> None:
    level = data.draw(st.sampled_from(sorted(FACTS)))
    facts = data.draw(st.lists(st.sampled_from(FACTS[level]), min_size=0, max_size=3, unique_by=lambda f: f.name))
    when: dict[str, Any] = {}
    for f in facts:
        values = data.draw(st.lists(st.sampled_from(f.values), min_size=1, max_size=len(f.values), unique=True))
        when[f.name] = values[0] if len(values) == 1 and data.draw(st.booleans()) else values
    pay = data.draw(st.sampled_from(["1 to 1", "5/2 to 1", "9 for 1", "2.5 to 1", "push"]))
    doc = {"id": "gen", "name": "Generated", "level": level, "outcomes": [{"name": "o", "when": when}],
           "paytables": [{"id": "p", "pays": {"o": pay}}]}
    try:
        parse_definition(doc, "gen.toml")
    except InputError as exc:
        assert "unreachable" in str(exc)  # the one fault a schema cannot see
    assert errors("wager", doc) == []
