#!/usr/bin/env python3
"""Regenerate the repository's ``tables/`` for 6, 7 and 8 decks.

Run: ``python scripts/build_tables.py`` (same as ``exactodds tables --out tables``).
tests/test_tables.py fails until the committed ``tables/`` matches a fresh build.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from exactodds.report.tables import DEFAULT_DECKS, summary_line, write_tables  # noqa: E402


def main() -> None:
    start = time.perf_counter()
    out = ROOT / "tables"
    report = write_tables(out, DEFAULT_DECKS)
    print(f"{summary_line(report, out.relative_to(ROOT))} "
          f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
