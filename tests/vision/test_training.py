"""Training helpers that need the optional ``train`` extra (PyTorch, onnx); skipped without it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_a_detector_training_run_can_start_from_the_shipped_float_weights_exactly():
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    import onnxruntime

    from vision.train import load_weights, train_mode
    from vision.train.detector import build_model

    model = build_model()
    frozen = load_weights(model, MODELS / "detector-float.onnx")
    assert frozen  # the folded batch norms must not move with each batch's statistics
    train_mode(model, frozen)
    picture = np.random.default_rng(1).random((2, 3, 144, 256), dtype=np.float32)
    with torch.no_grad():
        ours = torch.sigmoid(model(torch.from_numpy(picture))).numpy()
    shipped = onnxruntime.InferenceSession(str(MODELS / "detector-float.onnx")).run(
        None, {"picture": picture})[0]
    assert np.abs(ours - shipped).max() < 1e-4


def test_a_classifier_training_run_can_start_from_the_shipped_float_weights_exactly():
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    import onnxruntime
    import yaml

    from vision.train import load_weights
    from vision.train.classifier import build_model

    model = build_model()
    assert load_weights(model, MODELS / "cards-float.onnx")
    model.eval()  # dropout off, to compare
    temperature = yaml.safe_load((MODELS / "cards.yaml").read_text())["temperature"]
    crops = np.random.default_rng(2).random((3, 3, 96, 64), dtype=np.float32)
    with torch.no_grad():  # the shipped model averages each crop read as it is and turned
        views = [torch.softmax(model(torch.from_numpy(np.ascontiguousarray(c))) / temperature,
                               dim=1).numpy() for c in (crops, crops[:, :, ::-1, ::-1])]
    shipped = onnxruntime.InferenceSession(str(MODELS / "cards-float.onnx")).run(
        None, {"crops": crops})[0]
    assert np.abs((views[0] + views[1]) / 2 - shipped).max() < 1e-4


def test_the_exported_classifier_reads_both_ways_as_two_separate_readings_would():
    """The export shares the corner features between a crop's two readings: the result must be
    what reading the crop and the turned crop apart gives."""
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    from vision.train.classifier import build_model

    torch.manual_seed(0)
    model = build_model().eval()
    crops = torch.rand(4, 3, 96, 64)
    with torch.no_grad():
        together = model.both_ways(crops)
        apart = torch.cat([model(crops), model(torch.flip(crops, dims=(2, 3)))])
    assert torch.allclose(together, apart, atol=1e-5)


def test_a_model_of_another_shape_is_refused():
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from vision.train import load_weights
    from vision.train.detector import build_model

    with pytest.raises(SystemExit, match="not a model of this shape"):
        load_weights(build_model(), MODELS / "cards-float.onnx")


def test_the_8_bit_model_is_refused_as_a_start_with_the_float_weights_named():
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from vision.train import load_weights
    from vision.train.classifier import build_model

    with pytest.raises(SystemExit, match="cards-float.onnx"):
        load_weights(build_model(), MODELS / "cards.onnx")
