"""Train the second readers, and export ``models/portraits.onnx`` or ``models/suits.onnx`` with
their YAML.

The card classifier reads a court card's rank mostly from its index letters. Where a design
prints none (guyenne-classic's court cards) or prints letters that look alike at a camera's
resolution (lattmann's Fraktur B and D), it has to go by the portrait, and its whole-card
stream, which sees the card at 64x96 and is rarely asked to, reads portraits little better than
chance. The portrait reader is a second, small network that sees nothing else: court-card
crops at 96x144 with both index corners painted over, labelled jack, queen or king. At run
time (``vision.portraits``) its reading shares out a crop's court-card probability among the
three ranks again, only where the classifier is unsure.

The suit reader (``python -m vision.train suits``, ``vision.train.suits``) is the same network
taught the other half of a card: the suit, from crops of all 52 cards at 96x144 with their
corners as they are. Suit signs are drawn much alike in every design, so it reads the suit of
a card whose figure the classifier has never seen nearly as well as any other (the shipped
reader: 98.9 % of guyenne-classic's test crops; the classifier names the suit of three of its
court cards in four).

    python -m vision.train portraits [--per-card 24] [--epochs 10] [--seed 1] [--init MODEL]

Only the *train* designs (not the made-up ones, whose court cards carry borrowed pictures) are
trained on; the *validation* designs choose the softmax temperature and the *test* designs are
only measured. On this 2-core machine an epoch takes about two minutes and a quarter.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from . import (one_cycle, run_training, start_from, train_mode, training_parser,
               write_metadata)
from ..cardclasses import SUITS
from ..options import at_least
from ..portraits import PORTRAIT_SIZE, RANKS
from .classifier import _to_tensor, fit_temperature, make_crops, paint_over_corners

COURT_CARDS = [rank + suit for rank in RANKS for suit in SUITS]


@dataclass(frozen=True)
class Reader:
    """What a second reader is taught, and how its model and YAML are named."""

    name: str  # the model's file stem, and ``python -m vision.train NAME``
    labels: tuple[str, ...]  # what it reads, in the order of its outputs
    labels_are: str  # "ranks": the YAML's key for them, and the model's output's name
    # (split, per_card, seed, workers, by_design) -> (images, labels, designs or None)
    crops: Callable[..., tuple[np.ndarray, np.ndarray, np.ndarray | None]]
    what: str  # what each output is, for the YAML and the help
    crops_are: str  # what its crops show, for the YAML
    cards: str  # which cards it is taught on, in the help: "court card"
    per_card: int  # default crops of each card of each train design
    epochs: int  # default passes over them
    title: str  # "portrait reader", in messages and the YAML's header
    temperature: float | None  # None: fitted on the validation designs
    swap_colours: float  # the share of crops whose colour channels are swapped round
    grey: float  # the share of crops turned grey
    evaluated_on: str  # what the validation and test figures are of, for the YAML


def build_model(outputs: int = len(RANKS)):
    """A plain stack of convolutions: two strided ones bring 96x144 down to 24x36, three
    pairs with pooling to 3x4, then the average over it."""
    from torch import nn

    def conv(cin: int, cout: int, size: int = 3, stride: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, size, stride, size // 2, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    def pair(cin: int, cout: int) -> list[nn.Module]:
        return conv(cin, cout) + conv(cout, cout) + [nn.MaxPool2d(2)]

    return nn.Sequential(*conv(3, 32, 5, 2), *conv(32, 48, 3, 2), *pair(48, 64),
                         *pair(64, 96), *pair(96, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Dropout(0.3), nn.Linear(128, outputs))


def reader_crops(split: str, per_card: int, seed: int, workers: int, by_design: bool,
                 cards: list[str], label_of: Callable[[np.ndarray], np.ndarray],
                 paint: bool, made_up: bool,
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``per_card`` crops of each of ``cards`` from each design of ``split`` (in all: each
    crop's design drawn at random; ``made_up``: the train split's made-up designs too), with
    both index corners painted over where ``paint``: (images, labels as ``label_of`` makes
    them from indices into ``cards``, the crops' design names where ``by_design``, or None).
    With ``by_design`` each design is made on its own, so that the figures can be told by
    it."""
    from ..studio.facesets import face_sets

    sets = face_sets(split, log=lambda m: print(m, file=sys.stderr))
    groups = [f.name for f in sets] if by_design else [split]
    images, labels, designs = [], [], []
    for n, group in enumerate(groups):
        x, y = make_crops(group, per_card * (1 if by_design else len(sets)), seed * 1009 + n,
                          workers, classes=cards, size=PORTRAIT_SIZE, made_up=made_up)
        images.append(paint_over_corners(x, np.random.default_rng(seed * 1009 + n))
                      if paint else x)
        labels.append(label_of(y))
        designs += [group] * len(y)
    return (np.concatenate(images), np.concatenate(labels),
            np.array(designs) if by_design else None)


