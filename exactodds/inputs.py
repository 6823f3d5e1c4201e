"""Bounded readers for everything a user types or points at: numbers, JSON and files.

Untrusted text never reaches ``int``, ``Fraction`` or ``json.loads`` unbounded:
``Fraction("1e100000000")`` builds a hundred-million-digit integer (minutes, gigabytes),
``int`` of a 5,000-digit string raises ``ValueError``, and reading ``/dev/zero`` never
ends. So

* :func:`parse_number` matches a strict ASCII pattern first and caps the digits and the
  exponent (:data:`MAX_DIGITS`, :data:`MAX_EXPONENT`) before building the exact Fraction;
  it is the one place a typed number's comma is refused (``7,50`` is 7.50 in much of the
  world and 750 in the rest: a comma is never guessed, issue 25);
* :func:`read_capped` reads at most ``cap + 1`` bytes, streaming, and refuses more;
* :func:`load_json` parses with integers capped at :data:`MAX_JSON_INT_DIGITS` digits,
  no ``NaN``/``Infinity`` and no duplicate keys (a reader that keeps the last value of a
  repeated key sees something else than a person who reads the first);
* :func:`shown` shortens a user's text for an error message, so the one error line stays
  readable whatever was typed.

Every failure is an :class:`~exactodds.errors.InputError` with a one-line message.

>>> parse_number("$62500.50", "--meter", money=True), parse_number("1/3", "--fraction")
(Fraction(125001, 2), Fraction(1, 3))
>>> parse_number("7,50", "--wager-amount", money=True)
Traceback (most recent call last):
...
exactodds.errors.InputError: --wager-amount: '7,50' has a comma; write numbers with a decimal point and no thousands separators, e.g. 7.50 or 62500
>>> parse_number("2.5e-3", "x")
Fraction(1, 400)
>>> parse_number("1e100000000", "x")
Traceback (most recent call last):
...
exactodds.errors.InputError: x: exponent 100000000 is out of range (at most 100 either way)
>>> shown("9" * 500)
"'99999999999999999999999999999999…' (500 characters)"
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from exactodds.errors import InputError

MAX_DIGITS: Final = 60
"""Most significant digits a typed number may have (mantissa or numerator + denominator)."""
MAX_EXPONENT: Final = 100
"""Largest power of ten a typed number may carry (``1e100``, ``1e-100``)."""
MAX_JSON_INT_DIGITS: Final = 1000
"""Longest JSON integer read: a 1,000-deck baccarat universe has 29 digits, Spanish 21's exact
distribution with splits 72 at 8 decks (its universe the common denominator of the joint's
``ff(n, k + K)``); far below Python's 4,300 and cheap to parse, a 5,000-digit integer still refused."""
MAX_FILE_BYTES: Final = 64 * 1024 * 1024
"""Largest report read (a whole-catalogue report is a few MiB)."""
MAX_SHOWN: Final = 32
"""Characters of a user's text quoted in an error message."""
BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
"""Unicode bidirectional controls (embeddings, overrides, isolates, marks): invisible, they make
text display in another order than it reads (``\u202e`` turns ``1:03`` into ``30:1``), so no
name or document field may hold one."""


def bidi_control(text: str) -> str | None:
    """The first bidirectional control in ``text`` as ``U+XXXX`` (None: there is none).

    >>> bidi_control("Dragon 7"), bidi_control("Dragon \u202e7")
    (None, 'U+202E')
    """
    for ch in text:
        if ch in BIDI_CONTROLS:
            return f"U+{ord(ch):04X}"
    return None

_NUMBER = re.compile(
    r"(?P<sign>[+-]?)(?:(?P<num>[0-9]+)/(?P<den>[0-9]+)"
    r"|(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?(?:[eE](?P<exp>[+-]?[0-9]+))?)",
    re.ASCII,
)


def shown(text: object, limit: int = MAX_SHOWN) -> str:
    """``repr`` of a user's text for an error message, shortened past ``limit`` characters.

    >>> shown("abc")
    "'abc'"
    """
    s = str(text)
    if len(s) <= limit:
        return repr(s)
    return f"{s[:limit] + '…'!r} ({len(s):,} characters)"


