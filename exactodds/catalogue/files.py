"""Wagers and paytables from TOML files: a new side wager submitted as data, with no code.

A *wager file* declares one wager (``id``, ``name``, ``level``, ``outcomes``,
``paytables``; optional ``cite``, ``reading``, ``otherwise``, ``settle``); a *paytable
file* adds paytables to a wager that exists already (``wager = "dragon-7"`` and
``paytables``). ``docs/wager-files.md`` is the guide; ``exactodds schema wager`` prints
the JSON Schema.

* An outcome's ``when`` is a table of facts of the level's result
  (:mod:`exactodds.catalogue.facts`), every one of which must hold; a value may be a list
  (any of); ``when`` may also be a list of such tables (any of). Outcomes are tried in
  order and the first that holds (and that the paytable pays) settles the round; a round
  matching none settles on ``otherwise`` ("Loses" unless the file says else).
* A pay is ``"N to M"``, ``"N for M"`` (N, M whole numbers, decimals such as ``"2.5"`` or
  fractions such as ``"5/2"``, read exactly), ``"push"``, ``"loses"``, or a meter pay
  ``"meter NAME"`` / ``"SHARE of meter NAME"`` (``SHARE`` such as ``"50%"``) naming a
  meter the paytable declares under ``meters``.

No code is evaluated. Every file is checked before it is used, and a bad one is one
:class:`~exactodds.errors.InputError` line naming the file, the key and what is wrong:
unknown keys and facts (with the nearest name), wrong types, numbers out of bounds, pays
that do not parse, duplicate ids (against the catalogue too), and outcomes that can
never settle a round -- checked against every result the level can produce
(``Level.results``), with the wager's own settle rule, under every paytable that pays
them.

The parsed document is kept with the wager (:class:`FileWager`), so a certificate embeds
it (:func:`report_inputs`) and ``verify`` rebuilds the wager from the report alone
(:func:`registered_definitions`). Commands see file wagers through :func:`registered`,
which installs them in the catalogue for the duration of a ``with`` block.

>>> w = parse_wager_text('''
... id = "banker-three-card-eight"
... name = "Banker Three-Card Eight"
... level = "coup"
... [[outcomes]]
... name = "Banker wins with a 3-card 8"
... when = { winner = "banker", banker_total = 8, banker_cards = 3 }
... [[paytables]]
... id = "30to1"
... pays = { "Banker wins with a 3-card 8" = "30 to 1" }
... ''', "example.toml")
>>> w.paytable().pays["Banker wins with a 3-card 8"].net
Fraction(30, 1)
>>> parse_wager_text('id = "x"\\nname = "X"\\nlevel = "coup"\\noutcome = []', "bad.toml")
Traceback (most recent call last):
...
exactodds.errors.InputError: bad.toml: outcome: unknown key (did you mean 'outcomes'?)
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, NoReturn

from exactodds.catalogue import CATALOGUE
from exactodds.catalogue.facts import FACTS, Fact, facts_of, nearest_fact
from exactodds.catalogue.model import Meter, Outcome, Pay, Paytable, Wager
from exactodds.engine.levels import LEVELS
from exactodds.errors import InputError
from exactodds.inputs import bidi_control

MAX_FILE_BYTES: Final = 1 << 20
"""A wager file larger than 1 MiB is refused unread."""
MAX_FILES: Final = 64
MAX_OUTCOMES: Final = 256
MAX_PAYTABLES: Final = 64
MAX_ALTERNATIVES: Final = 64
"""Most tables in one ``when`` list."""
MAX_WORK: Final = 2_000_000
"""Most condition tests a wager may ask for: results of its level × tables of facts in its
outcomes' ``when`` × (paytables + 1). Settling every result under every paytable costs
about that many tests (about a microsecond each), when the file is read and again when it
is analysed; an 849 KB file asking for 10^10 ran past 600 s, so a file is refused, in one
line, before any of that work. The realistic wagers ask for less than 10^5."""
MAX_METERS: Final = 16
MAX_NAME: Final = 200
MAX_TEXT: Final = 4000
MAX_NUMBER: Final = 10**9
"""Largest number a pay, stake or share may name (its numerator and denominator too)."""
MAX_AMOUNT: Final = 10**12
"""Largest meter amount (dollars)."""
ID_PATTERN: Final = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"
NUMBER_PATTERN: Final = r"[0-9]{1,12}(?:\.[0-9]{1,12})?(?:/[0-9]{1,12})?"
PAY_PATTERN: Final = re.compile(rf"\s*({NUMBER_PATTERN})\s+(to|for)\s+({NUMBER_PATTERN})\s*")
METER_PATTERN: Final = re.compile(rf"\s*(?:({NUMBER_PATTERN})(%?)\s+of\s+)?(?:the\s+)?meter\s+({ID_PATTERN})\s*")
NO_CITATION: Final = "no citation given (wager file)"

WAGER_KEYS: Final = ("id", "name", "cite", "level", "reading", "otherwise", "settle", "outcomes", "paytables")
PAYTABLE_FILE_KEYS: Final = ("wager", "cite", "paytables")
OUTCOME_KEYS: Final = ("name", "when")
PAYTABLE_KEYS: Final = ("id", "pays", "cite", "note", "meters", "stake")
METER_KEYS: Final = ("name", "reset", "increment", "reserve", "reset_funded_by_reserve", "cite")
DEFINITION_KEYS: Final = ("file", "sha256", "content", "text")


@dataclass(frozen=True)
class FileWager(Wager[Any]):
    """A wager defined (or extended) by wager files; ``definitions`` rebuild it.

    ``definitions`` are the documents, in order, that :func:`wagers_from_definitions`
    turns back into this wager: each ``{"file", "sha256", "content"}`` with ``content``
    the file's TOML as plain JSON values.
    """

    definitions: tuple[Mapping[str, Any], ...] = field(default=(), compare=False)
    conditions: int = field(default=0, compare=False)
    """Tables of facts in the outcomes' ``when`` (the size of a settlement, for :data:`MAX_WORK`)."""


