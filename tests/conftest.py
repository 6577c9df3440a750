"""How the suite is shared out between pytest-xdist's workers (``make test`` runs it with
``--dist loadscope --no-loadscope-reorder``, one worker a core).

Each test file runs whole in one worker, so that what a file makes once (its module fixtures,
the readers it caches) serves all its tests; but a test whose parameters name a game (an id
``clipN``, as the end-to-end games have) runs with that game's other tests instead, so that
the twenty games are shared out between the workers. Each game is rendered and refereed once,
whichever worker asks first (see ``tests/test_end_to_end.py``). The units are handed out in
the order collected (xdist's reordering by number of tests would leave the long ones last),
but for the longest, which are collected first (``FIRST``).
On the 2-core machine of 2026-11-27 the suite took 12:56 in one process, 7:58 in two workers."""

from __future__ import annotations

import re

import pytest

GAME = re.compile(r"\[(?:.*-)?(clip\d+)(?:-.*)?\]$")


def scope_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its game, or else its file."""
    game = GAME.search(nodeid)
    return game.group(1) if game else nodeid.split("::", 1)[0]


# The longest single units of work, handed out first: collected in their place (near the end),
# one could start when the other worker had little left, and run on alone (the real webcam
# photos' check took 110 s of the suite's 7:36 on 2026-11-27; the games take 15-20 s each)
FIRST = ("tests/vision/test_real_photos.py",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.nodeid.split("::", 1)[0] not in FIRST)  # (stable)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByFileOrGame(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    return ByFileOrGame(config, log)
