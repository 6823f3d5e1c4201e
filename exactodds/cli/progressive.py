"""The ``mystery`` command: long-run returns of the must-hit-by mystery meters.

Register with ``cli_progressive.register(app)`` (58 Pa. Code § 631b.6(c)(4), § 629c.3(h)).
No ``from __future__ import annotations`` here: typer reads the option annotations of the
nested command, which name objects imported inside :func:`register`.
"""

import typer


def register(app: typer.Typer) -> None:
    """Add the ``mystery`` command to ``app``."""
    from exactodds.cli.options import Format, FormatOpt, OutputOpt, emit

    @app.command("mystery")
    def mystery_command(fmt: FormatOpt = Format.table, output: OutputOpt = None) -> None:
        """Exact long-run return per unit wagered of every must-hit-by mystery configuration."""
        from exactodds.report.figure_views import render_mystery

        emit(render_mystery(fmt.value), output)