def parse_number(text: str, what: str, *, money: bool = False) -> Fraction:
    """An exact number from text: ``12``, ``-0.5``, ``2.5e-3``, ``1/3``.

    ``money`` also allows a leading ``$`` (``$62500``). A comma is refused, whatever it
    separates: ``7,50`` is a decimal comma to some readers and a thousands separator to
    others, and reading it either way would price a wager 100 times off (issue 25). The
    text is matched against a strict ASCII pattern and its size capped *before* any
    conversion; NaN, infinities, Unicode digits, hex and the like are refused.
    """
    if not isinstance(text, str):
        raise InputError(f"{what} must be a number, got {shown(text)}")
    t = text.strip()
    if "," in t:
        raise InputError(f"{what}: {shown(text)} has a comma; write numbers with a decimal point and no "
                         "thousands separators, e.g. 7.50 or 62500")
    if money:
        t = t[1:] if t.startswith("$") else (t[0] + t[2:] if t[:2] in ("-$", "+$") else t)
    if len(t) > 4 * MAX_DIGITS:
        raise InputError(f"{what}: {shown(text)} is too long for a number")
    m = _NUMBER.fullmatch(t)
    if not m or (m["num"] is None and not (m["int"] or m["frac"])):
        raise InputError(f"{what} must be a number such as 12, 0.5, 2.5e-3 or 1/3, got {shown(text)}")
    sign = -1 if m["sign"] == "-" else 1
    if m["num"] is not None:
        if len(m["num"]) + len(m["den"]) > MAX_DIGITS:
            raise InputError(f"{what}: {shown(text)} has more than {MAX_DIGITS} digits")
        den = int(m["den"])
        if den == 0:
            raise InputError(f"{what}: {shown(text)} divides by zero")
        return Fraction(sign * int(m["num"]), den)
    whole, frac = m["int"] or "", m["frac"] or ""
    digits = (whole + frac).lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise InputError(f"{what}: {shown(text)} has more than {MAX_DIGITS} significant digits")
    exp_text = m["exp"] or "0"
    if len(exp_text.lstrip("+-").lstrip("0")) > 6 or abs(int(exp_text)) > MAX_EXPONENT:
        raise InputError(f"{what}: exponent {exp_text.lstrip('+')} is out of range "
                         f"(at most {MAX_EXPONENT} either way)")
    power = int(exp_text) - len(frac)
    value = Fraction(int(whole + frac or "0"))
    scaled: Fraction = value * 10**power if power >= 0 else value / 10**-power
    return sign * scaled


def read_capped(path: str | Path, what: str, cap: int = MAX_FILE_BYTES) -> bytes:
    """At most ``cap`` bytes of the file at ``path``, read in chunks; more is an error.

    Works on devices and pipes too (``/dev/zero`` is refused after ``cap + 1`` bytes,
    not read forever). Unreadable files are one-line :class:`InputError`\\ s.
    """
    if "\0" in str(path):
        raise InputError(f"the {what} path {str(path)!r} contains a NUL byte, which no file name can")
    chunks: list[bytes] = []
    size = 0
    try:
        with open(path, "rb") as fh:
            while size <= cap:
                chunk = fh.read(min(1 << 20, cap + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
    except IsADirectoryError:
        raise InputError(f"{what} {shown(path, 200)} is a folder, not a file") from None
    except FileNotFoundError:
        raise InputError(f"no such {what} {shown(path, 200)}") from None
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read {what} {shown(path, 200)}: {exc.__class__.__name__}") from None
    if size > cap:
        raise InputError(f"{what} {shown(path, 200)} is too large (more than {cap:,} bytes)")
    return b"".join(chunks)


class DuplicateKeyError(ValueError):
    """A JSON object that names one key twice."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_INT_DIGITS:
        raise ValueError(f"an integer of {len(text):,} digits")
    return int(text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKeyError(f"the key {shown(key)} appears twice in one object")
        out[key] = value
    return out


def load_json(text: str | bytes, on_duplicate: Callable[[list[tuple[str, Any]]], dict[str, Any]] | None = None
              ) -> Any:
    """Strict, bounded JSON: integers up to :data:`MAX_JSON_INT_DIGITS` digits, no NaN or
    Infinity, and (by default) a repeated key is a :class:`DuplicateKeyError`.

    Raises ``ValueError`` (``json.JSONDecodeError`` and :class:`DuplicateKeyError` are
    ones) or ``RecursionError``; callers turn those into their own one-line errors.

    >>> load_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    exactodds.inputs.DuplicateKeyError: the key 'a' appears twice in one object
    """
    return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant,
                      object_pairs_hook=on_duplicate or _unique_keys)


def json_error(exc: BaseException) -> str:
    """A short reason for a failed :func:`load_json`."""
    if isinstance(exc, RecursionError):
        return "too deeply nested"
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} (line {exc.lineno}, column {exc.colno})"
    return str(exc)


__all__ = ["MAX_DIGITS", "MAX_EXPONENT", "MAX_FILE_BYTES", "MAX_JSON_INT_DIGITS", "DuplicateKeyError", "json_error",
           "load_json", "parse_number", "read_capped", "shown"]
