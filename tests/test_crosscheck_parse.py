"""The numpy reader of hand logs (``logparse._parse_block``) against the line-by-line one.

``LogFile.chunks`` parses each block with numpy and falls back to reading it line by line
when the block is not plain; the two must give the same chunks, and the same one-line
error (same line, same words), whatever the input. The reference here is the line-by-line
reader alone (``_parse_block`` patched to accept nothing).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.errors import InputError
from exactodds.game.cards import Shoe
from exactodds.simulation import logparse, textread
from exactodds.simulation.handlog import LogFile, log_header, read_file, render_log_chunk
from exactodds.simulation.simulate import HandLog, simulate

Outcome = tuple[str, Any]


def _read(path: str) -> Outcome:
    """Every chunk's arrays, or the error message."""
    try:
        data = read_file(path)
        assert isinstance(data, LogFile)
        out = []
        for ch in data.chunks():
            out.append((ch.line.tolist(), ch.round.tolist(), None if ch.shoe is None else ch.shoe.tolist(),
                        ch.player.tolist(), ch.banker.tolist(), ch.player_cards.tolist(), ch.banker_cards.tolist()))
            assert ch.player.dtype == ch.banker.dtype == np.int16
            assert ch.line.dtype == ch.round.dtype == np.int64
        return "chunks", out
    except InputError as exc:
        return "error", str(exc)


@contextmanager
def _small(chunk: int, block: int) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(logparse, "CHUNK_ROUNDS", chunk)
        mp.setattr(textread, "BLOCK", block)
        yield


def _both(path: str) -> tuple[Outcome, Outcome, int]:
    """(numpy reader, line-by-line reader, blocks the numpy reader accepted)."""
    accepted = 0
    real = logparse._parse_block

    def counting(*args: Any) -> Any:
        nonlocal accepted
        out = real(*args)
        accepted += out is not None
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(logparse, "_parse_block", counting)
        fast = _read(path)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(logparse, "_parse_block", lambda *args: None)
        slow = _read(path)
    return fast, slow, accepted


# -- generated logs, plain and not ------------------------------------------------------------
RANK_TEXT = ["A", "a", "2", "5", "9", "10", "T", "t", "J", "q", "K"]
SUIT_TEXT = ["", "S", "h", "D", "c"]
BAD_TOKENS = ["1", "S", "ZH", "KS9H", "11", "10SS", "0", "Kx", "é", "1O", '"KS"', "#", "KS,"]
SEPS = [" ", "  ", "\t", " \r ", "\x0b"]


@st.composite
def hands(draw: st.DrawFn) -> str:
    n = draw(st.sampled_from([2, 2, 2, 3, 3, 3, 0, 1, 4, 11]))
    tokens = [draw(st.sampled_from(RANK_TEXT)) + draw(st.sampled_from(SUIT_TEXT)) for _ in range(n)]
    if draw(st.integers(0, 9)) == 0:
        tokens.insert(draw(st.integers(0, len(tokens))), draw(st.sampled_from(BAD_TOKENS)))
    sep = draw(st.sampled_from(SEPS)) if draw(st.integers(0, 4)) == 0 else " "
    pad = draw(st.sampled_from(["", "", "", " ", "\t"]))
    return pad + sep.join(tokens) + pad


@st.composite
def numbers(draw: st.DrawFn, value: int) -> str:
    if draw(st.integers(0, 14)):
        return str(value)
    return draw(st.sampled_from([str(value).zfill(5), f" {value} ", "0", "x", "-3", "1 2", "", str(10**15),
                                 str(10**16), "٣", f"{value}\t"]))


