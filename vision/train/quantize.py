"""Quantize a model: ``models/NAME-float.onnx`` -> ``models/NAME.onnx``, run in 8 bits.

    python -m vision.train quantize {detector,classifier} [--float FILE] [--out FILE]
                                    [--pictures 120] [--seed 5]

The float weights (what ``python -m vision.train detector`` / ``classifier`` export, and what a
later training run starts from) are turned into a model whose convolutions run on 8-bit
integers: weights per output channel, activations per tensor, their ranges taken from what the
network is fed on studio pictures of the *train* designs (table pictures looked at as the
referee looks at them, the table cut out, and whole; and close-ups).

- Detector: every layer but two. The first convolution, which sees the picture itself, and the
  last, which gives the probabilities, stay in floating point: quantizing those two moved the
  masks most for the least time.
- Classifier: the convolutions of its two streams (whole card, index corners) but the first of
  each; the head, the softmax with its temperature and the averaging of the two readings stay
  in floating point (quantizing them too changed one reading in four).

On this 2-core machine the detector's network then runs in about three quarters of the time and
the classifier's in about four fifths. The 8-bit model is compared with the float one on
pictures of the *validation* designs (detector: pixel IoU of the card and core masks;
classifier: readings that change and how far confidences move); the figures go into the
model's .yaml under ``quantized:``, and the run fails when they fall under ``--agree``.
Needs the ``train`` extra (onnxruntime's quantization tools need the ``onnx`` package).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from vision.models import MODELS, crops_as_input

from ..options import at_least, share

FILES = {"detector": "detector", "classifier": "cards"}
# the detector's layers kept in floating point: the picture's own convolution and the last
DETECTOR_FLOAT = ("/inner/e1/e1.0/e1.0.0/Conv", "/inner/d1/d1.1/Conv")
STREAMS = ("/corner/", "/whole/")  # the classifier's two convolutional streams
QUANTIZED_NOTE = ("# written by 'python -m vision.train quantize': the weights of record are "
                  "the float model's; this\n# file's network runs its convolutions in 8 bits")


def _inputs(pictures: int, seed: int, designs: str, detector, size=None,  # noqa: ANN001
            ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """What the networks are fed on ``pictures`` table pictures (each looked at with and without
    the table's calibration) and as many close-ups of ``designs``: the tensors ``detector``
    gives its network, and (with a classifier crop ``size``) batches of the whole cards it
    finds, cut out as the classifier gets them."""
    from vision.geometry import rectify
    from vision.layout import TableLayout
    from vision.studio.facesets import face_sets
    from vision.studio.randomize import random_picture
    from vision.studio.scene import render
    from vision.table import CalibrationError, from_markers

    faces = face_sets(designs, log=lambda _line: None)
    seen: list[np.ndarray] = []
    crops: list[np.ndarray] = []
    run = detector.session.run

    def keep(names, feed):  # noqa: ANN001, ANN202
        seen.append(next(iter(feed.values())))
        return run(names, feed)

    detector.session = _Recording(keep, detector.session)
    try:
        for index in range(pictures):
            for kind in ("table", "closeup"):
                stage, scene, rng = random_picture(seed, 2 * index + (kind == "closeup"), faces,
                                                   TableLayout(),
                                                   "hard" if index % 2 else "normal", kind, 1.0)
                picture, _ = render(stage, scene, rng)
                views = [None]
                if kind == "table":
                    try:
                        views.append(from_markers(picture))
                    except CalibrationError:
                        pass
                for calibration in views:
                    found = detector.detect(picture, calibration)
                    if size is not None:
                        crops += [rectify(picture, found.quads[i], size, ordered=True)
                                  for i in np.flatnonzero(found.whole)]
            if (index + 1) % 10 == 0 or index + 1 == pictures:
                print(f"\r{designs} pictures: {index + 1}/{pictures}", end="", file=sys.stderr)
        print(file=sys.stderr)
    finally:
        detector.session = detector.session.inner
    batches = [crops_as_input(np.stack(crops[i:i + 16])) for i in range(0, len(crops), 16)]
    return seen, batches


class _Recording:
    """An onnxruntime session whose ``run`` is ``run``; everything else is ``inner``'s."""

    def __init__(self, run, inner) -> None:  # noqa: ANN001
        self.run, self.inner = run, inner

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self.inner, name)


