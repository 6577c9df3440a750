"""Training helpers that need the optional ``train`` extra (PyTorch, onnx); skipped without it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_a_detector_training_run_can_start_from_the_shipped_float_weights_exactly():
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    import onnxruntime

    from vision.train import load_weights, train_mode
    from vision.train.detector import build_model

    model = build_model()
    frozen = load_weights(model, MODELS / "detector-float.onnx")
    assert frozen  # the folded batch norms must not move with each batch's statistics
    train_mode(model, frozen)
    picture = np.random.default_rng(1).random((2, 3, 144, 256), dtype=np.float32)
    with torch.no_grad():
        ours = torch.sigmoid(model(torch.from_numpy(picture))).numpy()
    shipped = onnxruntime.InferenceSession(str(MODELS / "detector-float.onnx")).run(
        None, {"picture": picture})[0]
    assert np.abs(ours - shipped).max() < 1e-4


def test_a_run_carried_on_from_the_pt_of_a_fine_tune_keeps_its_norms_frozen(tmp_path):
    """A fine-tune from the shipped ONNX weights trains with its batch norms frozen; carried on
    from its ``.pt``, it must keep them so, or the norms would normalise by each batch's
    statistics and the network would start out computing something else. A run whose norms
    learnt from batches is carried on with them free, as before."""
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")

    from vision.train import load_weights, train_mode
    from vision.train.detector import build_model

    picture = torch.from_numpy(np.random.default_rng(2).random((2, 3, 144, 256),
                                                               dtype=np.float32))
    for start_frozen in (True, False):
        model = build_model()
        frozen = load_weights(model, MODELS / "detector-float.onnx") if start_frozen else False
        train_mode(model, frozen)
        optimiser = torch.optim.SGD(model.parameters(), lr=0.01)
        model(picture).mean().backward()  # one step: weights (and free norms' statistics) move
        optimiser.step()
        torch.save(model.state_dict(), tmp_path / "detector.pt")
        model.eval()
        with torch.no_grad():
            before = model(picture)
        carried = build_model()
        assert load_weights(carried, tmp_path / "detector.pt") is start_frozen
        train_mode(carried, start_frozen)
        with torch.no_grad():
            after = carried(picture)
        if start_frozen:  # it carries on computing exactly what the run left off with
            assert torch.allclose(before, after, atol=1e-5)


def test_a_classifier_training_run_can_start_from_the_shipped_float_weights_exactly():
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    import onnxruntime
    import yaml

    from vision.train import load_weights
    from vision.train.classifier import build_model

    model = build_model()
    assert load_weights(model, MODELS / "cards-float.onnx")
    model.eval()  # dropout off, to compare
    temperature = yaml.safe_load((MODELS / "cards.yaml").read_text())["temperature"]
    crops = np.random.default_rng(2).random((3, 3, 96, 64), dtype=np.float32)
    with torch.no_grad():  # the shipped model averages each crop read as it is and turned
        views = [torch.softmax(model(torch.from_numpy(np.ascontiguousarray(c))) / temperature,
                               dim=1).numpy() for c in (crops, crops[:, :, ::-1, ::-1])]
    shipped = onnxruntime.InferenceSession(str(MODELS / "cards-float.onnx")).run(
        None, {"crops": crops})[0]
    assert np.abs((views[0] + views[1]) / 2 - shipped).max() < 1e-4


def test_a_portrait_training_run_can_start_from_the_shipped_reader_exactly():
    """The shipped reader runs each layer twice (the crop as it is and turned round), so its
    graph names each layer twice: both name the one layer of the network it was trained as."""
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    import onnxruntime
    import yaml

    from vision.train import load_weights
    from vision.train.classifier import _to_tensor
    from vision.train.portraits import both_ways, build_model, read

    model = build_model()
    assert load_weights(both_ways(model, 1.0), MODELS / "portraits.onnx")
    temperature = yaml.safe_load((MODELS / "portraits.yaml").read_text())["temperature"]
    crops = (np.random.default_rng(3).random((4, 144, 96, 3)) * 255).astype(np.uint8)
    shipped = onnxruntime.InferenceSession(str(MODELS / "portraits.onnx")).run(
        None, {"crops": _to_tensor(crops).numpy()})[0]
    assert np.abs(read(model, crops, temperature) - shipped).max() < 1e-4


def test_the_exported_classifier_reads_both_ways_as_two_separate_readings_would():
    """The export shares the corner features between a crop's two readings: the result must be
    what reading the crop and the turned crop apart gives."""
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    from vision.train.classifier import build_model

    torch.manual_seed(0)
    model = build_model().eval()
    crops = torch.rand(4, 3, 96, 64)
    with torch.no_grad():
        together = model.both_ways(crops)
        apart = torch.cat([model(crops), model(torch.flip(crops, dims=(2, 3)))])
    assert torch.allclose(together, apart, atol=1e-5)


def test_a_model_of_another_shape_is_refused():
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from vision.train import load_weights
    from vision.train.detector import build_model

    with pytest.raises(SystemExit, match="not a model of this shape"):
        load_weights(build_model(), MODELS / "cards-float.onnx")


def test_weights_that_cannot_be_started_from_are_refused_in_one_line(tmp_path):
    """A damaged file, or a training run's weights of another network, stop the run with the
    reason, not a traceback."""
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from vision.train import load_weights
    from vision.train.detector import build_model as detector
    from vision.train.portraits import build_model

    damaged_pt, damaged_onnx = tmp_path / "damaged.pt", tmp_path / "damaged.onnx"
    damaged_pt.write_bytes(b"not a model")
    damaged_onnx.write_bytes(b"not a model")
    torch.save(detector().state_dict(), tmp_path / "detector.pt")
    for path, says in ((damaged_pt, "not the weights of a training run, or damaged ones"),
                       (damaged_onnx, "not an ONNX model, or a damaged one"),
                       (tmp_path / "detector.pt", "the weights of another network")):
        with pytest.raises(SystemExit, match=says):
            load_weights(build_model(), path)


@pytest.mark.parametrize("trainer", ["classifier", "detector", "portraits", "suits"])
def test_starting_weights_that_do_not_exist_are_told_before_any_data_is_made(trainer, capsys,
                                                                              monkeypatch):
    import importlib

    module = importlib.import_module(f"vision.train.{trainer}")
    monkeypatch.setattr(module, "train", lambda args: pytest.fail("the data was made"))
    with pytest.raises(SystemExit) as stopped:
        module.main(["--init", "no/such/weights.pt"])
    assert stopped.value.code == 2
    assert "--init: 'no/such/weights.pt' does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("trainer", ["classifier", "detector", "portraits", "suits"])
def test_a_model_folder_that_cannot_be_made_is_told_before_any_training(trainer, tmp_path,
                                                                       capsys, monkeypatch):
    import importlib

    module = importlib.import_module(f"vision.train.{trainer}")
    monkeypatch.setattr(module, "train", lambda args: pytest.fail("the data was made"))
    (tmp_path / "a file").write_text("")
    with pytest.raises(SystemExit) as stopped:
        module.main(["--out", str(tmp_path / "a file" / "models")])
    assert stopped.value.code == 2
    assert "--out: cannot make the folder" in capsys.readouterr().err


def test_the_8_bit_model_is_refused_as_a_start_with_the_float_weights_named():
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from vision.train import load_weights
    from vision.train.classifier import build_model

    with pytest.raises(SystemExit, match="cards-float.onnx"):
        load_weights(build_model(), MODELS / "cards.onnx")


def test_a_device_pytorch_cannot_use_is_refused_in_one_line(capsys):
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    from vision.train.classifier import main

    assert main(["--device", "nonsense"]) == 2
    assert "--device nonsense" in capsys.readouterr().err
    assert main(["--device", "meta"]) == 2
    assert "only cpu and cuda" in capsys.readouterr().err
    if not torch.cuda.is_available():
        assert main(["--device", "cuda"]) == 2
        assert "sees no CUDA GPU" in capsys.readouterr().err


def test_detector_batches_are_the_same_cut_by_threads_or_not():
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    from concurrent.futures import ThreadPoolExecutor

    from vision.train.detector import NET_SIZE, RENDER_SCALE, _batch

    rng = np.random.default_rng(3)
    h, w = NET_SIZE[1] * RENDER_SCALE, NET_SIZE[0] * RENDER_SCALE
    pictures = rng.integers(0, 256, (6, h, w, 3), dtype=np.uint8)
    maps = rng.integers(0, 4, (6, h, w), dtype=np.uint8)
    index = np.array([4, 1, 5, 0])
    np.random.seed(0)
    import torch

    torch.manual_seed(0)
    alone = _batch(pictures, maps, index, np.random.default_rng(9))
    torch.manual_seed(0)
    with ThreadPoolExecutor(3) as pool:
        threaded = _batch(pictures, maps, index, np.random.default_rng(9), pool)
    assert torch.equal(alone[0], threaded[0]) and torch.equal(alone[1], threaded[1])


def test_a_zone_cut_shows_cards_at_a_whole_cut_s_scale_with_less_around_them():
    """A zone's look shows the network a card as big as the whole table's look does, with
    less of the table around it: a zone cut of a picture, drawn with the same zoom, must
    show the picture at the same scale as the whole cut, only a smaller part of it."""
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    from vision.train.detector import NET_SIZE, RENDER_SCALE, ZONE_NET_SIZE, _batch

    h, w = NET_SIZE[1] * RENDER_SCALE, NET_SIZE[0] * RENDER_SCALE
    # upright stripes 16 picture pixels wide: how many a network pixel crosses is the scale
    stripes = ((np.arange(w) // 16) % 2).astype(np.uint8)
    maps = np.broadcast_to(stripes, (1, h, w)).copy()
    pictures = np.repeat(maps[..., None] * 255, 3, axis=3)

    def stripes_a_pixel(batch) -> float:  # noqa: ANN001
        row = batch[0][0, 0, batch[0].shape[2] // 2].numpy() > 0.5
        return np.count_nonzero(row[1:] != row[:-1]) / len(row)

    for seed in range(5):  # (each seed draws its own zoom; both cuts draw the same)
        whole = _batch(pictures, maps, np.array([0]), np.random.default_rng(seed))
        zone = _batch(pictures, maps, np.array([0]), np.random.default_rng(seed), zone=True)
        assert tuple(whole[0].shape[2:]) == NET_SIZE[::-1]
        assert tuple(zone[0].shape[2:]) == tuple(zone[1].shape[2:]) == ZONE_NET_SIZE[::-1]
        # within a stripe either way, as the cuts start at other places
        assert stripes_a_pixel(zone) == pytest.approx(stripes_a_pixel(whole), abs=1.5 / 128)


@pytest.mark.parametrize("steps", [1, 2, 3, 4, 10, 20, 5000])
def test_the_rate_schedule_runs_through_short_runs_and_is_unchanged_for_long_ones(steps):
    """PyTorch's one-cycle schedule divides by zero where its warm share comes to exactly one
    step (a detector run of ten steps, at 0.1): such a run warms up over two steps instead;
    a real run keeps the share it asks for."""
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    from vision.train import one_cycle

    weight = torch.nn.Parameter(torch.zeros(1))
    optimiser = torch.optim.SGD([weight], lr=0.1)
    schedule = one_cycle(optimiser, 0.1, steps, warm=0.1)
    rates = []
    for _ in range(steps):
        optimiser.step()
        schedule.step()
        rates.append(optimiser.param_groups[0]["lr"])
    assert all(np.isfinite(rates)) and max(rates) <= 0.1 + 1e-12
    if steps >= 20:
        assert schedule.total_steps == steps and schedule._schedule_phases[0]["end_step"] \
            == pytest.approx(0.1 * steps - 1)
    assert one_cycle(optimiser, 0.1, 0) is None


def test_a_float_only_run_leaves_the_8_bit_model_to_later(tmp_path, capsys):
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from vision.train.detector import main

    assert main(["--pictures", "4", "--val-pictures", "2", "--epochs", "1", "--batch", "2",
                 "--workers", "1", "--threads", "1", "--float-only",
                 "--out", str(tmp_path)]) == 0
    assert (tmp_path / "detector-float.onnx").is_file()
    assert not (tmp_path / "detector.onnx").exists()
    assert "python -m vision.train quantize detector" in capsys.readouterr().err


def test_a_portrait_run_with_fewer_crops_than_a_batch_trains_on_them_all(tmp_path,
                                                                         monkeypatch):
    """A batch bigger than the crops made an epoch of no steps, and the run then stopped
    with a division by zero: now the crops make one step."""
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    import vision.train.portraits as trainer
    from vision.portraits import PORTRAIT_SIZE

    def crops(split, per_card, seed, workers, by_design=False):  # noqa: ANN001, ANN202
        rng = np.random.default_rng(seed)
        images = rng.integers(0, 256, (12, PORTRAIT_SIZE[1], PORTRAIT_SIZE[0], 3), np.uint8)
        ranks = np.arange(12) % 3
        return images, ranks, np.array([split] * 12) if by_design else None

    monkeypatch.setattr(trainer, "portrait_crops", crops)
    assert trainer.main(["--epochs", "1", "--batch", "64", "--workers", "1", "--threads", "1",
                         "--out", str(tmp_path)]) == 0
    assert (tmp_path / "portraits.onnx").is_file()


def test_a_suit_reader_run_exports_a_model_of_four_suits_the_classifier_loads(tmp_path,
                                                                             monkeypatch):
    """``python -m vision.train suits`` trains the portrait reader's network on suits: its
    export reads the four suits, its YAML says so, and a classifier beside it weighs it in."""
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    import shutil

    import yaml

    import vision.train.suits as trainer
    from vision.cardclasses import SUITS
    from vision.classify import CardClassifier
    from vision.portraits import PORTRAIT_SIZE

    def crops(split, per_card, seed, workers, by_design=False):  # noqa: ANN001, ANN202
        rng = np.random.default_rng(seed)
        images = rng.integers(0, 256, (8, PORTRAIT_SIZE[1], PORTRAIT_SIZE[0], 3), np.uint8)
        return images, np.arange(8) % 4, np.array([split] * 8) if by_design else None

    monkeypatch.setattr(trainer, "suit_crops", crops)
    assert trainer.main(["--epochs", "1", "--batch", "4", "--workers", "1", "--threads", "1",
                         "--out", str(tmp_path)]) == 0
    meta = yaml.safe_load((tmp_path / "suits.yaml").read_text())
    assert meta["suits"] == list(SUITS) and meta["temperature"] == 1.0
    shutil.copy(MODELS / "cards.onnx", tmp_path / "cards.onnx")
    classifier = CardClassifier(tmp_path / "cards.onnx", threads=1)
    assert classifier.suits is not None and classifier.portraits is None
    read = classifier.suits.read(np.zeros((2, PORTRAIT_SIZE[1], PORTRAIT_SIZE[0], 3), np.uint8))
    assert read.shape == (2, 4) and np.allclose(read.sum(axis=1), 1, atol=1e-5)


@pytest.mark.parametrize("trainer", ["classifier", "detector", "portraits", "suits"])
def test_every_training_option_says_what_it_does(trainer, monkeypatch):
    """``--help`` explains each option; only the trainers that export an 8-bit model offer to
    leave it to later (``--float-only``)."""
    import importlib

    module = importlib.import_module(f"vision.train.{trainer}")
    monkeypatch.setattr(module, "run_training", lambda parser, argv, train: parser)
    parser = module.main([])
    options = [a for a in parser._actions if a.option_strings and a.dest != "help"]
    assert options and all(a.help for a in options), [
        a.option_strings[0] for a in options if not a.help]
    offers = any("--float-only" in a.option_strings for a in options)
    assert offers is (trainer not in ("portraits", "suits"))


def test_a_fine_tunes_drift_from_its_starting_model_is_nothing_until_it_moves():
    """``--keep-close`` pays ``drift``: none while the readings are the starting model's, more
    the further they move, and it pulls them back towards the starting model's."""
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    from vision.train.classifier import drift

    was = torch.tensor([[4.0, 1.0, 0.0], [0.0, 3.0, 2.5]])
    assert float(drift(was.clone(), was)) == pytest.approx(0.0, abs=1e-6)
    near, far = was + torch.tensor([0.5, 0.0, 0.0]), was + torch.tensor([3.0, 0.0, 0.0])
    assert 0 < float(drift(near, was)) < float(drift(far, was))
    moved = far.clone().requires_grad_(True)
    drift(moved, was).backward()
    assert (moved.grad[:, 0] > 0).all()  # a step down the gradient lowers the pushed class


