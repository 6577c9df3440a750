"""Training the card classifier (needs the optional ``train`` extra: PyTorch on the CPU).

Nothing here is imported at run time: the program only needs the exported ONNX model.
"""

from __future__ import annotations



import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def training_parser(model: str, description: str, epochs: int, batch: int,
                    lr: float = 3e-3) -> argparse.ArgumentParser:
    """The options every training script shares; each adds its own data options."""
    parser = argparse.ArgumentParser(prog=f"python -m vision.train {model}",
                                     description=description)
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument("--lr", type=float, default=lr)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=str(PROJECT / "models"))
    return parser


def run_training(parser: argparse.ArgumentParser, argv: list[str] | None,
                 train: Callable[[argparse.Namespace], object]) -> int:
    """Parse the options, check that PyTorch is there, train."""
    args = parser.parse_args(argv)
    try:
        import torch  # noqa: F401
    except ImportError:
        print("training needs PyTorch: pip install -e '.[train]'", file=sys.stderr)
        return 2
    train(args)
    return 0