# -- errors ------------------------------------------------------------------------------------

class _Where:
    """The file being read, for error lines ``FILE: KEY: what is wrong``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, what: str) -> NoReturn:
        where = f"{self.source}: {key}: " if key else f"{self.source}: "
        raise InputError(where + what)


def _near(name: str, options: Iterable[str]) -> str:
    near = difflib.get_close_matches(name, list(options), n=1, cutoff=0.5)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _seg(name: str) -> str:
    """A key as it appears in an error line: bare if plain, else quoted and escaped."""
    if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name):
        return name
    text = json.dumps(name, ensure_ascii=False)
    text = text if len(text) <= 60 else text[:56] + '..."'
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def _shown(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"an integer of {value.bit_length()} bits"  # repr of > 4,300 digits raises
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, Decimal):
        return "a floating-point number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


# -- reading values ---------------------------------------------------------------------------

def _keys(where: _Where, doc: Mapping[str, Any], allowed: Sequence[str], key: str) -> None:
    for k in doc:
        if k not in allowed:
            where.fail(f"{key}.{_seg(k)}" if key else _seg(k), "unknown key" + _near(k, allowed))


def _table(where: _Where, value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        where.fail(key, f"must be a table, not {_type_name(value)}")
    return value


def _array(where: _Where, value: Any, key: str, limit: int) -> list[Any]:
    if not isinstance(value, list):
        where.fail(key, f"must be an array, not {_type_name(value)}")
    if len(value) > limit:
        where.fail(key, f"at most {limit} entries, got {len(value)}")
    return value


def _text(where: _Where, value: Any, key: str, limit: int = MAX_NAME, empty: bool = False) -> str:
    """A string of at most ``limit`` characters; line breaks only in long texts (readings, notes)."""
    if not isinstance(value, str):
        where.fail(key, f"must be a string, not {_type_name(value)}")
    if not value.strip() and not empty:
        where.fail(key, "must not be empty")
    if len(value) > limit:
        where.fail(key, f"at most {limit} characters, got {len(value)}")
    breaks = "\n" if limit > MAX_NAME else ""
    if any((ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029") and ch not in breaks for ch in value):
        where.fail(key, "must not hold control characters" + ("" if breaks else " or line breaks"))
    bidi = bidi_control(value)
    if bidi is not None:
        where.fail(key, f"must not hold a bidirectional control ({bidi}): it shows text in another order than it reads")
    return value


def _ident(where: _Where, value: Any, key: str) -> str:
    text = _text(where, value, key)
    if not re.fullmatch(ID_PATTERN, text):
        where.fail(key, f"{_shown(text)} is not an id: letters, digits, '-' and '_', at most 64, "
                   "starting with a letter or digit")
    return text


def _required(where: _Where, doc: Mapping[str, Any], key: str, prefix: str = "") -> Any:
    if key not in doc:
        where.fail(f"{prefix}{key}" if not prefix else f"{prefix}.{key}", "missing")
    return doc[key]


def _number(where: _Where, value: Any, key: str, limit: int = MAX_NUMBER) -> Fraction:
    """A non-negative exact number: an integer, or a string ``"12"``, ``"2.5"``, ``"5/2"``."""
    if isinstance(value, Decimal):
        where.fail(key, f"{value} is a floating-point number; write it as a string, e.g. \"{value}\", "
                   "so it is read exactly")
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        where.fail(key, f"must be a number (an integer, or a string such as \"5/2\"), not {_type_name(value)}")
    if isinstance(value, int):
        x = Fraction(value)
    else:
        if not re.fullmatch(NUMBER_PATTERN, value.strip()):
            where.fail(key, f"{_shown(value)} is not a number such as \"12\", \"2.5\" or \"5/2\"")
        x = _parse_number(value.strip(), where, key)
    if x < 0 or x > limit or x.denominator > MAX_NUMBER:
        where.fail(key, f"{_shown(value)} is out of bounds (0 to {limit:,}, denominator at most {MAX_NUMBER:,})")
    return x


def _parse_number(text: str, where: _Where, key: str) -> Fraction:
    head, _, den = text.partition("/")
    x = Fraction(Decimal(head))
    if den:
        if int(den) == 0:
            where.fail(key, f"{_shown(text)} divides by zero")
        x /= int(den)
    return x


def _pay_key(name: str) -> str:
    """An outcome name as a key of ``pays``: always quoted, as TOML writes it."""
    seg = _seg(name)
    return seg if seg.startswith('"') else json.dumps(name)


def _shown_number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# -- pays -------------------------------------------------------------------------------------

def parse_pay(text: Any, meters: Sequence[str] = (), where: _Where | None = None, key: str = "pay") -> Pay:
    """A pay as a wager file writes it: ``"N to M"``, ``"N for M"``, ``"push"``, ``"loses"``,
    ``"meter NAME"`` or ``"SHARE of meter NAME"``.

    >>> parse_pay("5/2 to 1").net, parse_pay("9 for 1").net, parse_pay("push").net
    (Fraction(5, 2), Fraction(8, 1), Fraction(0, 1))
    >>> parse_pay("50% of meter grand", ["grand"]).share
    Fraction(1, 2)
    """
    where = where or _Where("pay")
    s = _text(where, text, key)
    low = s.strip()
    if low == "push":
        return Pay.push()
    if low in ("loses", "lose"):
        return Pay.lose()
    m = PAY_PATTERN.fullmatch(s)
    if m:
        a = _number(where, m.group(1), key)
        b = _number(where, m.group(3), key)
        if b == 0:
            where.fail(key, f"{_shown(s)}: the second number must not be 0")
        word = m.group(2)
        if word == "for" and a == 0:
            where.fail(key, f"{_shown(s)}: '0 for' is not a pay; write \"loses\"")
        net = a / b if word == "to" else a / b - 1
        return Pay(net, f"{_shown_number(a)} {word} {_shown_number(b)}")
    m = METER_PATTERN.fullmatch(s)
    if m:
        name = m.group(3)
        if name not in meters:
            where.fail(key, f"meter {name!r} is not declared in this paytable's meters"
                       + (_near(name, meters) if meters else " (it declares none)"))
        share = Fraction(1)
        if m.group(1):
            share = _number(where, m.group(1), key)
            if m.group(2):
                share /= 100
        if not 0 < share <= 1:
            where.fail(key, f"{_shown(s)}: the share of a meter must be more than 0 and at most 100%")
        return Pay.meter_pay(name, share)
    where.fail(key, f"{_shown(s)} is not a pay: write \"N to 1\", \"N for 1\", \"5/2 to 1\", \"push\", "
               "\"loses\" or \"meter NAME\"")


# -- conditions -------------------------------------------------------------------------------

Predicate = Callable[[Any], bool]


def _condition(where: _Where, level: str, when: Any, key: str) -> Predicate:
    """A ``when``: a table (every fact holds) or a list of tables (any holds)."""
    if isinstance(when, list):
        alternatives = _array(where, when, key, MAX_ALTERNATIVES)
        if not alternatives:
            where.fail(key, "an empty list matches no round")
        preds = [_conjunction(where, level, _table(where, a, f"{key}[{i}]"), f"{key}[{i}]")
                 for i, a in enumerate(alternatives)]
        return lambda r: any(p(r) for p in preds)
    return _conjunction(where, level, _table(where, when, key), key)


def _conjunction(where: _Where, level: str, table: Mapping[str, Any], key: str) -> Predicate:
    facts = facts_of(level)
    tests: list[tuple[Fact, frozenset[Any]]] = []
    for name, value in table.items():
        fk = f"{key}.{_seg(name)}"
        fact = facts.get(name)
        if fact is None:
            near = nearest_fact(level, name)
            where.fail(fk, f"unknown fact of level {level!r}" + (f" (did you mean {near!r}?)" if near else
                                                                  "; docs/wager-files.md lists the facts"))
        values = value if isinstance(value, list) else [value]
        if not values:
            where.fail(fk, "an empty list matches no round")
        if len(values) > len(fact.values):
            where.fail(fk, f"at most {len(fact.values)} values")
        for v in values:
            _check_value(where, fact, v, fk)
        tests.append((fact, frozenset(values)))
    return lambda r: all(f.read(r) in allowed for f, allowed in tests)


def _check_value(where: _Where, fact: Fact, value: Any, key: str) -> None:
    expected = {"bool": "a boolean (true or false)", "int": "an integer", "choice": "a string"}[fact.kind]
    ok_type = (isinstance(value, bool) if fact.kind == "bool" else
               isinstance(value, int) and not isinstance(value, bool) if fact.kind == "int" else
               isinstance(value, str))
    if not ok_type:
        where.fail(key, f"{fact.name} is {expected}, not {_type_name(value)} {_shown(value)}")
    if value not in fact.values:
        near = _near(value, fact.values) if isinstance(value, str) else ""
        where.fail(key, f"{_shown(value)} is not a value of {fact.name} (allowed: {fact.allowed()}){near}")


# -- paytables --------------------------------------------------------------------------------

def _meters(where: _Where, value: Any, key: str) -> tuple[Meter, ...]:
    out: list[Meter] = []
    for i, raw in enumerate(_array(where, value, key, MAX_METERS)):
        mk = f"{key}[{i}]"
        m = _table(where, raw, mk)
        _keys(where, m, METER_KEYS, mk)
        name = _ident(where, _required(where, m, "name", mk), f"{mk}.name")
        if name in {x.name for x in out}:
            where.fail(f"{mk}.name", f"meter {name!r} is declared twice")

        def opt(k: str, limit: int, m: dict[str, Any] = m, mk: str = mk) -> Fraction | None:
            return None if k not in m else _number(where, m[k], f"{mk}.{k}", limit)

        funded = m.get("reset_funded_by_reserve", False)
        if not isinstance(funded, bool):
            where.fail(f"{mk}.reset_funded_by_reserve", f"must be true or false, not {_type_name(funded)}")
        rates = [opt("increment", 1), opt("reserve", 1)]
        out.append(Meter(name, opt("reset", MAX_AMOUNT), rates[0], rates[1] or Fraction(0), funded,
                         _text(where, m.get("cite", ""), f"{mk}.cite", MAX_TEXT, empty=True)))
    return tuple(out)


def _paytable(where: _Where, raw: Any, key: str, names: Sequence[str], default_cite: str) -> Paytable:
    t = _table(where, raw, key)
    _keys(where, t, PAYTABLE_KEYS, key)
    pid = _ident(where, _required(where, t, "id", key), f"{key}.id")
    meters = _meters(where, t.get("meters", []), f"{key}.meters")
    pays_raw = _table(where, _required(where, t, "pays", key), f"{key}.pays")
    if not pays_raw:
        where.fail(f"{key}.pays", "pays nothing: name at least one outcome")
    pays: dict[str, Pay] = {}
    for name, text in pays_raw.items():
        pk = f"{key}.pays.{_pay_key(name)}"
        if name not in names:
            where.fail(pk, "not an outcome of the wager" + _near(name, names))
        pays[name] = parse_pay(text, [m.name for m in meters], where, pk)
    used = {p.meter for p in pays.values() if p.meter}
    for m in meters:
        if m.name not in used:
            where.fail(f"{key}.meters", f"meter {m.name!r} is paid by no outcome")
    stake = _number(where, t["stake"], f"{key}.stake", MAX_AMOUNT) if "stake" in t else None
    if stake is not None and stake == 0:
        where.fail(f"{key}.stake", "must be more than 0")
    return Paytable(pid, pays, _text(where, t.get("cite", default_cite), f"{key}.cite", MAX_TEXT),
                    _text(where, t.get("note", ""), f"{key}.note", MAX_TEXT, empty=True), meters, stake)


def _paytables(where: _Where, value: Any, key: str, names: Sequence[str], default_cite: str,
               taken: Iterable[str] = ()) -> tuple[Paytable, ...]:
    raw = _array(where, value, key, MAX_PAYTABLES)
    if not raw:
        where.fail(key, "declares no paytable")
    out: list[Paytable] = []
    seen = set(taken)
    for i, t in enumerate(raw):
        table = _paytable(where, t, f"{key}[{i}]", names, default_cite)
        if table.id in seen:
            where.fail(f"{key}[{i}].id", f"paytable {table.id!r} is already a paytable of this wager")
        seen.add(table.id)
        out.append(table)
    return tuple(out)


# -- reachability -----------------------------------------------------------------------------

def check_reachable(wager: Wager[Any], tables: Sequence[Paytable], where: _Where, keys: Mapping[str, str]) -> None:
    """Every outcome each paytable pays settles at least one result the level can produce.

    Settled with the wager's own rule over ``wager.level.results`` (every result of the
    level, whatever the shoe). ``keys`` names each paytable's key in the file.
    """
    results = wager.level.results
    matching: dict[str, int] = {}
    for o in wager.outcomes:
        matching[o.name] = sum(1 for r in results if o.when(r))
    for table in tables:
        settled = {wager.settle(table, r) for r in results}
        for o in wager.outcomes:
            if o.name not in table.pays or o.name in settled:
                continue
            key = f"{keys[table.id]}.pays.{_pay_key(o.name)}"
            if matching[o.name] == 0:
                where.fail(key, f"outcome {o.name!r} is unreachable: no result of the {wager.level.name!r} "
                           "level satisfies its 'when'")
            rule = "an earlier outcome" if wager.settle_rule == "first" else "an outcome that pays more"
            shadows = sorted({wager.settle(table, r) for r in results if o.when(r)})
            where.fail(key, f"outcome {o.name!r} is unreachable under paytable {table.id!r}: every round it "
                       f"matches is settled on {rule} ({', '.join(repr(s) for s in shadows)})")


# -- documents --------------------------------------------------------------------------------

def _check_work(where: _Where, level: Any, conditions: int, paytables: int) -> None:
    """One line, before any settling, if the wager asks for more than :data:`MAX_WORK` tests."""
    results = len(level.results)
    work = results * conditions * (paytables + 1)
    if work > MAX_WORK:
        where.fail("", f"asks for too much work: {results:,} results of level {level.name!r} x {conditions:,} "
                   f"'when' tables x ({paytables} paytables + 1) = {work:,} tests, at most {MAX_WORK:,}; "
                   "use fewer alternatives, outcomes or paytables (or split the paytables into several wagers)")


def _wager(where: _Where, doc: Mapping[str, Any], known: Mapping[str, Wager[Any]],
           definition: Mapping[str, Any]) -> FileWager:
    _keys(where, doc, WAGER_KEYS, "")
    wid = _ident(where, _required(where, doc, "id"), "id")
    if wid in known:
        what = "a catalogue wager" if wid in CATALOGUE_BASE else "defined by an earlier wager file"
        where.fail("id", f"{wid!r} is already {what}; write a paytable file (wager = {wid!r}) to add a paytable")
    name = _text(where, _required(where, doc, "name"), "name")
    level_name = _text(where, _required(where, doc, "level"), "level")
    if level_name not in FACTS or level_name not in LEVELS:
        where.fail("level", f"unknown level {level_name!r}" + _near(level_name, FACTS)
                   + f" (levels: {', '.join(FACTS)})")
    cite = _text(where, doc.get("cite", NO_CITATION), "cite", MAX_TEXT)
    reading = _text(where, doc.get("reading", ""), "reading", MAX_TEXT, empty=True)
    otherwise = _text(where, doc.get("otherwise", "Loses"), "otherwise")
    settle = doc.get("settle", "first")
    if settle not in ("first", "highest"):
        where.fail("settle", f"{_shown(settle)} is not a settle rule (\"first\" or \"highest\")")
    outcomes: list[Outcome[Any]] = []
    conditions = 0
    raw = _array(where, _required(where, doc, "outcomes"), "outcomes", MAX_OUTCOMES)
    if not raw:
        where.fail("outcomes", "declares no outcome")
    for i, o in enumerate(raw):
        ok = f"outcomes[{i}]"
        t = _table(where, o, ok)
        _keys(where, t, OUTCOME_KEYS, ok)
        oname = _text(where, _required(where, t, "name", ok), f"{ok}.name")
        if oname in {x.name for x in outcomes} or oname == otherwise:
            where.fail(f"{ok}.name", f"outcome {oname!r} is named twice"
                       + (" (it is the 'otherwise' outcome)" if oname == otherwise else ""))
        when = _required(where, t, "when", ok)
        conditions += len(when) if isinstance(when, list) else 1
        outcomes.append(Outcome(oname, _condition(where, level_name, when, f"{ok}.when")))
    names = [o.name for o in outcomes] + [otherwise]
    tables = _paytables(where, _required(where, doc, "paytables"), "paytables", names, cite)
    paid = {n for t in tables for n in t.pays}
    for i, o in enumerate(outcomes):
        if o.name not in paid:
            where.fail(f"outcomes[{i}]", f"outcome {o.name!r} is paid by no paytable")
    _check_work(where, LEVELS[level_name], conditions, len(tables))
    wager = FileWager(id=wid, name=name, cite=cite, outcomes=tuple(outcomes), paytables=tables,
                      otherwise=otherwise, settle_rule=settle, reading=reading, level=LEVELS[level_name],
                      definitions=(definition,), conditions=conditions)
    check_reachable(wager, tables, where, {t.id: f"paytables[{i}]" for i, t in enumerate(tables)})
    return wager


def _extension(where: _Where, doc: Mapping[str, Any], known: Mapping[str, Wager[Any]],
               definition: Mapping[str, Any]) -> FileWager:
    _keys(where, doc, PAYTABLE_FILE_KEYS, "")
    wid = _text(where, doc["wager"], "wager")
    base = known.get(wid)
    if base is None:
        where.fail("wager", f"unknown wager {wid!r}" + _near(wid, known) + "; 'exactodds list' shows them all")
    cite = _text(where, doc.get("cite", NO_CITATION), "cite", MAX_TEXT)
    names = [o.name for o in base.outcomes] + [base.otherwise]
    tables = _paytables(where, _required(where, doc, "paytables"), "paytables", names, cite,
                        [t.id for t in base.paytables])
    total = len(base.paytables) + len(tables)
    if total > MAX_PAYTABLES:
        where.fail("paytables", f"wager {wid!r} would have {total} paytables; at most {MAX_PAYTABLES} in all")
    conditions = base.conditions if isinstance(base, FileWager) else len(base.outcomes)
    _check_work(where, base.level, conditions, total)
    check_reachable(base, tables, where, {t.id: f"paytables[{i}]" for i, t in enumerate(tables)})
    before = base.definitions if isinstance(base, FileWager) else ()
    return FileWager(id=base.id, name=base.name, cite=base.cite, outcomes=base.outcomes,
                     paytables=base.paytables + tables, otherwise=base.otherwise, settle_rule=base.settle_rule,
                     reading=base.reading, level=base.level, definitions=(*before, definition),
                     conditions=conditions)


def _plain(where: _Where, value: Any, key: str, depth: int = 0) -> Any:
    """The document as plain JSON values (what a certificate embeds); floats and dates refused."""
    if depth > 8:
        where.fail(key, "nested too deeply")
    if isinstance(value, dict):
        return {k: _plain(where, v, f"{key}.{_seg(k)}" if key else _seg(k), depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(where, v, f"{key}[{i}]", depth + 1) for i, v in enumerate(value)]
    if isinstance(value, Decimal):
        where.fail(key, f"{value} is a floating-point number; write it as a string, e.g. \"{value}\", "
                   "so it is read exactly")
    if isinstance(value, bool | str) or (isinstance(value, int) and abs(value) <= MAX_AMOUNT):
        return value
    if isinstance(value, int):
        shown = _shown(value)
        where.fail(key, f"{shown if shown.startswith('an ') else 'the integer ' + shown} is out of bounds "
                   f"(at most {MAX_AMOUNT:,})")
    where.fail(key, f"{_type_name(value)} is not allowed in a wager file (write it as a string)")


def parse_definition(content: Any, source: str, known: Mapping[str, Wager[Any]] | None = None,
                     file: str | None = None, sha256: str | None = None, text: str | None = None) -> FileWager:
    """The wager a parsed document declares (a wager file) or extends (a paytable file).

    ``known``: the wagers ids are checked against and a paytable file extends (default:
    the catalogue as shipped). ``file`` and ``sha256`` are kept in the definition, and
    ``text`` (the file as submitted) where given, so a certificate's ``verify`` recomputes
    the hash from it.
    """
    where = _Where(source)
    doc = _plain(where, _table(where, content, ""), "")
    definition = {"file": file or source, "sha256": sha256 or _sha256(_canonical(doc)), "content": doc}
    if text is not None:
        definition["text"] = text
    known = CATALOGUE_BASE if known is None else known
    if "wager" in doc:
        return _extension(where, doc, known, definition)
    return _wager(where, doc, known, definition)


def _canonical(doc: Any) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def parse_wager_text(text: str | bytes, source: str = "wager file",
                     known: Mapping[str, Wager[Any]] | None = None) -> FileWager:
    """The wager a TOML text declares or extends (see :func:`parse_definition`)."""
    where = _Where(source)
    data = text.encode("utf-8") if isinstance(text, str) else text
    if len(data) > MAX_FILE_BYTES:
        where.fail("", f"larger than {MAX_FILE_BYTES // (1 << 20)} MiB")
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        where.fail("", "not UTF-8 text")
    try:
        doc = tomllib.loads(decoded, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        where.fail("", f"not valid TOML: {exc}")
    except RecursionError:
        where.fail("", "not valid TOML: nested too deeply")
    except ValueError:  # an integer of more than 4,300 decimal digits (int() refuses to convert it)
        where.fail("", f"an integer is too long (numbers are at most {MAX_AMOUNT:,})")
    return parse_definition(doc, source, known, Path(source).name, _sha256(data), decoded)


def read_wager_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a wager file: a regular file of at most :data:`MAX_FILE_BYTES`."""
    name = os.fspath(path)
    try:
        st = os.stat(name)
    except (OSError, ValueError) as exc:
        raise InputError(f"{name}: cannot read the wager file ({exc.__class__.__name__})") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{name}: not a regular file")
    if st.st_size > MAX_FILE_BYTES:
        raise InputError(f"{name}: larger than {MAX_FILE_BYTES // (1 << 20)} MiB")
    try:
        with open(name, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{name}: cannot read the wager file ({exc.__class__.__name__})") from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{name}: larger than {MAX_FILE_BYTES // (1 << 20)} MiB")
    return data


