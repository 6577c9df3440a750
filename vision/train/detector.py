"""Train the card detector (a small segmentation network) and export ``models/detector.onnx``.

The float weights go to ``models/detector-float.onnx`` (what a later run starts from), and the
model the program runs, ``models/detector.onnx``, is made from them in 8 bits by
``vision.train.quantize`` as the last step.

    python -m vision.train detector [--pictures 8000] [--epochs 24] [--seed 1]

Studio pictures of the train designs (with the procedural tiny faces and made-up designs) are
rendered at twice the size the detector works at, with two targets per pixel: "a card shows
here" and "this is a card's core" (the middle of a card, its outline shrunk towards its
centre). Each batch cuts them to random parts, shrunk to the network's size, so the network
meets cards at every size it will see. Needs the ``train`` extra.
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

from . import (one_cycle, run_training, start_from, train_mode, training_parser,
               write_metadata)
from ..options import at_least, share
from ..outlines import CORE_SHARE

NET_SIZE = (256, 144)  # width, height: a 16:9 picture with its long side 256
RENDER_SCALE = 2  # training pictures are rendered this many times larger than NET_SIZE
# At run time a whole picture is shrunk to this long side: its cards are then 1.9 times the
# size they have in a whole picture shrunk to NET_SIZE, at the top of the 1-2 times training
# shows the network, so that cards far off or lying over one another keep enough pixels to be
# found apart. On 500 hard pictures of the validation designs (seed 3031, half without
# markers) card accuracy went 77.8 -> 78.8 % from 320 to 480, and 300 close-ups 75.0 -> 76.1 %;
# larger sizes gained little more and found more false cards (precision 97.7 -> 96.9 % at 560).
RUN_LONG_SIDE = 480
# On a calibrated table the part of the picture that shows it is shrunk to this long side: its
# cards are bigger there, and 320 reads hardly more of them right (0.6 points) at half again
# the cost.
TABLE_LONG_SIDE = 256
STRIDE = 16  # the network's input sides must be multiples of this
# A zone's look (``CardDetector.detect`` with seats) shows the network about a quarter of the
# table at the table's scale: the same card sizes as a whole look, with less around them.
# A training batch of "zone cuts" (``--zone-cuts``) cuts each picture to this size at the scale
# a whole cut of it has, so the network meets cards with as little around them as there
ZONE_NET_SIZE = (128, 80)
MADE_UP_DESIGNS = 24  # procedural designs beside the Debian ones: more inks, papers, backs


def targets(ids: np.ndarray, labels) -> np.ndarray:  # noqa: ANN001
    """uint8 map: bit 0 card, bit 1 core."""
    out = (ids > 0).astype(np.uint8)
    core = np.zeros(ids.shape, np.uint8)
    for label in labels:
        index = label.index
        quad = label.corners
        centre = quad.mean(axis=0)
        small = centre + (quad - centre) * CORE_SHARE
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
    from ..studio.facesets import RandomFaces

    faces = face_sets("train", log=lambda m: None)
    faces = faces + [TinyFaces(v) for v in range(3)] + [
        RandomFaces(2000 + k, art=faces) for k in range(MADE_UP_DESIGNS)]
    layout = TableLayout()
    size = (NET_SIZE[0] * RENDER_SCALE, NET_SIZE[1] * RENDER_SCALE)
    pictures, maps = [], []
    for i in range(start, stop):
        kind = "closeup" if i % 4 == 3 else "table"
        difficulty = ("hard", "normal", "hard", "easy")[i % 4 if kind == "table" else 0]
        stage, scene, rng = random_picture(seed, i, faces, layout, difficulty, kind, 0.5,
                                           *size)
        picture, labels, ids = render(stage, scene, rng, with_ids=True)
        pictures.append(picture)
        maps.append(targets(ids, labels))
    return np.stack(pictures), np.stack(maps)


def make_pictures(count: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    from ..studio.facesets import face_sets

    # the face cache is built here, once, before the workers start (see ``classifier``)
    face_sets("train", log=lambda message: print(message, file=sys.stderr))
    chunks = [(seed, s, min(s + 50, count)) for s in range(0, count, 50)]
    started = time.monotonic()
    parts = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for n, part in enumerate(pool.imap(_render_chunk, chunks), start=1):
            parts.append(part)
            print(f"\rdetector pictures: {min(n * 50, count)}/{count} "
                  f"({time.monotonic() - started:.0f} s)",
                  end="", file=sys.stderr)
    print(file=sys.stderr)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def build_model(channels: tuple[int, int, int, int] = (16, 32, 64, 96)):
    """An encoder-decoder that does its work at low resolution: a stride-2 stem, four
    halvings in all, dilated convolutions at a sixteenth of the input (so that every pixel sees
    most of the picture: a card is told from a white stripe of the tablecloth by its shape and
    its neighbours), a decoder back to half the input, and the two outputs drawn up to the
    input's size. Input sides must be multiples of 16. At 256x144 it runs in about 4 ms on
    two CPU threads, like the thinner full-resolution U-Net it replaced, with four times the
    weights and a far wider view."""
    import torch
    from torch import nn

    def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    a, b, c, d = channels

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.e1 = nn.Sequential(conv(3, a, 2), conv(a, a))  # 1/2
            self.e2 = nn.Sequential(conv(a, b, 2), conv(b, b))  # 1/4
            self.e3 = nn.Sequential(conv(b, c, 2), conv(c, c), conv(c, c))  # 1/8
            self.e4 = nn.Sequential(conv(c, d, 2), conv(d, d, dilation=2),
                                    conv(d, d, dilation=4))  # 1/16
            self.d3 = conv(d + c, c)
            self.d2 = conv(c + b, b)
            self.d1 = nn.Sequential(conv(b + a, a), nn.Conv2d(a, 2, 1))
            self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)

        def forward(self, x):
            x1 = self.e1(x)
            x2 = self.e2(x1)
            x3 = self.e3(x2)
            x4 = self.e4(x3)
            y = self.d3(torch.cat([self.up(x4), x3], 1))
            y = self.d2(torch.cat([self.up(y), x2], 1))
            return self.up(self.d1(torch.cat([self.up(y), x1], 1)))

    return Net()


def _batch(pictures: np.ndarray, maps: np.ndarray, index: np.ndarray,
           rng: np.random.Generator, pool=None, zone: bool = False):  # noqa: ANN001
    """A training batch: each picture (rendered at ``RENDER_SCALE`` times the network's size)
    is cut to a random part of it, from all of it to a ``1 / RENDER_SCALE`` share of its side,
    and shrunk to ``NET_SIZE``. So the cards come at every size the network meets: in a whole
    picture, and in the part of it that shows the table, which ``detect`` looks at with the
    same number of pixels. The targets are shrunk with the picture, as shares of a pixel.
    ``zone``: each cut is only ``ZONE_NET_SIZE`` of what that cut would have been, at the
    same scale (a zone's look: the same cards with less around them)."""
    import torch

    h, w = pictures.shape[1:3]
    out_w, out_h = ZONE_NET_SIZE if zone else NET_SIZE
    cuts = []  # the random draws, in order, so any number of threads gives the same batch
    for i in index:
        zoom = float(np.exp(rng.uniform(0, np.log(RENDER_SCALE))))
        scale = NET_SIZE[0] * zoom / w  # network pixels a picture pixel
        cw, ch = int(round(out_w / scale)), int(round(out_h / scale))
        x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
        cuts.append((i, x0, y0, cw, ch, rng.random() < 0.5, rng.random() < 0.5))

    def cut(draw):  # noqa: ANN001, ANN202
        i, x0, y0, cw, ch, flip_x, flip_y = draw
        p = cv2.resize(pictures[i, y0:y0 + ch, x0:x0 + cw], (out_w, out_h),
                       interpolation=cv2.INTER_AREA)
        m = maps[i, y0:y0 + ch, x0:x0 + cw]
        t = np.dstack([(m & 1), (m >> 1) & 1]).astype(np.float32)
        t = cv2.resize(t, (out_w, out_h), interpolation=cv2.INTER_AREA)
        if flip_x:
            p, t = p[:, ::-1], t[:, ::-1]
        if flip_y:
            p, t = p[::-1], t[::-1]
        return p, t

    # threads cut the pictures (OpenCV lets go of Python's lock while it resizes)
    parts = list(pool.map(cut, cuts)) if pool is not None else [cut(c) for c in cuts]
    xs, ys = [p for p, _ in parts], [t for _, t in parts]
    x = torch.from_numpy(np.ascontiguousarray(np.stack(xs))).permute(0, 3, 1, 2).float() / 255
    n = len(index)
    gain = torch.empty(n, 1, 1, 1).uniform_(0.6, 1.3) * torch.empty(n, 3, 1, 1).uniform_(0.9, 1.1)
    gamma = torch.empty(n, 1, 1, 1).uniform_(0.75, 1.35)
    x = (x * gain).clamp_(0, 1).pow_(gamma)
    x = (x + torch.randn_like(x[:, :1]) * torch.empty(n, 1, 1, 1).uniform_(0, 0.03)).clamp_(0, 1)
    y = torch.from_numpy(np.ascontiguousarray(np.stack(ys))).permute(0, 3, 1, 2)
    return x, y


def _loss(logits, target):
    """Per-pixel cross-entropy (the core counted twice: it is what splits touching cards),
    plus a soft overlap term per channel, so that thin cores of small cards are not drowned
    by the many easy table pixels."""
    import torch

    weights = torch.tensor([1.0, 2.0], device=logits.device).view(1, 2, 1, 1)
    bce = torch.nn.functional.binary_cross_entropy_with_logits(logits, target, weight=weights)
    p = torch.sigmoid(logits)
    inter = (p * target).sum(dim=(0, 2, 3))
    dice = 1 - (2 * inter + 1) / (p.sum(dim=(0, 2, 3)) + target.sum(dim=(0, 2, 3)) + 1)
    return bce + 0.5 * dice.mean()


def train(args: argparse.Namespace) -> None:  # noqa: C901
    import torch

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    pictures, maps = make_pictures(args.pictures, args.seed, args.workers)
    val_p, val_m = make_pictures(args.val_pictures, args.seed + 7919, args.workers)
    model = build_model()
    frozen_norms = start_from(model, args.init)  # (carry on from an earlier run)
    device = torch.device(args.device)
    model.to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    per_epoch = int(np.ceil(len(pictures) / args.batch))
    # (none with --epochs 0, which only measures and exports)
    schedule = one_cycle(optimiser, args.lr, args.epochs * per_epoch, warm=0.1)
    rng = np.random.default_rng(args.seed)
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(args.threads) if args.threads > 1 else None
    for epoch in range(1, args.epochs + 1):
        train_mode(model, frozen_norms)
        started = time.monotonic()
        order = rng.permutation(len(pictures))
        total = 0.0
        for start in range(0, len(order), args.batch):
            zone = args.zone_cuts > 0 and rng.random() < args.zone_cuts
            x, y = _batch(pictures, maps, order[start:start + args.batch], rng, pool, zone)
            loss = _loss(model(x.to(device, non_blocking=True)), y.to(device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(x)
        iou = evaluate(model, val_p, val_m)
        torch.save({k: v.cpu() for k, v in model.state_dict().items()},
                   Path(args.out) / "detector.pt")  # in case export fails
        print(f"epoch {epoch}/{args.epochs}: loss {total / len(order):.4f}, val IoU card "
              f"{iou[0]:.3f} core {iou[1]:.3f} ({time.monotonic() - started:.0f} s)",
              file=sys.stderr)
    if pool is not None:
        pool.shutdown()
    if args.epochs < 1:  # the last epoch measured the model as it is exported
        iou = evaluate(model, val_p, val_m)
    export(model.cpu(), Path(args.out), args, iou)


def evaluate(model, pictures: np.ndarray, maps: np.ndarray) -> tuple[float, float]:
    """Pixel IoU of the card and core masks (thresholded at 0.5) on whole pictures shrunk to
    the network's size, as ``detect`` shrinks a whole frame."""
    import torch

    model.eval()
    device = next(model.parameters()).device
    inter, union = np.zeros(2), np.zeros(2)
    w, h = NET_SIZE
    with torch.no_grad():
        for start in range(0, len(pictures), 16):
            part = np.stack([cv2.resize(p, (w, h), interpolation=cv2.INTER_AREA)
                             for p in pictures[start:start + 16]])
            x = torch.from_numpy(part).permute(0, 3, 1, 2).float() / 255
            x = torch.nn.functional.pad(x, (0, -w % STRIDE, 0, -h % STRIDE), mode="replicate")
            pred = (torch.sigmoid(model(x.to(device)))[:, :, :h, :w] > 0.5).cpu().numpy()
            for k, m in enumerate(maps[start:start + 16]):
                for c in range(2):
                    share = cv2.resize(((m >> c) & 1).astype(np.float32), (w, h),
                                       interpolation=cv2.INTER_AREA)
                    truth = share >= 0.5
                    inter[c] += (pred[k, c] & truth).sum()
                    union[c] += (pred[k, c] | truth).sum()
    return float(inter[0] / max(union[0], 1)), float(inter[1] / max(union[1], 1))


def export(model, folder: Path, args: argparse.Namespace, iou: tuple[float, float]) -> None:
    import torch

    class WithSigmoid(torch.nn.Module):
        def __init__(self, inner) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, x):
            return torch.sigmoid(self.inner(x))

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "detector-float.onnx"
    dummy = torch.zeros(1, 3, NET_SIZE[1] + -NET_SIZE[1] % STRIDE, NET_SIZE[0])
    torch.onnx.export(WithSigmoid(model.eval()), dummy,
                      str(path),
                      input_names=["picture"], output_names=["card_and_core"],
                      opset_version=17, dynamo=False,
                      dynamic_axes={"picture": {0: "n", 2: "h", 3: "w"},
                                    "card_and_core": {0: "n", 2: "h", 3: "w"}})
    meta = {
        "model": "detector.onnx",
        "float_weights": path.name,
        "input": {"long_side": RUN_LONG_SIDE, "table_long_side": TABLE_LONG_SIDE,
                  "channels": "BGR", "scale": "pixel / 255",
                  "layout": f"NCHW, height and width multiples of {STRIDE}",
                  "multiple": STRIDE},
        "output": "channel 0: card probability, channel 1: card-core probability",
        "core": f"outline shrunk to {CORE_SHARE} about its centre",
        "trained_on": {"designs": f"train split + tiny-0..2 + random-2000..{1999 + MADE_UP_DESIGNS}",
                       "pictures": args.pictures,
                       "made_up_designs": MADE_UP_DESIGNS, "rendered_at": RENDER_SCALE,
                       "data_seed": args.seed, "epochs": args.epochs, "batch": args.batch,
                       "learning_rate": args.lr,
                       **({"zone_cuts": args.zone_cuts} if args.zone_cuts else {}),
                       "started_from": args.init or "random weights"},
        "validation_iou": {"card": round(iou[0], 4), "core": round(iou[1], 4)},
        "trained": date.today().isoformat(),
    }
    write_metadata(folder / "detector.yaml",
                   "The card detector, written by 'python -m vision.train detector'.", meta, path)
    from .quantize import after_export

    after_export("detector", path, args.float_only)


def main(argv: list[str] | None = None) -> int:
    parser = training_parser("detector", __doc__.splitlines()[0], epochs=24, batch=16)
    parser.add_argument("--pictures", type=at_least(1), default=8000,
                        help="studio table pictures to train on, from the train designs "
                        "(default %(default)s)")
    parser.add_argument("--val-pictures", type=at_least(1), default=200,
                        help="studio pictures from the validation designs, measured after "
                        "each epoch (default %(default)s)")
    parser.add_argument("--init", help="start from these weights: a detector.pt of an earlier "
                        "run, or a detector-float.onnx this script wrote")
    parser.add_argument("--zone-cuts", type=share, default=0.0, metavar="SHARE",
                        help="this share of the batches cut each picture to a zone's look "
                        "(the same card sizes, less around them; default %(default)s)")
    return run_training(parser, argv, train)
