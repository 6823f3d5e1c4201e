"""The game seam (issue 26): outcome tables, decks, rules records and the registry."""

from __future__ import annotations

import functools
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.errors import InputError
from exactodds.figures.analysis import analyze
from exactodds.figures.parsheet import par_sheet
from exactodds.game.protocol import (
    SPANISH_48,
    STANDARD_52,
    TILES_32,
    Game,
    Outcome,
    OutcomeTable,
    rule_fields,
    rules_record,
)
from exactodds.games.registry import GAMES, get_game

nets = st.fractions(min_value=-5, max_value=50, max_denominator=40)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(nets, st.integers(0, 10**6)), min_size=1, max_size=8).filter(
    lambda rows: sum(c for _, c in rows) > 0))
def test_table_figures_equal_the_definitions(rows: list[tuple[Fraction, int]]) -> None:
    """Return, variance, hit frequency and element of risk from the integer moments equal
    the textbook sums over the rows' probabilities."""
    total = sum(c for _, c in rows)
    t = OutcomeTable(tuple(Outcome(f"o{i}", n, "", c) for i, (n, c) in enumerate(rows)), total, "s", "u")
    p = [Fraction(c, total) for _, c in rows]
    mean = sum((n * q for (n, _), q in zip(rows, p)), Fraction(0))
    assert t.return_ == mean == -t.house_edge
    assert t.variance == sum(((n - mean) ** 2 * q for (n, _), q in zip(rows, p)), Fraction(0))
    assert t.hit_frequency == sum((q for (n, _), q in zip(rows, p) if n > 0), Fraction(0))
    push = sum((q for (n, _), q in zip(rows, p) if n == 0), Fraction(0))
    assert t.element_of_risk == (None if push in (0, 1) else -mean / (1 - push))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(nets, st.integers(1, 1000)), min_size=1, max_size=6))
def test_probabilities_become_counts_over_their_common_denominator(rows: list[tuple[Fraction, int]]) -> None:
    weight = sum(w for _, w in rows)
    probs = [(f"o{i}", n, "", Fraction(w, weight)) for i, (n, w) in enumerate(rows)]
    t = OutcomeTable.from_probabilities(probs, "s", "u")
    assert t.basis == "probabilities"
    assert [t.probability(o) for o in t.outcomes] == [p for *_, p in probs]
    assert t.return_ == sum((n * p for _, n, _, p in probs), Fraction(0))


def test_a_table_that_does_not_add_up_is_refused() -> None:
    with pytest.raises(ValueError, match="add up"):
        OutcomeTable((Outcome("a", Fraction(1), "", 2),), 3, "s", "u")
    with pytest.raises(ValueError, match="add up to 1"):
        OutcomeTable.from_probabilities([("a", Fraction(1), "", Fraction(1, 2))], "s", "u")


def test_decks_describe_themselves() -> None:
    assert SPANISH_48.describe(8) == "8 decks of 48 cards (384)"
    assert STANDARD_52.describe(6) == "6 decks of 52 cards (312)"
    assert TILES_32.describe() == "32 tiles"
    assert TILES_32.to_json()["size"] == 32 and TILES_32.to_json()["decks"] is None


def test_every_game_has_its_class_data_and_a_complete_rules_record() -> None:
    ids = [g.id for g in GAMES]
    assert len(set(ids)) == len(ids)
    for g in GAMES:
        assert g.title and g.citation and g.strategies and g.deck
        fields = rule_fields(g.rules_type)
        assert fields and all(f.name and f.section and f.flag for f in fields)
        record = rules_record(g().rules())
        assert [r["field"] for r in record] == [f.field for f in fields]


def test_unknown_games_and_rules_are_input_errors() -> None:
    with pytest.raises(InputError, match="unknown game"):
        get_game("three-card-poker")
    g = get_game("pai-gow")
    with pytest.raises(InputError, match="unknown rules field"):
        g.rules({"vig": 1})
    with pytest.raises(InputError, match="must be a str"):
        g.rules({"house_way_reading": 3})
    with pytest.raises(InputError, match="certified house-way reading"):
        g.rules({"house_way_reading": "casino.json"})


