"""``sueca-referee studio ...``: the table studio's faces, pictures, clips, deck pictures and
contact sheets.
"""

from __future__ import annotations

import argparse
import sys

from vision.commands import PROG, says_unwritable, table_layout
from vision.options import mishap_chances


def run_studio_images(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.studio.faces import StudioError
    from vision.studio.images import ImageSetSettings, write_image_set

    layout = table_layout(ns, "studio images")
    if layout is None:
        return 2
    settings = ImageSetSettings(ns.count, ns.seed, ns.designs, ns.difficulty, ns.kind,
                                ns.size[0], ns.size[1], ns.markers)
    try:
        labels = write_image_set(Path(ns.out), settings, layout, workers=ns.workers,
                                 progress=not ns.quiet,
                                 log=lambda m: print(m, file=sys.stderr))
    except StudioError as error:
        print(f"{PROG} studio images: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{PROG} studio images: cannot write '{ns.out}': {error.strerror or error}",
              file=sys.stderr)
        return 1
    print(f"{ns.count} pictures and {labels}")
    return 0


def run_studio_faces(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.studio.facepack import pack_faces, unpack_faces
    from vision.studio.faces import StudioError, build_faces, cache_dir, designs_in

    try:
        if ns.from_pack:
            unpacked = unpack_faces(Path(ns.from_pack))
            print(f"{len(unpacked)} designs unpacked from {ns.from_pack}")
            folder = cache_dir() / "faces"
        else:
            folder = build_faces(ns.split, force=ns.force, workers=ns.workers)
        if ns.pack:
            try:
                designs, size = pack_faces(ns.split, Path(ns.pack))
            except OSError as error:
                raise StudioError(f"cannot write the face pack '{ns.pack}': "
                                  f"{error.strerror or error}") from None
            print(f"{ns.pack}: {designs} designs, {size / 1e6:.1f} MB")
    except StudioError as error:
        print(f"{PROG} studio faces: {error}", file=sys.stderr)
        return 1
    built = [d.name for d in designs_in(ns.split) if (folder / d.name / "design.json").exists()]
    print(f"{len(built)} designs in {folder}")
    return 0 if built else 1


def run_studio_clip(ns: argparse.Namespace) -> int:
    from pathlib import Path

    import numpy as np

    from referee.config import ConfigError, load_rules_config
    from vision.studio.clip import game_from_file, game_from_seed, render_clip
    from vision.studio.faces import StudioError
    from vision.studio.facesets import face_sets

    command = "studio clip"
    if (ns.game_file is None) == (ns.random is None):
        print(f"{PROG} {command}: give either a GAME_FILE or --random SEED", file=sys.stderr)
        return 2
    if ns.revoke and ns.random is None:
        print(f"{PROG} {command}: --revoke goes with --random", file=sys.stderr)
        return 2
    layout = table_layout(ns, command)
    if layout is None:
        return 2
    try:
        order = load_rules_config(ns.config).order
    except ConfigError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 2
    out = Path(ns.out)
    truth = Path(ns.truth) if ns.truth else out.with_suffix(".jsonl")
    try:
        game = (game_from_file(ns.game_file, order) if ns.game_file is not None
                else game_from_seed(ns.random, order, ns.revoke))
        designs = face_sets(ns.designs, log=lambda m: print(m, file=sys.stderr))
        faces = designs[int(np.random.default_rng([ns.seed, 5]).integers(len(designs)))]
        frames = render_clip(game, faces, out, truth, ns.seed, layout, ns.size[0], ns.size[1],
                             progress=not ns.quiet, log=lambda m: print(m, file=sys.stderr),
                             **mishap_chances(ns))
    except StudioError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{PROG} {command}: {error.strerror or error}"
              f"{' (' + error.filename + ')' if getattr(error, 'filename', None) else ''}",
              file=sys.stderr)
        return 1
    seconds = frames / 30
    print(f"{out}: {frames} frames ({seconds:.1f} s, design {faces.name}); truth log {truth}")
    print("\n".join(game.verdict))
    return 0


def run_studio_sheet(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.studio.sheet import contact_sheet

    given = Path(ns.folder)
    if not given.exists():
        print(f"{PROG} studio sheet: '{ns.folder}' does not exist", file=sys.stderr)
        return 2
    # (a set's labels.csv itself may be named, as 'check' takes it)
    labels = given if given.is_file() else given / "labels.csv"
    if given.is_dir() and not labels.is_file():
        print(f"{PROG} studio sheet: no labels.csv in '{ns.folder}' (a folder that "
              "'sueca-referee studio images' wrote)", file=sys.stderr)
        return 2
    if says_unwritable("studio sheet", (ns.out, True)):
        return 2
    try:
        n = contact_sheet(labels, Path(ns.out), ns.count, ns.columns, outlines=ns.outlines)
    except OSError as error:
        where = f": '{error.filename}'" if error.filename else ""
        print(f"{PROG} studio sheet: {error.strerror or error}{where}", file=sys.stderr)
        return 1
    except (KeyError, ValueError) as error:
        print(f"{PROG} studio sheet: '{labels}' is not a labels file ({error})", file=sys.stderr)
        return 1
    print(f"{ns.out}: {n} picture{'' if n == 1 else 's'}")
    return 0


def run_studio_deck(ns: argparse.Namespace) -> int:
    import cv2

    from vision.studio.faces import StudioError
    from vision.studio.facesets import face_sets
    from vision.studio.images import deck_picture

    command = "studio deck"
    if says_unwritable(command, (ns.out, True)):
        return 2
    try:
        faces = face_sets(ns.design)
    except StudioError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    if len(faces) != 1:
        print(f"{PROG} {command}: --design takes one design's name", file=sys.stderr)
        return 2
    picture, _ = deck_picture(faces[0], ns.seed, ns.difficulty, aces=ns.aces)
    if not cv2.imwrite(ns.out, picture):
        print(f"{PROG} {command}: cannot write '{ns.out}'", file=sys.stderr)
        return 1
    print(f"{faces[0].name}'s {'aces' if ns.aces else 'court cards'} laid out: {ns.out}")
    return 0
