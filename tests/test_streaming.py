"""Streaming and safety of the simulation commands (issue 9).

* memory does not grow with the log: ``tracemalloc`` peaks on two log sizes ten times
  apart (a structural test: batch sizes are made small so both sizes span many batches);
* the vectorised log writer against a plain per-round reference;
* all outputs or none, with a failure while writing and with an unwritable path;
* the seed is bounded and ``-s`` is gone;
* a huge line, binary data and a FIFO as a hand log are one-line errors, read with
  bounded memory (FIFOs made here, never a real device).
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from conftest import run_simulation_cli

from exactodds.errors import InputError
from exactodds.game.cards import FACES, Shoe
from exactodds.io.files import all_or_none
from exactodds.simulation import crosscheck, handlog, logparse, textread
from exactodds.simulation import simulate as simmod
from exactodds.simulation.crosscheck import crosscheck_log
from exactodds.simulation.handlog import (
    LogFile,
    log_header,
    read_file,
    render_log,
    render_log_chunk,
)
from exactodds.simulation.simulate import HandLog, simulate

EIGHT = Shoe.standard(8)


run = run_simulation_cli


def reference_render(log: HandLog) -> str:
    """The hand-log lines written round by round in plain Python (the former writer)."""
    t = [str(c) for c in FACES]
    out = []
    for i, (f, code) in enumerate(zip(log.faces.tolist(), log.codes.tolist())):
        pdraw, bdraw = code >> 1 & 1, code & 1
        player = f"{t[f[0]]} {t[f[2]]}" + (f" {t[f[4]]}" if pdraw else "")
        banker = f"{t[f[1]]} {t[f[3]]}" + ((f" {t[f[5]]}" if pdraw else f" {t[f[4]]}") if bdraw else "")
        shoe = f",{int(log.shoe[i]) + 1}" if log.shoe is not None else ""
        out.append(f"{log.first + i + 1},{player},{banker}{shoe}\n")
    return "".join(out)


def stream_log(path: Path, rounds: int, mode: str = "fresh", seed: int = 1) -> None:
    with open(path, "wb") as fh:
        fh.write(log_header({"decks": 8}, mode == "shoe"))
        simulate(rounds, mode, EIGHT, seed=seed, on_hands=lambda b: fh.write(render_log_chunk(b)) and None)


def open_log(path: Path) -> LogFile:
    data = read_file(path)
    assert isinstance(data, LogFile)
    return data


# -- the writer ------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["fresh", "shoe"])
def test_vectorised_writer_matches_reference(mode: str) -> None:
    sim = simulate(3000, mode, EIGHT, seed=5, keep_hands=True)
    assert sim.log is not None
    text = render_log(sim.log)
    assert text.splitlines(keepends=True)[1:] == reference_render(sim.log).splitlines(keepends=True)
    shifted = HandLog(sim.log.faces[:50], sim.log.codes[:50], None, first=999_950)
    assert render_log_chunk(shifted).decode() == reference_render(shifted)


@pytest.mark.parametrize("mode", ["fresh", "shoe"])
def test_streamed_batches_equal_kept_hands(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simmod, "FRESH_BATCH", 1000)
    monkeypatch.setattr(simmod, "SHOE_BATCH", 10)
    batches: list[HandLog] = []
    a = simulate(5500, mode, EIGHT, seed=3, on_hands=batches.append, workers=2)
    b = simulate(5500, mode, EIGHT, seed=3, keep_hands=True)
    assert len(batches) > 3 and np.array_equal(a.counts, b.counts)
    assert b.log is not None
    assert np.array_equal(np.concatenate([x.faces for x in batches]), b.log.faces)
    assert [x.first for x in batches] == list(np.cumsum([0] + [x.codes.size for x in batches[:-1]]))


# -- memory ------------------------------------------------------------------------------------------
def _peak(fn: object) -> int:
    tracemalloc.start()
    try:
        fn()  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("mode", ["fresh", "shoe"])
def test_simulate_log_memory_does_not_grow_with_rounds(mode: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simmod, "FRESH_BATCH", 4096)
    monkeypatch.setattr(simmod, "SHOE_BATCH", 32)
    stream_log(tmp_path / "warm.csv", 5000, mode)
    small = _peak(lambda: stream_log(tmp_path / "a.csv", 20_000, mode))
    large = _peak(lambda: stream_log(tmp_path / "b.csv", 200_000, mode))
    assert (tmp_path / "b.csv").stat().st_size > 8 * (tmp_path / "a.csv").stat().st_size
    assert large < 2 * small, (small, large)


def test_crosscheck_memory_does_not_grow_with_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logparse, "CHUNK_ROUNDS", 4096)
    monkeypatch.setattr(textread, "BLOCK", 1 << 16)
    small_log, large_log = tmp_path / "a.csv", tmp_path / "b.csv"
    stream_log(small_log, 20_000, "shoe", seed=2)
    stream_log(large_log, 200_000, "shoe", seed=2)
    # warm the bounded caches (hand texts, exact figures) so that only the reading is measured
    crosscheck_log(open_log(large_log), EIGHT, 14)
    crosscheck_log(open_log(small_log), EIGHT, 14)
    small = _peak(lambda: crosscheck_log(open_log(small_log), EIGHT, 14))
    large = _peak(lambda: crosscheck_log(open_log(large_log), EIGHT, 14))
    assert large < 2 * small, (small, large)


# -- all outputs or none ----------------------------------------------------------------------------
def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_failure_while_writing_the_log_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = tmp_path / "counts.csv"
    counts.write_text("old counts\n")
    calls = []

    def full_disk(batch: HandLog) -> bytes:
        calls.append(1)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return render_log_chunk(batch)

    monkeypatch.setattr(handlog, "render_log_chunk", full_disk)
    monkeypatch.setattr(simmod, "FRESH_BATCH", 1000)
    code, out, err = run("simulate", "-n", "5000", "--log", str(tmp_path / "log.csv"), "--counts", str(counts),
                         "-o", str(tmp_path / "report.txt"), "-w", "banker")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("exactodds: error:") and "No space left" in err
    assert leftovers(tmp_path) == ["counts.csv"] and counts.read_text() == "old counts\n"


def test_unwritable_second_path_leaves_no_file(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    code, out, err = run("simulate", "-n", "2000", "--log", str(log), "--counts", str(tmp_path / ("c" * 300)),
                         "-w", "banker")
    assert code == 2 and out == "" and err.count("\n") == 1 and "too long" in err
    assert leftovers(tmp_path) == []
    code, _, err = run("simulate", "-n", "2000", "--log", str(log), "--counts", str(tmp_path / "no" / "c.csv"))
    assert code == 2 and leftovers(tmp_path) == []


def test_all_outputs_appear_together(tmp_path: Path) -> None:
    paths = [tmp_path / n for n in ("log.csv", "counts.csv", "report.json")]
    code, out, _ = run("simulate", "-n", "3000", "--mode", "shoe", "--log", str(paths[0]), "--counts",
                       str(paths[1]), "-o", str(paths[2]), "--format", "json", "-w", "tie")
    assert code == 0 and out == "" and leftovers(tmp_path) == sorted(p.name for p in paths)
    assert list(open_log(paths[0]).rounds())[-1].round == 3000


def test_staging_to_a_fifo_writes_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    with all_or_none([fifo, tmp_path / "file.txt"]) as (to_fifo, to_file):
        to_fifo.write(b"through the pipe")
        to_file.write(b"file")
    reader.join(10)
    assert got == [b"through the pipe"] and fifo.is_fifo() and (tmp_path / "file.txt").read_text() == "file"


# -- the seed -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", ["-1", str(2**63), "99999999999999999999999"])
def test_bad_seed_is_one_line(seed: str) -> None:
    code, out, err = run("simulate", "-n", "10", "--seed", seed)
    assert code == 2 and out == "" and err.count("\n") == 1 and "--seed" in err


def test_seed_bounds_and_s_is_the_shoe() -> None:
    """``--seed`` has no short option; ``-s`` is ``--shoe`` as in analyze (one flag per concept)."""
    assert run("simulate", "-n", "10", "--seed", str(2**63 - 1), "-w", "tie")[0] == 0
    code, out, _ = run("simulate", "-n", "10", "-s", "decks=3", "-w", "tie", "-f", "json")
    assert code == 0 and json.loads(out)["shoe"] == Shoe.standard(3).to_json()
    with pytest.raises(InputError, match="--seed"):
        simulate(10, seed=-1)


# -- hostile hand logs --------------------------------------------------------------------------------
def consume(path: Path) -> None:
    data = read_file(path)
    if isinstance(data, LogFile):
        for _ in data.chunks():
            pass


def test_huge_line_is_a_one_line_error_with_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    with open(path, "wb") as fh:
        fh.write(b"round,player,banker\n1,KS 9H,4D 2C\n")
        fh.writelines(b"A" * (1 << 20) for _ in range(64))  # 64 MB, no newline
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match=r"line 3: line longer than"):
            consume(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20
    code, out, err = run("crosscheck", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and "line 3" in err


@pytest.mark.parametrize("content,fragment", [
    (b"\0" * 5000, "line 1: not text"),
    (b"round,player,banker\n1,KS 9H,4D 2C\n2,\xff\xfe,4D\n", "line 3: not UTF-8"),
])
def test_binary_data_is_a_one_line_error(tmp_path: Path, content: bytes, fragment: str) -> None:
    path = tmp_path / "bin.csv"
    path.write_bytes(content)
    with pytest.raises(InputError, match=fragment):
        consume(path)


@pytest.mark.parametrize("filler,fragment", [(b"\0", "not text"), (b"7", "longer than")])
def test_endless_fifo_is_read_with_bounded_memory(tmp_path: Path, filler: bytes, fragment: str) -> None:
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)

    def writer() -> None:
        try:
            with open(fifo, "wb") as fh:
                fh.write(b"round,player,banker\n")
                fh.writelines(filler * (1 << 16) for _ in range(256))
        except (BrokenPipeError, OSError):
            pass

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    code, out, err = run("crosscheck", str(fifo))
    t.join(20)
    assert not t.is_alive()
    assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err and "line 2" in err


def test_cold_start_loads_no_simulation_code() -> None:
    code = ("import sys, exactodds.cli.app; "
            "print(sorted(m for m in sys.modules if m.startswith(('scipy', 'exactodds.simulation'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_cli_defaults_match_the_library() -> None:
    from exactodds.cli import simulate as cli

    assert cli.DEFAULT_ALPHA == crosscheck.DEFAULT_ALPHA and cli.MIN_COVER == simmod.MIN_COVER
