"""A suggestion's confidence keeps its bounds when a part of the run is taken off (issue 13,
session 25; `analysis.analyze_at`).

The confidence of a suggestion is its fit's significance times its support, bounded when the
offset rests on the earliest group of reactions alone (`precede.behind_s`), on an earlier
group beyond the cap or on reactions spread past the fit's model. When a stretch the offset
does not explain is taken off (a cut, a second attempt), the offset is measured again on the
rest and the confidence recomputed from the rest's support: the bounds were dropped there.
"""

from __future__ import annotations

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _auto(run: corpus.Run):
    return analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS, None,
                   run_duration_s=run.run_end_s)


@pytest.mark.parametrize("name", ["pong-cut", "pong-retake"])
def test_a_first_stretch_resting_on_its_earliest_group_is_not_offered(name):
    """Pong's cut and second attempt: the first stretch's offset rests on its earliest group
    of reactions (4 and 6 presses: confidence 0.25 and 0.39), 1.37 and 1.59 frames late. The
    stretch the offset does not explain was taken off and the confidence recomputed from the
    rest's support without that bound: offered at 0.64 on main, a confident wrong offset."""
    run = corpus.build(name)
    a = _auto(run)
    assert a.suggested_offset_s is not None
    err = abs(a.suggested_offset_s - run.truth["offset_s"]) * run.truth["fps"]
    if err > 1.0:
        assert a.confidence < APPLY_MIN_CONFIDENCE, (err, a.confidence)
