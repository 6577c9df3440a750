"""Train the card detector (a small segmentation network) and export ``models/detector.onnx``.

    python -m vision.train detector [--pictures 5000] [--epochs 12] [--seed 1]

Studio pictures of the train designs (and the procedural faces) are rendered at the size the
detector works at, with two targets per pixel: "a card shows here" and "this is a card's core"
(the middle of a card, its outline shrunk towards its centre). Needs the ``train`` extra.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from datetime import date
from pathlib import Path

import cv2
import numpy as np

from . import run_training, training_parser

NET_SIZE = (256, 144)  # width, height: a 16:9 picture with its long side 256
CORE = 0.55  # a card's core is its outline shrunk to this fraction about its centre


def targets(ids: np.ndarray, labels) -> np.ndarray:  # noqa: ANN001
    """uint8 map: bit 0 card, bit 1 core."""
    out = (ids > 0).astype(np.uint8)
    core = np.zeros(ids.shape, np.uint8)
    for label in labels:
        index = label.index
        quad = label.corners
        centre = quad.mean(axis=0)
        small = centre + (quad - centre) * CORE
        mask = np.zeros(ids.shape, np.uint8)
        cv2.fillPoly(mask, [np.round(small * 4).astype(np.int32)], 1, cv2.LINE_8, shift=2)
        core |= mask & (ids == index)
    return out | (core << 1)


def _render_chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    from ..layout import TableLayout
    from ..studio.facesets import TinyFaces, face_sets
    from ..studio.randomize import random_picture
    from ..studio.scene import render

    seed, start, stop = args
    faces = face_sets("train", log=lambda m: None) + [TinyFaces(v) for v in range(3)]
    layout = TableLayout()
    pictures, maps = [], []
    for i in range(start, stop):
        kind = "closeup" if i % 4 == 3 else "table"
        difficulty = ("hard", "normal", "hard", "easy")[i % 4 if kind == "table" else 0]
        stage, scene, rng = random_picture(seed, i, faces, layout, difficulty, kind, 0.5,
                                           *NET_SIZE)
        picture, labels, ids = render(stage, scene, rng, with_ids=True)
        pictures.append(picture)
        maps.append(targets(ids, labels))
    return np.stack(pictures), np.stack(maps)


def make_pictures(count: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    chunks = [(seed, s, min(s + 50, count)) for s in range(0, count, 50)]
    started = time.monotonic()
    parts = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for n, part in enumerate(pool.imap(_render_chunk, chunks), start=1):
            parts.append(part)
            print(f"\rdetector pictures: {n * 50}/{count} ({time.monotonic() - started:.0f} s)",
                  end="", file=sys.stderr)
    print(file=sys.stderr)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def build_model(channels: tuple[int, int, int, int] = (8, 16, 32, 48)):
    """A small U-Net: three halvings, a thin decoder, two sigmoid outputs at full size. At
    256x144 it costs a few milliseconds on one CPU core."""
    import torch
    from torch import nn

    def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    a, b, c, d = channels

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.e0 = nn.Sequential(conv(3, a), conv(a, a))
            self.e1 = nn.Sequential(conv(a, b, 2), conv(b, b))
            self.e2 = nn.Sequential(conv(b, c, 2), conv(c, c))
            self.e3 = nn.Sequential(conv(c, d, 2), conv(d, d), conv(d, d))
            self.d2 = conv(d + c, c)
            self.d1 = conv(c + b, b)
            self.d0 = nn.Sequential(conv(b + a, a), nn.Conv2d(a, 2, 1))
            self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)

        def forward(self, x):
            x0 = self.e0(x)
            x1 = self.e1(x0)
            x2 = self.e2(x1)
            x3 = self.e3(x2)
            y = self.d2(torch.cat([self.up(x3), x2], 1))
            y = self.d1(torch.cat([self.up(y), x1], 1))
            return self.d0(torch.cat([self.up(y), x0], 1))

    return Net()


def _batch(pictures: np.ndarray, maps: np.ndarray, index: np.ndarray, crop: int):
    import torch

    h, w = pictures.shape[1:3]
    xs, ys = [], []
    for i in index:
        if crop:
            y0 = np.random.randint(0, h - crop + 1) if h > crop else 0
            x0 = np.random.randint(0, w - crop + 1)
            p = pictures[i, y0:y0 + crop, x0:x0 + crop]
            m = maps[i, y0:y0 + crop, x0:x0 + crop]
        else:
            p, m = pictures[i], maps[i]
        if np.random.rand() < 0.5:
            p, m = p[:, ::-1], m[:, ::-1]
        xs.append(p)
        ys.append(m)
    x = torch.from_numpy(np.ascontiguousarray(np.stack(xs))).permute(0, 3, 1, 2).float() / 255
    gain = torch.empty(len(index), 1, 1, 1).uniform_(0.75, 1.25)
    x = (x * gain).clamp_(0, 1)
    m = torch.from_numpy(np.ascontiguousarray(np.stack(ys))).long()
    y = torch.stack([(m & 1).float(), ((m >> 1) & 1).float()], 1)
    return x, y


def train(args: argparse.Namespace) -> None:  # noqa: C901
    import torch

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    pictures, maps = make_pictures(args.pictures, args.seed, args.workers)
    val_p, val_m = make_pictures(args.val_pictures, args.seed + 7919, args.workers)
    model = build_model()
    frozen_norms = False
    if args.init:  # carry on from an earlier run
        frozen_norms = load_weights(model, Path(args.init))
        print(f"starting from {args.init}", file=sys.stderr)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    per_epoch = int(np.ceil(len(pictures) / args.batch))
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.lr,
                                                   total_steps=args.epochs * per_epoch,
                                                   pct_start=0.15)
    weights = torch.tensor([1.0, 2.0]).view(1, 2, 1, 1)
    for epoch in range(1, args.epochs + 1):
        _train_mode(model, frozen_norms)
        started = time.monotonic()
        order = np.random.permutation(len(pictures))
        total = 0.0
        for start in range(0, len(order), args.batch):
            x, y = _batch(pictures, maps, order[start:start + args.batch], args.crop)
            logits = model(x)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y,
                                                                        weight=weights)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(x)
        iou = evaluate(model, val_p, val_m)
        Path(args.out).mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), Path(args.out) / "detector.pt")  # in case export fails
        print(f"epoch {epoch}/{args.epochs}: loss {total / len(order):.4f}, val IoU card "
              f"{iou[0]:.3f} core {iou[1]:.3f} ({time.monotonic() - started:.0f} s)",
              file=sys.stderr)
    export(model, Path(args.out), args, evaluate(model, val_p, val_m))


def load_weights(model, path: Path) -> bool:  # noqa: ANN001
    """Load ``path`` into ``model``: a ``detector.pt`` of an earlier run, or a
    ``detector.onnx`` this script exported (whose batch norms were folded into the convolutions
    on export: each comes back as the convolution's bias, and the norms are then kept frozen
    so the network starts out computing exactly what the model did). Returns whether the
    norms must stay frozen."""
    import torch

    if path.suffix != ".onnx":
        model.load_state_dict(torch.load(path, map_location="cpu"))
        return False
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    layers = [m for m in model.modules() if isinstance(m, torch.nn.Conv2d)]
    norms = {}  # each convolution followed by a batch norm -> that norm
    for block in model.modules():
        if isinstance(block, torch.nn.Sequential):
            for first, second in zip(block, list(block)[1:]):
                if isinstance(second, torch.nn.BatchNorm2d):
                    norms[id(first)] = second
    if len(convs) != len(layers):
        raise SystemExit(f"{path} has {len(convs)} convolutions, this network "
                         f"{len(layers)}: not a detector of this shape")
    with torch.no_grad():
        for node, layer in zip(convs, layers):
            weight = torch.from_numpy(values[node.input[1]].copy())
            bias = torch.from_numpy(values[node.input[2]].copy())
            if weight.shape != layer.weight.shape:
                raise SystemExit(f"{path}: a convolution of shape {tuple(weight.shape)} where "
                                 f"this network has {tuple(layer.weight.shape)}")
            layer.weight.copy_(weight)
            norm = norms.get(id(layer))
            if norm is None:
                layer.bias.copy_(bias)
                continue
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
    return True


def _train_mode(model, frozen_norms: bool) -> None:  # noqa: ANN001
    import torch

    model.train()
    if frozen_norms:
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.eval()


def evaluate(model, pictures: np.ndarray, maps: np.ndarray) -> tuple[float, float]:
    import torch

    model.eval()
    inter, union = np.zeros(2), np.zeros(2)
    with torch.no_grad():
        for start in range(0, len(pictures), 16):
            x = torch.from_numpy(pictures[start:start + 16]).permute(0, 3, 1, 2).float() / 255
            x = torch.nn.functional.pad(x, (0, 0, 0, -x.shape[2] % 8), mode="replicate")
            pred = (torch.sigmoid(model(x))[:, :, :pictures.shape[1]] > 0.5).numpy()
            m = maps[start:start + 16]
            for c in range(2):
                truth = ((m >> c) & 1).astype(bool)
                inter[c] += (pred[:, c] & truth).sum()
                union[c] += (pred[:, c] | truth).sum()
    return float(inter[0] / max(union[0], 1)), float(inter[1] / max(union[1], 1))


def export(model, folder: Path, args: argparse.Namespace, iou: tuple[float, float]) -> None:
    import torch
    import yaml

    class WithSigmoid(torch.nn.Module):
        def __init__(self, inner) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, x):
            return torch.sigmoid(self.inner(x))

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "detector.onnx"
    torch.onnx.export(WithSigmoid(model.eval()), torch.zeros(1, 3, NET_SIZE[1], NET_SIZE[0]),
                      str(path),
                      input_names=["picture"], output_names=["card_and_core"],
                      opset_version=17, dynamo=False,
                      dynamic_axes={"picture": {0: "n", 2: "h", 3: "w"},
                                    "card_and_core": {0: "n", 2: "h", 3: "w"}})
    meta = {
        "model": "detector.onnx",
        "input": {"long_side": NET_SIZE[0], "channels": "BGR", "scale": "pixel / 255",
                  "layout": "NCHW, height and width multiples of 8"},
        "output": "channel 0: card probability, channel 1: card-core probability",
        "core": f"outline shrunk to {CORE} about its centre",
        "trained_on": {"designs": "train split + tiny-0..2", "pictures": args.pictures,
                       "data_seed": args.seed, "epochs": args.epochs, "crop": args.crop,
                       "learning_rate": args.lr,
                       "started_from": args.init or "random weights"},
        "validation_iou": {"card": round(iou[0], 4), "core": round(iou[1], 4)},
        "trained": date.today().isoformat(),
        "size_bytes": path.stat().st_size,
    }
    (folder / "detector.yaml").write_text(
        "# The card detector, written by 'python -m vision.train detector'.\n"
        + yaml.safe_dump(meta, sort_keys=False))
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = training_parser("detector", __doc__.splitlines()[0], epochs=12, batch=32)
    parser.add_argument("--pictures", type=int, default=5000)
    parser.add_argument("--val-pictures", type=int, default=200)
    parser.add_argument("--crop", type=int, default=0, help="train on square crops of this "
                        "size (default 0: whole pictures)")
    parser.add_argument("--init", help="start from these weights: a detector.pt of an earlier "
                        "run, or a detector.onnx this script wrote")
    return run_training(parser, argv, train)
