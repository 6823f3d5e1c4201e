"""``--output`` naming one of the process's own streams (issue 18: re-audit of I/O).

``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` and ``/proc/self/fd/N`` are written through
the descriptor, in place: a shell's ``>>`` appends, a pipe works, and the file the
descriptor points at is never renamed over. Every case runs the command line in a fresh
interpreter whose streams are files, pipes, FIFOs or device nodes made here in a temporary
folder (never real devices).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest

from exactodds.errors import InputError
from exactodds.io.files import check_writable, stream_fd, write_all

ROOT = Path(__file__).resolve().parents[1]


def cli(args: list[str], cwd: Path, **kw: Any) -> subprocess.CompletedProcess[bytes]:
    """``python -m exactodds ARGS`` in a fresh interpreter (streams as given in ``kw``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(cwd)}
    return subprocess.run([sys.executable, "-m", "exactodds", *args], cwd=cwd, env=env, timeout=120,
                          check=False, **kw)


@pytest.fixture(scope="module")
def list_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """What ``exactodds list`` prints to standard output (no ``--output``)."""
    r = cli(["list"], tmp_path_factory.mktemp("plain"), capture_output=True)
    assert r.returncode == 0 and r.stdout.count(b"\n") > 10
    return r.stdout


def appended(path: Path) -> IO[bytes]:
    """``path`` opened as a shell's ``>>`` opens it (O_APPEND)."""
    return open(path, "ab")


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "link"])
def test_stdout_redirected_with_append_keeps_the_file(tmp_path: Path, name: str, list_bytes: bytes) -> None:
    """``printf 'keep\\n' > log.txt; exactodds list -o /dev/stdout >> log.txt`` keeps ``keep``."""
    log = tmp_path / "log.txt"
    log.write_bytes(b"keep\n")
    inode = os.stat(log).st_ino
    if name == "link":  # a user's own link to the stream name is a stream name too
        (tmp_path / "link").symlink_to("/dev/stdout")
    with appended(log) as out:
        r = cli(["list", "-o", name], tmp_path, stdout=out, stderr=subprocess.PIPE)
    assert r.returncode == 0, r.stderr
    assert r.stderr == b""
    assert log.read_bytes() == b"keep\n" + list_bytes
    assert os.stat(log).st_ino == inode, "the file was replaced, not appended to"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["log.txt"] + (["link"] if name == "link" else []))


def test_stdout_into_a_pipe(tmp_path: Path, list_bytes: bytes) -> None:
    """``exactodds list -o /dev/stdout | cat``: the text reaches the reader of the pipe."""
    r = cli(["list", "-o", "/dev/stdout"], tmp_path, capture_output=True)
    assert (r.returncode, r.stderr, r.stdout) == (0, b"", list_bytes)


def test_stderr_and_other_descriptors(tmp_path: Path, list_bytes: bytes) -> None:
    """``-o /dev/stderr`` writes standard error; ``-o /dev/fd/N`` the descriptor N the shell opened."""
    err = tmp_path / "err.txt"
    err.write_bytes(b"first\n")
    with appended(err) as e:
        r = cli(["list", "-o", "/dev/stderr"], tmp_path, stdout=subprocess.PIPE, stderr=e)
    assert (r.returncode, r.stdout) == (0, b"")
    assert err.read_bytes() == b"first\n" + list_bytes

    extra = tmp_path / "fd.txt"
    extra.write_bytes(b"first\n")
    fd = os.open(extra, os.O_WRONLY | os.O_APPEND)
    try:
        r = cli(["list", "-o", f"/dev/fd/{fd}"], tmp_path, capture_output=True, pass_fds=(fd,))
    finally:
        os.close(fd)
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")
    assert extra.read_bytes() == b"first\n" + list_bytes


def test_stdout_into_a_fifo(tmp_path: Path, list_bytes: bytes) -> None:
    """Standard output is a FIFO (made here): written in place, and the FIFO stays one."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    rd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    wr = os.open(fifo, os.O_WRONLY)
    os.set_blocking(rd, True)
    chunks: list[bytes] = []
    import threading

    def drain() -> None:
        while True:
            b = os.read(rd, 65536)
            if not b:
                return
            chunks.append(b)

    t = threading.Thread(target=drain)
    t.start()
    try:
        r = cli(["list", "-o", "/dev/stdout"], tmp_path, stdout=wr, stderr=subprocess.PIPE)
    finally:
        os.close(wr)
        t.join(60)
        os.close(rd)
    assert (r.returncode, r.stderr) == (0, b"")
    assert b"".join(chunks) == list_bytes
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_stdout_a_character_device_node(tmp_path: Path) -> None:
    """Standard output is a character-device node made here (1,3: a null device): written
    in place and never replaced by a file."""
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("cannot make device nodes here")
    with open(node, "wb") as out:
        r = cli(["list", "-o", "/dev/stdout"], tmp_path, stdout=out, stderr=subprocess.PIPE)
    assert (r.returncode, r.stderr) == (0, b"")
    st = os.lstat(node)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)


def test_a_closed_descriptor_is_one_line(tmp_path: Path) -> None:
    r = cli(["list", "-o", "/dev/fd/9"], tmp_path, capture_output=True)
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().splitlines() == ["exactodds: error: cannot write '/dev/fd/9': file descriptor 9 "
                                              "is not open"]


def test_stream_names_resolve_before_any_path_logic(tmp_path: Path) -> None:
    assert stream_fd("-") == 1
    assert stream_fd("/dev/stderr") == 2
    assert stream_fd("/dev/./fd/../stdout") == 1
    assert stream_fd(f"/proc/{os.getpid()}/fd/4") == 4
    assert stream_fd("/proc/1/fd/4") is None or os.getpid() == 1  # another process's descriptor
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to("/proc/self/fd/2")
    assert stream_fd(tmp_path / "a") == 2
    assert stream_fd(tmp_path / "plain.txt") is None
    assert check_writable("/dev/stdout") == Path("-")


def test_one_stream_named_twice_is_refused() -> None:
    with pytest.raises(InputError, match="the same file is named for two outputs"):
        write_all([("-", "a"), ("/dev/stdout", "b")])


def test_a_file_and_the_stream_redirected_to_it_are_refused(tmp_path: Path) -> None:
    """Writing ``out.txt`` atomically while descriptor N appends to it would lose one of them."""
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    fd = os.open(out, os.O_WRONLY | os.O_APPEND)
    try:
        with pytest.raises(InputError, match="the same file is named for two outputs"):
            write_all([(f"/dev/fd/{fd}", "a"), (out, "b")])
    finally:
        os.close(fd)
    assert out.read_text() == "old\n"
