"""The argparse types every command, training script and benchmark shares, and the
benchmarks' refusal of bad options."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from vision.options import above_zero, at_least, model_folder, picture_size, share

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("kind, text, says", [
    (at_least(1), "0", "must be at least 1, not 0"),
    (at_least(0), "-2", "must be at least 0, not -2"),
    (at_least(1), "1.5", "'1.5' is not a whole number"),
    (above_zero, "-0.1", "must be greater than 0, not -0.1"),
    (above_zero, "nan", "must be greater than 0, not nan"),
    (share, "1.01", "must lie between 0 and 1, not 1.01"),
    (share, "half", "'half' is not a number"),
    (picture_size, "1280x", "size must look like 1280x720, not '1280x'"),
    (picture_size, "8000x100", "size 8000x100 is out of range"),
    (model_folder, "/nowhere", "'/nowhere' holds no detector.onnx and no cards.onnx"),
])
def test_a_wrong_value_says_what_is_wrong(kind, text, says):
    with pytest.raises(argparse.ArgumentTypeError, match=says.replace("(", r"\(")):
        kind(text)


def test_a_model_folder_whose_detector_is_another_kind_of_model_is_refused(tmp_path):
    import shutil

    shutil.copy(ROOT / "models" / "cards.onnx", tmp_path / "detector.onnx")
    shutil.copy(ROOT / "models" / "cards.onnx", tmp_path / "cards.onnx")
    with pytest.raises(argparse.ArgumentTypeError, match="detector.onnx' is no card detector"):
        model_folder(str(tmp_path))


def test_right_values_pass():
    assert at_least(0)("0") == 0 and at_least(1)("12") == 12
    assert above_zero("3e-3") == 0.003 and share("0") == 0.0 and share("1") == 1.0
    assert picture_size("960X540") == (960, 540)
    assert model_folder(str(ROOT / "models")) == str(ROOT / "models")


@pytest.mark.parametrize("script, options, says", [
    ("games.py", ["--games", "0"], "argument --games: must be at least 1, not 0"),
    ("games.py", ["--size", "big"], "argument --size: size must look like 1280x720"),
    ("recognition.py", ["--models", "/nowhere"], "argument --models: '/nowhere' holds no"),
    ("replay.py", ["--clip", "x.mp4"], "give --clip and --truth together"),
    ("replay.py", ["--repeat", "0"], "argument --repeat: must be at least 1, not 0"),
])
def test_a_benchmark_refuses_a_bad_option_in_one_line(script, options, says):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *options],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
