"""Drive a blackjack calculator no one here wrote, and record what it prints (issue 27, item 3).

**The peer.** Eric Farmer's blackjack programs (``possibly-wrong/blackjack`` on GitHub,
https://github.com/possibly-wrong/blackjack; C++, GPL-3.0-or-later; version 7.6). Of its three
programs (``game.cpp``, the Allegro game; ``count.cpp``, the card-counting simulator;
``strategy.cpp``, the *Basic Strategy Calculator*) we drive only **strategy**, built from
``src/strategy.cpp``, ``src/blackjack.cpp``, ``src/indices.cpp`` and ``src/pdf/blackjack_pdf.cpp``
with ``g++ -O2``. It computes, in double precision, the expected value of a round for a shoe given
by rank counts and a rule set, with exact pair splitting (``BJPlayer::computeSplit``, see Farmer's
``blackjack_split.pdf``) under the CDZ-, CDP1 or CDP post-split strategy. Nothing of it is in this
repository: this script builds it from a source directory the user fetched
(``git clone https://github.com/possibly-wrong/blackjack``) into a cache directory outside the
repository, and keeps only the numbers it prints.

**What we type.** ``strategy`` reads an interactive console (``scanf``); we answer on stdin, in
this order (:func:`answers`): ``0`` (enter a shoe), the ten rank counts A, 2, ..., 9, ten-valued;
dealer hits soft 17 (Y/N); double on any total (Y/N), and if N, double on 9 (Y/N: ``9-11``, N:
``10-11``); double soft hands (always **Y**); double on any number of cards (always **N**);
double after split (Y/N); resplit pairs (Y/N: up to 4 hands or 2), and if Y, resplit aces (Y/N);
CDZ- (Y/N), and if N, CDP1 (Y: CDP1, N: CDP); late surrender (Y/N); the blackjack payoff as a
decimal (``1.5``, ``1.2``, ``1``); the output file name; ``0 0`` (leave the hand prompt).

**What we read.** The output file's table "Overall expected value (%)": one line per up card and
the line ``Total | %14.9lf`` (followed by `` +/- sigma`` when the peer also computes the
distribution: CDZ- without resplits). ``printed`` is that total exactly as printed, spaces
stripped: the expected return of a round **in percent of the initial wager**, 9 decimals, for the
chosen post-split strategy with the composition-dependent optimal pre-split strategy, unconditioned
(dealer blackjacks included), no insurance ever taken. The first line of the file echoes the rules
the peer understood (e.g. ``Shoe(32, ..., 128), S17, DOA, DAS, SPL3, NRSA, CDZ-``); every run is
checked against :func:`expected_header`, so a misread answer cannot pass silently.

**What the peer supports** (``BJRules`` in ``src/blackjack.{h,cpp}``), hence what :class:`PeerCase`
accepts: any composition; S17/H17; doubling on any total, 9-11 or 10-11; DAS or not; 2 hands
(no resplit) or 4 (resplit), aces resplit or not; late surrender or not; any blackjack payoff;
CDZ-/CDP1/CDP. Fixed by the program: the dealer peeks (a dealer blackjack takes only the initial
wager, doubled and split hands included); 21 against a dealer 21 pushes; a blackjack against a
dealer blackjack pushes; an ace-ten after a split is 21, not a blackjack; split aces take one card
each and cannot double; surrender is late and on the first two cards only (not after a split);
no insurance. Each run of ``strategy`` also builds the peer's infinite-deck (1,024-deck) strategy
(``IndexStrategy`` in ``src/indices.cpp``) and, for CDZ- without resplits, the distribution of
the round (``compute_pdf``): its CPU time includes both. For a fair speed baseline the script also
builds :data:`CORE_DRIVER`, a few lines of our own C++ that link the peer's ``src/blackjack.cpp``,
construct the same ``BJPlayer`` and print the same total (checked equal to ``strategy``'s on every
case); ``engine_cpu_seconds`` is its CPU time.

Run: ``python scripts/peer_blackjack.py --source DIR`` (or ``EXACTODDS_PEER_SRC=DIR``); ``--build-dir``
(or ``EXACTODDS_PEER_BUILD``; default ``~/.cache/exactodds/peer``) holds the binary, keyed by a
hash of the sources and flags; ``--commit`` names the peer's commit when DIR is not a git work tree.
Writes ``tests/data/peer_blackjack.json`` (``--output``) atomically.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from exactodds.cli.app import fail  # noqa: E402
from exactodds.errors import InputError  # noqa: E402
from exactodds.io.files import write_atomic  # noqa: E402

REPO = "possibly-wrong/blackjack"
PROGRAM = "strategy (Blackjack Basic Strategy Calculator, src/strategy.cpp)"
SOURCES = ("strategy.cpp", "blackjack.cpp", "indices.cpp", "pdf/blackjack_pdf.cpp")
"""The translation units of ``strategy``, relative to the peer's ``src/``."""
FLAGS = ("-O2", "-Isrc", "-Isrc/pdf")
DEFAULT_OUTPUT = ROOT / "tests" / "data" / "peer_blackjack.json"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""Rank order of :attr:`PeerCase.counts` and of the peer's shoe prompt (``T``: every ten-valued card)."""

