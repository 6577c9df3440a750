"""The subcommands of ``sueca-referee`` other than ``score``, one module a group: the studio's
(``studio``), setting up a table (``table``: markers, calibrate, deck), measuring recognition
(``check``) and refereeing (``referee``: replay, live). Each ``run_*`` takes the parsed
arguments and returns the exit status; every failure is one line on stderr that starts with the
program and command's name.
"""

from __future__ import annotations

import argparse
import sys

from typing import TYPE_CHECKING

from vision.options import cannot_write

if TYPE_CHECKING:
    from vision.layout import TableLayout

PROG = "sueca-referee"
# frames a camera gives before its pictures are worth looking at (the first of many are dark)
WARM_UP_FRAMES = 5


def table_layout(ns: argparse.Namespace, command: str) -> TableLayout | None:
    """The seat layout ``--config`` gives; None, once it has said why, if it cannot be read."""
    from referee.config import ConfigError
    from vision.layout import LayoutError, load_layout

    try:
        return load_layout(ns.config)
    except (ConfigError, LayoutError) as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return None


def says_unwritable(command: str, *outputs: tuple[str | None, bool]) -> bool:
    """Whether one of ``outputs`` ((path or None, is a picture)) cannot be written; if so,
    says why, for ``command``."""
    for out, picture in outputs:
        problem = out and cannot_write(out, picture)
        if problem:
            print(f"{PROG} {command}: {problem}", file=sys.stderr)
            return True
    return False
