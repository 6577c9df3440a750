"""Face packs: the face cache shrunk into one file, and a cache filled from it with nothing
fetched (no download needed: the faces are drawn here)."""

from __future__ import annotations

import json
import zipfile

import cv2
import numpy as np
import pytest

from referee.cards import FULL_DECK
from vision.cli import main
from vision.studio import facepack
from vision.studio.faces import BACK, StudioError, designs_in
from vision.studio.facesets import TinyFaces, face_sets


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A face cache ($SUECA_CACHE) holding the first validation design, drawn here, as
    ``studio faces`` would leave it: every face 240 px wide with rounded corners."""
    monkeypatch.setenv("SUECA_CACHE", str(tmp_path / "cache"))
    design = designs_in("val")[0]
    folder = tmp_path / "cache" / "faces" / design.name
    folder.mkdir(parents=True)
    drawn = TinyFaces(1, width=240)
    for key in [str(card) for card in FULL_DECK] + [BACK]:
        cv2.imwrite(str(folder / f"{key}.png"), drawn.face(key))
    (folder / "design.json").write_text(json.dumps({"name": design.name, "split": "val"}))
    return tmp_path, design.name


def test_a_pack_refills_an_empty_cache_with_the_same_faces_shrunk(cache, monkeypatch):
    tmp_path, name = cache
    size = facepack.pack_faces("val", tmp_path / "faces.zip")[1]
    assert 0 < size < 53 * 8000  # a few kB a face, against about 20 kB in the cache
    monkeypatch.setenv("SUECA_CACHE", str(tmp_path / "other"))
    assert facepack.unpack_faces(tmp_path / "faces.zip") == [name]
    sets = face_sets(name, log=lambda m: pytest.fail(f"fetched or built: {m}"))
    for key in ("QH", "7S", BACK):
        original = cv2.imread(str(tmp_path / "cache" / "faces" / name / f"{key}.png"),
                              cv2.IMREAD_UNCHANGED)
        face = sets[0].face(key)
        assert face.shape[1] == facepack.PACK_WIDTH and face.shape[2] == 4
        shrunk = cv2.resize(original, face.shape[1::-1], interpolation=cv2.INTER_AREA)
        assert (face[..., 3] == shrunk[..., 3]).all()  # the corners exactly
        # (lossy: a fine cross-hatch blurs most; the 7S is off from the QH by over 40)
        assert np.abs(face[..., :3].astype(int) - shrunk[..., :3]).mean() < 12
    meta = json.loads((tmp_path / "other" / "faces" / name / "design.json").read_text())
    assert meta["packed"] == {"width": facepack.PACK_WIDTH, "quality": facepack.QUALITY}


def test_a_design_already_in_the_cache_is_kept(cache):
    tmp_path, name = cache
    facepack.pack_faces("val", tmp_path / "faces.zip")
    kept = tmp_path / "cache" / "faces" / name / "QH.png"
    before = kept.read_bytes()
    assert facepack.unpack_faces(tmp_path / "faces.zip") == []
    assert kept.read_bytes() == before


def test_a_missing_or_damaged_pack_is_one_clear_error(cache, capsys, monkeypatch):
    tmp_path, _ = cache
    facepack.pack_faces("val", tmp_path / "faces.zip")
    monkeypatch.setenv("SUECA_CACHE", str(tmp_path / "cli"))  # an empty cache to fill
    whole = (tmp_path / "faces.zip").read_bytes()
    (tmp_path / "cut.zip").write_bytes(whole[: len(whole) // 2])
    with zipfile.ZipFile(tmp_path / "faces.zip") as pack, \
            zipfile.ZipFile(tmp_path / "bad.zip", "w") as bad:
        for entry in pack.namelist():  # one face's colours replaced by rubbish
            data = b"rubbish" if entry.endswith("QH.webp") else pack.read(entry)
            bad.writestr(entry, data)
    empty = tmp_path / "empty"
    for path, says in ((tmp_path / "none.zip", "no face pack"),
                       (tmp_path / "cut.zip", "not a face pack"),
                       (tmp_path / "bad.zip", "damaged")):
        with pytest.raises(StudioError, match=says):
            facepack.unpack_faces(path, empty)
        assert main(["studio", "faces", "--from-pack", str(path)]) == 1
        err = capsys.readouterr().err.strip()
        assert says in err and len(err.splitlines()) == 1
    # a design whose faces did not all unpack is not in the cache
    assert not any(empty.glob("*/design.json"))


def test_the_faces_command_writes_a_pack_and_fills_a_cache_from_it(cache, monkeypatch,
                                                                   capsys):
    tmp_path, name = cache
    import vision.studio.faces as faces

    # (the command builds the split's designs first: here the one drawn stands for them all)
    monkeypatch.setattr(faces, "build_faces", lambda *a, **k: tmp_path / "cache" / "faces")
    assert main(["studio", "faces", "--split", "val", "--pack",
                 str(tmp_path / "p" / "faces.zip")]) == 0
    assert "1 designs" in capsys.readouterr().out
    monkeypatch.setenv("SUECA_CACHE", str(tmp_path / "fresh"))
    assert main(["studio", "faces", "--split", "val", "--from-pack",
                 str(tmp_path / "p" / "faces.zip")]) == 0
    assert "1 designs unpacked" in capsys.readouterr().out
    assert (tmp_path / "fresh" / "faces" / name / "design.json").exists()


def test_the_command_line_runs_as_a_module_where_the_package_is_not_installed():
    """The GPU recipe runs ``python3 -m vision.cli`` from a bare copy of the repository."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    ran = subprocess.run([sys.executable, "-m", "vision.cli", "--version"], cwd=root,
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0 and "sueca-referee" in ran.stdout + ran.stderr