@pytest.mark.parametrize("option, value, says", [
    ("--epochs", "-1", "must be at least 0, not -1"),
    ("--batch", "0", "must be at least 1, not 0"),
    ("--workers", "two", "'two' is not a whole number"),
    ("--lr", "0", "must be greater than 0, not 0"),
    ("--lr", "nan", "must be greater than 0, not nan"),
    ("--per-class", "0", "must be at least 1, not 0"),
    ("--portrait-drill", "1.5", "must lie between 0 and 1, not 1.5"),
])
def test_a_wrong_count_or_rate_is_a_one_line_usage_error(option, value, says, capsys):
    from vision.train.classifier import main

    with pytest.raises(SystemExit) as stopped:
        main([option, value])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: {says}" in err and "Traceback" not in err


def test_painting_over_the_corners_hides_the_index_in_the_crop_s_own_paper_colour():
    from vision.cardclasses import CROP_SIZE
    from vision.train.classifier import CORNER, paint_over_corners

    width, height = CROP_SIZE
    cw, ch = round(width * CORNER[0]), round(height * CORNER[1])
    rng = np.random.default_rng(0)
    crops = np.full((2, height, width, 3), (200, 210, 220), np.uint8)
    crops[1] //= 2  # a card in the shade
    crops[:, 4:12, 4:10] = 0  # the index letters
    crops[:, height - 12:height - 4, width - 10:width - 4] = 0
    crops[:, 40:56, 24:40] = (0, 0, 255)  # the portrait
    painted = paint_over_corners(crops, rng)
    assert crops[0, 6, 6].tolist() == [0, 0, 0]  # the crops given are left as they were
    for n, paper in enumerate(((200, 210, 220), (100, 105, 110))):
        for corner in (painted[n, :ch, :cw], painted[n, height - ch:, width - cw:]):
            assert np.abs(corner.reshape(-1, 3).mean(0) - paper).max() < 3
            assert corner.min() > min(paper) - 25  # no letter left
        assert (painted[n, 40:56, 24:40] == (0, 0, 255)).all()
        assert (painted[n, ch:height - ch] == crops[n, ch:height - ch]).all()


