"""The project's shape: the rules stay pure, and the bundled samples match the coursework."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import ROOT, SAMPLE_GAMES, SHARED


def test_the_rules_import_no_vision_or_camera_code():
    code = ("import sys, referee, referee.scorer, referee.dealing, referee.config;"
            "bad = {'cv2', 'onnxruntime', 'numpy', 'vision'} & set(sys.modules);"
            "print(sorted(bad)); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(not (SHARED / "spec" / "games").is_dir(), reason="../shared is not beside us")
def test_bundled_games_are_the_coursework_samples():
    shared = {p.name: p.read_bytes() for p in (SHARED / "spec" / "games").glob("*.sueca")}
    bundled = {p.name: p.read_bytes() for p in SAMPLE_GAMES.glob("*.sueca")}
    assert shared and bundled == shared


def test_top_level_layout():
    for name in ["vision", "referee", "models", "calibration", "samples", "tests", "benchmarks",
                 "config.yaml", "pyproject.toml", "README.md", "Makefile", ".ci/run"]:
        assert (ROOT / name).exists(), name
