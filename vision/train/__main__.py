"""``python -m vision.train classifier|detector|portraits|suits|quantize [...]``: train the models
(needs the ``train`` extra)."""

from __future__ import annotations

import importlib
import sys

# each a module of this package whose ``main(argv)`` trains (or quantizes) that model
TRAINERS = ("classifier", "detector", "portraits", "suits", "quantize")


def main() -> int:
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(f"usage: python -m vision.train {{{','.join(TRAINERS)}}} [--help]",
              file=sys.stderr)
        return 0 if args else 2
    if args[0] in TRAINERS:
        # imported only when asked for: each needs the ``train`` extra (PyTorch)
        return importlib.import_module(f".{args[0]}", __package__).main(args[1:])
    print(f"unknown model '{args[0]}' (known: {', '.join(TRAINERS)})", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