FIXED_ANSWERS = {"double_soft": True, "double_any_number_of_cards": False}
"""Questions the peer asks that :class:`PeerCase` does not vary: doubling soft hands is allowed,
doubling after a hit is not (the standard preset's readings)."""

PAYOFFS = {"3:2": "1.5", "6:5": "1.2", "1:1": "1"}
"""Blackjack payoff as typed (the peer reads a C ``double``: 6:5 becomes the double nearest 1.2)."""
DOUBLE_TOTALS = ("any", "9-11", "10-11")
POST_SPLIT = {"cdz": "CDZ-", "cdp1": "CDP1", "cdp": "CDP"}
MAX_COUNT = 1 << 20
TIMEOUT = 900.0
"""Seconds a run of the peer may take (the slowest case here takes a few CPU seconds)."""


class PeerError(InputError):
    """The peer could not be built or run, or printed something unexpected (one line)."""


@dataclass(frozen=True)
class PeerCase:
    """One shoe and rule set given to the peer; every field is one of its answers."""

    name: str
    counts: tuple[int, ...]  # 10 counts: A, 2, ..., 9, ten-valued
    h17: bool
    double_after_split: bool
    double_totals: str  # "any" | "9-11" | "10-11"
    resplit_aces: bool
    max_hands: int  # 2 (no resplit) or 4 (resplit): the peer's only two settings
    surrender: bool  # late surrender
    blackjack_pays: str  # "3:2" | "6:5" | "1:1"
    post_split: str  # "cdz" | "cdp1" | "cdp"

    def __post_init__(self) -> None:
        """Refuse what the peer cannot be told (``BJRules``), so CASES hold only what it supports."""
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,79}", self.name):
            raise InputError(f"peer case name {self.name!r}: lower-case letters, digits and '-'")
        if len(self.counts) != 10 or any(type(c) is not int or not 0 <= c <= MAX_COUNT for c in self.counts):
            raise InputError(f"peer case {self.name}: counts must be 10 integers 0..{MAX_COUNT} (A, 2, ..., 9, ten)")
        if sum(self.counts) < 20:
            raise InputError(f"peer case {self.name}: a shoe of {sum(self.counts)} cards is too small for a round")
        if self.double_totals not in DOUBLE_TOTALS:
            raise InputError(f"peer case {self.name}: double_totals {self.double_totals!r} is not one of {DOUBLE_TOTALS}")
        if self.max_hands not in (2, 4):
            raise InputError(f"peer case {self.name}: the peer splits to 2 hands or (resplitting) 4, not {self.max_hands}")
        if self.resplit_aces and self.max_hands != 4:
            raise InputError(f"peer case {self.name}: resplitting aces needs max_hands 4")
        if self.blackjack_pays not in PAYOFFS:
            raise InputError(f"peer case {self.name}: blackjack_pays {self.blackjack_pays!r} is not one of {tuple(PAYOFFS)}")
        if self.post_split not in POST_SPLIT:
            raise InputError(f"peer case {self.name}: post_split {self.post_split!r} is not one of {tuple(POST_SPLIT)}")

    def record(self) -> dict[str, Any]:
        """The case as a JSON object (``counts`` a list)."""
        out = asdict(self)
        out["counts"] = list(self.counts)
        return out


