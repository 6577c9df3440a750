"""Train the card classifier and export ``models/cards.onnx`` and ``models/cards.yaml``.

The float weights go to ``models/cards-float.onnx`` (what a later run starts from), and the
model the program runs, ``models/cards.onnx``, is made from them in 8 bits by
``vision.train.quantize`` as the last step.

    python -m vision.train classifier [--per-class 1200] [--epochs 24] [--seed 1] [--init cards.pt]

Only the *train* designs (with the procedural tiny faces and 48 made-up designs) are used for
training; the *validation* designs choose the softmax temperature (so that a confidence of 0.98
means about 98 % right) and the *test* designs are only measured. ``--init`` carries on from an
earlier run's ``cards.pt`` or from exported float weights such as ``models/cards-float.onnx``. On this
2-core machine an epoch takes about two minutes. Needs the ``train`` extra (PyTorch).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from . import (one_cycle, run_training, start_from, train_mode, training_parser,
               write_metadata)
from ..options import at_least, share
from ..cardclasses import BACK, CLASSES, CROP_SIZE, is_court
from ..classify import LOOK_AGAIN, TURNS

RANDOM_DESIGNS = 48
# the share of the training backs that are made up, each one new (``vision.studio.backs``):
# a hundred designs' backs taught the network those backs, not what a back is. Off by default:
# the shipped model was trained without them, and fine-tunes with half of them on the CPU did
# not read better overall (docs/recognition.md, "Forty-fourth session"); a run from random
# weights is their test
RANDOM_BACKS = 0.0


def _make_chunk(args: tuple[str, list[str], int, bool, float, tuple[int, int], bool]
                ) -> np.ndarray:
    from ..studio.facesets import RandomFaces, TinyFaces, face_sets
    from .crops import CropMaker

    split, labels, seed, hard, random_backs, size, made_up = args
    faces = face_sets(split, log=lambda m: None)
    if split == "train" and made_up:  # made-up designs teach indices and pips, not artwork
        faces = faces + [TinyFaces(v) for v in range(3)] + [
            RandomFaces(1000 + k, art=faces) for k in range(RANDOM_DESIGNS)]
    maker = CropMaker(faces, np.random.default_rng(seed), size=size,
                      random_backs=random_backs)
    return np.stack([maker.crop(label, hard) for label in labels])


def make_crops(split: str, per_class: int, seed: int, workers: int,
               hard: bool = True, random_backs: float = 0.0, classes: list[str] | None = None,
               size: tuple[int, int] = CROP_SIZE, made_up: bool = True,
               ) -> tuple[np.ndarray, np.ndarray]:
    """``per_class`` crops of every class (of ``classes``, default all the classifier's) from
    the designs of ``split``: (images, labels as indices into the classes). ``random_backs``:
    the share of the backs that are made up instead of a design's own. ``size``: the crops'
    (width, height). ``made_up``: the train split also draws on the made-up designs."""
    from ..studio.facesets import face_sets

    names = list(CLASSES) if classes is None else classes
    # the face cache is built here, once, before the workers start: each worker building the
    # designs it lacks at once wrote the files another was reading
    face_sets(split, log=lambda message: print(message, file=sys.stderr))
    labels = np.repeat(np.arange(len(names)), per_class)
    rng = np.random.default_rng(seed)
    rng.shuffle(labels)
    chunks = np.array_split(labels, max(1, len(labels) // 500))
    jobs = [(split, [names[i] for i in chunk], seed * 100003 + n, hard, random_backs, size,
             made_up) for n, chunk in enumerate(chunks)]
    started = time.monotonic()
    context = multiprocessing.get_context("fork")
    parts = []
    with context.Pool(workers) as pool:
        for n, part in enumerate(pool.imap(_make_chunk, jobs), start=1):
            parts.append(part)
            print(f"\r{split} crops: {n}/{len(jobs)} chunks "
                  f"({time.monotonic() - started:.0f} s)", end="", file=sys.stderr)
    print(file=sys.stderr)
    return np.concatenate(parts), labels


CORNER = (0.3, 0.3)  # the index corner: this share of the crop's width and height


def _mixed_crops(split: str, per_class: int, seed: int,
                 workers: int) -> tuple[np.ndarray, np.ndarray]:
    hard = make_crops(split, (per_class + 1) // 2, seed, workers, hard=True)
    if per_class < 2:  # one crop a class: the hard one (an empty half cannot be made)
        return hard
    normal = make_crops(split, per_class // 2, seed + 50, workers, hard=False)
    return np.concatenate([hard[0], normal[0]]), np.concatenate([hard[1], normal[1]])


def build_model(classes: int = len(CLASSES)):
    """Two streams over one upright crop: the whole card at low resolution (pips, artwork,
    layout), and the two index corners at full resolution, top-left and bottom-right turned
    upright, which carry the same index in every design. The corner stream's features are the
    larger of the two corners', so a thumb over one corner costs nothing, and it has its own
    head during training so that it learns to read indices on its own."""
    import torch
    from torch import nn

    def block(cin: int, cout: int, stride: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True)]

    width, height = CROP_SIZE
    cw, ch = round(width * CORNER[0]), round(height * CORNER[1])

    class CardNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            # whole card, 64x96 in: 32x48 -> 16x24 -> 8x12 -> 4x6
            self.whole = nn.Sequential(*(block(3, 24, 2) + block(24, 48, 2) + block(48, 48, 1)
                                         + block(48, 96, 2) + block(96, 128, 2)),
                                       nn.Flatten())
            # one index corner, cw x ch in, at full resolution
            self.corner = nn.Sequential(*(block(3, 24, 1) + block(24, 24, 1)
                                          + [nn.MaxPool2d(2)] + block(24, 48, 1)
                                          + block(48, 48, 1) + [nn.MaxPool2d(2)]
                                          + block(48, 96, 1)),
                                        nn.Flatten(), nn.Dropout(0.2),
                                        nn.Linear(96 * (ch // 4) * (cw // 4), 128),
                                        nn.ReLU(inplace=True))
            cells = ((width + 15) // 16) * ((height + 15) // 16)
            self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(128 * cells + 128, classes))
            self.corner_head = nn.Linear(128, classes)
            # turning the bottom-right corner upright, as a gather (exports to any ONNX runtime)
            self.register_buffer("flip_x", torch.arange(cw - 1, -1, -1), persistent=False)
            self.register_buffer("flip_y", torch.arange(ch - 1, -1, -1), persistent=False)

        def corners(self, x):
            top_left = x[:, :, :ch, :cw]
            bottom_right = x[:, :, height - ch:, width - cw:]
            bottom_right = bottom_right.index_select(3, self.flip_x).index_select(2, self.flip_y)
            n = x.shape[0]
            both = self.corner(torch.cat([top_left, bottom_right]))
            return torch.maximum(both[:n], both[n:])

        def forward(self, x, with_corner: bool = False):
            corner = self.corners(x)
            logits = self.head(torch.cat([self.whole(x), corner], dim=1))
            if with_corner:
                return logits, self.corner_head(corner)
            return logits

        def both_ways(self, x):
            """The logits of each crop as it is and turned half round, (2N, classes). The
            turned crop's two corners are the crop's own two, each turned, so their features
            are worked out once; only the whole card is looked at twice."""
            corner = self.corners(x)
            whole = self.whole(torch.cat([x, torch.flip(x, dims=(2, 3))]))
            return self.head(torch.cat([whole, torch.cat([corner, corner])], dim=1))

    return CardNet()


COURT_CLASSES = np.array([is_court(name) for name in CLASSES])
BACK_CLASS = CLASSES.index(BACK)


def paint_over_corners(crops: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crops`` (N, H, W, 3) with both index corners painted over in each one's paper colour
    (the brighter pixels of its own corners, so the light falling on it is kept) and a little
    noise: a court card then shows only its portrait, as guyenne-classic's and the old decks'
    court cards do, which carry no rank letter."""
    n, height, width = crops.shape[:3]
    cw, ch = round(width * CORNER[0]), round(height * CORNER[1])
    corners = (np.s_[:, :ch, :cw], np.s_[:, height - ch:, width - cw:])
    paper = np.percentile(np.concatenate([crops[c].reshape(n, -1, 3) for c in corners], axis=1),
                          80, axis=1)[:, None, None]
    noise = rng.normal(0, 4, (n, 2, ch, cw, 1))
    out = crops.copy()
    for k, corner in enumerate(corners):
        out[corner] = np.clip(paper + noise[:, k], 0, 255).astype(np.uint8)
    return out


def _to_tensor(images: np.ndarray, device=None):  # noqa: ANN001
    """BGR uint8 (N, H, W, 3) -> float (N, 3, H, W) in [0, 1], as at run time, on ``device``
    (default: the CPU). The bytes go to the device as they are and become floats there: a
    quarter of the copying, and on a GPU the conversion is not left to the CPU, which
    otherwise bounds an epoch."""
    import torch

    batch = torch.from_numpy(images)
    if device is not None:
        batch = batch.to(device, non_blocking=True)
    return batch.permute(0, 3, 1, 2).float().div_(255)


def _augment(batch):
    import torch

    n = batch.shape[0]
    # small shifts (detector outlines are never exact) and brightness jitter
    h, w = batch.shape[2:]
    dx, dy = np.random.randint(0, 7, 2)
    padded = torch.nn.functional.pad(batch, (3, 3, 3, 3), mode="replicate")
    batch = padded[:, :, dy:dy + h, dx:dx + w]
    scale = torch.empty(n, 1, 1, 1, device=batch.device).uniform_(0.8, 1.2)
    return (batch * scale).clamp_(0, 1)


def evaluate(model, images: np.ndarray, labels: np.ndarray, temperature: float = 1.0):
    """(accuracy, probabilities)."""
    import torch

    model.eval()
    device = next(model.parameters()).device
    outs = []
    with torch.no_grad():
        for start in range(0, len(images), 512):
            logits = model(_to_tensor(images[start:start + 512], device))
            outs.append(torch.softmax(logits / temperature, dim=1).cpu().numpy())
    probs = np.concatenate(outs)
    return float((probs.argmax(1) == labels).mean()), probs


def fit_temperature(model, images: np.ndarray, labels: np.ndarray) -> float:
    """The softmax temperature that minimises the negative log-likelihood on ``images``."""
    import torch

    model.eval()
    device = next(model.parameters()).device
    with torch.no_grad():
        logits = torch.cat([model(_to_tensor(images[s:s + 512], device)).cpu()
                            for s in range(0, len(images), 512)])
    target = torch.from_numpy(labels).long()
    best, best_nll = 1.0, float("inf")
    for t in np.exp(np.linspace(np.log(0.3), np.log(5), 60)):
        nll = float(torch.nn.functional.cross_entropy(logits / float(t), target))
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def train(args: argparse.Namespace) -> dict[str, Any]:
    import torch

    if args.keep_close and not args.init:
        raise SystemExit("--keep-close needs --init: the model the fine-tune keeps close to")
    if args.keep_close < 0:
        raise SystemExit(f"--keep-close must not be negative, not {args.keep_close:g}")
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    workers = args.workers
    print(f"making crops ({args.per_class} a class from the train designs)...", file=sys.stderr)
    x_train, y_train = make_crops("train", args.per_class, args.seed, workers,
                                  random_backs=args.random_backs)
    # validation and test crops: half under the hardest settings, half under normal ones, so
    # that the fitted temperature suits what the camera usually sees, not only the worst case
    x_val, y_val = _mixed_crops("val", args.val_per_class, args.seed + 1, workers)
    x_test, y_test = _mixed_crops("test", args.val_per_class, args.seed + 2, workers)
    model = build_model()
    # (carry on from an earlier run's weights, or from the shipped model)
    frozen_norms = start_from(model, args.init)
    device = torch.device(args.device)
    model.to(device)
    teacher = None
    if args.init and args.keep_close > 0:  # the starting model, kept as it was
        import copy
        teacher = copy.deepcopy(model).eval()
        teacher.requires_grad_(False)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * int(np.ceil(len(x_train) / args.batch))
    # (none with --epochs 0, which only measures and exports)
    schedule = one_cycle(optimiser, args.lr, steps, warm=0.15)
    loss_fn = torch.nn.CrossEntropyLoss()
    targets = torch.from_numpy(y_train).long().to(device)
    drill = np.random.default_rng(args.seed + 7)
    for epoch in range(1, args.epochs + 1):
        train_mode(model, frozen_norms)
        started = time.monotonic()
        order = np.random.permutation(len(x_train))
        total = 0.0
        for start in range(0, len(order), args.batch):
            index = order[start:start + args.batch]
            images = x_train[index]
            painted = COURT_CLASSES[y_train[index]] & (
                drill.random(len(index)) < args.portrait_drill)
            if painted.any():
                images = images.copy()
                images[painted] = paint_over_corners(images[painted], drill)
            batch = _augment(_to_tensor(images, device))
            logits, corner_logits = model(batch, with_corner=True)
            loss = loss_fn(logits, targets[index])
            # a painted-over corner shows no rank, and the starting model's reading of such a
            # crop is no guide: those crops teach the whole card's stream alone
            shown = torch.from_numpy(~painted).to(device)
            if shown.any():
                loss = loss + 0.5 * loss_fn(corner_logits[shown], targets[index][shown])
                # (nor, where backs are made up, on a back, which it often reads as a card:
                # backs are then taught by their labels alone)
                kept = shown
                if args.random_backs:
                    kept = kept & torch.from_numpy(y_train[index] != BACK_CLASS).to(device)
                if teacher is not None and kept.any():
                    with torch.no_grad():
                        was = teacher(batch[kept])
                    loss = loss + args.keep_close * drift(logits[kept], was)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(index)
        val_acc, _ = evaluate(model, x_val, y_val)
        torch.save({k: v.cpu() for k, v in model.state_dict().items()},
                   Path(args.out) / "cards.pt")  # in case export fails
        print(f"epoch {epoch}/{args.epochs}: loss {total / len(order):.4f}, "
              f"val accuracy {val_acc:.4f} ({time.monotonic() - started:.0f} s)",
              file=sys.stderr)
    temperature = fit_temperature(model, x_val, y_val)
    val_acc, val_probs = evaluate(model, x_val, y_val, temperature)
    test_acc, test_probs = evaluate(model, x_test, y_test, temperature)
    model.cpu()
    _print_confusions("validation", val_probs, y_val)
    _print_confusions("test", test_probs, y_test)
    report = {
        "val_crop_accuracy": round(val_acc, 4),
        "test_crop_accuracy": round(test_acc, 4),
        "temperature": round(temperature, 4),
        "test_wrong_above_0.98": int(((test_probs.max(1) >= 0.98)
                                      & (test_probs.argmax(1) != y_test)).sum()),
        "test_crops": int(len(y_test)),
    }
    print(report, file=sys.stderr)
    export(model, temperature, Path(args.out), args, report)
    return report


# how soft the readings are that ``drift`` compares (a softmax temperature): the starting
# model's second and third choices carry what it knows of which cards look alike
DRIFT_SOFTNESS = 2.0


def drift(logits, was):  # noqa: ANN001, ANN201
    """How far the network's readings (``logits``) have moved from the starting model's on
    the same crops (``was``): the Kullback-Leibler divergence of the softened readings, scaled
    by the softness squared so its pull does not fade as they soften. A fine-tune pays it times
    ``--keep-close`` to learn the new crops without forgetting the rest (Li and Hoiem's
    "learning without forgetting"): fine-tunes without it read the validation designs less
    surely."""
    import torch

    now = torch.log_softmax(logits / DRIFT_SOFTNESS, dim=1)
    before = torch.log_softmax(was / DRIFT_SOFTNESS, dim=1)
    return DRIFT_SOFTNESS ** 2 * torch.nn.functional.kl_div(now, before, log_target=True,
                                                            reduction="batchmean")


def _print_confusions(name: str, probs: np.ndarray, labels: np.ndarray) -> None:
    from collections import Counter

    pred = probs.argmax(1)
    per_class = sorted((float((pred[labels == c] == c).mean()), CLASSES[c])
                       for c in range(len(CLASSES)) if (labels == c).any())
    confusions = Counter((CLASSES[a], CLASSES[b]) for a, b in zip(labels, pred) if a != b)
    print(f"{name}: weakest classes " + ", ".join(f"{c} {a:.2f}" for a, c in per_class[:12]),
          file=sys.stderr)
    print(f"{name}: most frequent confusions " + ", ".join(
        f"{a}->{b} x{n}" for (a, b), n in confusions.most_common(12)), file=sys.stderr)


def export(model, temperature: float, folder: Path, args: argparse.Namespace,
           report: dict[str, Any]) -> None:
    import torch

    from ..studio.faces import designs_in

    class BothWays(torch.nn.Module):
        """What runs at run time: each crop read as it is and turned half round, the two
        readings' probabilities (with the fitted temperature) averaged. A card reads the same
        either way up, so where the two views disagree the average is unsure, and the referee
        asks for the card again instead of trusting one confident view."""

        def __init__(self, inner, t: float) -> None:
            super().__init__()
            self.inner, self.t = inner, t

        def forward(self, x):  # x: (N, 3, H, W) BGR in [0, 1]
            probabilities = torch.softmax(self.inner.both_ways(x) / self.t, dim=1)
            n = x.shape[0]
            return (probabilities[:n] + probabilities[n:]) / 2

    folder.mkdir(parents=True, exist_ok=True)
    wrapped = BothWays(model.eval(), temperature)
    w, h = CROP_SIZE
    dummy = torch.zeros(1, 3, h, w)
    onnx_path = folder / "cards-float.onnx"
    torch.onnx.export(wrapped, dummy, str(onnx_path), input_names=["crops"],
                      output_names=["probabilities"], opset_version=17,
                      dynamic_axes={"crops": {0: "n"}, "probabilities": {0: "n"}},
                      dynamo=False)
    _mark_both_ways(onnx_path)
    meta = {
        "model": "cards.onnx",
        "float_weights": onnx_path.name,
        "classes": list(CLASSES),
        "input": {"width": w, "height": h, "channels": "BGR", "scale": "pixel / 255",
                  "layout": "NCHW", "crop": "card outline warped upright to the full input",
                  "corner": list(CORNER)},
        "output": "probabilities (softmax with the fitted temperature)",
        "at_run_time": "the model reads each crop as it is and turned half round and averages "
                       "the two readings (the accuracies below are of one reading); a card read "
                       f"under {LOOK_AGAIN:g} is also read along its outline turned "
                       f"{max(TURNS):g} degrees either way and the three readings pooled "
                       "(geometric mean), by vision.classify",
        "temperature": report["temperature"],
        "trained_on": {"designs": [d.name for d in designs_in("train")]
                       + ["tiny-0", "tiny-1", "tiny-2", f"random-1000..{999 + RANDOM_DESIGNS}"],
                       "crops_per_class": args.per_class, "data_seed": args.seed,
                       "started_from": args.init or "random weights",
                       "epochs": args.epochs, "batch": args.batch, "learning_rate": args.lr,
                       **({"keep_close": args.keep_close} if args.init and args.keep_close
                          else {}),
                       **({"portrait_drill": args.portrait_drill}
                          if args.portrait_drill else {}),
                       "random_backs": args.random_backs},
        "validation_designs": [d.name for d in designs_in("val")],
        "test_designs": [d.name for d in designs_in("test")],
        "accuracy": {k: v for k, v in report.items()},
        "trained": date.today().isoformat(),
    }
    write_metadata(folder / "cards.yaml",
                   "The card classifier, written by 'python -m vision.train classifier'.",
                   meta, onnx_path)
    from .quantize import after_export

    after_export("classifier", onnx_path, args.float_only)


def _mark_both_ways(path: Path) -> None:
    """Say in the model itself that it reads each crop both ways (``vision.classify`` then
    gives it each crop once; an older model is given each crop twice)."""
    import onnx

    model = onnx.load(str(path))
    entry = model.metadata_props.add()
    entry.key, entry.value = "both_ways", "1"
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    parser = training_parser("classifier", __doc__.splitlines()[0], epochs=24, batch=128)
    parser.add_argument("--per-class", type=at_least(1), default=1200,
                        help="training crops of each class, from the train designs "
                        "(default %(default)s)")
    parser.add_argument("--val-per-class", type=at_least(1), default=80,
                        help="crops of each class from the validation designs, which fit the "
                        "temperature, and as many from the test designs, which are only "
                        "measured (default %(default)s)")
    parser.add_argument("--keep-close", type=float, default=0.0, metavar="WEIGHT",
                        help="with --init: also pay this times how far the readings drift from "
                        "the starting model's on the same crops, so a fine-tune keeps what that "
                        "model knew (default 0: off)")
    parser.add_argument("--portrait-drill", type=share, default=0.0, metavar="SHARE",
                        help="paint over both index corners of this share of the court cards' "
                        "training crops, so the network learns to tell jacks, queens and kings "
                        "by their portraits, as it must on decks without rank letters "
                        "(default 0: off)")
    parser.add_argument("--random-backs", type=share, default=RANDOM_BACKS, metavar="SHARE",
                        help="make up this share of the training backs, each one new, instead "
                        "of taking a train design's own (default %(default)s: none)")
    parser.add_argument("--init", help="start from these weights: a cards.pt of an earlier run, "
                        "or a cards-float.onnx this script wrote (e.g. models/cards-float.onnx)")
    return run_training(parser, argv, train)
