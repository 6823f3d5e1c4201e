"""Document control of a certificate: ``certify --document doc.toml``.

A small TOML file naming what a lab's filing carries beside the figures::

    game = "Dragon 7 side wager"
    jurisdiction = "Pennsylvania Gaming Control Board"
    submitter = "Example Games Ltd."
    lab = "Example Test Lab"
    analyst = "A. Analyst"
    revision = "1.0"
    date = "2026-11-23"
    table_maximum = "$500"
    [[approval]]
    name = "B. Reviewer"
    role = "Technical reviewer"
    date = "2026-11-24"

Every value is text (at most :data:`MAX_TEXT` characters; at most :data:`MAX_APPROVALS`
approval lines); unknown keys are refused. The document is embedded in the report as
``document``: the fingerprint covers it, ``verify`` does not recompute it (it is not a
figure). ``exactodds schema document`` prints its JSON Schema.

>>> parse_document('game = "Dragon 7"\\n[[approval]]\\nname = "B"\\nrole = "reviewer"')
{'game': 'Dragon 7', 'approval': [{'name': 'B', 'role': 'reviewer'}]}
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Final

from exactodds.errors import InputError

FIELDS: Final = ("game", "jurisdiction", "submitter", "lab", "analyst", "revision", "date", "table_maximum")
APPROVAL_FIELDS: Final = ("name", "role", "date")
MAX_TEXT: Final = 200
MAX_APPROVALS: Final = 10
MAX_BYTES: Final = 64 * 1024


def _text(value: Any, key: str) -> str:
    from exactodds.inputs import bidi_control

    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT or any(
            ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or c in "\u2028\u2029" for c in value):
        raise InputError(f"document: {key} must be one line of text, 1 to {MAX_TEXT} characters")
    bidi = bidi_control(value)
    if bidi is not None:
        raise InputError(f"document: {key} must not hold a bidirectional control ({bidi}): it shows text in another "
                         "order than it reads")
    return value


def parse_document(text: str) -> dict[str, Any]:
    """The document control of a TOML text (see the module docstring); bad input: InputError."""
    try:
        raw = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise InputError(f"document: not valid TOML ({' '.join(str(exc).split())[:120]})") from None
    except ValueError:  # an integer of more than 4,300 digits (Python's limit on int of a string)
        raise InputError("document: a number too long to read; every value is text (quote it)") from None
    unknown = sorted(set(raw) - set(FIELDS) - {"approval"})
    if unknown:
        raise InputError(f"document: unknown key {unknown[0][:40]!r} (known: {', '.join(FIELDS)}, approval)")
    out: dict[str, Any] = {k: _text(raw[k], k) for k in FIELDS if k in raw}
    if "approval" in raw:
        items = raw["approval"]
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_APPROVALS or \
                not all(isinstance(a, dict) for a in items):
            raise InputError(f"document: approval must be 1 to {MAX_APPROVALS} [[approval]] tables")
        approvals = []
        for i, a in enumerate(items):
            extra = sorted(set(a) - set(APPROVAL_FIELDS))
            if extra or "name" not in a or "role" not in a:
                raise InputError(f"document: approval {i + 1} needs name and role (and may have date), "
                                 f"nothing else")
            approvals.append({k: _text(a[k], f"approval {i + 1} {k}") for k in APPROVAL_FIELDS if k in a})
        out["approval"] = approvals
    return out


def read_document(path: str | Path) -> dict[str, Any]:
    """:func:`parse_document` of the file at ``path`` (at most :data:`MAX_BYTES`, UTF-8)."""
    from exactodds.inputs import read_capped

    data = read_capped(path, "document", MAX_BYTES)
    try:
        return parse_document(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError(f"document {str(path)!r}: not UTF-8 text") from None


def document_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a document-control file read as TOML."""
    text = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "exactodds certificate document control (certify --document FILE.toml)",
            "type": "object", "additionalProperties": False,
            "properties": {**{k: text for k in FIELDS},
                           "approval": {"type": "array", "minItems": 1, "maxItems": MAX_APPROVALS,
                                        "items": {"type": "object", "additionalProperties": False,
                                                  "required": ["name", "role"],
                                                  "properties": {k: text for k in APPROVAL_FIELDS}}}}}


__all__ = ["FIELDS", "document_schema", "parse_document", "read_document"]
