"""The certificate's HTML template: which one, its identity, and rendering it safely.

A template is code. Jinja2 templates can call what their context holds, and an ordinary
``jinja2.Environment`` lets a template reach Python's internals
(``{{ cycler.__init__.__globals__.os.system(...) }}``). So every template -- the shipped
one and a lab's ``--template DIR`` -- is rendered by
:class:`jinja2.sandbox.ImmutableSandboxedEnvironment` (no attribute starting with ``_``,
no changing a list or dict, ``range`` bounded), from exactly two files,
``certificate.html.j2`` and ``certificate.css`` (a :class:`jinja2.DictLoader`: nothing
else can be included or imported). A lab's template is also rendered in a child process
with bounded resources (:func:`render_bounded`): :data:`CPU_SECONDS` of CPU time,
:data:`MEMORY_BYTES` of memory beyond what the process already maps, :data:`WALL_SECONDS`
in all and at most :data:`MAX_PAGE_BYTES` of output -- a template looping forever or
building a huge string is one error line, not a machine brought down. The shipped template
is part of the program (its hash is in the program identity) and is rendered in-process.

A lab's template has an identity, the SHA-256 of the two files it renders with
(:attr:`Template.sha256`); ``certify --template DIR`` records it in the fingerprinted report
(member ``template``), so ``verify page.html --template DIR`` can tell whether the template
it is given is the one the report names before it compares the page byte for byte.

>>> t = load_template(None)
>>> t.ident, t.sha256 is None, sorted(t.files)
('shipped', True, ['certificate.css', 'certificate.html.j2'])
"""

from __future__ import annotations

import hashlib
import os
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from exactodds.errors import InputError

CSS_FILE: Final = "certificate.css"
TEMPLATE_FILE: Final = "certificate.html.j2"
FILES: Final = (TEMPLATE_FILE, CSS_FILE)
"""The files a template folder may hold; any other file in it is never read."""
SHIPPED: Final = Path(__file__).resolve().parent / "templates"
"""The shipped template folder (package data)."""

MAX_TEMPLATE_BYTES: Final = 1024 * 1024
"""Largest template file read."""
CPU_SECONDS: Final = 30
"""CPU time a lab's template may take to render (the whole catalogue's page takes about 1 s)."""
WALL_SECONDS: Final = 120
"""Time a lab's template may take in all (it may wait for nothing; a stuck child is killed)."""
MEMORY_BYTES: Final = 1024 * 1024 * 1024
"""Address space a lab's template may add to what the process maps (the looping template of
issue 25 took 2.9 GB)."""
MAX_PAGE_BYTES: Final = 64 * 1024 * 1024
"""Largest page a template may produce: what ``verify`` reads at most."""

COVERS: Final = (f"the SHA-256 of the template's two files as rendered, {TEMPLATE_FILE} then {CSS_FILE} (a file "
                 "the folder does not hold is the shipped one): each name, NUL, its length, NUL, its bytes")


@dataclass(frozen=True)
class Template:
    """A template ready to render: the text of each of :data:`FILES`, and for a lab's
    template (``sha256`` not None) the hash that identifies it."""

    files: dict[str, str]
    sha256: str | None

    @property
    def ident(self) -> str:
        """What the page's ``exactodds-template`` meta tag says: ``shipped`` or ``custom sha256:…``."""
        return "shipped" if self.sha256 is None else f"custom sha256:{self.sha256}"

    def record(self) -> dict[str, str] | None:
        """The report's ``template`` member for this template (None for the shipped one)."""
        return None if self.sha256 is None else {"sha256": self.sha256, "covers": COVERS}

    def environment(self) -> Any:
        """The sandboxed Jinja2 environment reading only :attr:`files`."""
        import jinja2
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        return ImmutableSandboxedEnvironment(loader=jinja2.DictLoader(self.files), autoescape=True,
                                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def _read(path: Path, name: str) -> bytes:
    from exactodds.inputs import read_capped

    data = read_capped(path, f"template file {name}", MAX_TEMPLATE_BYTES)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"--template: {name} is not UTF-8 text (byte {exc.start})") from None
    return data