def _sessions(*paths: Path):  # noqa: ANN202
    from vision.models import load_session

    return [load_session(p, None, "model", RuntimeError) for p in paths]


def detector_agreement(float_model: Path, quantized: Path, tensors: list[np.ndarray]) -> dict:
    """How alike the two detectors' card and core masks (at 0.5) are: pixel IoU over all the
    pictures together, and the worst picture's (a picture where both masks are empty agrees)."""
    one, two = _sessions(float_model, quantized)
    name = one.get_inputs()[0].name
    counts = np.zeros((len(tensors), 2, 2))  # picture, mask, (intersection, union)
    for i, tensor in enumerate(tensors):
        a, b = (s.run(None, {name: tensor})[0][0] > 0.5 for s in (one, two))
        for c in range(2):
            counts[i, c] = (a[c] & b[c]).sum(), (a[c] | b[c]).sum()
    each = np.where(counts[..., 1] > 0, counts[..., 0] / np.maximum(counts[..., 1], 1), 1.0)
    pooled = counts[..., 0].sum(axis=0) / np.maximum(counts[..., 1].sum(axis=0), 1)
    return {"card_iou": {"all": round(float(pooled[0]), 4),
                         "worst_picture": round(float(each[:, 0].min()), 4)},
            "core_iou": {"all": round(float(pooled[1]), 4),
                         "worst_picture": round(float(each[:, 1].min()), 4)},
            "pictures": len(tensors)}


def classifier_agreement(float_model: Path, quantized: Path, batches: list[np.ndarray]) -> dict:
    """How alike the two classifiers' readings are: the share read the same, and how far the
    confidence in the float model's reading moves (mean, most)."""
    one, two = _sessions(float_model, quantized)
    name = one.get_inputs()[0].name
    same, moves = [], []
    for batch in batches:
        a, b = (s.run(None, {name: batch})[0] for s in (one, two))
        best = a.argmax(axis=1)
        same += list(b.argmax(axis=1) == best)
        moves += list(np.abs(a[np.arange(len(a)), best] - b[np.arange(len(b)), best]))
    return {"readings_the_same": round(float(np.mean(same)), 4),
            "confidence_moved": {"mean": round(float(np.mean(moves)), 4),
                                 "most": round(float(np.max(moves)), 4)},
            "crops": len(same)}


def _kept_in_float(what: str, model: Path) -> list[str]:
    if what == "detector":
        return list(DETECTOR_FLOAT)
    import onnx

    layers = [n.name for n in onnx.load(str(model)).graph.node if n.op_type in ("Conv", "Gemm")]
    firsts = [next(n for n in layers if n.startswith(s)) for s in STREAMS]
    return firsts + [n for n in layers if not n.startswith(STREAMS)]