def _collect(items: Iterable[FileWager]) -> list[FileWager]:
    """The last version of each wager, in order of first appearance."""
    out: dict[str, FileWager] = {}
    for w in items:
        out[w.id] = w
    return list(out.values())


def load_wager_files(paths: Iterable[str | os.PathLike[str]]) -> list[FileWager]:
    """The wagers that the files declare or extend, in order (the one-call API).

    Later files may extend wagers of earlier ones; a wager extended several times is
    returned once, with every paytable. Use :func:`registered` to make them visible to
    ``get_wager`` and the catalogue-wide commands.
    """
    paths = list(paths)
    if len(paths) > MAX_FILES:
        raise InputError(f"at most {MAX_FILES} wager files, got {len(paths)}")
    known: dict[str, Wager[Any]] = dict(CATALOGUE_BASE)
    made: list[FileWager] = []
    for p in paths:
        w = parse_wager_text(read_wager_file(p), os.fspath(p), known)
        known[w.id] = w
        made.append(w)
    return _collect(made)


def wagers_from_definitions(definitions: Any, source: str = "definitions") -> list[FileWager]:
    """Rebuild file wagers from a certificate's embedded definitions (same checks as files)."""
    where = _Where(source)
    items = _array(where, definitions, "", MAX_FILES)
    known: dict[str, Wager[Any]] = dict(CATALOGUE_BASE)
    made: list[FileWager] = []
    for i, d in enumerate(items):
        entry = _table(where, d, f"[{i}]")
        _keys(where, entry, DEFINITION_KEYS, f"[{i}]")
        file = _text(where, _required(where, entry, "file", f"[{i}]"), f"[{i}].file")
        sha = _text(where, _required(where, entry, "sha256", f"[{i}]"), f"[{i}].sha256")
        if not re.fullmatch(r"[0-9a-f]{64}", sha):
            where.fail(f"[{i}].sha256", "must be 64 hexadecimal digits")
        content = _required(where, entry, "content", f"[{i}]")
        if len(_canonical(content)) > MAX_FILE_BYTES:
            where.fail(f"[{i}].content", f"larger than {MAX_FILE_BYTES // (1 << 20)} MiB")
        if file in ("", ".", "..") or "/" in file or "\\" in file or "\0" in file:
            where.fail(f"[{i}].file", "must be a bare file name (no folder)")
        text = entry.get("text")
        if text is not None:  # the file as submitted: its hash and its content are recomputed from it
            if not isinstance(text, str) or len(text.encode("utf-8")) > MAX_FILE_BYTES:
                where.fail(f"[{i}].text", "must be the wager file's text (at most "
                                          f"{MAX_FILE_BYTES // (1 << 20)} MiB)")
            if _sha256(text.encode("utf-8")) != sha:
                where.fail(f"[{i}].sha256", "is not the SHA-256 of the embedded text")
            try:
                parsed = tomllib.loads(text, parse_float=Decimal)
            except (tomllib.TOMLDecodeError, RecursionError):
                where.fail(f"[{i}].text", "is not valid TOML")
            if _canonical(_plain(where, parsed, f"[{i}].text")) != _canonical(content):
                where.fail(f"[{i}].content", "is not what the embedded text says")
        w = parse_definition(content, f"{source}[{i}] ({file})", known, file, sha, text)
        known[w.id] = w
        made.append(w)
    return _collect(made)


