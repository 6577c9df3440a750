"""One process at a time: an exclusive lock on a file, for work that several processes may
start at once (building the face cache; the test suite's workers sharing a game)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def held(lock: Path, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold an exclusive lock on the file ``lock`` (made if need be, never removed); where
    another process holds it, call ``waiting`` once and wait for it. Without POSIX file locks
    (``fcntl``) nothing is locked. Raises OSError where the file cannot be made."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with lock.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
