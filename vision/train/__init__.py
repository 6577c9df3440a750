"""Training the card classifier (needs the optional ``train`` extra: PyTorch on the CPU).

Nothing here is imported at run time: the program only needs the exported ONNX model.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

from ..options import above_zero, at_least

PROJECT = Path(__file__).resolve().parents[2]


def training_parser(model: str, description: str, epochs: int, batch: int,
                    lr: float = 3e-3, quantized: bool = True) -> argparse.ArgumentParser:
    """The options every training script shares; each adds its own data options.
    ``quantized``: the script exports an 8-bit model beside the float one (which
    ``--float-only`` leaves to later)."""
    parser = argparse.ArgumentParser(prog=f"python -m vision.train {model}",
                                     description=description)
    parser.add_argument("--epochs", type=at_least(0), default=epochs,
                        help=f"passes over the training data (default {epochs}; 0, with "
                        "--init: measure and export that model as it is)")
    parser.add_argument("--batch", type=at_least(1), default=batch,
                        help="examples a training step (default %(default)s)")
    parser.add_argument("--lr", type=above_zero, default=lr,
                        help="the highest learning rate of the one-cycle schedule "
                        "(default %(default)s; a fine-tune with --init wants less)")
    parser.add_argument("--seed", type=int, default=1,
                        help="the data seed: the same seed makes the same training data "
                        "(default %(default)s)")
    parser.add_argument("--workers", type=at_least(1), default=os.cpu_count() or 1,
                        help="processes that make the training data (default: one a core, "
                        "%(default)s here)")
    parser.add_argument("--threads", type=at_least(1), default=os.cpu_count() or 1,
                        help="PyTorch's threads (default: one a core, %(default)s here)")
    parser.add_argument("--out", default=str(PROJECT / "models"),
                        help="the folder the model and its YAML are written to (default: the "
                        "project's models/, which the program runs)")
    parser.add_argument("--device", default="cpu",
                        help="where PyTorch trains: cpu (default), cuda, cuda:1, ... The data "
                        "is made on the CPU either way; the exported model is the same kind")
    if not quantized:
        return parser
    parser.add_argument("--float-only", action="store_true",
                        help="export the float weights only, and leave the 8-bit model to a "
                        "later 'python -m vision.train quantize' (say, on the machine that "
                        "runs the program)")
    return parser


def run_training(parser: argparse.ArgumentParser, argv: list[str] | None,
                 train: Callable[[argparse.Namespace], object]) -> int:
    """Parse the options; check the starting weights and the model folder (made here, so
    the trainers need not) before any data is made, and that PyTorch is there; train."""
    args = parser.parse_args(argv)
    init = getattr(args, "init", None)
    if args.epochs == 0 and not init:
        parser.error("--epochs 0 only measures and exports a model: name it with --init")
    if init and not Path(init).is_file():  # (told now, not after the data has been made)
        parser.error(f"--init: '{init}' does not exist")
    try:  # (and the folder the model goes to, not after the training)
        Path(args.out).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        parser.error(f"--out: cannot make the folder '{args.out}' ({error.strerror})")
    if not os.access(args.out, os.W_OK):
        parser.error(f"--out: cannot write in '{args.out}'")
    try:
        import torch
    except ImportError:
        print("training needs PyTorch: pip install -e '.[train]'", file=sys.stderr)
        return 2
    try:
        device = torch.device(args.device)
    except RuntimeError as error:
        print(f"--device {args.device}: {error}", file=sys.stderr)
        return 2
    if device.type == "cuda" and not torch.cuda.is_available():
        print(f"--device {args.device}: this PyTorch sees no CUDA GPU", file=sys.stderr)
        return 2
    if device.type not in ("cpu", "cuda"):
        print(f"--device {args.device}: only cpu and cuda are supported", file=sys.stderr)
        return 2
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    train(args)
    return 0


def one_cycle(optimiser, lr: float, steps: int, warm: float = 0.3):  # noqa: ANN001, ANN201
    """PyTorch's one-cycle schedule of the rate over ``steps`` steps, up to ``lr`` over the
    first ``warm`` share of them and down again; None for no steps. A run so short that its
    warm share would come to one step warms up over two (or, under four steps, none), since
    the schedule cannot rise over exactly one step (it divides by zero)."""
    import torch

    if steps < 1:
        return None
    if warm * steps < 2:
        warm = 2 / steps if steps >= 4 else 0.5 / steps
    return torch.optim.lr_scheduler.OneCycleLR(optimiser, lr, total_steps=steps, pct_start=warm)


def write_metadata(path: Path, header: str, meta: dict, model: Path) -> None:
    """Write ``meta`` as YAML to ``path`` (beside the exported ``model``) under the comment
    ``header``, and say what was written."""
    import yaml

    path.write_text(f"# {header}\n" + yaml.safe_dump(meta, sort_keys=False, width=100))
    print(f"wrote {model} ({model.stat().st_size / 1e6:.2f} MB) and {path.name}",
          file=sys.stderr)


def start_from(model, init: str | None, exported=None) -> bool:  # noqa: ANN001
    """Load the weights ``--init`` names into ``model`` (none: it keeps its random ones) and
    say so; returns whether its batch norms must stay frozen (``load_weights``).
    ``exported``: the module the export wrapped ``model`` in, under whose names an exported
    model's layers are found (a ``.pt`` is ``model``'s own state)."""
    if not init:
        return False
    path = Path(init)
    frozen = load_weights(model if exported is None or path.suffix != ".onnx" else exported,
                          path)
    print(f"starting from {init}", file=sys.stderr)
    return frozen


def load_weights(model, path: Path) -> bool:  # noqa: ANN001
    """Load ``path`` into ``model``: a ``.pt`` state of an earlier run, or an ONNX model the
    project's training script exported for this network (what ``models/`` holds, so a run can
    carry on from the shipped model on a machine that never trained it). Each convolution and
    linear layer is found by the name it was exported under. Export folded the batch norms
    into the convolutions: each comes back as the convolution's bias, and the norms are then
    to be kept frozen (``train_mode``) so the network starts out computing exactly what the
    model did. Returns whether they must be (for a ``.pt``, whether it is the state of such a
    run: ``_folded_norms``). Raises ``SystemExit``, with a one-line reason, for a file that
    cannot be read or a model of another shape."""
    import torch

    if path.suffix != ".onnx":
        try:
            state = torch.load(path, map_location="cpu")
        except Exception as error:  # (torch raises many kinds for a file not its own)
            raise SystemExit(f"{path}: not the weights of a training run, or damaged ones "
                             f"({type(error).__name__})") from None
        try:
            model.load_state_dict(state)
        except (RuntimeError, TypeError, AttributeError):  # (its layers, or no state at all)
            raise SystemExit(f"{path}: the weights of another network, not this one's"
                             ) from None
        return _folded_norms(model)
    import onnx
    from onnx import numpy_helper

    try:
        graph = onnx.load(str(path)).graph
    except Exception as error:  # (a damaged file raises protobuf's own kinds)
        raise SystemExit(f"{path}: not an ONNX model, or a damaged one ({type(error).__name__})"
                         ) from None
    if any(n.op_type == "DequantizeLinear" for n in graph.node):
        float_weights = path.with_name(path.stem + "-float.onnx")
        raise SystemExit(f"{path} is the 8-bit model the program runs; training starts from "
                         f"float weights (such as {float_weights})")
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    modules = dict(model.named_modules())
    norms = {}  # each convolution followed by a batch norm -> that norm
    for block in model.modules():
        if isinstance(block, torch.nn.Sequential):
            for first, second in zip(block, list(block)[1:]):
                if isinstance(second, torch.nn.BatchNorm2d):
                    norms[id(first)] = second
    layers = [n for n in graph.node if n.op_type in ("Conv", "Gemm")]
    wanted = {name for name, m in modules.items()
              if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear))}
    loaded: set[str] = set()
    with torch.no_grad():
        for node in layers:
            # exported as '/inner/<path>/<dotted name>/Conv': the dotted name is the module's
            name = node.name.rsplit("/", 2)[-2] if node.name.count("/") >= 2 else ""
            if name not in modules and re.sub(r"_\d+$", "", name) in loaded:
                continue  # a layer run twice (the crop turned round) is exported twice
            layer = modules.get(name)
            if layer is None or not hasattr(layer, "weight"):
                raise SystemExit(f"{path}: its layer '{node.name}' has no counterpart in "
                                 "this network: not a model of this shape")
            weight = torch.from_numpy(values[node.input[1]].copy())
            if weight.shape != layer.weight.shape:
                raise SystemExit(f"{path}: layer {name} has shape {tuple(weight.shape)} where "
                                 f"this network has {tuple(layer.weight.shape)}")
            layer.weight.copy_(weight)
            bias = torch.from_numpy(values[node.input[2]].copy())
            wanted.discard(name)
            loaded.add(name)
            norm = norms.get(id(layer))
            if norm is None:
                layer.bias.copy_(bias)
                continue
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
    # layers used only in training (a second head) are not exported and start afresh
    unexported = [n for n in wanted if not any(n.startswith(k) for k in TRAINING_ONLY)]
    if unexported:
        raise SystemExit(f"{path} lacks this network's layers {', '.join(sorted(unexported))}: "
                         "not a model of this shape")
    return True


TRAINING_ONLY = ("corner_head",)  # layers the exported models leave out


def _folded_norms(model) -> bool:  # noqa: ANN001
    """Whether the batch norms of ``model`` (a ``.pt`` state just loaded) still hold what
    loading an ONNX model puts in them (no mean, a variance of one: the statistics were
    folded into the convolutions), so a run that started from an ONNX model and is carried
    on from its ``.pt`` keeps them frozen as that run did. Let loose, they would normalise
    by each batch's statistics and the network would no longer compute what it did (a
    detector carried on so lost 0.09 of pixel IoU in its first epoch). A norm that ever
    trained on batches never holds exactly those statistics."""
    import torch

    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    return bool(norms) and all(
        not m.running_mean.any() and bool((m.running_var == 1.0 - m.eps).all())
        for m in norms)


def train_mode(model, frozen_norms: bool) -> None:  # noqa: ANN001
    """``model.train()``, but with the batch norms kept as loaded when ``frozen_norms``."""
    import torch

    model.train()
    if frozen_norms:
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.eval()