def load_template(folder: str | Path | None) -> Template:
    """The shipped template, or a lab's ``folder`` (each of :data:`FILES` it holds replaces
    the shipped one; it must hold at least one). Bad input is one-line :class:`InputError`."""
    shipped = {name: (SHIPPED / name).read_bytes() for name in FILES}
    if folder is None:
        return Template({k: v.decode("utf-8") for k, v in shipped.items()}, None)
    path = Path(folder)
    if not path.is_dir():
        raise InputError(f"--template: {str(folder)!r} is not a folder")
    own = {name: _read(path / name, name) for name in FILES if (path / name).is_file()}
    if not own:
        raise InputError(f"--template: {str(folder)!r} holds neither {TEMPLATE_FILE} nor {CSS_FILE}")
    files = shipped | own
    h = hashlib.sha256()
    for name in FILES:
        h.update(name.encode() + b"\0" + str(len(files[name])).encode() + b"\0" + files[name])
    return Template({k: v.decode("utf-8") for k, v in files.items()}, h.hexdigest())


# -- bounded rendering -----------------------------------------------------------------------------
def _vm_size() -> int:
    """Bytes of address space this process maps (0 when it cannot be read)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _limit_child(cpu: int, memory: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    base = _vm_size()
    if base:
        resource.setrlimit(resource.RLIMIT_AS, (base + memory, base + memory))


def _child(render: Callable[[], str], out: int, cpu: int, memory: int) -> None:
    """In the child: render and write ``0`` + the page, or ``1`` + a one-line error."""
    try:
        _limit_child(cpu, memory)
        try:
            data = b"0" + render().encode("utf-8")
        except MemoryError:
            data = b"1more memory than a template may take"
        except RecursionError:
            data = b"1too deep a recursion"
        except InputError as exc:
            data = b"1" + str(exc).encode("utf-8", "replace")
        except Exception as exc:  # a template error of any kind: one line
            data = b"1" + f"{type(exc).__name__}: {exc}".encode("utf-8", "replace")
        view = memoryview(data)
        while view:
            view = view[os.write(out, view[: 1 << 20]):]
    finally:
        os._exit(0)


def render_bounded(render: Callable[[], str], *, cpu: int | None = None, memory: int | None = None,
                   wall: float | None = None) -> str:
    """``render()`` run in a child process with bounded CPU time, memory, time and output
    (:data:`CPU_SECONDS`, :data:`MEMORY_BYTES`, :data:`WALL_SECONDS`, :data:`MAX_PAGE_BYTES`);
    any failure is a one-line :class:`InputError` beginning ``template:``. Where there is no
    ``fork`` (not POSIX) it runs in-process, in the sandbox only."""
    cpu = CPU_SECONDS if cpu is None else cpu
    memory = MEMORY_BYTES if memory is None else memory
    wall = WALL_SECONDS if wall is None else wall
    if not hasattr(os, "fork"):  # pragma: no cover
        return render()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child's coverage is not collected)
        os.close(r)
        _child(render, w, cpu, memory)
    os.close(w)
    chunks: list[bytes] = []
    size, failure = 0, ""
    deadline = time.monotonic() + wall
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                failure = f"took longer than {wall:g} s"
                break
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                continue
            chunk = os.read(r, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_PAGE_BYTES + 1:
                failure = f"the page would be larger than {MAX_PAGE_BYTES // (1024 * 1024)} MiB"
                break
    finally:
        os.close(r)
        if failure:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _, status = os.waitpid(pid, 0)
    if failure:
        raise InputError(f"template: {failure}")
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        named = {int(signal.SIGXCPU): f"more than {cpu} s of CPU time", int(signal.SIGKILL): "more than its resources",
                 int(signal.SIGSEGV): "more memory than a template may take"}
        what = named.get(sig, f"signal {sig}")
        raise InputError(f"template: rendering stopped, it took {what}")
    data = b"".join(chunks)
    if not data:
        raise InputError("template: rendering produced nothing (out of memory?)")
    text = data[1:].decode("utf-8", "replace")
    if data[:1] != b"0":
        line = " ".join(text.split())
        raise InputError(line if line.startswith("template:") else f"template: {line[:300]}")
    return text


__all__ = ["CSS_FILE", "FILES", "SHIPPED", "TEMPLATE_FILE", "Template", "load_template", "render_bounded"]
