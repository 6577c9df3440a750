"""A progress line for long jobs, written to stderr.

On a terminal it redraws one line in place; in a log (not a terminal) it prints a line every
tenth of the way, so CI logs stay short.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, what: str, total: int, stream: TextIO | None = None,
                 enabled: bool = True) -> None:
        self.what = what
        self.total = max(total, 0)
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.total > 0
        self.done = 0
        self.started = time.monotonic()
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._next_step = 0.1

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        fraction = self.done / self.total
        if self._tty:
            self.stream.write("\r" + self._line(fraction))
            self.stream.flush()
        elif fraction >= self._next_step or self.done == self.total:
            self.stream.write(self._line(fraction) + "\n")
            while self._next_step <= fraction:
                self._next_step += 0.1

    def _line(self, fraction: float) -> str:
        elapsed = time.monotonic() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        width = 24
        filled = int(round(width * fraction))
        bar = "#" * filled + "." * (width - filled)
        return (f"{self.what} [{bar}] {self.done}/{self.total} {rate:5.1f}/s "
                f"{'left ' + _clock(left) if self.done < self.total else 'took ' + _clock(elapsed)}")

    def close(self) -> None:
        if self.enabled and self._tty:
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"