def test_no_epochs_needs_a_model_to_measure(capsys):
    from vision.train.detector import main

    with pytest.raises(SystemExit) as stopped:
        main(["--epochs", "0"])
    assert stopped.value.code == 2
    assert "--epochs 0 only measures and exports a model: name it with --init" in (
        capsys.readouterr().err)


def test_no_epochs_exports_the_starting_model_as_it_is(tmp_path):
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    onnx = pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from onnx import numpy_helper

    from vision.train.detector import main

    assert main(["--pictures", "2", "--val-pictures", "2", "--epochs", "0", "--batch", "2",
                 "--workers", "1", "--threads", "1", "--float-only", "--init",
                 str(MODELS / "detector-float.onnx"), "--out", str(tmp_path)]) == 0

    def weights(path):
        graph = onnx.load(str(path)).graph
        return [numpy_helper.to_array(i) for i in graph.initializer]

    shipped, exported = weights(MODELS / "detector-float.onnx"), weights(
        tmp_path / "detector-float.onnx")
    assert len(shipped) == len(exported)
    assert all(np.allclose(a, b, atol=1e-5) for a, b in zip(shipped, exported))
    assert "epochs: 0" in (tmp_path / "detector.yaml").read_text()


@pytest.mark.parametrize("option, value, says", [
    ("--pictures", "0", "must be at least 1, not 0"),
    ("--agree", "1.5", "must lie between 0 and 1, not 1.5"),
    ("--agree", "most", "'most' is not a number"),
])
def test_quantizing_refuses_a_wrong_count_or_share_in_one_line(option, value, says, capsys):
    from vision.train.quantize import main

    with pytest.raises(SystemExit) as stopped:
        main(["detector", option, value])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: {says}" in err and "Traceback" not in err