def quantize(what: str, float_model: Path, out: Path, pictures: int, seed: int) -> dict:
    """Write the 8-bit model; returns what goes under ``quantized:`` in its .yaml."""
    import tempfile

    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from vision.detect import CardDetector

    size = None
    if what == "detector":
        detector = CardDetector(float_model)
    else:
        from vision.classify import CardClassifier

        beside = float_model.parent / "detector.onnx"
        detector = CardDetector(beside if beside.is_file() else MODELS / "detector.onnx")
        size = CardClassifier(float_model).size
    fed = _inputs(pictures, seed, "train", detector, size)[what == "classifier"]
    check = _inputs(max(20, pictures // 3), seed + 1, "val", detector, size)[
        what == "classifier"]
    input_name = _sessions(float_model)[0].get_inputs()[0].name

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter(fed)

        def get_next(self) -> dict | None:
            tensor = next(self.left, None)
            return None if tensor is None else {input_name: tensor}

    kept = _kept_in_float(what, float_model)
    # the classifier's readings move when its concatenations, maxima and softmax are quantized
    ops = None if what == "detector" else ["Conv", "Gemm", "MaxPool", "Relu"]
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        # the detector's sizes vary with the picture: skip the symbolic shape pass
        quant_pre_process(str(float_model), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(out), Reader(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, nodes_to_exclude=kept,
                        op_types_to_quantize=ops)
    agreement = (detector_agreement if what == "detector" else classifier_agreement)(
        float_model, out, check)
    return {"from": float_model.name,
            "how": "onnxruntime static quantization, QDQ: int8 weights per output channel, "
                   "uint8 activations (min-max ranges)",
            "kept_in_float": kept,
            "calibration": {"designs": "train", "pictures": f"{pictures} table + {pictures} "
                            "close-ups", "seed": seed,
                            "inputs": (f"{len(fed)} pictures' network inputs" if what == "detector"
                                       else f"{sum(map(len, fed))} cards cut out")},
            "agreement_with_float_on_val_designs": agreement}


def write_yaml(out: Path, block: dict) -> None:
    """Put ``block`` under ``quantized:`` in the .yaml beside ``out`` (the rest kept as the
    training wrote it, but for the size)."""
    import re

    import yaml

    path = out.with_suffix(".yaml")
    text = path.read_text() if path.exists() else ""
    text = text.split(QUANTIZED_NOTE)[0].rstrip("\n") + "\n"
    text = re.sub(r"(?m)^size_bytes: .*\n", "", text)
    path.write_text(text + f"size_bytes: {out.stat().st_size}\n{QUANTIZED_NOTE}\n"
                    + yaml.safe_dump({"quantized": block}, sort_keys=False, width=100))


def after_export(what: str, float_model: Path, float_only: bool = False) -> None:
    """The last step of a training run: the 8-bit model beside the float one it exported
    (unless ``float_only``: then only how to make it is said)."""
    out = float_model.with_name(f"{FILES[what]}.onnx")
    if float_only:
        print(f"float weights only: make the 8-bit model with 'python -m vision.train quantize "
              f"{what} --float {float_model} --out {out}'", file=sys.stderr)
        return
    if main([what, "--float", str(float_model), "--out", str(out)]):
        raise SystemExit(f"quantizing the {what} failed; the float model is in {float_model}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train quantize",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=sorted(FILES), help="which model")
    parser.add_argument("--float", dest="float_model",
                        help="the float model (default: models/detector-float.onnx or "
                        "models/cards-float.onnx)")
    parser.add_argument("--out", help="the 8-bit model to write (default: models/detector.onnx "
                        "or models/cards.onnx)")
    parser.add_argument("--pictures", type=at_least(1), default=120,
                        help="table pictures (and as many close-ups) to take ranges from "
                        "(default %(default)s)")
    parser.add_argument("--seed", type=int, default=5,
                        help="the seed of those pictures (default %(default)s)")
    parser.add_argument("--agree", type=share, default=0.97,
                        help="fail when the detector's card-mask IoU with the float model, or "
                        "the classifier's share of readings unchanged, is lower (default "
                        "%(default)s)")
    args = parser.parse_args(argv)
    try:
        import onnx  # noqa: F401
    except ImportError:
        print("quantizing needs the onnx package: pip install -e '.[train]'", file=sys.stderr)
        return 2
    name = FILES[args.what]
    float_model = Path(args.float_model or MODELS / f"{name}-float.onnx")
    out = Path(args.out or float_model.with_name(f"{name}.onnx"))
    if not float_model.is_file():
        print(f"no float {args.what} at '{float_model}': train one with 'python -m vision.train "
              f"{args.what}'", file=sys.stderr)
        return 2
    if out.resolve() == float_model.resolve():
        print("--out must not be the float model itself", file=sys.stderr)
        return 2
    from vision.classify import ClassifierError
    from vision.detect import DetectorError

    try:
        block = quantize(args.what, float_model, out, args.pictures, args.seed)
    except (ClassifierError, DetectorError) as error:  # (a model it cannot read as one)
        print(error, file=sys.stderr)
        return 2
    agreement = block["agreement_with_float_on_val_designs"]
    agree = (agreement["card_iou"]["all"] if args.what == "detector"
             else agreement["readings_the_same"])
    write_yaml(out, block)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB); agreement with the float model on "
          f"the validation designs: {agreement}",
          file=sys.stderr)
    if agree < args.agree:
        print(f"the 8-bit model strays too far from the float one ({agree} < {args.agree})",
              file=sys.stderr)
        return 1
    return 0