def portrait_crops(split: str, per_card: int, seed: int, workers: int, by_design: bool = False,
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``per_card`` crops of each court card from each design of ``split``, both index
    corners painted over, labelled by rank (indices into ``RANKS``): ``reader_crops``. The
    made-up designs are left out: their court cards carry borrowed pictures."""
    return reader_crops(split, per_card, seed, workers, by_design, COURT_CARDS,
                        lambda y: y // len(SUITS), paint=True, made_up=False)


PORTRAITS = Reader(
    "portraits", RANKS, "ranks", lambda *args, **kwargs: portrait_crops(*args, **kwargs),
    title="portrait reader", temperature=None,
    what="probabilities of jack, queen and king", per_card=24, epochs=10,
    crops_are="court cards, both index corners painted over", cards="court card",
    swap_colours=0.3, grey=0.2,
    evaluated_on="rank read from the portrait alone (index corners painted over), "
                 "{n} crops of each court card; chance is 0.33")


def _augment(batch, generator: np.random.Generator,  # noqa: ANN001, ANN202
             reader: Reader = PORTRAITS):
    """Mirrored crops, and (as ``reader`` says) grey ones and ones with their colours swapped
    round: what tells a king from a jack is the figure, not which way it faces or the design's
    colours; a suit sign is the same mirrored, and its colour is half of what tells it."""
    import torch

    n = batch.shape[0]

    def chosen(share: float):  # noqa: ANN202
        return torch.from_numpy(generator.random(n) < share).to(batch.device)

    flip = chosen(0.5)
    batch[flip] = batch[flip].flip(3)
    grey = chosen(reader.grey)
    batch[grey] = batch[grey].mean(1, keepdim=True).expand(-1, 3, -1, -1)
    swap = chosen(reader.swap_colours)
    if swap.any():
        batch[swap] = batch[swap][:, torch.from_numpy(generator.permutation(3)).to(batch.device)]
    return batch


def figures(probs: np.ndarray, labels: np.ndarray, designs: np.ndarray) -> dict[str, Any]:
    """By design: the share of crops whose label (a rank, or a suit) is read right, read right
    at 0.9 or more, and read wrongly at 0.9 or more."""
    out = {}
    for name in dict.fromkeys(designs.tolist()):
        mine = designs == name
        right = probs[mine].argmax(1) == labels[mine]
        sure = probs[mine].max(1) >= 0.9
        out[name] = {"right": round(float(right.mean()), 3),
                     "right_at_0.9": round(float((right & sure).mean()), 3),
                     "wrong_at_0.9": round(float((~right & sure).mean()), 3)}
    return out


def both_ways(model, temperature: float):  # noqa: ANN001, ANN201
    """What runs at run time (and is exported): ``model`` reading each crop as it is and
    turned half round, the probabilities (at ``temperature``) averaged."""
    import torch

    class BothWays(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = model

        def forward(self, x):  # noqa: ANN001, ANN202
            return (torch.softmax(self.inner(x) / temperature, 1)
                    + torch.softmax(self.inner(x.flip(2, 3)) / temperature, 1)) / 2

    return BothWays().eval()


def read(model, images: np.ndarray, temperature: float) -> np.ndarray:  # noqa: ANN001
    """The probabilities of jack, queen and king for ``images``, as at run time."""
    import torch

    model.eval()
    run = both_ways(model, temperature)
    with torch.no_grad():
        return np.concatenate([run(_to_tensor(images[start:start + 256])).numpy()
                               for start in range(0, len(images), 256)])


def train(args: argparse.Namespace, reader: Reader = PORTRAITS) -> dict[str, Any]:
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    generator = np.random.default_rng(args.seed)
    print(f"making crops ({args.per_card} of each card of each train design)...",
          file=sys.stderr)
    x_train, y_train, _ = reader.crops("train", args.per_card, args.seed, args.workers)
    x_val, y_val, d_val = reader.crops("val", args.val_per_card, args.seed + 1, args.workers,
                                       by_design=True)
    x_test, y_test, d_test = reader.crops("test", args.val_per_card, args.seed + 2,
                                          args.workers, by_design=True)
    device = torch.device(args.device)
    model = build_model(len(reader.labels))
    # (carry on from an earlier run's weights, or from the shipped reader, whose layers are
    # named as the wrapper that reads each crop both ways holds them)
    frozen_norms = start_from(model, args.init, exported=both_ways(model, 1.0))
    model.to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    # (the last crops short of a batch wait for the next epoch's order; fewer crops than a
    # batch make one step of them all)
    per_epoch = max(1, len(x_train) // args.batch)
    # (none with --epochs 0, which only measures and exports)
    schedule = one_cycle(optimiser, args.lr, args.epochs * per_epoch)
    targets = torch.from_numpy(y_train).long().to(device)
    for epoch in range(1, args.epochs + 1):
        train_mode(model, frozen_norms)
        started = time.monotonic()
        order = generator.permutation(len(x_train))
        total = 0.0
        for step in range(per_epoch):
            index = order[step * args.batch:(step + 1) * args.batch]
            batch = _augment(_to_tensor(x_train[index], device), generator, reader)
            loss = torch.nn.functional.cross_entropy(model(batch), targets[index],
                                                     label_smoothing=0.05)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
        so_far = figures(read(model.cpu(), x_val, 1.0), y_val, d_val)
        model.to(device)
        print(f"epoch {epoch}/{args.epochs}: loss {total / per_epoch:.4f}, validation designs "
              "read right " + ", ".join(f"{k} {v['right']:.2f}" for k, v in so_far.items())
              + f" ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    temperature = fit_temperature(model, x_val, y_val) if reader.temperature is None \
        else reader.temperature
    model.cpu()
    torch.save(model.state_dict(), Path(args.out) / f"{reader.name}.pt")  # for a later --init
    report = {"temperature": round(temperature, 4),
              "validation": figures(read(model, x_val, temperature), y_val, d_val),
              "test": figures(read(model, x_test, temperature), y_test, d_test)}
    print(report, file=sys.stderr)
    export(model, temperature, Path(args.out), args, report, reader)
    return report


def export(model, temperature: float, folder: Path, args: argparse.Namespace,  # noqa: ANN001
           report: dict[str, Any], reader: Reader = PORTRAITS) -> None:
    import torch

    from ..studio.faces import designs_in

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{reader.name}.onnx"
    width, height = PORTRAIT_SIZE
    model.eval()
    torch.onnx.export(both_ways(model, temperature), torch.zeros(1, 3, height, width),
                      str(path), input_names=["crops"], output_names=[reader.labels_are],
                      opset_version=17, dynamo=False,
                      dynamic_axes={"crops": {0: "n"}, reader.labels_are: {0: "n"}})
    meta = {
        "model": path.name,
        reader.labels_are: list(reader.labels),
        "input": {"width": width, "height": height, "channels": "BGR", "scale": "pixel / 255",
                  "layout": "NCHW", "crop": "card outline warped upright to the full input"},
        "output": f"{reader.what} (softmax at the temperature), the crop read as it is and "
                  "turned half round, averaged",
        "temperature": report["temperature"],
        "trained_on": {"designs": [d.name for d in designs_in("train")],
                       "crops": reader.crops_are,
                       "crops_per_card": args.per_card, "data_seed": args.seed,
                       "epochs": args.epochs, "batch": args.batch, "learning_rate": args.lr,
                       "started_from": args.init or "random weights"},
        "validation_designs": [d.name for d in designs_in("val")],
        "test_designs": [d.name for d in designs_in("test")],
        "accuracy": {"note": reader.evaluated_on.format(n=args.val_per_card),
                     "validation": report["validation"], "test": report["test"]},
        "trained": date.today().isoformat(),
    }
    write_metadata(folder / f"{reader.name}.yaml",
                   f"The {reader.title}, written by 'python -m vision.train {reader.name}'.",
                   meta, path)


def reader_parser(reader: Reader) -> argparse.ArgumentParser:
    """The options of ``python -m vision.train NAME`` for ``reader``."""
    parser = training_parser(reader.name, f"Train the {reader.title} and export "
                             f"models/{reader.name}.onnx.", epochs=reader.epochs, batch=128,
                             quantized=False)  # (small, and run on few crops: kept in float)
    parser.add_argument("--per-card", type=at_least(1), default=reader.per_card,
                        help=f"crops of each {reader.cards} of each train design "
                        "(default %(default)s)")
    parser.add_argument("--val-per-card", type=at_least(1), default=20,
                        help=f"crops of each {reader.cards} of each validation design, which "
                        "fit the temperature, and of each test design, which are only measured "
                        "(default %(default)s)")
    parser.add_argument("--init", help=f"start from these weights: a {reader.name}.pt of an "
                        f"earlier run, or a {reader.name}.onnx this script wrote (e.g. "
                        f"models/{reader.name}.onnx)")
    return parser


def main(argv: list[str] | None = None) -> int:
    return run_training(reader_parser(PORTRAITS), argv, train)
