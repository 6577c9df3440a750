"""A small copy of the face cache, for training where the card designs cannot be fetched.

A GPU machine lent for training may reach no network, so it cannot fetch the Debian packages
the face cache is rendered from, and what travels to it is limited in size (64 MiB, the
project's own files included). The cache itself is about half a gigabyte: each face a PNG
240 px wide. A face pack holds the same faces shrunk to ``PACK_WIDTH`` px, their colours as
WebP and their transparency (the rounded corners) as PNG, in one zip file: the train,
validation and test designs in about 17 MB. The classifier reads cards at 64x96 and the
studio's table pictures show them at most about 120 px wide; its close-ups, drawn from a
pack, show larger cards softer than from the cache.

``pack_faces`` writes one from the cache; ``unpack_faces`` fills a cache from one, so that
``face_sets`` finds every design in it and fetches nothing. A design already in the cache is
kept. Each unpacked design's ``design.json`` says it came from a pack, and at what width and
quality.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from .faces import StudioError, cache_dir, designs_in
from .facesets import DesignFaces

PACK_WIDTH = 128  # px: the faces' width in a pack (the cache's are 240)
QUALITY = 70  # WebP quality of the colours (the crops are JPEG-degraded down to 30)


def pack_faces(split: str, out: Path, width: int = PACK_WIDTH, quality: int = QUALITY,
               log: Callable[[str], None] = lambda m: None) -> tuple[int, int]:
    """Write a face pack of the designs of ``split`` (``all``, ``train``, ``val``, ``test``)
    in the face cache to ``out`` (``sueca-referee studio faces --pack`` builds them first);
    returns (designs, bytes written). Raises ``StudioError`` (none of them is in the cache,
    or a face is broken) or ``OSError`` (``out`` cannot be written)."""
    faces = cache_dir() / "faces"
    names = [d.name for d in designs_in(split) if (faces / d.name / "design.json").exists()]
    if not names:
        raise StudioError(f"no designs of '{split}' in the face cache {faces}")
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as pack:
        for n, name in enumerate(names, start=1):
            folder = faces / name
            meta = json.loads((folder / "design.json").read_text())
            meta["packed"] = {"width": width, "quality": quality}
            pack.writestr(f"{name}/design.json", json.dumps(meta, indent=1))
            design = DesignFaces(folder)
            for path in sorted(folder.glob("*.png")):
                face = design.face(path.stem)  # (a broken face is a StudioError)
                h, w = face.shape[:2]
                small = cv2.resize(face, (width, max(1, round(h * width / w))),
                                   interpolation=cv2.INTER_AREA)
                _, colours = cv2.imencode(".webp", small[..., :3],
                                          [cv2.IMWRITE_WEBP_QUALITY, quality])
                _, alpha = cv2.imencode(".png", small[..., 3],
                                        [cv2.IMWRITE_PNG_COMPRESSION, 9])
                pack.writestr(f"{name}/{path.stem}.webp", colours.tobytes())
                pack.writestr(f"{name}/{path.stem}.alpha.png", alpha.tobytes())
            log(f"[{n}/{len(names)}] {name}")
    return len(names), out.stat().st_size


def unpack_faces(pack_path: Path, faces: Path | None = None,
                 log: Callable[[str], None] = lambda m: None) -> list[str]:
    """Fill the face cache's folder ``faces`` (default: the cache's) from the pack at
    ``pack_path``; returns the designs unpacked (those already in the cache are kept, not
    overwritten). Raises ``StudioError`` with a one-line reason when the pack is missing,
    not a pack, or damaged."""
    faces = faces or cache_dir() / "faces"
    try:
        pack = zipfile.ZipFile(pack_path)
    except FileNotFoundError:
        raise StudioError(f"no face pack at '{pack_path}'") from None
    except (zipfile.BadZipFile, OSError) as error:
        raise StudioError(f"'{pack_path}' is not a face pack ({error})") from None
    with pack:
        entries = pack.namelist()
        names = sorted({e.split("/")[0] for e in entries if e.endswith("/design.json")})
        if not names:
            raise StudioError(f"'{pack_path}' is not a face pack (no design.json in it)")
        done = []
        for name in names:
            target = faces / name
            if (target / "design.json").exists():
                continue
            keys = sorted(e[len(name) + 1:-len(".webp")] for e in entries
                          if e.startswith(f"{name}/") and e.endswith(".webp"))
            target.mkdir(parents=True, exist_ok=True)
            try:
                for key in keys:
                    colours = _decode(pack, f"{name}/{key}.webp", cv2.IMREAD_COLOR)
                    alpha = _decode(pack, f"{name}/{key}.alpha.png", cv2.IMREAD_GRAYSCALE)
                    if colours.shape[:2] != alpha.shape:
                        raise StudioError(f"'{pack_path}': {name}/{key} is damaged")
                    cv2.imwrite(str(target / f"{key}.png"), np.dstack([colours, alpha]))
                # written last: a design counts as in the cache only once all its faces are
                (target / "design.json").write_bytes(pack.read(f"{name}/design.json"))
            except (KeyError, zipfile.BadZipFile, OSError) as error:
                raise StudioError(f"'{pack_path}' is damaged ({error})") from None
            done.append(name)
            log(f"{name}: {len(keys)} faces")
    return done


def _decode(pack: zipfile.ZipFile, entry: str, flags: int) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(pack.read(entry), np.uint8), flags)
    if image is None:
        raise StudioError(f"face pack entry {entry} is damaged")
    return image
