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


def test_the_suite_is_shared_out_by_file_but_the_end_to_end_games_one_by_one():
    """``make test`` runs the suite in several workers (tests/conftest.py): a file's tests run
    together, except the end-to-end games, which are shared out a game at a time."""
    from tests.conftest import scope_of
    from tests.test_end_to_end import GAMES, named

    ids = [param.id for param in named(GAMES)]
    assert len(set(ids)) == len(GAMES) == 20
    e2e = "tests/test_end_to_end.py::test_nobody_is_falsely_accused"
    assert scope_of(f"{e2e}[{ids[17]}-alone]") == scope_of(f"{e2e}[{ids[17]}-deck shown]") \
        == scope_of(f"tests/test_end_to_end.py::test_the_game[{ids[17]}-alone]") == ids[17]
    assert scope_of(f"{e2e}[{ids[1]}-alone]") != ids[17]
    # the other tests go by their file, even those named after a game file
    assert scope_of("tests/test_end_to_end.py::test_a_deck_learnt[10-4]") == \
        "tests/test_end_to_end.py"
    assert scope_of("tests/referee/test_scorer.py::test_golden[game1-g]") == \
        "tests/referee/test_scorer.py"
