"""The ``simulate`` and ``crosscheck`` commands, and how their results are shown.

``register(app)`` adds both commands to the ``exactodds`` typer app. Bad input raises
:class:`~exactodds.errors.InputError` (one line, exit 2, via the app's group class);
``crosscheck`` exits 1 when the file is inconsistent with the exact figures (0 when it is
consistent or when the sample is too small to tell).

The simulation code (numpy, scipy) is imported inside the commands only, so starting
``exactodds`` for another command does not load it. ``simulate`` writes all of its
outputs (``--log``, ``--counts``, ``--output``) or none: each goes to a temporary file,
the hand log streamed batch by batch, and all are renamed into place at the end.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from exactodds.cli.games import with_game_options
from exactodds.cli.options import Format, FormatOpt, RemoveOpt, ShoeOpt, WorkersHelp, emit, wager_and_paytable
from exactodds.cli.wagerfiles import with_wager_files
from exactodds.errors import InputError
from exactodds.game.shoespec import resolve_shoe
from exactodds.io.files import check_writable
from exactodds.io.progress import Progress, stderr_progress
from exactodds.parallel import check_workers

if TYPE_CHECKING:
    from exactodds.game.cards import Shoe
    from exactodds.simulation.crosscheck import CrossCheck
    from exactodds.simulation.handlog import CountsFile, LogFile
    from exactodds.simulation.simulate import Cover

EXIT_INCONSISTENT = 1
MAX_ROUNDS = 10**10
MAX_LOG_ROUNDS = 10**8
MAX_SHOW = 1_000_000
"""Most rule violations `crosscheck --show` lists."""
MAX_CARDS = 52 * 1000
"""= :data:`exactodds.game.cards.MAX_CARDS` (1,000 decks)."""
MAX_DECKS = 1000
"""= :data:`exactodds.game.shoespec.MAX_DECKS`."""
DEFAULT_ALPHA = 0.001
"""= :data:`exactodds.simulation.crosscheck.DEFAULT_ALPHA` (kept here so start-up loads no numpy)."""
MIN_COVER = 14
"""= :data:`exactodds.simulation.simulate.MIN_COVER` (§ 629a.5(d))."""
PROGRESS_AFTER = 2.0
"""Seconds of work before a progress bar appears."""


class SimMode(str, Enum):
    fresh = "fresh"
    shoe = "shoe"


def _check_targets(*paths: str | None) -> None:
    """Refuse output paths that cannot be written before any work, so that one bad path
    never leaves the other files written."""
    given = [p for p in paths if p]
    if len(set(given)) != len(given):
        raise InputError("the same file is named for two outputs")
    for p in given:
        try:
            check_writable(p)
        except OSError as exc:  # e.g. a name too long for the file system
            raise InputError(f"cannot write {p[:80]!r}: {exc.strerror}") from None


@contextmanager
def _progress(label: str) -> Iterator[Progress]:
    """A progress callback that draws a bar on stderr (a terminal only) once the work has
    taken :data:`PROGRESS_AFTER` seconds; quick runs show nothing."""
    start = time.monotonic()
    with stderr_progress(label) as bar:
        def update(done: int, total: int, what: str) -> None:
            if bar is not None and time.monotonic() - start > PROGRESS_AFTER:
                bar(done, total, what)
        yield update


def _meta_int(meta: dict[str, str], key: str, path: str) -> int | None:
    if key not in meta:
        return None
    value = meta[key]
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise InputError(f"{path}: comment metadata {key}={value[:20]!r} is not a whole number")
    return int(value)


def _cover_range(text: str, what: str) -> Cover:
    """A cover (``14``) or range (``14..30``, ``14..``: no upper bound) of cards under the
    cover card, at least :data:`MIN_COVER` (§ 629a.5(d)) and at most :data:`MAX_CARDS`."""
    from exactodds.simulation.simulate import Cover

    span = Cover.parse(text, what)
    if not MIN_COVER <= span.low <= MAX_CARDS or (span.high is not None and span.high > MAX_CARDS):
        raise InputError(f"{what} must be between {MIN_COVER} (§ 629a.5(d)) and {MAX_CARDS:,} cards, got {text.strip()[:40]}")
    return span


def _chosen_paytables(wagers: list[str] | None, paytable: str | None) -> dict[str, str | None]:
    """Wager id -> the paytable asked for (``None``: every paytable of it), from ``-w WAGER``,
    ``-w WAGER:PAYTABLE`` and ``-w WAGER -p PAYTABLE`` (:func:`~exactodds.cli.options.wager_and_paytable`,
    the spelling of analyze, eor and certify); an unknown paytable is one error line."""
    from exactodds.catalogue import get_wager

    if paytable is not None and len(wagers or []) != 1:
        raise InputError("--paytable needs exactly one --wager (or name each as WAGER:PAYTABLE)")
    chosen: dict[str, str | None] = {}
    for given in wagers or []:
        wid, table = wager_and_paytable(given, paytable)
        assert wid is not None
        w = get_wager(wid)
        if table is not None:
            w.paytable(table)  # an unknown paytable: one error line naming the known ones
        if w.id in chosen and chosen[w.id] != table:
            raise InputError(f"{w.id} is named twice with different paytables")
        chosen[w.id] = table
    return chosen


MAX_GAME_ROUNDS = 10**7
"""Most rounds ``simulate --game`` deals (a game's own simulator deals round by round)."""


def _simulate_game(games: list[tuple[str, dict[str, object]]], rounds: int, seed: int, mode: SimMode,
                   baccarat_options: bool, fmt: Format, output: str | None) -> None:
    """``simulate --game GAME``: :func:`exactodds.simulation.games.simulate_game`, rendered in
    the chosen format, to standard output or atomically to ``output``."""
    from exactodds.games.registry import get_game
    from exactodds.io.files import all_or_none
    from exactodds.report.simulation import game_simulation_view
    from exactodds.report.views import render_view
    from exactodds.simulation.games import simulate_game
    from exactodds.simulation.simulate import check_seed

    if len(games) != 1:
        raise InputError("simulate --game takes one game")
    if baccarat_options or mode != SimMode.fresh:
        raise InputError("--game deals its own rounds: WAGER, --wager, --log, --counts, --mode and --game baccarat "
                         "are baccarat's")
    if not 1 <= rounds <= MAX_GAME_ROUNDS:
        raise InputError(f"--rounds must be between 1 and {MAX_GAME_ROUNDS:,} with --game, got {rounds}")
    check_seed(seed)
    _check_targets(output)
    gid, values = games[0]
    game = get_game(gid)
    with stderr_progress(f"simulate {game.id}") as progress:
        result = simulate_game(game, game.rules(values), rounds, seed, progress)
    report = render_view(game_simulation_view(result), fmt.value)
    if output:
        with all_or_none([output]) as (fh,):
            fh.write(report.encode("utf-8"))
    else:
        sys.stdout.write(report)


# -- registration -------------------------------------------------------------------------------
def _rereadable(file: str) -> bool:
    """Whether ``file`` can be read a second time (a regular file): the deck count of a log
    that states none is found in a first pass, which a pipe or FIFO cannot give back."""
    try:
        return file != "-" and stat.S_ISREG(os.stat(file).st_mode)
    except OSError:
        return False


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` and ``crosscheck`` commands to ``app``."""
    app.command("simulate")(with_wager_files(with_game_options(simulate_command)))
    app.command("crosscheck")(with_wager_files(crosscheck_command))


# -- simulate ---------------------------------------------------------------------------------------
def simulate_command(
    wagers: Annotated[list[str] | None, typer.Argument(
        metavar="[WAGER[:PAYTABLE]]...", help="Wagers to report, as analyze, eor, certify and study name them "
                                              "(the same as -w each; default: every wager).")] = None,
    rounds: Annotated[int, typer.Option("--rounds", "-n", help="Rounds to simulate.")] = 1_000_000,
    mode: Annotated[SimMode, typer.Option("--mode", "-m", help="fresh: every round from a freshly shuffled "
                                          "shoe; shoe: dealt through the shoe (§ 629a.5, § 629a.9(d)).")] = SimMode.fresh,
    seed: Annotated[int, typer.Option("--seed", help="Random seed, 0 to 2**63-1 (same seed, same result).")] = 0,
    decks: Annotated[int, typer.Option("--decks", "-d", help="Standard 52-card decks in the shoe.")] = 8,
    shoe_spec: ShoeOpt = None,
    remove: RemoveOpt = None,
    cover: Annotated[str, typer.Option("--cover", help="Shoe mode: cards under the cover card (at least 14, "
                                       "§ 629a.5(d)), or a range LOW..HIGH: each shoe's cover drawn "
                                       "uniformly from it.")] = str(MIN_COVER),
    wager: Annotated[list[str] | None, typer.Option("--wager", "-w", help="Wager id to report, WAGER or "
                                                    "WAGER:PAYTABLE (repeatable; default: every wager, at "
                                                    "every level, and every wager-file wager; every "
                                                    "paytable of a wager named bare).")] = None,
    paytable: Annotated[str | None, typer.Option("--paytable", "-p", help="With one --wager: its paytable, as "
                                                 "WAGER:PAYTABLE (default: every paytable).")] = None,
    log: Annotated[str | None, typer.Option("--log", help="Write a hand log (CSV round,player,banker[,shoe]).")] = None,
    counts: Annotated[str | None, typer.Option("--counts", help="Write outcome counts (CSV wager,paytable,"
                                               "outcome,count); shoe mode: comparable rounds only.")] = None,
    workers: Annotated[int, typer.Option("--workers", help=WorkersHelp)] = 1,
    fmt: FormatOpt = Format.table,
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write the report to this file.")] = None,
    *, games: list[tuple[str, dict[str, object]]], by_wager: bool,
) -> None:
    """Simulate rounds (seeded, reproducible) and count outcomes per wager and paytable;
    with --game GAME, deal that game's rounds under each of its strategies and set the mean
    beside the exact return (SE, z).

    All the files asked for (--log, --counts, --output) are written, or none is.
    """
    if games:
        _simulate_game(games, rounds, seed, mode, bool(wagers or wager or log or counts or by_wager), fmt, output)
        return
    shoe, span = _simulation_shoe(rounds, bool(log or counts), seed, workers, decks, shoe_spec, remove, cover, mode)
    _check_targets(log, counts, output)
    from exactodds.simulation.settle import simulated_pairs

    chosen = _chosen_paytables([*(wagers or []), *(wager or [])] or None, paytable)
    pairs, skipped = simulated_pairs(list(chosen) or None, shoe)
    pairs = [(w, t) for w, t in pairs if chosen.get(w) in (None, t)]
    if not pairs:
        raise InputError("none of the wagers named can be simulated; nothing to simulate")
    report = _simulate_to_files(_SimulationRun(rounds, mode, seed, shoe, span, workers, pairs, skipped, fmt),
                                log, counts, output)
    if not output:
        sys.stdout.write(report)


def _simulation_shoe(rounds: int, files: bool, seed: int, workers: int, decks: int, shoe_spec: str | None,
                     remove: str | None, cover: str, mode: SimMode) -> tuple[Shoe, Cover]:
    """The shoe and cover range of ``simulate``, every option checked before any work
    (``files``: a hand log or counts file is asked for, which bounds the rounds)."""
    from exactodds.simulation.simulate import Cover, check_cover, check_seed

    if rounds < 1 or rounds > MAX_ROUNDS:
        raise InputError(f"--rounds must be between 1 and {MAX_ROUNDS:,}, got {rounds}")
    if files and rounds > MAX_LOG_ROUNDS:
        raise InputError(f"--log and --counts are limited to {MAX_LOG_ROUNDS:,} rounds")
    check_seed(seed)
    check_workers(workers)
    shoe = resolve_shoe(decks, shoe_spec, remove)
    span = Cover.parse(cover)
    if span.high is None:
        raise InputError(f"--cover {cover.strip()}: give the range's high end too (LOW..HIGH); each shoe's "
                         "cover is drawn from it")
    if mode == SimMode.shoe or span != Cover(MIN_COVER, MIN_COVER):  # a --cover given in fresh mode is checked
        check_cover(shoe.size, span)
    return shoe, span


@dataclass(frozen=True)
class _SimulationRun:
    """What ``simulate`` runs, every option checked."""

    rounds: int
    mode: SimMode
    seed: int
    shoe: Shoe
    span: Cover
    workers: int
    pairs: list[tuple[str, str]]
    skipped: list[str]
    fmt: Format


def _simulate_to_files(run: _SimulationRun, log: str | None, counts: str | None, output: str | None) -> str:
    """Run the simulation, the hand log streamed to ``log`` batch by batch; write the counts
    and the report; every file named is written, or none is. Returns the report."""
    from exactodds.io.files import all_or_none
    from exactodds.report.simulation import simulation_view
    from exactodds.report.views import render_view
    from exactodds.simulation.handlog import (
        log_header,
        render_counts,
        render_log_chunk,
        run_meta,
        sim_meta,
        wager_file_meta,
    )
    from exactodds.simulation.settle import RoundSettler
    from exactodds.simulation.simulate import HandLog, simulate

    named = [p for p in (log, counts, output) if p]
    with all_or_none(named) as outputs:
        handle = dict(zip(named, outputs))
        on_hands = None
        if log:
            fh = handle[log]
            fh.write(log_header(run_meta(run.mode.value, run.seed, run.rounds, run.shoe, run.span),
                                run.mode == SimMode.shoe))

            def on_hands(batch: HandLog) -> None:
                fh.write(render_log_chunk(batch))
        with _progress("simulate") as progress:
            sim = simulate(run.rounds, run.mode.value, run.shoe, seed=run.seed, cover=run.span, workers=run.workers,
                           on_hands=on_hands, progress=progress, settler=RoundSettler.of(run.pairs))
        report = render_view(simulation_view(sim, run.pairs, run.skipped), run.fmt.value)
        if counts:
            meta = sim_meta(sim)
            cmeta = {**meta, "subset": "comparable"} if sim.mode == "shoe" else meta
            cmeta = {**cmeta, **wager_file_meta(run.pairs)}
            assert sim.settled is not None
            handle[counts].write(render_counts(sim.settled.families(0), cmeta).encode("utf-8"))
        if output:
            handle[output].write(report.encode("utf-8"))
    return report


# -- crosscheck -------------------------------------------------------------------------------------
def crosscheck_command(
    file: Annotated[str, typer.Argument(help="A hand log (round,player,banker[,shoe]) or counts file "
                                        "(wager,paytable,outcome,count).")],
    decks: Annotated[int | None, typer.Option("--decks", "-d", help="Decks in the shoe (default: the file's "
                                              "'# decks=' comment, else inferred from the log and stated in "
                                              "the report).")] = None,
    cover: Annotated[str | None, typer.Option("--cover", help="Cards under the cover card, for logs dealt "
                                              "through the shoe: a number or a range LOW..HIGH (default: the "
                                              "file's '# cover=', else at least 14, § 629a.5(d), no upper "
                                              "bound).")] = None,
    alpha: Annotated[float, typer.Option("--alpha", "-a", help="Family-wise significance level of the verdict "
                                         "(Holm's correction over every test).")] = DEFAULT_ALPHA,
    wager: Annotated[list[str] | None, typer.Option("--wager", "-w", help="Hand logs: wager to test, WAGER or "
                                                    "WAGER:PAYTABLE (repeatable; default every baccarat wager, "
                                                    "every paytable of a wager named bare).")] = None,
    paytable: Annotated[str | None, typer.Option("--paytable", "-p", help="With one --wager: its paytable, as "
                                                 "WAGER:PAYTABLE (default: every paytable).")] = None,
    faces: Annotated[bool, typer.Option("--faces", help="Hand logs: also test every wager settled on the "
                                        "cards (pairs, suits, ...), settled from the logged cards (slower).")] = False,
    columns: Annotated[str | None, typer.Option("--columns", metavar="NAME=COLUMN,...",
                                                help="Hand logs: the file's header names for round, player, "
                                                "banker, shoe, e.g. round=hand_number,shoe=shoe_id.")] = None,
    show: Annotated[int, typer.Option("--show", help="Rule violations listed in the text report.")] = 20,
    fmt: FormatOpt = Format.table,
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write the report to this file.")] = None,
) -> None:
    """Audit a hand log against § 629a.10 and test its frequencies and its card sequence
    against the exact figures.

    Exit status: 0 consistent (or inconclusive: too few rounds), 1 inconsistent (a rule
    broken or a test failed), 2 unreadable input.
    """
    from exactodds.simulation.crosscheck import crosscheck_counts
    from exactodds.simulation.handlog import LogFile, parse_columns, read_file

    span = _crosscheck_options(alpha, decks, cover, show)
    chosen = _chosen_paytables(wager, paytable) or None
    mapping = parse_columns(columns) if columns is not None else None
    _check_targets(output)
    data = read_file(file, mapping)
    try:
        stated, inferred = _deck_count(data, file, decks, mapping)
        shoe = resolve_shoe(stated if stated is not None else 8)
        if isinstance(data, LogFile):
            result = _crosscheck_log_file(data, file, shoe, span, alpha, chosen, faces, mapping)
        else:
            if wager or faces:
                raise InputError("--wager and --faces apply to hand logs; a counts file is tested wager by "
                                 "wager as given")
            result = crosscheck_counts(data, shoe, alpha)
    finally:
        if isinstance(data, LogFile):
            data.close()
    if inferred is not None:  # never a silent default: the report says what was inferred and how
        result.notes.insert(0, inferred)
    elif stated is None:
        result.notes.insert(0, "decks: 8 assumed (no --decks option and no '# decks=' comment in the file, and "
                               "a log without a shoe column cannot show the shoe's size); every expectation "
                               "depends on it, so give --decks if the shoe differs")
    from exactodds.report.simulation import crosscheck_view
    from exactodds.report.views import render_view

    emit(render_view(crosscheck_view(result, show), fmt.value), output)
    if not result.consistent:
        raise typer.Exit(EXIT_INCONSISTENT)


def _crosscheck_options(alpha: float, decks: int | None, cover: str | None, show: int) -> Cover | None:
    """Check the options of ``crosscheck`` before any reading; the ``--cover`` range, if given."""
    if not 0 < alpha < 1:
        raise InputError(f"--alpha must be between 0 and 1, got {alpha}")
    if decks is not None and not 1 <= decks <= MAX_DECKS:
        raise InputError(f"--decks must be between 1 and {MAX_DECKS:,}, got {decks}")
    span = _cover_range(cover, "--cover") if cover is not None else None
    if show > MAX_SHOW:
        raise InputError(f"--show lists at most {MAX_SHOW:,} violations, got {show}")
    if show < 0:
        raise InputError(f"--show must be at least 0, got {show}")
    return span


def _deck_count(data: LogFile | CountsFile, file: str, decks: int | None,
                mapping: dict[str, str] | None) -> tuple[int | None, str | None]:
    """The deck count the file is tested under (``None``: none stated or found, 8 assumed)
    and, when it was inferred from the log, the note saying how: ``--decks``, else the
    file's ``# decks=`` comment, else the log's own cards, read in a first pass (a regular
    file only: a pipe or FIFO is read once)."""
    from exactodds.simulation.handlog import LogFile, read_file

    stated = decks if decks is not None else _meta_int(data.meta, "decks", file)
    if stated is not None and not 1 <= stated <= MAX_DECKS:
        raise InputError(f"{file}: comment metadata decks={stated}: a shoe holds 1 to {MAX_DECKS:,} decks")
    if stated is not None or not isinstance(data, LogFile):
        return stated, None
    if not _rereadable(file):
        return None, ("decks: 8 assumed, not estimated: the log is not a regular file (a pipe or FIFO is read "
                      "once); give --decks or '# decks=' to test it under another count")
    from exactodds.simulation.sequence import estimate_decks
    from exactodds.simulation.shoetests import infer_decks

    again = read_file(file, mapping)
    assert isinstance(again, LogFile)
    try:
        found = infer_decks(again.chunks()) if data.has_shoes else estimate_decks(again.chunks())
    finally:
        again.close()
    return found if found is not None else (None, None)


def _crosscheck_log_file(data: LogFile, file: str, shoe: Shoe, span: Cover | None, alpha: float,
                         chosen: dict[str, str | None] | None, faces: bool,
                         mapping: dict[str, str] | None) -> CrossCheck:
    """Cross-check a hand log: its cover range (``--cover``, else its ``# cover=`` comment,
    else 14 or more; for a shoe log, surveyed from the log), then the one streaming pass."""
    from exactodds.simulation.crosscheck import crosscheck_log
    from exactodds.simulation.simulate import Cover, check_cover

    if span is None and "cover" in data.meta:
        span = _cover_range(data.meta["cover"], f"{file}: comment metadata cover")
    c: Cover = span if span is not None else Cover(MIN_COVER, None)
    prefix: int | None = None
    chose: str | None = None
    if data.has_shoes:
        from exactodds.simulation.shoetests import log_cover

        check_cover(shoe.size, c)
        c, prefix, chose = log_cover(file, data.meta, shoe.size, c, mapping)
    with _progress("crosscheck") as progress:
        result = crosscheck_log(data, shoe, c, alpha, chosen, progress=progress, faces=faces, prefix_cover=prefix)
    if chose is not None:
        result.notes.insert(0, chose)
    return result
