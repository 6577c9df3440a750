"""Training helpers that need the optional ``train`` extra (PyTorch, onnx); skipped without it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_a_detector_training_run_can_start_from_the_shipped_model_exactly():
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    import onnxruntime

    from vision.train import load_weights, train_mode
    from vision.train.detector import build_model

    model = build_model()
    frozen = load_weights(model, MODELS / "detector.onnx")
    assert frozen  # the folded batch norms must not move with each batch's statistics
    train_mode(model, frozen)
    picture = np.random.default_rng(1).random((2, 3, 144, 256), dtype=np.float32)
    with torch.no_grad():
        ours = torch.sigmoid(model(torch.from_numpy(picture))).numpy()
    shipped = onnxruntime.InferenceSession(str(MODELS / "detector.onnx")).run(
        None, {"picture": picture})[0]
    assert np.abs(ours - shipped).max() < 1e-4


def test_a_model_of_another_shape_is_refused():
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from vision.train import load_weights
    from vision.train.detector import build_model

    with pytest.raises(SystemExit, match="not a model of this shape"):
        load_weights(build_model(), MODELS / "cards.onnx")