@pytest.mark.parametrize(("wager", "paytable", "decks"), [("tie", "8to1", 8), ("banker", "5pct", 6),
                                                           ("dragon-7", None, 8)])
def test_baccarat_table_is_the_analysis(wager: str, paytable: str | None, decks: int) -> None:
    """The adapter hands up the level engine's analysis unchanged: every figure equal."""
    g = get_game("baccarat")
    t = g.outcome_table(g.rules({"wager": wager, "paytable": paytable or "", "decks": decks}), "as dealt")
    a = analyze(wager, paytable, decks)
    assert (t.total, t.return_, t.variance, t.hit_frequency, t.element_of_risk) == (
        a.total, a.return_, a.variance, a.hit_frequency, a.element_of_risk)
    assert [(o.name, o.net, o.count) for o in t.outcomes] == [(r.name, r.pay.net, r.count) for r in a.rows]


def test_baccarat_second_method_agrees() -> None:
    g = get_game("baccarat")
    r = g.rules({"wager": "tie", "decks": 1})
    second = g.second_method(r, "as dealt")
    assert second is not None and second[1] == g.outcome_table(r, "as dealt")


@pytest.mark.parametrize("reading", ["most-qualifying", "high-hand-first"])
def test_paigow_tables_are_its_counts_settled_at_the_exact_vigorish(reading: str) -> None:
    from exactodds.paigow import paigow_analysis

    g = get_game("paigow")
    r = g.rules({"house_way_reading": reading})
    for s in g.strategies:
        t = g.outcome_table(r, s)
        a = paigow_analysis(s, house_way=reading)  # type: ignore[arg-type]
        assert t.total == comb(32, 4) * comb(28, 4) == a.universe
        assert t.return_ == a.return_vigorish
        assert [o.count for o in t.outcomes] == [a.wins, a.ties, a.losses]
        win, push, loss = t.outcomes
        # variance by hand: E[X²] − E[X]², X = 0.95 on a win, 0 on a push, −1 on a loss
        ex2 = (Fraction(19, 20) ** 2 * win.count + loss.count) / Fraction(t.total)
        assert t.variance == ex2 - t.return_ ** 2
        p = par_sheet(t)
        assert p["maximum_payout"]["win_per_unit"] == "19/20" and p["cycle"] == t.total


def test_paigow_simulation_deals_rounds_near_the_exact_return() -> None:
    """A short run of real deals: its mean within 5 standard errors of the exact return."""
    g = get_game("paigow")
    r = g.rules()
    t = g.outcome_table(r, "house-way")
    nets = g.simulate(r, "house-way", 20000, 7)
    assert nets is not None and len(nets) == 20000 and set(nets) <= {o.net for o in t.outcomes}
    mean = sum(nets, Fraction(0)) / len(nets)
    se2 = t.variance / len(nets)
    assert (mean - t.return_) ** 2 < 25 * se2


def test_simulate_game_on_the_command_line(tmp_path: Path) -> None:
    """``simulate --game paigow -f json -o FILE``: both strategies, counts adding up to the
    rounds, the mean exact and equal to the counts', z within ±4; bad combinations refused in
    one line with nothing written."""
    import json

    from typer.testing import CliRunner

    from exactodds.cli.app import app

    runner = CliRunner()
    out = tmp_path / "sim.json"
    r = runner.invoke(app, ["simulate", "--game", "paigow", "--rounds", "20000", "--seed", "4", "-f", "json",
                            "-o", str(out)])
    assert r.exit_code == 0 and r.stdout == "", r.output
    doc = json.loads(out.read_text())
    assert [s["strategy"] for s in doc["strategies"]] == ["house-way", "optimal"]
    for s in doc["strategies"]:
        assert sum(o["count"] for o in s["outcomes"]) == 20000
        mean = sum((Fraction(o["pays"]) * o["count"] for o in s["outcomes"]), Fraction(0)) / 20000
        assert Fraction(s["mean"]) == mean and abs(Fraction(s["z"])) <= 4 and s["agrees"]
    for args in (["--game", "paigow", "-w", "tie"], ["--game", "paigow", "--rounds", "0"],
                 ["--reading", "high-hand-first"], ["--game", "paigow", "--game", "baccarat"]):
        bad = tmp_path / "bad.json"
        r = runner.invoke(app, ["simulate", *args, "-o", str(bad)])
        assert r.exit_code == 2 and not bad.exists() and r.output.count("error:") == 1, (args, r.output)


