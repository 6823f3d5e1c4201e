"""The ``midhand`` command: the table of every two-card and three-card state
(:mod:`exactodds.figures.midhand`). Register with ``cli_midhand.register(app)``. No
``from __future__ import annotations``: typer reads the nested command's annotations."""

import typer


def register(app: typer.Typer) -> None:
    """Add the ``midhand`` command to ``app``."""
    from exactodds.cli.options import DecksOpt, Format, FormatOpt, OutputOpt, RemoveOpt, ShoeOpt, emit

    @app.command("midhand")
    def midhand_command(decks: DecksOpt = 8, shoe_spec: ShoeOpt = None, remove: RemoveOpt = None,
                        fmt: FormatOpt = Format.table, output: OutputOpt = None) -> None:
        """Player, Banker and Tie odds after the Player's two cards and after the Banker's first."""
        from exactodds.figures.midhand import midhand_table
        from exactodds.game.shoespec import resolve_shoe
        from exactodds.report.midhand import midhand_view
        from exactodds.report.views import render_view

        shoe = resolve_shoe(decks, shoe_spec, remove)
        rows, universe = midhand_table(shoe)
        emit(render_view(midhand_view(rows, universe, shoe), fmt.value), output)