# -- registration -----------------------------------------------------------------------------

CATALOGUE_BASE: Final[Mapping[str, Wager[Any]]] = dict(CATALOGUE)
"""The catalogue as shipped: what file ids are checked against and paytable files extend."""


@contextlib.contextmanager
def registered(wagers: Iterable[Wager[Any]]) -> Iterator[list[Wager[Any]]]:
    """Make ``wagers`` part of the catalogue inside the ``with`` block (by id; a paytable
    file's wager stands in for the catalogue's), restoring it afterwards.

    Every lookup by id (``get_wager``) and every catalogue-wide run (``--all``,
    ``tables``) sees them, so the commands need no other change.
    """
    wagers = list(wagers)
    saved = {w.id: CATALOGUE.get(w.id) for w in wagers}
    try:
        for w in wagers:
            CATALOGUE[w.id] = w
        yield wagers
    finally:
        for wid, old in saved.items():
            if old is None:
                CATALOGUE.pop(wid, None)
            else:
                CATALOGUE[wid] = old


@contextlib.contextmanager
def registered_files(paths: Iterable[str | os.PathLike[str]] | None) -> Iterator[list[Wager[Any]]]:
    """:func:`load_wager_files` then :func:`registered` (nothing to do without files)."""
    with registered(load_wager_files(paths or [])) as wagers:
        yield wagers


