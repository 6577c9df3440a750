"""``python -m vision.train classifier|detector|portraits|suits|quantize [...]``: train the models
(needs the ``train`` extra)."""

from __future__ import annotations

import sys


def main() -> int:
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print("usage: python -m vision.train {classifier,detector,portraits,suits,quantize} [--help]",
              file=sys.stderr)
        return 0 if args else 2
    if args[0] == "classifier":
        from .classifier import main as classifier_main

        return classifier_main(args[1:])
    if args[0] == "detector":
        from .detector import main as detector_main

        return detector_main(args[1:])
    if args[0] == "portraits":
        from .portraits import main as portraits_main

        return portraits_main(args[1:])
    if args[0] == "suits":
        from .suits import main as suits_main

        return suits_main(args[1:])
    if args[0] == "quantize":
        from .quantize import main as quantize_main

        return quantize_main(args[1:])
    print(f"unknown model '{args[0]}' (known: classifier, detector, portraits, suits, quantize)",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
