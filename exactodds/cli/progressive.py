"""The ``mystery`` command: long-run returns of the must-hit-by mystery meters.

Register with ``cli_progressive.register(app)`` (58 Pa. Code § 631b.6(c)(4), § 629c.3(h)).
No ``from __future__ import annotations`` here: typer reads the option annotations of the
nested command, which name objects imported inside :func:`register`.
"""

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add the ``mystery`` command to ``app``."""
    from exactodds.cli.options import Format, FormatOpt, OutputOpt, emit

    @app.command("mystery")
    def mystery_command(
        minimum: Annotated[str | None, typer.Option(
            "--minimum", help="Reseed (minimum) dollar value of your own configuration, e.g. 100.")] = None,
        maximum: Annotated[str | None, typer.Option(
            "--maximum", help="Must-hit-by (maximum) dollar value, e.g. 500.")] = None,
        rate: Annotated[str | None, typer.Option(
            "--rate", help="Incremental contribution per qualifying wager, e.g. 2% or 0.02.")] = None,
        stake: Annotated[str, typer.Option("--stake", help="Qualifying wager amount in dollars.")] = "1",
        fmt: FormatOpt = Format.table,
        output: OutputOpt = None,
    ) -> None:
        """Exact long-run return per unit wagered of every must-hit-by mystery configuration,
        or of your own (--minimum, --maximum, --rate, --stake; § 631b.6(c))."""
        from exactodds.errors import InputError
        from exactodds.figures.progressive import mystery_config
        from exactodds.inputs import parse_number
        from exactodds.report.figure_views import render_mystery

        given = (minimum, maximum, rate)
        configs = None
        if any(x is not None for x in given):
            if minimum is None or maximum is None or rate is None:
                raise InputError("a configuration needs --minimum, --maximum and --rate (and --stake, default 1)")
            r = rate.strip()
            rate_v = parse_number(r[:-1], "--rate") / 100 if r.endswith("%") else parse_number(r, "--rate")
            configs = [mystery_config(parse_number(minimum, "--minimum", money=True),
                                      parse_number(maximum, "--maximum", money=True), rate_v,
                                      parse_number(stake, "--stake", money=True))]
        elif stake != "1":
            raise InputError("--stake goes with --minimum, --maximum and --rate")
        emit(render_mystery(fmt.value, configs), output)