@contextlib.contextmanager
def registered_definitions(definitions: Any) -> Iterator[list[Wager[Any]]]:
    """:func:`wagers_from_definitions` then :func:`registered` (``None``: nothing)."""
    with registered(wagers_from_definitions(definitions) if definitions is not None else []) as wagers:
        yield wagers


def report_inputs(wagers: Iterable[str | Wager[Any]] | None) -> tuple[list[str] | None, dict[str, Any]]:
    """A certificate's wager ids and the definitions it must embed to be rebuilt.

    ``wagers``: ids (looked up in the catalogue as registered now), wager objects, or
    ``None`` for the whole catalogue. Returns the ids and ``{"definitions": [...]}``, or
    ``{}`` when no wager comes from a file (so catalogue reports are unchanged). A wager
    built in Python (neither the catalogue's nor a file's) has no definition to embed:
    an input error.
    """
    from exactodds.catalogue import get_wager

    if wagers is None:
        ids, objs = None, list(CATALOGUE.values())
    else:
        objs = []
        for w in wagers:
            if isinstance(w, str):
                objs.append(get_wager(w))
            elif isinstance(w, FileWager) or CATALOGUE_BASE.get(w.id) is w:
                objs.append(w)
            else:
                raise InputError(f"wager {w.id!r} is built in Python: a certificate can only embed a wager "
                                 "from a wager file (docs/wager-files.md); write it as one")
        ids = [w.id for w in objs]
    defs: dict[bytes, Mapping[str, Any]] = {}
    for w in objs:
        for d in (w.definitions if isinstance(w, FileWager) else ()):
            defs.setdefault(_canonical(d), d)
    if not defs:
        return ids, {}
    rebuilt = {w.id: w for w in wagers_from_definitions(list(defs.values()))}
    for w in objs:
        if isinstance(w, FileWager) and w.id in rebuilt and \
                [t.id for t in rebuilt[w.id].paytables] != [t.id for t in w.paytables]:
            raise InputError(f"wager {w.id!r}: its definitions do not rebuild it")
    return ids, {"definitions": [dict(d) for d in defs.values()]}


__all__ = ["CATALOGUE_BASE", "FileWager", "load_wager_files", "parse_definition", "parse_pay", "parse_wager_text",
           "read_wager_file", "registered", "registered_definitions", "registered_files", "report_inputs",
           "wagers_from_definitions"]