def decks(n: int) -> tuple[int, ...]:
    """``n`` 52-card decks: four of each rank, sixteen ten-valued cards per deck."""
    return (4 * n,) * 9 + (16 * n,)


def spanish_decks(n: int) -> tuple[int, ...]:
    """``n`` 48-card Spanish decks (the four ten-spot cards removed): twelve ten-valued cards per deck."""
    return (4 * n,) * 9 + (12 * n,)


def less(counts: tuple[int, ...], **removed: int) -> tuple[int, ...]:
    """``counts`` less some cards, by rank (``A``, ``r2``..``r9``, ``T``): ``less(decks(6), r5=4)``."""
    keys = ("A", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "T")
    unknown = set(removed) - set(keys)
    if unknown:
        raise InputError(f"unknown rank keys {sorted(unknown)}")
    return tuple(c - removed.get(k, 0) for c, k in zip(counts, keys))


def _case(name: str, counts: tuple[int, ...], rules: str, post_split: str, *, totals: str = "any",
          pays: str = "3:2") -> PeerCase:
    """A case from a compact rule string: ``h17``/``s17``, ``das``/``ndas``, ``spl2``/``spl4``/``rsa``, ``ls``."""
    words = set(rules.split())
    return PeerCase(name=name, counts=counts, h17="h17" in words, double_after_split="das" in words,
                    double_totals=totals, resplit_aces="rsa" in words, max_hands=2 if "spl2" in words else 4,
                    surrender="ls" in words, blackjack_pays=pays, post_split=post_split)


CASES: tuple[PeerCase, ...] = (
    _case("1d-h17-ndas-cdz", decks(1), "h17 ndas spl4", "cdz"),
    _case("1d-h17-das-rsa-6to5-cdp", decks(1), "h17 das rsa", "cdp", pays="6:5"),
    _case("1d-s17-das-cdp1", decks(1), "s17 das spl4", "cdp1"),
    _case("1d-less-a-2-7-s17-das-cdp", less(decks(1), A=1, r2=1, r7=1), "s17 das spl4", "cdp"),
    _case("2d-s17-das-cdp1", decks(2), "s17 das spl4", "cdp1"),
    _case("2d-h17-ndas-d10-spl2-1to1-cdz", decks(2), "h17 ndas spl2", "cdz", totals="10-11", pays="1:1"),
    _case("6d-s17-das-rsa-ls-cdz", decks(6), "s17 das rsa ls", "cdz"),
    _case("6d-h17-das-ls-cdp", decks(6), "h17 das spl4 ls", "cdp"),
    _case("6d-less-4-fives-s17-das-ls-cdp1", less(decks(6), r5=4), "s17 das spl4 ls", "cdp1"),
    _case("6d-less-12-tens-h17-das-rsa-ls-cdp", less(decks(6), T=12), "h17 das rsa ls", "cdp"),
    _case("8d-s17-das-cdz", decks(8), "s17 das spl4", "cdz"),
    _case("8d-s17-das-cdp1", decks(8), "s17 das spl4", "cdp1"),
    _case("8d-s17-das-cdp", decks(8), "s17 das spl4", "cdp"),
    _case("8d-h17-ndas-d9-spl2-6to5-cdz", decks(8), "h17 ndas spl2", "cdz", totals="9-11", pays="6:5"),
    _case("spanish-6d-s17-das-rsa-ls-cdp1", spanish_decks(6), "s17 das rsa ls", "cdp1"),
    _case("spanish-8d-h17-das-d9-cdz", spanish_decks(8), "h17 das spl4", "cdz", totals="9-11"),
)
"""The shoes and rule sets recorded in tests/data/peer_blackjack.json (1, 2, 6 and 8 decks; S17 and
H17; DAS or not; 2 or 4 hands; aces resplit or not; surrender; 3:2, 6:5, 1:1; CDZ-, CDP1, CDP;
depleted shoes; Spanish 48-card decks under standard rules). ``8d-s17-das-cdz`` is the bench's
"standard rules, 8 decks, CDZ-"; ``8d-s17-das-cdp1`` is issue 27's Done-when command."""


