"""A level owns its meaning (issue 29 item 1): what every level declares in
exactodds.engine.levels -- facts and note, second method, layout, slots read, group key -- is
checked here against an independent reading, and no other module spells a level's name."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from exactodds.catalogue import CATALOGUE
from exactodds.catalogue.facts import FACTS, LEVEL_NOTES
from exactodds.engine.level import Level
from exactodds.engine.levels import LEVELS, OPENING_SLOTS
from exactodds.game.cards import FACES, Shoe
from exactodds.game.layout import BACCARAT, SPANISH21
from exactodds.simulation.settle import ABSENT, GROUP_KEYS, SLOTS, hands

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "exactodds"
HOME = PACKAGE / "engine" / "levels.py"


# -- no level name outside engine/levels.py -------------------------------------------------------

def _docstrings(tree: ast.AST) -> set[int]:
    """The ``id`` of every docstring constant (module, class, function, and the string after an
    assignment that documents it): prose, which may name a level."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            is_doc = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                and isinstance(stmt.value.value, str)
            if is_doc and (i == 0 or isinstance(body[i - 1], (ast.Assign, ast.AnnAssign))):
                out.add(id(stmt.value))
    return out


def level_name_literals(path: Path, names: set[str]) -> list[tuple[int, str]]:
    """Every string constant of ``path`` (docstrings apart; comments are not in the syntax
    tree) that is a level's name, as (line, name) in line order."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value in names:
                found.append((node.lineno, node.value))
    return sorted(found)


def test_no_level_name_literal_outside_the_levels_module() -> None:
    """Issue 29's done-when: a level is named in ``engine/levels.py`` only. The source of the
    package and of ``scripts/`` is scanned with ``ast``, string constants only: docstrings
    (and comments, which the syntax tree does not hold) may name a level in prose; the tests
    may name them (they check what a name gives)."""
    names = set(LEVELS)
    found = [f"{path.relative_to(ROOT)}:{line}: {name!r}"
             for path in sorted([*PACKAGE.rglob("*.py"), *(ROOT / "scripts").rglob("*.py")]) if path != HOME
             for line, name in level_name_literals(path, names)]
    assert not found, "\n".join(found)
    assert len(level_name_literals(HOME, names)) >= len(names)  # the scan sees them where they live


def test_the_scan_finds_a_level_name(tmp_path: Path) -> None:
    """The scan would see a name used as data, and passes over docstrings."""
    src = tmp_path / "m.py"
    src.write_text('"""The coup level."""\nX = "coup"\n\n\ndef f() -> str:\n    """deal-faces"""\n'
                   '    return {"deal-faces": 1}.get("opening-nines", "x")\n', encoding="utf-8")
    got = level_name_literals(src, set(LEVELS))
    assert got == [(2, "coup"), (7, "deal-faces"), (7, "opening-nines")]


# -- the second methods do not import the pricing code --------------------------------------------

def _module_imports(path: Path) -> set[str]:
    """Every ``exactodds`` module ``path`` imports (type-only imports included)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("exactodds")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("exactodds"):
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names
                    if (PACKAGE.parent / f"{node.module}.{a.name}".replace(".", "/")).with_suffix(".py").is_file()}
    return out


def _path(module: str) -> Path | None:
    base = PACKAGE.parent / module.replace(".", "/")
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


def test_the_second_methods_never_reach_the_engine() -> None:
    """The certificate's independence: :mod:`exactodds.recount` and everything it imports,
    followed transitively, type-only imports included, stay out of the engine (pricing,
    levels, kernels), the catalogue and the figures; the engine imports it, not back."""
    seen: set[str] = set()
    todo = ["exactodds.recount"] + [f"exactodds.recount.{p.stem}" for p in (PACKAGE / "recount").glob("*.py")]
    while todo:
        module = todo.pop()
        path = _path(module)
        if module in seen or path is None:
            continue
        seen.add(module)
        todo += sorted(_module_imports(path) | {module.rsplit(".", 1)[0]} - {"exactodds"})
    bad = sorted(m for m in seen if m.split(".")[1] in ("engine", "catalogue", "figures", "simulation"))
    assert not bad and "exactodds.recount.faces" in seen, bad


# -- what every level declares --------------------------------------------------------------------