@st.composite
def logs(draw: st.DrawFn) -> bytes:
    shoe = draw(st.booleans())
    columns = draw(st.permutations(["round", "player", "banker"] + (["shoe"] if shoe else [])))
    lines = [",".join(columns)]
    rnd, shoe_no = 0, 1
    for _ in range(draw(st.integers(0, 40))):
        what = draw(st.sampled_from(["row"] * 8 + ["blank", "comment", "spaced comment", "cr", "odd"]))
        if what == "blank":
            lines.append(draw(st.sampled_from(["", " ", "\t", " \r"])))
            continue
        if what == "comment":
            lines.append("# a comment, with commas, KS 9H and \"quotes\" é")
            continue
        if what == "spaced comment":
            lines.append(draw(st.sampled_from(["  # note", "\t#", "\r# led by CR", "\x0c# form feed"])))
            continue
        rnd += draw(st.sampled_from([1, 1, 1, 1, 2, 0, -1]))
        if shoe and draw(st.integers(0, 5)) == 0:
            shoe_no += draw(st.sampled_from([1, 1, 1, -1]))
            rnd = draw(st.sampled_from([1, rnd + 1]))
        cells = {"round": draw(numbers(rnd)), "shoe": draw(numbers(shoe_no)),
                 "player": draw(hands()), "banker": draw(hands())}
        row = ",".join(cells[c] for c in columns)
        if what == "cr":
            row = "\r" + row
        elif what == "odd":
            row = draw(st.sampled_from([row + ",", row.replace(",", ";", 1), f'"{row}"', " " + row + " ",
                                        row.replace(",", ", ", 1)]))
        lines.append(row)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = newline.join(lines) + draw(st.sampled_from(["", newline]))
    bom = b"\xef\xbb\xbf" if draw(st.integers(0, 4)) == 0 else b""
    return bom + text.encode("utf-8")


# 400 examples with EXACTODDS_SLOW=1 (CI's slow step), 100 in the README's test command (15 s -> 4 s)
@settings(max_examples=400 if os.environ.get("EXACTODDS_SLOW") else 100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.sampled_from([2, 3, 7, 1 << 16]), st.sampled_from([16, 64, 1 << 20]))
def test_numpy_reader_agrees_with_the_line_reader(content: bytes, chunk: int, block: int) -> None:
    fd, path = tempfile.mkstemp(suffix=".csv")
    try:
        os.write(fd, content)
        os.close(fd)
        with _small(chunk, block):
            fast, slow, _ = _both(path)
        assert fast == slow
    finally:
        os.unlink(path)


# -- the fast path is taken, and an error deep in a block still names its line -----------------------
def _simulated(path: Path, rounds: int, mode: str) -> None:
    with open(path, "wb") as fh:
        fh.write(log_header({"decks": 8}, mode == "shoe"))

        def sink(batch: HandLog) -> None:
            fh.write(render_log_chunk(batch))
        simulate(rounds, mode, Shoe.standard(8), seed=7, on_hands=sink)


@pytest.mark.parametrize("mode", ["fresh", "shoe"])
def test_simulated_logs_are_read_with_numpy(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "log.csv"
    _simulated(path, 5000, mode)
    with _small(1000, 1 << 14):
        fast, slow, accepted = _both(str(path))
    assert fast == slow and fast[0] == "chunks"
    blocks = -(-path.stat().st_size // (1 << 14))
    assert accepted >= blocks  # every block (and the rest after the header) parsed without a Python loop
    assert sum(len(c[0]) for c in fast[1]) == 5000


@pytest.mark.parametrize("bad,expected", [
    (b"3001,KS 9H,4D ZC", "line 3002: unknown card 'ZC'"),
    (b"3001,KS 9H", "line 3002: expected 3 fields (round,player,banker), got 2"),
    (b"3001,,4D 2C", "line 3002: the player hand is empty"),
    (b"0,KS 9H,4D 2C", "line 3002: round number must be at least 1, got 0"),
    (b"3000,KS 9H,4D 2C", "line 3002: round 3000 already appears on line 3001"),
])
def test_an_error_deep_in_a_block_names_its_line(tmp_path: Path, bad: bytes, expected: str) -> None:
    path = tmp_path / "log.csv"
    rows = b"".join(b"%d,KS 9H,4D 2C 7S\n" % r for r in range(1, 3001))
    path.write_bytes(b"round,player,banker\n" + rows + bad + b"\n" + b"5000,KS 9H,4D 2C\n")
    fast, slow, _ = _both(str(path))
    assert fast == slow
    assert fast[0] == "error" and fast[1].startswith(f"{path}, {expected}")


def test_order_error_of_a_full_chunk_comes_before_a_later_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    rows = [b"%d,KS 9H,4D 2C" % r for r in range(1, 101)]
    rows[10] = b"3,KS 9H,4D 2C"  # line 12: out of order, in the first chunk of 50
    rows[80] = b"81,KS 9H,4D ZC"  # line 82: a bad card, after that chunk is full
    path.write_bytes(b"round,player,banker\n" + b"\n".join(rows) + b"\n")
    with _small(50, 1 << 20):
        fast, slow, _ = _both(str(path))
    assert fast == slow == ("error", f"{path}, line 12: round 3 comes after round 10 (line 11): "
                                     "round numbers must increase")