def _yn(flag: bool) -> str:
    return "Y" if flag else "N"


def answers(case: PeerCase, output_name: str = "out.txt") -> list[str]:
    """The lines typed into ``strategy``'s console for ``case``, in the order it asks (module docstring)."""
    lines = ["0", " ".join(str(c) for c in case.counts), _yn(case.h17), _yn(case.double_totals == "any")]
    if case.double_totals != "any":
        lines.append(_yn(case.double_totals == "9-11"))
    lines += [_yn(FIXED_ANSWERS["double_soft"]), _yn(FIXED_ANSWERS["double_any_number_of_cards"]),
              _yn(case.double_after_split), _yn(case.max_hands == 4)]
    if case.max_hands == 4:
        lines.append(_yn(case.resplit_aces))
    lines.append(_yn(case.post_split == "cdz"))
    if case.post_split != "cdz":
        lines.append(_yn(case.post_split == "cdp1"))
    lines += [_yn(case.surrender), PAYOFFS[case.blackjack_pays], output_name, "0 0"]
    return lines


def expected_header(case: PeerCase) -> str:
    """The rule line the peer writes first in its output file when it has read ``case`` as meant."""
    parts = ["Shoe(" + ", ".join(str(c) for c in case.counts) + ")", "H17" if case.h17 else "S17",
             {"any": "DOA", "9-11": "D9", "10-11": "D10"}[case.double_totals]]
    if not FIXED_ANSWERS["double_soft"]:
        parts.append("no double on soft")
    if FIXED_ANSWERS["double_any_number_of_cards"]:
        parts.append("DAN")
    parts += ["DAS" if case.double_after_split else "NDAS", "SPL3" if case.max_hands == 4 else "SPL1"]
    if case.max_hands == 4:
        parts.append("RSA" if case.resplit_aces else "NRSA")
    if case.surrender:
        parts.append("surrender")
    if case.blackjack_pays != "3:2":
        whole, _, frac = PAYOFFS[case.blackjack_pays].partition(".")
        parts.append(f"BJ pays {whole}.{frac:0<6}")  # the peer's printf("%lf")
    parts.append(POST_SPLIT[case.post_split])
    return ", ".join(parts)


@dataclass(frozen=True)
class PeerRun:
    """What one run of the peer printed, and the CPU time it took."""

    printed: str  # the overall value, percent of the initial wager, as printed (spaces stripped)
    line: str  # the whole "Total |" line as printed (with "+/- sigma" when the peer gives one)
    by_up_card: dict[str, str]  # rank (A, 2..9, T) -> the overall value against that up card, as printed
    header: str  # the rule line the peer echoed
    version: str  # the peer's banner line
    cpu_seconds: float  # user + system CPU of the child process


_VALUE = r"-?\d+\.\d{9}"


def parse_output(text: str) -> tuple[str, str, dict[str, str], str]:
    """(total, its line, values by up card, header) from the text of the peer's output file."""
    lines = text.splitlines()
    if not lines:
        raise PeerError("the peer wrote an empty output file")
    try:
        start = next(i for i, s in enumerate(lines) if "Overall expected value (%)" in s)
    except StopIteration:
        raise PeerError("the peer's output has no 'Overall expected value (%)' table") from None
    by_up: dict[str, str] = {}
    for s in lines[start + 1:]:
        m = re.fullmatch(rf"\s*(\d+|A)\s+\|\s+({_VALUE})\s*", s)
        if m:
            by_up["T" if m.group(1) == "10" else m.group(1)] = m.group(2)
            continue
        t = re.fullmatch(rf"\s*Total \|\s+({_VALUE})(\s+\+/-\s+\d+\.\d{{9}})?\s*", s)
        if t:
            if sorted(by_up) != sorted(RANKS):
                raise PeerError(f"the peer's table lists up cards {sorted(by_up)}, not A, 2..9, 10")
            return t.group(1), s.rstrip(), by_up, lines[0].rstrip()
    raise PeerError("the peer's output has no 'Total |' line after its expected-value table")


