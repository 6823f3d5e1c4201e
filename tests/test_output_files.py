"""Writing outputs (exactodds/io/ and ``--output``): atomic for regular files,
direct for devices and FIFOs (never replaced), one-line errors for every failure of the
file system, nothing left behind, stale temporaries of dead runs cleaned.

Devices are nodes made here with ``os.mknod`` in a temporary folder, never real ones. The
tests run as root, where ``chmod`` does not stop writes: read-only folders are tested in
a subprocess without the capabilities that override file permissions (checked first to be
really unable to write there).
"""

from __future__ import annotations

import errno
import io
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from exactodds.cli.app import app
from exactodds.errors import InputError
from exactodds.io import files
from exactodds.io.files import (
    atomic_writer,
    check_writable,
    clean_stale_temporaries,
    is_temporary_name,
    temporary_name,
    write_all,
    write_atomic,
)
from exactodds.io.names import FOREIGN_STALE_SECONDS

ROOT = Path(__file__).resolve().parents[1]


# -- helpers ------------------------------------------------------------------------------------
def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def snapshot(folder: Path) -> dict[str, Any]:
    """Everything under ``folder``: kind and content of each entry (links not followed)."""
    out: dict[str, Any] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(folder))
            m = os.lstat(p).st_mode
            if stat.S_ISREG(m):
                out[rel] = ("file", p.read_bytes(), stat.S_IMODE(m))
            elif stat.S_ISLNK(m):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(m):
                out[rel] = ("dir",)
            else:
                out[rel] = ("node", stat.S_IFMT(m), os.lstat(p).st_rdev)
    return out


def assert_one_line_error(code: int, stdout: str, stderr: str, *fragments: str) -> None:
    assert code == 2, (code, stdout, stderr)
    assert stdout == ""
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("exactodds: error: "), stderr
    for f in fragments:
        assert f in lines[0], (f, lines[0])


def assert_cli_error(r: Result, *fragments: str) -> None:
    assert_one_line_error(r.exit_code, r.stdout, r.stderr, *fragments)


def list_text() -> str:
    r = run("list")
    assert r.exit_code == 0
    return r.stdout


def without_dac_override() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes a root child obey file permissions: it drops
    CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the bounding set, so the program it runs
    has neither (None when not root: ``chmod`` works then)."""
    if os.geteuid() != 0:
        return None
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def drop() -> None:
        for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
            if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")

    return drop


def run_subprocess(args: list[str], cwd: Path, preexec: Callable[[], None] | None = None,
                   code: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m exactodds ARGS`` (or ``python -c CODE ARGS``) in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(cwd)}
    cmd = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "exactodds", *args]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
                          preexec_fn=preexec, check=False)


def read_only_folder(parent: Path, name: str = "ro") -> Path:
    """A folder the CLI subprocess cannot write in, checked with a real attempt first."""
    ro = parent / name
    ro.mkdir()
    ro.chmod(0o555)
    probe = subprocess.run(["sh", "-c", f"touch '{ro}/probe'"], capture_output=True,
                           preexec_fn=without_dac_override(), check=False)
    if probe.returncode == 0 or (ro / "probe").exists():
        pytest.skip("cannot make a folder read-only for a child process here: the test would prove nothing")
    return ro


# -- devices, FIFOs, standard output, links ----------------------------------------------------
def make_char_device(path: Path, minor: int) -> None:
    """A character-device node (major 1: memory devices; 3 = null, 7 = full) in a test folder."""
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))


def test_output_to_a_character_device_writes_it_and_keeps_it(tmp_path: Path) -> None:
    node = tmp_path / "null"
    make_char_device(node, 3)
    link = tmp_path / "link-to-null"
    link.symlink_to(node)
    before = snapshot(tmp_path)
    for target in (node, link):
        r = run("list", "--output", str(target))
        assert r.exit_code == 0, r.output
        assert r.stdout == "" and r.stderr == ""
        assert snapshot(tmp_path) == before  # still the same device node and link; no temporary
    assert stat.S_ISCHR(os.lstat(node).st_mode) and os.lstat(node).st_rdev == os.makedev(1, 3)


def test_a_full_device_is_a_one_line_error(tmp_path: Path) -> None:
    """A node of the 'full' device: the kernel's own ENOSPC, through the direct path."""
    node = tmp_path / "full"
    make_char_device(node, 7)
    before = snapshot(tmp_path)
    assert_cli_error(run("list", "-o", str(node)), repr(str(node)), "no space left on device")
    assert snapshot(tmp_path) == before