# -- a game is one package and one registry line (issue 26 item 6) ------------------------------
PACKAGE = Path(__file__).resolve().parent.parent / "exactodds"
ALLOWED = ("games/registry.py",)
"""Modules any game may be named in besides its own package and its own command module."""
HOSTS = {"baccarat": "the host: the package is a baccarat program (catalogue, engine, cards, every view) "
                     "that the other games join through the seam; its game module is an adapter in games/"}
"""Games exempt from the naming rule, with the reason."""
_ENGINE = "the blackjack family's one engine, of which Spanish 21 is a preset (issue 27): its second package"
_SIDE = ("Spanish 21's side wager (Match-The-Dealer, \"spanish21-match\"): a level of the baccarat engine and a "
         "wager of the catalogue, not the main game")
KNOWN_MENTIONS: dict[str, dict[str, str]] = {
    "spanish21": {
        "blackjack/distribution.py": _ENGINE, "blackjack/rules.py": _ENGINE, "blackjack/shoe.py": _ENGINE,
        "catalogue/__init__.py": _SIDE, "catalogue/spanish21.py": _SIDE, "engine/levels.py": _SIDE,
        "engine/spanish21.py": _SIDE,
        "game/layout.py": "the table layout of the side wager's levels (the cards a Match-The-Dealer round deals)",
        "cli/blackjack.py": "the blackjack family's command, whose presets are standard, spanish21 and wizard",
        "cli/options.py": "the blackjack rule options shared by the blackjack and spanish21 commands",
        "report/spanish21.py": ("the views of the spanish21 and blackjack commands (the report layer: the game's "
                                "package may not import it, and the command modules would import each other)"),
    },
}
"""Modules still naming a game (by game id), each with its reason: the list may only shrink
(the test fails when a mention is gone, so that it is struck off). Pai Gow is named in the
registry and its command module alone."""


def _mentions(path: Path, words: tuple[str, ...]) -> bool:
    """Whether ``path``'s code names one of ``words``: an import, a name or attribute, or a
    string that is not a docstring (comments and docstrings may describe a game)."""
    return any(w in t for t in _code_texts(path) for w in words)


@functools.cache
def _code_texts(path: Path) -> tuple[str, ...]:
    """The names and strings of ``path``'s code, lower-cased (:func:`_mentions`), parsed once."""
    import ast

    tree = ast.parse(path.read_text())
    docstrings = {id(n.value) for n in ast.walk(tree)  # a string standing alone: a (attribute) docstring
                  if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}
    texts: list[str] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            texts += [a.name for a in n.names]
        elif isinstance(n, ast.ImportFrom):
            texts += [n.module or "", *(a.name for a in n.names)]
        elif isinstance(n, ast.Name):
            texts.append(n.id)
        elif isinstance(n, ast.Attribute):
            texts.append(n.attr)
        elif isinstance(n, ast.arg):
            texts.append(n.arg)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings:
            texts.append(n.value)
    return tuple(t.lower() for t in texts)


def _names_of(game: type[Game]) -> tuple[tuple[str, ...], str]:
    """The words that name ``game`` in code -- its id, its aliases and its package, each also
    with ``-``, ``_`` and a space for one another (``pai-gow``, ``pai_gow``, ``pai gow``) --
    and its package folder relative to ``exactodds/``."""
    import sys

    module = sys.modules[game.__module__].__file__
    assert module is not None
    package = Path(module).resolve().parent.relative_to(PACKAGE).as_posix()
    words = {w.lower() for w in (game.id, *game.aliases, package.replace("/", "."))}
    words |= {w.replace(a, b) for w in words for a in "-_ " for b in "-_ "}
    return tuple(sorted(words)), package


