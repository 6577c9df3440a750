"""Shared paths and helpers for the tests."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.cardclasses import CLASSES

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_GAMES = ROOT / "samples" / "games"
GOLDEN = Path(__file__).resolve().parent / "golden"
SHARED = ROOT.parent / "shared"


def console_script(name: str) -> str:
    """The installed console script ``name``, next to this Python or on PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        pytest.fail(f"console script {name!r} is not installed (pip install -e .)")
    return found


def run_command(args: list[str], cwd: Path | None = None,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command; ``env`` entries are added to (and override) this process's environment."""
    import os

    full_env = {**os.environ, **env} if env else None
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=60,
                          env=full_env)


def score_in_process(*argv: str) -> tuple[int, str, str]:
    """Run the scorer in this process: (exit status, stdout, stderr)."""
    from referee import scorer

    out, err = io.StringIO(), io.StringIO()
    status = scorer.run(list(argv), out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def networks_read(monkeypatch: pytest.MonkeyPatch, classifier,  # noqa: ANN001
                  probabilities) -> None:  # noqa: ANN001
    """Make ``classifier`` (a ``CardClassifier``) read crops as ``probabilities`` (crops ->
    (N, classes)) says, and leave its second readers (the portrait reader, the suit reader)
    out: a test that says what the network reads says all of it."""
    monkeypatch.setattr(classifier, "probabilities", probabilities)
    monkeypatch.setattr(classifier, "portraits", None)
    monkeypatch.setattr(classifier, "suits", None)


def reader_read(monkeypatch: pytest.MonkeyPatch, classifier, name: str,  # noqa: ANN001
                reader, row: np.ndarray) -> list[tuple[int, ...]]:  # noqa: ANN001
    """Put ``reader`` back as ``classifier``'s second reader ``name`` ("portraits" or
    "suits": ``networks_read`` leaves them out), reading every crop as ``row`` (1, labels)
    says. Returns the shapes of the crops it is given, call by call."""
    seen: list[tuple[int, ...]] = []

    def read(crops: np.ndarray) -> np.ndarray:
        seen.append(crops.shape)
        return np.tile(row, (len(crops), 1))

    monkeypatch.setattr(classifier, name, reader)
    monkeypatch.setattr(reader, "read", read)
    return seen


# a plain grey picture, and the outlines of two cards lying on it, side by side
PLAIN = np.full((400, 600, 3), 90, np.uint8)
TWO_CARDS = np.array([[[100, 100], [160, 100], [160, 190], [100, 190]],
                      [[300, 100], [360, 100], [360, 190], [300, 190]]], np.float32)


def read_cards(classifier, quads: np.ndarray = TWO_CARDS, **options):  # noqa: ANN001, ANN201
    """``classifier`` (a ``CardClassifier``) reading the whole cards ``quads`` outline on
    ``PLAIN``, none of them in a seat; ``options`` as ``CardClassifier.read`` takes them."""
    from vision.detections import CardDetections

    n = len(quads)
    return classifier.read(PLAIN, CardDetections(
        quads, np.ones(n, np.float32), np.ones(n, bool), [None] * n, [None] * n,
        np.zeros(n, np.float32)), **options)


def probabilities_of(readings: dict[str, float], rows: int = 1) -> np.ndarray:
    """A classifier's (rows, classes) probabilities, every row alike: these classes at these,
    the rest shared out evenly."""
    rest = (1 - sum(readings.values())) / (len(CLASSES) - len(readings))
    probs = np.full((rows, len(CLASSES)), rest, np.float32)
    for name, p in readings.items():
        probs[:, CLASSES.index(name)] = p
    return probs