def test_output_to_a_fifo_streams_to_its_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    t = threading.Thread(target=reader, daemon=True)  # a hang must not hang the test run
    t.start()
    r = run("list", "--output", str(fifo))
    t.join(timeout=30)
    assert not t.is_alive()
    assert r.exit_code == 0 and r.stdout == ""
    assert got == [list_text().encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and sorted(os.listdir(tmp_path)) == ["pipe"]


def test_output_dash_is_stdout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = run("list", "-o", "-")
    assert r.exit_code == 0 and r.stdout == list_text()
    assert os.listdir(tmp_path) == []


def test_a_link_to_a_regular_file_replaces_its_target_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "data" / "real.txt"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(Path("data") / "real.txt")
    r = run("list", "-o", str(link))
    assert r.exit_code == 0, r.output
    assert os.readlink(link) == str(Path("data") / "real.txt")
    assert real.read_text() == list_text()
    assert sorted(os.listdir(real.parent)) == ["real.txt"]


def _make_socket(path: Path) -> socket.socket:
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    return s


@pytest.mark.parametrize("kind", ["directory", "socket", "block-device", "dangling-link", "link-to-socket"])
def test_outputs_that_are_not_files_devices_or_fifos_are_refused(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "target"
    keep: list[socket.socket] = []
    if kind == "directory":
        target.mkdir()
        fragment = "is a directory"
    elif kind == "socket":
        keep.append(_make_socket(target))
        fragment = "is a socket"
    elif kind == "block-device":  # a node made here (loop device numbers); never opened
        os.mknod(target, stat.S_IFBLK | 0o600, os.makedev(7, 0))
        fragment = "is a block device"
    elif kind == "dangling-link":
        target.symlink_to(tmp_path / "missing")
        fragment = "symbolic link to a missing file"
    else:
        keep.append(_make_socket(tmp_path / "sock"))
        target.symlink_to(tmp_path / "sock")
        fragment = "is a socket"
    before = snapshot(tmp_path)
    try:
        assert_cli_error(run("list", "--output", str(target)), repr(str(target)), fragment)
        assert snapshot(tmp_path) == before
    finally:
        for s in keep:
            s.close()


# -- failures of the file system: one line, exit 2, nothing left -------------------------------
class DiskFull:
    """Makes every raw write of an output fail with ``err`` after ``allow`` successful ones."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, err: int = errno.ENOSPC, allow: int = 0) -> None:
        self.err, self.allow, self.calls = err, allow, 0

        def write(raw: files._Raw, data: Any) -> int | None:
            self.calls += 1
            if self.calls > self.allow:
                raise OSError(self.err, os.strerror(self.err))
            return io.FileIO.write(raw, data)

        monkeypatch.setattr(files._Raw, "write", write)


@pytest.mark.parametrize("err,reason", [(errno.ENOSPC, "no space left on device"),
                                        (errno.EDQUOT, "disk quota exceeded"),
                                        (errno.EFBIG, "file too large"),
                                        (errno.EIO, "input/output error")])
@pytest.mark.parametrize("existing", [False, True])
def test_a_full_disk_is_a_one_line_error_and_leaves_the_old_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: int, reason: str, existing: bool) -> None:
    out = tmp_path / "out.json"
    if existing:
        out.write_text("old report")
    before = snapshot(tmp_path)
    disk = DiskFull(monkeypatch, err)
    assert_cli_error(run("list", "-f", "json", "-o", str(out)), repr(str(out)), reason)
    assert disk.calls >= 1
    assert snapshot(tmp_path) == before


def test_a_disk_filling_up_midway_through_a_stream_leaves_nothing(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "big.log"
    out.write_text("old")
    disk = DiskFull(monkeypatch, allow=3)
    with pytest.raises(InputError, match="no space left on device"), atomic_writer(out) as fh:
        for i in range(100_000):
            fh.write(f"{i},hand\n")
    assert disk.calls > disk.allow == 3  # three buffers reached the temporary before the disk filled
    assert snapshot(tmp_path) == {"big.log": ("file", b"old", 0o644)}


def test_a_file_name_longer_than_the_file_system_allows(tmp_path: Path) -> None:
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    too_long = tmp_path / ("x" * (limit + 1))
    assert_cli_error(run("list", "-o", str(too_long)), "file name too long")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("extra", [0, 5])
def test_the_longest_names_are_writable(tmp_path: Path, extra: int) -> None:
    """A 250-character name used to fail only because of the temporary's '.tmp' suffix."""
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    name = "y" * (limit - extra)
    r = run("list", "-o", str(tmp_path / name))
    assert r.exit_code == 0, r.output
    assert os.listdir(tmp_path) == [name] and (tmp_path / name).read_text() == list_text()


def test_missing_folder_and_empty_path(tmp_path: Path) -> None:
    assert_cli_error(run("list", "-o", str(tmp_path / "no" / "out.txt")), "does not exist")
    assert_cli_error(run("list", "-o", ""), "empty")
    assert_cli_error(run("list", "-o", str(tmp_path / "new") + "/"), "is a directory")
    (tmp_path / "file").write_text("x")
    assert_cli_error(run("list", "-o", str(tmp_path / "file" / "out.txt")), "not a folder")
    assert snapshot(tmp_path) == {"file": ("file", b"x", 0o644)}


def test_a_read_only_folder_is_a_one_line_error(tmp_path: Path) -> None:
    ro = read_only_folder(tmp_path)
    before = snapshot(tmp_path)
    p = run_subprocess(["list", "--output", str(ro / "out.txt")], tmp_path, without_dac_override())
    assert_one_line_error(p.returncode, p.stdout, p.stderr, repr(str(ro / "out.txt")), "permission denied")
    assert snapshot(tmp_path) == before


def test_a_folder_made_read_only_after_the_check_is_a_one_line_error(tmp_path: Path) -> None:
    """The check passes (it is faked here), the kernel refuses the temporary: same one line."""
    ro = read_only_folder(tmp_path)
    before = snapshot(tmp_path)
    code = "import os, sys; os.access = lambda *a, **k: True; sys.argv[0] = 'exactodds'; " \
           "from exactodds.cli.app import main; main()"
    p = run_subprocess(["list", "-o", str(ro / "out.txt")], tmp_path, without_dac_override(), code=code)
    assert_one_line_error(p.returncode, p.stdout, p.stderr, "permission denied")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("where", ["new-folder-in-read-only-parent", "read-only-folder"])
def test_tables_into_a_read_only_place_is_a_one_line_error(tmp_path: Path, where: str) -> None:
    ro = read_only_folder(tmp_path)
    out = ro / "tables" if where.startswith("new") else ro
    before = snapshot(tmp_path)
    p = run_subprocess(["tables", "--decks", "8", "--output", str(out)], tmp_path, without_dac_override())
    assert_one_line_error(p.returncode, p.stdout, p.stderr, "permission denied")
    assert snapshot(tmp_path) == before


def test_tables_on_a_full_disk_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Folders made by the run are removed again; an earlier tree stays exactly as it was."""
    disk = DiskFull(monkeypatch, allow=50)
    before = snapshot(tmp_path)
    assert_cli_error(run("tables", "--decks", "1", "-o", str(tmp_path / "t")), "no space left on device")
    assert disk.calls > disk.allow == 50
    assert snapshot(tmp_path) == before


# -- write_all, atomic_writer, write_atomic -----------------------------------------------------
def test_write_all_writes_text_bytes_and_writers(tmp_path: Path) -> None:
    def writer(fh: Any) -> None:
        for i in range(3):
            fh.write(f"line {i}\r\n")

    write_all([(tmp_path / "a.txt", "é\n"), (tmp_path / "b.bin", b"\x00\xff"), (tmp_path / "c.log", writer)])
    assert (tmp_path / "a.txt").read_bytes() == "é\n".encode()
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\xff"
    assert (tmp_path / "c.log").read_bytes() == b"line 0\r\nline 1\r\nline 2\r\n"
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "b.bin", "c.log"]


def test_write_all_is_all_or_none(tmp_path: Path) -> None:
    (tmp_path / "log.csv").write_text("old log")
    before = snapshot(tmp_path)

    def failing(fh: Any) -> None:
        fh.write("partial counts")
        raise RuntimeError("simulation failed")

    with pytest.raises(RuntimeError, match="simulation failed"):  # the writer's own error, unchanged
        write_all([(tmp_path / "log.csv", "new log"), (tmp_path / "counts.csv", failing)])
    assert snapshot(tmp_path) == before
    with pytest.raises(InputError, match="does not exist"):  # checked before anything is written
        write_all([(tmp_path / "log.csv", "new log"), (tmp_path / "missing" / "counts.csv", "x")])
    assert snapshot(tmp_path) == before
    with pytest.raises(InputError, match="two outputs"):
        write_all([(tmp_path / "log.csv", "a"), (tmp_path / "." / "log.csv", "b")])
    assert snapshot(tmp_path) == before


def test_write_all_fails_before_renaming_when_a_direct_output_fails(tmp_path: Path) -> None:
    full = tmp_path / "full"
    make_char_device(full, 7)
    before = snapshot(tmp_path)
    with pytest.raises(InputError, match="no space left on device"):
        write_all([(tmp_path / "report.txt", "report"), (full, "x" * 10_000)])
    assert snapshot(tmp_path) == before


def test_atomic_writer_commits_only_at_the_end(tmp_path: Path) -> None:
    out = tmp_path / "hands.log"
    out.write_text("previous run")
    with atomic_writer(out) as fh:
        for i in range(50_000):
            fh.write(f"{i},P,B\n")
        assert out.read_text() == "previous run"  # nothing visible under the final name yet
        [tmp] = [n for n in os.listdir(tmp_path) if n != "hands.log"]
        assert is_temporary_name(tmp)
    assert out.read_text().count("\n") == 50_000
    assert os.listdir(tmp_path) == ["hands.log"]


@pytest.mark.parametrize("exc", [ValueError, KeyboardInterrupt])
def test_atomic_writer_removes_its_temporary_on_error(tmp_path: Path, exc: type[BaseException]) -> None:
    out = tmp_path / "hands.log"
    out.write_text("previous run")
    with pytest.raises(exc), atomic_writer(out) as fh:
        fh.write("half")
        raise exc()
    assert snapshot(tmp_path) == {"hands.log": ("file", b"previous run", 0o644)}


def test_permissions_of_an_existing_file_are_kept(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("a")
    secret.chmod(0o600)
    write_atomic(secret, "b")
    write_atomic(tmp_path / "new.txt", "c")
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and secret.read_text() == "b"
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644


def test_check_writable_names_what_will_be_written(tmp_path: Path) -> None:
    (tmp_path / "real").write_text("x")
    (tmp_path / "link").symlink_to("real")
    assert check_writable(tmp_path / "link") == (tmp_path / "real").resolve()
    assert check_writable("-") == Path("-")
    assert check_writable(tmp_path / "new.txt") == tmp_path / "new.txt"
    assert sorted(os.listdir(tmp_path)) == ["link", "real"]


# hypothesis: any text, any valid name
NAME_CHARS = st.characters(exclude_categories=["Cs"], exclude_characters="/\x00")


@settings(max_examples=60, deadline=None)
@given(text=st.text(), name=st.text(NAME_CHARS, min_size=1, max_size=60)
       .filter(lambda n: n not in (".", "..", "-", "twin") and len(n.encode()) <= 255 and not is_temporary_name(n)),
       how=st.sampled_from(["write_atomic", "write_all", "atomic_writer"]))
def test_any_text_and_name_round_trip(tmp_path_factory: pytest.TempPathFactory, text: str, name: str, how: str) -> None:
    folder = tmp_path_factory.mktemp("rt")
    out = folder / name
    if how == "write_atomic":
        write_atomic(out, text)
    elif how == "write_all":
        write_all([(out, text), (folder / "twin", text.encode())])
    else:
        with atomic_writer(out) as fh:
            fh.write(text)
    assert out.read_bytes() == text.encode("utf-8")
    assert all(not is_temporary_name(n) for n in os.listdir(folder))


# -- stale temporaries --------------------------------------------------------------------------
HOLDER = """
import sys, time
from exactodds.io.files import atomic_writer
with atomic_writer(sys.argv[1]) as fh:
    fh.write("x" * 100_000)
    fh.flush()
    print("ready", flush=True)
    sys.stdin.readline()  # killed here, or told to finish
"""


def start_holder(out: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None and p.stdout.readline() == "ready\n"
    return p


def temporaries(folder: Path) -> list[str]:
    return sorted(n for n in os.listdir(folder) if is_temporary_name(n))


def test_a_killed_run_leaves_a_temporary_that_the_next_write_removes_but_a_live_ones_stays(
        tmp_path: Path) -> None:
    killed = start_holder(tmp_path / "killed.log")
    live = start_holder(tmp_path / "live.log")
    try:
        [dead_tmp, live_tmp] = sorted(temporaries(tmp_path), key=lambda n: f"-{killed.pid}-" not in n)
        assert f"-{killed.pid}-" in dead_tmp and f"-{live.pid}-" in live_tmp
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(timeout=30)
        assert not (tmp_path / "killed.log").exists() and temporaries(tmp_path) == sorted([dead_tmp, live_tmp])
        r = run("list", "-o", str(tmp_path / "list.txt"))  # the next write into the folder
        assert r.exit_code == 0, r.output
        assert temporaries(tmp_path) == [live_tmp]  # the concurrent run's temporary is untouched
        assert live.stdin is not None
        live.stdin.write("\n")
        live.stdin.close()
        assert live.wait(timeout=30) == 0
        assert sorted(os.listdir(tmp_path)) == ["list.txt", "live.log"]
        assert (tmp_path / "live.log").read_text() == "x" * 100_000
    finally:
        for p in (killed, live):
            if p.poll() is None:
                p.kill()
                p.wait()


def test_only_our_stale_temporaries_are_cleaned(tmp_path: Path) -> None:
    now = time.time()
    ours = temporary_name()  # this process: alive
    tag = ours.split("-")[1]
    other_tag = "0" * 6 if tag != "0" * 6 else "1" * 6
    names = {
        ours: "kept: a live process (this one)",
        f".exo-{other_tag}-123-0123abcd.tmp": "kept: another machine's, recent",
        f".exo-{other_tag}-124-0123abcd.tmp": "removed: another machine's, older than a day",
        ".report.txt.abcd1234.tmp": "kept: not our naming",
        ".exo-notours.tmp": "kept: not our naming",
        "data.tmp": "kept",
    }
    for n in names:
        (tmp_path / n).write_text("x")
    old = now - FOREIGN_STALE_SECONDS - 60
    os.utime(tmp_path / f".exo-{other_tag}-124-0123abcd.tmp", (old, old))
    (tmp_path / f".exo-{tag}-125-0123abcd.tmp").mkdir()  # a folder with our naming: not a file, kept
    removed = clean_stale_temporaries(tmp_path, now=now)
    assert removed == [f".exo-{other_tag}-124-0123abcd.tmp"]
    assert sorted(os.listdir(tmp_path)) == sorted([n for n, why in names.items() if why.startswith("kept")]
                                                  + [f".exo-{tag}-125-0123abcd.tmp"])


def test_a_dead_process_temporary_is_removed_whatever_its_age(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                       check=True)
    dead_pid = int(p.stdout)
    tag = temporary_name().split("-")[1]
    name = f".exo-{tag}-{dead_pid}-0123abcd.tmp"
    (tmp_path / name).write_text("debris")
    try:
        os.kill(dead_pid, 0)
        pytest.skip("the pid was reused already")
    except ProcessLookupError:
        pass
    write_atomic(tmp_path / "out.txt", "x")
    assert os.listdir(tmp_path) == ["out.txt"]
