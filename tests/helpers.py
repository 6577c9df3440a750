"""Shared paths and helpers for the tests."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