def test_quantizing_a_model_of_the_other_kind_or_a_damaged_one_is_refused_in_one_line(
        tmp_path, capsys):
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from vision.train.quantize import main

    damaged = tmp_path / "cards-float.onnx"
    damaged.write_bytes(b"not a model")
    for what, model, says in (("detector", MODELS / "cards-float.onnx", "is no card detector"),
                              ("classifier", damaged, "cannot load classifier model")):
        assert main([what, "--float", str(model), "--out", str(tmp_path / "out.onnx")]) == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err
    assert not (tmp_path / "out.onnx").exists()


def test_crops_become_the_run_time_input_on_the_device_they_are_sent_to():
    """``_to_tensor`` sends the crops' bytes to the device and makes floats there: the same
    (N, 3, H, W) BGR input in [0, 1] as the program feeds the model, whether a device is named
    or not, and from a gathered (non-contiguous) batch too."""
    torch = pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    from vision.train.classifier import _to_tensor

    crops = np.random.default_rng(3).integers(0, 256, (6, 96, 64, 3), dtype=np.uint8)
    want = torch.from_numpy(crops.transpose(0, 3, 1, 2).astype(np.float32) / 255)
    for batch, device in ((crops, None), (crops, torch.device("cpu")),
                          (crops[::2], torch.device("cpu"))):
        got = _to_tensor(batch, device)
        expected = want[::2] if len(batch) == 3 else want
        assert got.dtype == torch.float32 and got.shape == expected.shape
        assert torch.allclose(got, expected, atol=1e-7)


def test_one_validation_crop_a_class_is_made_without_an_empty_half():
    """``--val-per-class 1`` (allowed) once stopped the classifier's training with a
    traceback: its validation crops are half hard and half normal, and the normal half of one
    was none."""
    from vision.cardclasses import CLASSES
    from vision.train.classifier import _mixed_crops

    images, labels = _mixed_crops("tiny", 1, 3, 1)
    assert len(images) == len(labels) == len(CLASSES)
    assert sorted(labels.tolist()) == list(range(len(CLASSES)))
    images, labels = _mixed_crops("tiny", 3, 3, 1)
    assert len(images) == 3 * len(CLASSES)