def _naming(game: type[Game]) -> tuple[set[str], set[str]]:
    """The modules outside ``game``'s package that name it, and those allowed to (the registry,
    the game's own command module)."""
    words, package = _names_of(game)
    found = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
             if not p.relative_to(PACKAGE).as_posix().startswith(package + "/") and _mentions(p, words)}
    allowed = set(ALLOWED)
    if game.cli:
        allowed.add(game.cli.removeprefix("exactodds.").replace(".", "/") + ".py")
    return found, allowed


@pytest.mark.parametrize("game", [g for g in GAMES if g.id not in HOSTS], ids=lambda g: g.id)
def test_a_game_is_named_only_in_its_package_its_command_and_the_registry(game: type[Game]) -> None:
    """Every game of the registry but the host (:data:`HOSTS`) -- its id, aliases or package --
    is named in no module outside its own package but the registry and its command module
    (issue 26 item 6: adding a game is one package and one registry line)."""
    found, allowed = _naming(game)
    known = KNOWN_MENTIONS.get(game.id, {})
    assert found - allowed - set(known) == set(), f"{game.id} named in {sorted(found - allowed - set(known))}"
    assert set(known) <= found, set(known) - found  # a mention gone: strike it off
    assert len(found - set(known)) <= 2


def test_the_naming_rule_sees_a_mention() -> None:
    """The rule is no blind check: Pai Gow's own words are found in the registry and its command
    module, in a module that imports its package, and not in the docstring of one that only describes it."""
    from exactodds.paigow.game import PaiGow

    words, package = _names_of(PaiGow)
    assert package == "paigow" and {"paigow", "pai-gow", "pai gow", "pai_gow"} <= set(words)
    assert _naming(PaiGow)[0] == {"games/registry.py", "cli/paigow.py"}
    assert not _mentions(PACKAGE / "game/protocol.py", words)  # "Pai Gow's tiles" in its docstrings only
    assert all(g.id in HOSTS or _names_of(g)[1] != "games" for g in GAMES)  # a game's own package, not games/


@pytest.mark.parametrize("games", [
    [], {"game": "paigow"}, [{"game": "paigow"}], [{"game": "paigow", "rules": {}, "x": 1}],
    [{"game": "baccarat", "rules": {}}], [{"game": "pai-gow", "rules": {}}],
    [{"game": "paigow", "rules": {}}, {"game": "paigow", "rules": {}}],
    [{"game": "paigow", "rules": {"house_way_reading": "/etc/passwd"}}],
    [{"game": "paigow", "rules": {"vig": "5%"}}], [{"game": 7, "rules": {}}],
    [{"game": "paigow", "rules": {}}] * 17])
def test_malformed_games_inputs_are_refused_before_any_work(games: object) -> None:
    """``inputs/games`` of a report: anything but a list of distinct registry games certified as
    one entry, each with known rules fields of the right type and a certified reading, is one
    problem, found before anything is recomputed."""
    from exactodds.games.certificate import check_inputs

    inputs = {"wagers": [], "paytable": None, "shoe": {"decks": 8}, "sensitivity_decks": [8],
              "effects_of_removal": False, "games": games}
    problems = check_inputs(inputs)
    assert len(problems) == 1 and problems[0].startswith("inputs/games: "), problems


def test_a_report_of_an_older_schema_is_refused_in_one_line() -> None:
    import json as _json

    from exactodds.games.certificate import SCHEMA, SchemaError, parse_report

    assert SCHEMA == 7
    with pytest.raises(SchemaError, match="older than this exactodds reads"):
        parse_report(_json.dumps({"report": "exactodds certification report", "schema": 4, "paigow": True}))
    with pytest.raises(SchemaError, match="schema 5 is older"):  # Spanish 21's own section, before the seam
        parse_report(_json.dumps({"report": "exactodds certification report", "schema": 5, "spanish21": {}}))
