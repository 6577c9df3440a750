"""Contact sheets: many pictures of a labelled set on one image, to look at them at a glance."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np


def contact_sheet(labels: Path, out: Path, count: int = 12, columns: int = 4,
                  tile_width: int = 320, outlines: bool = False) -> int:
    """Write the first ``count`` pictures of the set whose ``labels.csv`` is ``labels`` as one
    JPEG or PNG; with ``outlines`` each labelled card is outlined and named. Returns how many
    pictures it holds. Raises ``OSError`` when the set or the sheet cannot be read or written."""
    rows: dict[str, list[dict[str, str]]] = defaultdict(list)
    folder = labels.parent
    with labels.open(newline="") as handle:
        for row in csv.DictReader(handle):
            rows[row["image"]].append(row)
    names = sorted({p.relative_to(folder).as_posix() for p in (folder / "images").glob("*.jpg")})
    tiles = []
    for name in names[:count]:
        picture = cv2.imread(str(folder / name))
        if picture is None:
            continue
        if outlines:
            for row in rows.get(name, []):
                pts = np.array([[float(row[f"x{k}"]), float(row[f"y{k}"])] for k in range(1, 5)])
                pts = np.round(pts).astype(np.int32)
                cv2.polylines(picture, [pts], True, (0, 0, 255), 2, cv2.LINE_AA)
                cv2.putText(picture, f"{row['card']} {row['seat'] or '-'}", tuple(pts[0]),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 255, 255), 2, cv2.LINE_AA)
        h, w = picture.shape[:2]
        tiles.append(cv2.resize(picture, (tile_width, int(round(h * tile_width / w))),
                                interpolation=cv2.INTER_AREA))
    if not tiles:
        raise OSError(f"no readable pictures in {folder / 'images'}")
    height = max(t.shape[0] for t in tiles)
    tiles = [cv2.copyMakeBorder(t, 0, height - t.shape[0], 0, 0, cv2.BORDER_CONSTANT)
             for t in tiles]
    while len(tiles) % columns:
        tiles.append(np.zeros_like(tiles[0]))
    sheet = np.vstack([np.hstack(tiles[i:i + columns]) for i in range(0, len(tiles), columns)])
    jpeg = out.suffix.lower() in (".jpg", ".jpeg")  # (a PNG takes no quality)
    if not cv2.imwrite(str(out), sheet, [cv2.IMWRITE_JPEG_QUALITY, 85] if jpeg else []):
        raise OSError(f"cannot write '{out}'")
    return min(count, len(names))