def test_every_level_declares_its_facts_note_and_layout() -> None:
    catalogue_levels = {w.level for w in CATALOGUE.values()}
    for level in LEVELS.values():
        assert level.facts and level.notes, level.name
        assert all(f.cite and f.meaning for f in level.facts), level.name
        assert len({f.name for f in level.facts}) == len(level.facts), level.name
        assert level.depth == (6 if level.layout is BACCARAT else 4), level.name   # § 629a.10; § 551.8(d)
        assert level.baccarat == (level.layout is BACCARAT)
        assert level.second_method is not None or level not in catalogue_levels, level.name
    assert all(w.level.second_method is not None for w in CATALOGUE.values())
    assert {lv.layout for lv in LEVELS.values()} == {BACCARAT, SPANISH21}
    # the catalogue's index is the levels' own data, in the levels' order
    assert list(FACTS) == list(LEVELS) and all(FACTS[n] is LEVELS[n].facts for n in FACTS)
    assert all(LEVEL_NOTES[n] == LEVELS[n].notes for n in FACTS)


def test_a_group_key_is_declared_by_levels_that_read_every_card() -> None:
    for level in LEVELS.values():
        if level.group_key is not None:
            assert level.group_key in GROUP_KEYS and level.slots_read == level.layout.slots, level.name


# -- the slots each level reads, checked by a seeded trial ----------------------------------------

def _same_value(pool: list[int]) -> dict[int, list[int]]:
    by_value: dict[int, list[int]] = {}
    for f in pool:
        by_value.setdefault(FACES[f].value, []).append(f)
    return {f: by_value[FACES[f].value] for f in pool}


def slots_by_trial(level: Level, rounds: int = 300) -> tuple[int, ...]:
    """The slots whose face ``level``'s result depends on, found by trial and then verified
    (what the simulator and the cross-check used to run at each start).

    Trial: in seeded random rounds (faces the level can deal), each card is replaced by
    every other face of the same point value (so the drawing is unchanged); a slot is read
    if that ever changes the result. Verification: rounds that keep the faces in the slots
    read and deal anything else must give the same result; if any does not, every slot of
    the layout is taken as read (a result that depends on point values, as a Coup does,
    changes with slots the trial cannot see)."""
    rng = np.random.default_rng(629)
    pool = [i for i, n in enumerate(level.dealt_shoe(Shoe.standard(8)).counts) if n]
    same = _same_value(pool)
    used = level.layout.slots

    def deal() -> list[int]:
        row = [int(x) for x in rng.choice(pool, size=SLOTS)]
        for j in range(SLOTS):
            if j not in used or (j in (2, 5) and rng.integers(0, 2)):
                row[j] = ABSENT
        return row

    def result(row: list[int]) -> Any:
        return level.from_deal(*hands(row))

    read: set[int] = set()
    for _ in range(rounds):
        row = deal()
        base = result(row)
        for j in used:
            if j in read or row[j] == ABSENT:
                continue
            if any(y != row[j] and result(row[:j] + [y] + row[j + 1:]) != base for y in same[row[j]]):
                read.add(j)
    for _ in range(rounds):
        row, other = deal(), deal()
        for j in read:
            other[j] = row[j]
        for j in (2, 5):  # a drawn third card is part of the deal's shape
            if (row[j] == ABSENT) != (other[j] == ABSENT):
                other[j] = row[j]
        if result(row) != result(other):
            return used
    return tuple(sorted(read))


@pytest.mark.parametrize("level", list(LEVELS.values()), ids=lambda lv: lv.name)
def test_every_declared_slot_set_is_what_the_trial_finds(level: Level) -> None:
    assert level.slots_read == slots_by_trial(level)


def test_the_trial_sees_what_a_reading_reads() -> None:
    """The check is not blind: for readings whose slots are known by construction, the trial
    finds exactly those -- one card of each hand; the suits of the four initial cards; point
    totals only (every slot, which the verification step, not the swap, reveals)."""
    base = LEVELS["opening-nines"]
    probes = {(0, 4): lambda p, b: (p[0], b[1]),
              OPENING_SLOTS: lambda p, b: tuple(c.suit for c in (*p[:2], *b[:2])),
              BACCARAT.slots: lambda p, b: (sum(c.value for c in p) % 10, sum(c.value for c in b) % 10)}
    for slots, reading in probes.items():
        assert slots_by_trial(dataclasses.replace(base, from_deal=reading)) == slots
