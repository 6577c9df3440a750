"""Where the trained models live, and loading one into onnxruntime on the CPU."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

MODELS = Path(__file__).resolve().parent.parent / "models"


def crops_as_input(crops: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) BGR uint8 crops as the card networks take them: (N, 3, H, W) floats in
    [0, 1] (the classifier's and the portrait reader's input, as their training fed them)."""
    return crops.astype(np.float32).transpose(0, 3, 1, 2) / 255


def threads_beside_reading() -> int:
    """Threads for each model while frames are decoded ahead on a thread of their own
    (``vision.sources.read_ahead``, as ``replay`` reads a clip): up to two, leaving that
    thread a core of its own. On two cores one thread each referees a clip faster than two,
    which would take turns with the decoding (``benchmarks/replay.py``)."""
    return max(1, min(2, (os.cpu_count() or 1) - 1))


def load_session(path: Path | str, threads: int | None, what: str, error: type[Exception]):
    """An onnxruntime session for the model at ``path`` (``what``: "detector" or
    "classifier", as in messages and in ``python -m vision.train WHAT``), on ``threads``
    threads (None: up to two). Raises ``error`` with a one-line reason when the file is
    missing or not a model."""
    import onnxruntime as ort

    path = Path(path)
    if not path.is_file():
        raise error(f"{what} model '{path}' is missing; train it with "
                    f"'python -m vision.train {what}'")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads or min(2, os.cpu_count() or 1)
    options.inter_op_num_threads = 1
    # Idle pool threads would otherwise spin for a while after each run, taking the cores
    # that video decoding and the rest of the frame's work need.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime raises its own exception types
        raise error(f"cannot load {what} model '{path}': {err}") from None