def run(case: PeerCase, binary: Path) -> PeerRun:
    """Run ``binary`` (``strategy``) on ``case`` in a fresh temporary directory and read its output file."""
    with tempfile.TemporaryDirectory(prefix="exactodds-peer-") as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            done = subprocess.run([str(binary)], input="\n".join(answers(case)) + "\n", cwd=tmp, text=True,
                                  capture_output=True, timeout=TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise PeerError(f"cannot run the peer {binary}: {e}") from None
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise PeerError(f"the peer exited with status {done.returncode} on case {case.name}")
        out = Path(tmp) / "out.txt"
        if not out.is_file():
            raise PeerError(f"the peer wrote no output file on case {case.name}")
        total, line, by_up, header = parse_output(out.read_text(errors="replace"))
    if header != expected_header(case):
        raise PeerError(f"the peer read case {case.name} as {header!r}, not {expected_header(case)!r}")
    banner = next((s.strip() for s in done.stdout.splitlines() if "Strategy Calculator" in s), "")
    return PeerRun(total, line, by_up, header, banner, cpu)


def peer_value(case: PeerCase, binary: Path) -> str:
    """The overall expected value exactly as the peer prints it (percent of the initial wager)."""
    return run(case, binary).printed


def peer_cpu_seconds(case: PeerCase, binary: Path) -> float:
    """CPU seconds (user + system) of one run of the peer on ``case``, read with ``getrusage(RUSAGE_CHILDREN)``."""
    return run(case, binary).cpu_seconds


def peer_engine_cpu_seconds(case: PeerCase, core: Path) -> float:
    """CPU seconds of the peer's engine alone (:func:`build_core`'s binary) on ``case``: the fair baseline for speed."""
    return core_run(case, core)[1]


def source_digest(source: Path) -> str:
    """SHA-256 over the compiler flags and every C++ file of the peer's ``src/`` (names and bytes)."""
    h = hashlib.sha256(" ".join(FLAGS).encode())
    for p in sorted((source / "src").rglob("*")):
        if p.is_file() and p.suffix in {".cpp", ".h", ".hpp"}:
            h.update(p.relative_to(source).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


CORE_DRIVER = r"""// exactodds: the peer's engine alone (BJPlayer), for CPU time; written by scripts/peer_blackjack.py.
#include "blackjack.h"
#include <cstdio>
#include <cstdlib>
int main(int argc, char **argv) {
    if (argc != 23) return 2;  // 10 counts, 11 flags (0/1), the blackjack payoff
    int cards[11] = {0};
    for (int i = 1; i <= 10; ++i) cards[i] = std::atoi(argv[i]);
    bool f[11];
    for (int i = 0; i < 11; ++i) f[i] = argv[11 + i][0] == '1';
    BJShoe shoe(cards);
    BJRules rules(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], std::strtod(argv[22], 0));
    BJStrategy strategy(f[9], f[10]);
    BJProgress progress;
    BJPlayer *player = new BJPlayer(shoe, rules, strategy, progress);
    std::printf("%14.9lf\n", player->getValue() * 100);
    delete player;
    return 0;
}
"""
"""Our own driver of the peer's engine: the ``BJPlayer`` that ``strategy`` builds, without the
1,024-deck index strategy and distribution ``strategy`` also computes; it prints the same total in
the same format (``%14.9lf``), so :func:`record` checks both programs agree. For CPU time only."""


def _compile(source: Path, out: Path, stem: str, units: list[str], extra: str | None = None) -> Path:
    """g++ ``FLAGS`` ``units`` (paths under ``source``) into ``out/<stem>-<digest>``, reused when built before."""
    source, out = source.resolve(), out.resolve()
    missing = [s for s in SOURCES if not (source / "src" / s).is_file()]
    if missing:
        raise PeerError(f"{source} is not a checkout of {REPO}: no src/{missing[0]}")
    if out == ROOT or ROOT in out.parents:
        raise PeerError(f"build directory {out} is inside the repository; the peer's binary stays outside it")
    gxx = shutil.which("g++")
    if gxx is None:
        raise PeerError("g++ not found: the peer is C++ (apt-get install g++)")
    digest = hashlib.sha256((source_digest(source) + stem + (extra or "")).encode()).hexdigest()
    binary = out / f"{stem}-{digest[:16]}"
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{stem}-", dir=out)
        os.close(fd)
        if extra is not None:
            driver = out / f"{stem}-{digest[:16]}.cpp"
            driver.write_text(extra)
            units = [*units, str(driver)]
    except OSError as e:
        raise PeerError(f"cannot use build directory {out}: {e.strerror}") from None
    try:
        done = subprocess.run([gxx, *FLAGS, "-o", tmp_name, *units], cwd=source, capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            first = next((s for s in done.stderr.splitlines() if "error" in s), done.stderr.strip()[:200])
            raise PeerError(f"g++ failed to build the peer: {first}")
        os.replace(tmp_name, binary)
    finally:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
    return binary


def build(source: Path, out: Path) -> Path:
    """Compile the peer's ``strategy`` from ``source`` (its checkout) into ``out`` with g++ -O2.

    The binary is named by a digest of the sources and flags (:func:`source_digest`), so an unchanged
    checkout reuses it; a new one is linked to a temporary name and renamed into place. ``out`` must
    lie outside this repository (the peer's code and binaries never enter it).
    """
    return _compile(source, out, "strategy", [f"src/{s}" for s in SOURCES])


def build_core(source: Path, out: Path) -> Path:
    """Compile :data:`CORE_DRIVER` with the peer's ``src/blackjack.cpp`` into ``out`` (as :func:`build`)."""
    return _compile(source, out, "core", ["src/blackjack.cpp"], CORE_DRIVER)


def core_arguments(case: PeerCase) -> list[str]:
    """The driver's arguments for ``case``: the ``BJRules`` and ``BJStrategy`` that :func:`answers` makes ``strategy`` build."""
    flags = [case.h17, case.double_totals == "any", case.double_totals != "10-11", FIXED_ANSWERS["double_soft"],
             FIXED_ANSWERS["double_any_number_of_cards"], case.double_after_split, case.max_hands == 4,
             case.resplit_aces, case.surrender, case.post_split == "cdz", case.post_split != "cdp"]
    return [*map(str, case.counts), *("1" if f else "0" for f in flags), PAYOFFS[case.blackjack_pays]]


def core_run(case: PeerCase, core: Path) -> tuple[str, float]:
    """(the total as the peer's engine prints it, CPU seconds of the child) for ``case`` with :func:`build_core`'s binary."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run([str(core), *core_arguments(case)], capture_output=True, text=True, timeout=TIMEOUT,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise PeerError(f"cannot run the peer's engine {core}: {e}") from None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    printed = done.stdout.strip()
    if done.returncode != 0 or not re.fullmatch(_VALUE, printed):
        raise PeerError(f"the peer's engine failed on case {case.name} (status {done.returncode})")
    return printed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compiler_version() -> str:
    """The first line of ``g++ --version``."""
    done = subprocess.run(["g++", "--version"], capture_output=True, text=True, check=False)
    return done.stdout.splitlines()[0] if done.stdout else "g++ (version unknown)"


def peer_commit(source: Path, given: str | None) -> str:
    """The peer's commit: ``given`` (checked to be 40 hex digits) or ``git rev-parse HEAD`` in ``source``."""
    if given is not None:
        if not re.fullmatch(r"[0-9a-f]{40}", given):
            raise InputError(f"--commit {given!r} is not a 40-digit hexadecimal commit")
        return given
    done = subprocess.run(["git", "-C", str(source), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    commit = done.stdout.strip()
    if done.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise InputError(f"{source} is not a git work tree: name the peer's commit with --commit")
    return commit


HOW = ("g++ {flags} -o strategy {sources} (in the peer's checkout, {compiler}); each case is answered on "
       "stdin, one line per question: 0 (enter a shoe); the 10 rank counts A..9, ten; H17 Y/N; double any "
       "total Y/N [if N: double 9 Y/N]; double soft Y; double after hit N; DAS Y/N; resplit Y/N (4 hands / 2) "
       "[if Y: resplit aces Y/N]; CDZ- Y/N [if N: CDP1 Y/N]; late surrender Y/N; blackjack payoff 1.5/1.2/1; "
       "output file name; '0 0'. 'printed' is the 'Total |' figure of the output file's 'Overall expected "
       "value (%)' table: the expected return of a round in percent of the initial wager (%14.9lf, spaces "
       "stripped), no insurance; 'header' is the rule line the peer echoed; cpu_seconds is the child's user "
       "+ system CPU time on the machine that wrote this file, including the peer's 1,024-deck index "
       "strategy and (CDZ- without resplits) its distribution of outcomes; engine_cpu_seconds is the same for "
       "BJPlayer alone (the script's own driver of src/blackjack.cpp, which must print the same total).")


def record(source: Path, binary: Path, core: Path, commit: str, cases: tuple[PeerCase, ...] = CASES) -> dict[str, Any]:
    """Run every case through ``strategy`` and the engine-only driver; the JSON document (provenance, cases).

    The two programs must print the same total; each case records both CPU times.
    """
    entries = []
    version = ""
    for case in cases:
        r = run(case, binary)
        core_printed, core_cpu = core_run(case, core)
        if core_printed != r.printed:
            raise PeerError(f"case {case.name}: strategy prints {r.printed}, the peer's engine alone {core_printed}")
        version = version or r.version
        print(f"{case.name:<40} {r.printed:>14} %   {r.cpu_seconds:6.2f} s CPU ({core_cpu:.2f} s engine only)",
              file=sys.stderr)
        entries.append({**case.record(), "printed": r.printed, "line": r.line, "printed_by_up_card": r.by_up_card,
                        "header": r.header, "cpu_seconds": round(r.cpu_seconds, 3),
                        "engine_cpu_seconds": round(core_cpu, 3)})
    how = HOW.format(flags=" ".join(FLAGS), sources=" ".join(f"src/{s}" for s in SOURCES), compiler=compiler_version())
    peer = {"repo": REPO, "commit": commit, "program": PROGRAM, "version": version, "how": how,
            "source_sha256": source_digest(source), "fixed_answers": FIXED_ANSWERS,
            "case_fields": [f.name for f in fields(PeerCase)]}
    return {"peer": peer, "cases": entries}


def main(argv: list[str] | None = None) -> None:
    """Build the peer, run every case, write the JSON; bad input is one ``exactodds: error:`` line, exit 2."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--source", type=Path, default=os.environ.get("EXACTODDS_PEER_SRC"),
                    help="the peer's checkout (default: $EXACTODDS_PEER_SRC)")
    ap.add_argument("--build-dir", type=Path,
                    default=os.environ.get("EXACTODDS_PEER_BUILD", Path.home() / ".cache" / "exactodds" / "peer"),
                    help="where the binary is built (outside the repository)")
    ap.add_argument("--commit", help="the peer's commit, when --source is not a git work tree")
    ap.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = ap.parse_args(argv)
    try:
        if args.source is None:
            raise InputError("name the peer's checkout with --source DIR or EXACTODDS_PEER_SRC "
                             f"(git clone https://github.com/{REPO})")
        source = Path(args.source)
        if not source.is_dir():
            raise InputError(f"--source {source}: no such directory")
        commit = peer_commit(source, args.commit)
        binary = build(source, Path(args.build_dir))
        core = build_core(source, Path(args.build_dir))
        document = record(source, binary, core, commit)
        if args.output == DEFAULT_OUTPUT:
            DEFAULT_OUTPUT.parent.mkdir(exist_ok=True)
        write_atomic(args.output, json.dumps(document, indent=1) + "\n")
    except InputError as e:
        fail(str(e))


if __name__ == "__main__":
    main()
