"""The real webcam photographs of ``../shared/data`` (never trained on, see its README): issue 4
asks that at least 95 % of their cards be read right, and the referee's trust asks that none be
read wrongly at the confidence an accusation needs."""

from __future__ import annotations

import pytest

from referee.config import RefereeSettings
from tests.helpers import SHARED
from vision.check import read_labels, report, run_check

WEBCAM = SHARED / "data" / "real-webcam-hearts" / "labels.csv"


@pytest.mark.skipif(not WEBCAM.is_file(), reason="../shared/data is not beside us")
def test_the_real_webcam_photographs_are_read_as_issue_4_asks():
    tasks, positioned = read_labels(WEBCAM)
    tally = run_check(tasks, positioned, crops=False, workers=2, progress=False)
    figures = report(tally, str(WEBCAM), crops=False)
    assert figures["images"] == len(tasks) == figures["cards"] > 800  # all read, none skipped
    assert figures["card_accuracy"] >= 0.95, figures["worst_images"][:5]
    accuse = RefereeSettings().accuse_confidence
    assert figures["wrong_at_or_above"][f"{accuse:g}"] == 0
