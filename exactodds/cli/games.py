"""The game options of a command, made from the registry (:data:`exactodds.games.registry.GAMES`).

:func:`with_game_options` gives a command ``--game NAME`` (repeatable), a hidden alias flag
``--ID`` per game certified as one entry (``--paigow`` for ``--game paigow``), and every rules
field's option of those games as its field declares it (:func:`exactodds.game.protocol.rule`:
its flag, name and section), so that a new game's options come with its registry line and
this module names no game. The wrapped command receives ``games``: ``(game id, {field:
value})`` of each game asked for, and ``by_wager``: whether a game certified per wager
(baccarat) was named. A rules field whose flag is already an option of the command (Spanish
21's ``--decks``) adds no option: the game takes that option's value.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from exactodds.errors import InputError
from exactodds.game.protocol import rule_fields
from exactodds.games.registry import GAMES, get_game

F = TypeVar("F", bound=Callable[..., Any])


def game_options(shared: frozenset[str] = frozenset()) -> list[tuple[str, Any, object, str, str]]:
    """``(parameter, annotation, default, game id, rules field)`` of every option
    :func:`with_game_options` adds (game id and field empty for ``--game`` and the aliases:
    the alias's game id is set, its field empty); no option for a field whose flag is in
    ``shared`` (an option the command has already)."""
    ids = ", ".join(g.id for g in GAMES)
    out: list[tuple[str, Any, object, str, str]] = [
        ("game_names", Annotated[list[str] | None, typer.Option(
            "--game", metavar="GAME", help=f"A game to certify ({ids}); repeat it for several. baccarat: the WAGER "
                                           "or --all given; another game: its own entry, under its rule options.")],
         None, "", "")]
    flags: set[str] = set()
    for g in GAMES:
        if g.by_wager:
            continue
        out.append((f"alias_{g.id}", Annotated[bool, typer.Option(f"--{g.id}", hidden=True,
                                                                   help=f"= --game {g.id}.")], False, g.id, ""))
        # the defaults read off the dataclass, not an instance: building one may load a game's
        # tables (Pai Gow's tile modules), and the options are declared at every start-up
        defaults = {d.name: d.default for d in dataclasses.fields(g.rules_type)}
        for f in rule_fields(g.rules_type):
            if f.flag in shared:
                continue
            if not f.flag.startswith("--") or f.flag in flags:
                raise TypeError(f"rules field {g.id}.{f.field}: its flag {f.flag!r} must be a new --option")
            flags.add(f.flag)
            kind = type(defaults[f.field])
            decl = f"{f.flag}/--no-{f.flag[2:]}" if kind is bool else f.flag  # a yes/no rule: both sides
            out.append((f"rule_{g.id}_{f.field}", Annotated[kind | None, typer.Option(
                decl, help=f"{g.title}: {f.name} ({f.section}; default {defaults[f.field]}).")],
                None, g.id, f.field))
    return out


def with_game_options(command: F) -> F:
    """``command`` (which takes ``games`` and ``by_wager``) with the options of
    :func:`game_options` in their place (a rule option of a game not asked for: one error line)."""
    sig = inspect.signature(command, eval_str=True)
    own = _command_flags(sig)
    options = game_options(frozenset(own))

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = {name: kwargs.pop(name) for name, *_ in options if name in kwargs}
        names = list(given.get("game_names") or [])
        names += [gid for name, _, _, gid, field in options if gid and not field and given.get(name)]
        chosen: dict[str, dict[str, Any]] = {}
        by_wager = False
        for n in names:
            g = get_game(n)
            if g.by_wager:
                by_wager = True
            else:
                chosen.setdefault(g.id, {})
        for name, _, _, gid, field in options:
            if field and given.get(name) is not None:
                if gid not in chosen:
                    flag = next(f.flag for f in rule_fields(get_game(gid).rules_type) if f.field == field)
                    raise InputError(f"{flag} is a rule of {get_game(gid).title}: add --game {gid}")
                chosen[gid][field] = given[name]
        for gid, values in chosen.items():  # the command's own option of a shared flag
            for f in rule_fields(get_game(gid).rules_type):
                if f.flag in own and kwargs.get(own[f.flag]) is not None:
                    values[f.field] = kwargs[own[f.flag]]
        return command(*args, games=list(chosen.items()), by_wager=by_wager, **kwargs)

    params = [p for p in sig.parameters.values() if p.name not in ("games", "by_wager")]
    extra = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a) for n, a, d, _, _ in options]
    wrapper.__signature__ = sig.replace(parameters=[*params, *extra])  # type: ignore[attr-defined]
    wrapper.__annotations__ = {**{p.name: p.annotation for p in params}, **{n: a for n, a, *_ in options},
                               "return": sig.return_annotation}
    return wrapper  # type: ignore[return-value]


def _command_flags(sig: inspect.Signature) -> dict[str, str]:
    """``{flag: parameter}`` of the options a command declares itself (``--decks``, ``-d``)."""
    out: dict[str, str] = {}
    for p in sig.parameters.values():
        for meta in getattr(p.annotation, "__metadata__", ()):
            if not hasattr(meta, "param_decls"):
                continue
            first = getattr(meta, "default", None)  # under Annotated, typer.Option's first argument is a flag
            decls = ((first,) if isinstance(first, str) and first.startswith("-") else ()) + tuple(meta.param_decls or ())
            for decl in decls:
                for part in str(decl).split("/"):
                    out[part.strip()] = p.name
    return out


__all__ = ["game_options", "with_game_options"]
