"""Shoe specifications: any composition from the command line or a file.

One function, :func:`resolve_shoe`, turns what a user typed into a :class:`Shoe`:

* ``decks`` -- ``d`` standard 52-card decks (the default shoe, 8 decks);
* ``shoe`` -- a spec string or the path of a ``.json`` / ``.csv`` file:

  - ``"6"`` or ``"decks=6"``: six standard decks;
  - ``"KS=8,9H=7,..."``: explicit counts per card face (faces not named: 0);
  - ``"A=32,9=30,K=32,..."``: counts per rank, spread over the suits (below);
  - JSON ``{"decks": 8, "remove": ["9", "KS"]}``, ``{"counts": {"KS": 8, ...}}`` or
    ``{"ranks": {"A": 32, ...}}`` (a ``"remove"`` list is allowed with each; the
    ``"shoe"`` object of the JSON contract -- ``decks``/``cards``/``counts`` -- is
    accepted too, ``cards`` being checked against the total);
  - CSV rows ``card,count`` (an optional header row ``card,count``); a card is a face
    (``KS``) or, for rank counts, a rank (``K``) -- not both kinds in one file;

* ``remove`` -- cards taken out of that shoe, separated by commas or spaces, e.g.
  ``"9,9,KS,5"``; ``"3*9"`` removes three 9s.

Readings (stated in every report, see ``docs/certification.md``):

* **Rank counts spread over suits.** ``n`` cards of a rank put ``n // 4`` in each suit
  and the ``n % 4`` left over one each in spades, hearts, diamonds, clubs, in that
  order. (Counts are integers, so a proportional spread is not possible.)
* **Rank-only removal.** Removing a rank without a suit (``9``) takes the card of that
  rank from the suit with the most copies left, ties broken in the order S, H, D, C;
  removals are applied one at a time, left to right.

Every malformed or impossible input -- unreadable file, unknown card, negative or
non-integer count, an empty shoe, removing a card that is not there, ``--shoe`` with
a non-default ``--decks`` -- is one :class:`~exactodds.errors.InputError`. Sizes are
bounded before any conversion: counts have at most 9 digits and at most
:data:`~exactodds.game.cards.MAX_CARDS`; JSON is read by :func:`exactodds.inputs.load_json`
(bounded integers, no NaN, no repeated key); texts and files are capped at
:data:`MAX_SPEC_BYTES`.

>>> resolve_shoe(8, None, "9,9,KS,5").size
412
>>> resolve_shoe(shoe="A=5").counts[:4]
(2, 1, 1, 1)
>>> str(rank_removal_card(Shoe.standard(1).remove([Card("9", "S")]), "9"))
'9H'
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from exactodds.errors import InputError
from exactodds.game.cards import (
    FACES,
    MAX_CARDS,
    SUITS,
    Card,
    Shoe,
    parse_card,
    parse_rank,
)
from exactodds.inputs import json_error, load_json, read_capped, shown

DEFAULT_DECKS: Final = 8
MAX_DECKS: Final = 1000
MAX_SPEC_BYTES: Final = 1_000_000
"""Shoe files and --shoe/--remove texts longer than this are refused (a shoe file is a few
hundred bytes; read in chunks, so a device such as /dev/zero is refused, not read forever)."""

RANK_SPREAD_READING: Final = (
    "Rank counts are spread over the suits as evenly as integers allow: n cards of a rank "
    "put n // 4 in each suit and the n % 4 left over one each in spades, hearts, diamonds, "
    "clubs, in that order."
)
RANK_REMOVAL_READING: Final = (
    "Removing a rank without a suit takes the card of that rank from the suit with the most "
    "copies left, ties broken in the order spades, hearts, diamonds, clubs; removals are "
    "applied one at a time, left to right."
)


# -- small readers -----------------------------------------------------------------------
def _count(value: Any, what: str, limit: int = MAX_CARDS) -> int:
    """A non-negative whole count from JSON/CSV/spec text; anything else is an input error."""
    if isinstance(value, bool):
        raise InputError(f"count of {what} must be a whole number, got {value!r}")
    if isinstance(value, int):
        n = value
    elif isinstance(value, str) and re.fullmatch(r"\s*\+?[0-9]+\s*", value):
        digits = value.strip().lstrip("+").lstrip("0")
        if len(digits) > len(str(limit)):
            raise InputError(f"count of {what} is more than {limit:,}")
        n = int(digits or "0")
    else:
        raise InputError(f"count of {what} must be a whole number, got {shown(value)}")
    if n < 0:
        raise InputError(f"count of {what} is negative ({shown(n)})")
    if n > limit:
        raise InputError(f"count of {what} is more than {limit:,}")
    return n


def _decks(value: Any) -> int:
    d = _count(value, "decks", MAX_DECKS)
    if not 1 <= d <= MAX_DECKS:
        raise InputError(f"decks must be between 1 and {MAX_DECKS}, got {d}")
    return d


def _is_face(token: str) -> bool:
    t = token.strip().upper()
    return len(t) >= 2 and t[-1] in SUITS and t[:-1] not in ("",)


def spread_ranks(rank_counts: Mapping[str, int]) -> Shoe:
    """A shoe from counts per rank, spread over suits by :data:`RANK_SPREAD_READING`.

    >>> spread_ranks({"9": 6}).count(Card("9", "H")), spread_ranks({"9": 6}).count(Card("9", "D"))
    (2, 1)
    """
    counts: dict[Card, int] = {}
    for rank, n in rank_counts.items():
        base, extra = divmod(n, len(SUITS))
        for i, suit in enumerate(SUITS):
            counts[Card(rank, suit)] = base + (1 if i < extra else 0)
    return Shoe.from_counts(counts)


def _shoe_from_pairs(pairs: Iterable[tuple[str, Any]], source: str) -> Shoe:
    """Face counts or rank counts from ``(key, count)`` pairs; one kind only, no repeats."""
    faces: dict[Card, int] = {}
    ranks: dict[str, int] = {}
    for key, value in pairs:
        key = str(key).strip()
        if _is_face(key):
            card = parse_card(key)
            if card in faces:
                raise InputError(f"{source}: {card} is given twice")
            faces[card] = _count(value, str(card))
        else:
            rank = parse_rank(key)
            if rank in ranks:
                raise InputError(f"{source}: rank {rank} is given twice")
            ranks[rank] = _count(value, f"rank {rank}")
    if faces and ranks:
        raise InputError(f"{source}: give counts per card face (KS=8) or per rank (K=32), not both")
    if not faces and not ranks:
        raise InputError(f"{source}: no card counts given")
    return Shoe.from_counts(faces) if faces else spread_ranks(ranks)


def parse_removals(text: str) -> list[str]:
    """Split a removal list into card tokens (``"3*9"`` is three ``"9"`` tokens).

    >>> parse_removals("9, 9 KS,2*5")
    ['9', '9', 'KS', '5', '5']
    """
    if len(text) > MAX_SPEC_BYTES:
        raise InputError(f"--remove is too long (more than {MAX_SPEC_BYTES:,} characters)")
    out: list[str] = []
    for token in re.split(r"[\s,;]+", text.strip()):
        if not token:
            continue
        m = re.fullmatch(r"([0-9]{1,4})\s*[*x×]\s*(\S+)", token, flags=re.IGNORECASE)
        times, card = (int(m.group(1)), m.group(2)) if m else (1, token)
        if len(out) + times > MAX_CARDS:
            raise InputError(f"--remove takes out more than {MAX_CARDS:,} cards, more than any shoe holds")
        out.extend([card] * times)
    return out


def rank_removal_card(shoe: Shoe, rank: str) -> Card:
    """The card a rank-only removal takes (:data:`RANK_REMOVAL_READING`)."""
    rank = parse_rank(rank)
    best = max(SUITS, key=lambda s: (shoe.count(Card(rank, s)), -SUITS.index(s)))
    card = Card(rank, best)
    if shoe.count(card) == 0:
        raise InputError(f"cannot remove a {rank}: none left in the shoe")
    return card


def remove_tokens(shoe: Shoe, tokens: Iterable[Any]) -> Shoe:
    """``shoe`` less each token in turn: a face (``KS``) or a rank (``9``)."""
    for token in tokens:
        if not isinstance(token, str):
            raise InputError(f"a card to remove must be text such as '9' or 'KS', got {token!r}")
        card = parse_card(token) if _is_face(token) else rank_removal_card(shoe, token)
        shoe = shoe.remove([card])
    return shoe


# -- files -----------------------------------------------------------------------------------
def _from_json_doc(doc: Any, source: str) -> Shoe:
    if not isinstance(doc, dict):
        raise InputError(f"{source}: a shoe file holds one JSON object")
    known = {"decks", "counts", "ranks", "remove", "cards"}
    unknown = set(doc) - known
    if unknown:
        raise InputError(f"{source}: unknown key(s) {', '.join(sorted(map(str, unknown)))} "
                         "(expected decks, counts, ranks, remove)")
    bases = [k for k in ("counts", "ranks") if k in doc]
    if doc.get("decks") is not None and bases:
        raise InputError(f"{source}: give one of decks, counts or ranks")
    if len(bases) > 1:
        raise InputError(f"{source}: give one of decks, counts or ranks")
    if bases:
        table = doc[bases[0]]
        if not isinstance(table, dict):
            raise InputError(f"{source}: {bases[0]} must be an object of card: count")
        if bases[0] == "counts" and any(not _is_face(str(k)) for k in table):
            raise InputError(f"{source}: 'counts' are per card face (e.g. KS); use 'ranks' for ranks")
        if bases[0] == "ranks" and any(_is_face(str(k)) for k in table):
            raise InputError(f"{source}: 'ranks' are per rank (e.g. K); use 'counts' for faces")
        shoe = _shoe_from_pairs(table.items(), source)
    elif "decks" in doc:
        shoe = Shoe.standard(_decks(doc["decks"]))
    else:
        raise InputError(f"{source}: give one of decks, counts or ranks")
    if "cards" in doc and _count(doc["cards"], "cards") != shoe.size:
        raise InputError(f"{source}: says {doc['cards']} cards but its counts add up to {shoe.size}")
    removals = doc.get("remove", [])
    if not isinstance(removals, list):
        raise InputError(f"{source}: remove must be a list of cards")
    if len(removals) > shoe.size:
        raise InputError(f"{source}: removes {len(removals):,} cards from a shoe of {shoe.size:,}")
    return remove_tokens(shoe, removals)


def _from_csv_text(text: str, source: str) -> Shoe:
    rows = [r for r in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in r)]
    if rows and [c.strip().lower() for c in rows[0]] == ["card", "count"]:
        rows = rows[1:]
    pairs = []
    for i, row in enumerate(rows, 1):
        if len(row) != 2:
            raise InputError(f"{source}: row {i} should be 'card,count', got {','.join(row)!r}")
        pairs.append((row[0], row[1].strip()))
    return _shoe_from_pairs(pairs, source)


def read_shoe_file(path: str | Path) -> Shoe:
    """A shoe from a ``.json`` or ``.csv`` file (see the module docstring)."""
    p = Path(path)
    data = read_capped(p, "shoe file", MAX_SPEC_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"cannot read shoe file {shown(str(p), 200)}: not UTF-8 text") from None
    source = f"shoe file {shown(p.name, 200)}"
    if p.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        return _from_json_doc(_json(text, source), source)
    return _from_csv_text(text, source)


def _json(text: str, source: str) -> Any:
    """Bounded, strict JSON (:func:`exactodds.inputs.load_json`) or one InputError."""
    try:
        return load_json(text)
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{source} is not valid JSON: {json_error(exc)}") from None


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def parse_shoe_spec(spec: str) -> Shoe:
    """A shoe from a spec string or a file path (see the module docstring)."""
    if len(spec) > MAX_SPEC_BYTES:
        raise InputError(f"--shoe is too long (more than {MAX_SPEC_BYTES:,} characters)")
    text = spec.strip()
    if not text:
        raise InputError("--shoe is empty")
    if re.fullmatch(r"[0-9]+", text):
        return Shoe.standard(_decks(text))
    m = re.fullmatch(r"decks\s*=\s*(\S+)", text, flags=re.IGNORECASE)
    if m:
        return Shoe.standard(_decks(m.group(1)))
    if text.startswith("{"):
        return _from_json_doc(_json(text, "--shoe"), "--shoe")
    looks_like_path = text.lower().endswith((".json", ".csv")) or "/" in text or "\\" in text
    if looks_like_path or _is_file(text):
        if not _is_file(text):
            raise InputError(f"no such shoe file {shown(text, 200)} (or not a regular file)")
        return read_shoe_file(text)
    pairs = []
    for item in re.split(r"[\s,;]+", text):
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep:
            raise InputError(f"--shoe item {shown(item)} should be CARD=COUNT (e.g. KS=8 or K=32)")
        pairs.append((key, value))
    return _shoe_from_pairs(pairs, "--shoe")


def resolve_shoe(decks: int = DEFAULT_DECKS, shoe: str | None = None, remove: str | None = None) -> Shoe:
    """The shoe a command analyses: ``decks`` decks or the ``shoe`` spec, less ``remove``.

    ``shoe`` replaces ``decks``; giving both with a non-default ``decks`` is an error.
    """
    if isinstance(decks, bool) or not isinstance(decks, int):
        raise InputError(f"--decks must be a whole number, got {decks!r}")
    if shoe is not None:
        if decks != DEFAULT_DECKS:
            raise InputError("give either --decks or --shoe, not both")
        base = parse_shoe_spec(shoe)
    else:
        if not 1 <= decks <= MAX_DECKS:
            raise InputError(f"--decks must be between 1 and {MAX_DECKS}, got {decks}")
        base = Shoe.standard(decks)
    if remove:
        base = remove_tokens(base, parse_removals(remove))
    return base


def shoe_spec(shoe: Shoe) -> dict[str, Any]:
    """A JSON object :func:`resolve_shoe` reads back to exactly ``shoe`` (for reports).

    >>> shoe_spec(Shoe.standard(6))
    {'decks': 6}
    >>> import json
    >>> parse_shoe_spec(json.dumps(shoe_spec(Shoe.standard(1).remove([Card("9", "S")])))).size
    51
    """
    if shoe.decks is not None:
        return {"decks": shoe.decks}
    return {"counts": {str(c): n for c, n in zip(FACES, shoe.counts) if n}}


def shoe_from_spec(doc: Mapping[str, Any]) -> Shoe:
    """Inverse of :func:`shoe_spec` (also reads any JSON shoe object)."""
    return _from_json_doc(dict(doc), "shoe")


__all__ = [
    "RANK_REMOVAL_READING", "RANK_SPREAD_READING", "parse_removals",
    "parse_shoe_spec", "rank_removal_card", "read_shoe_file", "remove_tokens", "resolve_shoe",
    "shoe_from_spec", "shoe_spec", "spread_ranks",
]
