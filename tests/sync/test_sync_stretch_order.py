"""A stretch whose footage the video would show ahead of the stretch the log puts before it is
a chance match, not a splice (issue 13, session 28; core/sync/track.py `overtakes`,
core/sync/local_findings.py `_reordered`).

Kaboom!'s bombs flash the whole screen every few seconds, so a few presses line up at almost
any offset. Session 26's cut at seed 2629 (4 s cut at video 19.37 s, truth 2.6 s): the
track read the first 11 presses at 21.17 s (video 23.2-39.0 s) and the 13 after them at the
offset after the cut, -1.39 s (video 18.3-36.0 s), and said "-22.57 s near video 32.67 s",
13.3 s after the cut, with 21.17 s suggested (under the bar). No cut or insertion shows the
log out of its order. Breakout's retake (a second attempt spliced in at 16.97 s) also lost a
jump at 33.68 s, 16.7 s after its splice; its splice stays said, at 16.97 s.
"""

from __future__ import annotations

import corpus
import pytest
from test_sync_lone_insertion import _kaboom, _read

from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def test_a_stretch_the_video_would_show_out_of_the_logs_order_is_no_jump():
    run = _kaboom("cut", 2629)
    assert run.truth["tamper"]["video_s"] == pytest.approx(19.3667, abs=1e-3)
    a = _read(run)
    # on main: `sync.offset_jump` -22.57 s at video 32.67 s, 21.1698 s suggested at 0.225
    assert [f.rule for f in a.findings] == []
    assert a.suggested_offset_s is not None and a.confidence < APPLY_MIN_CONFIDENCE
    assert abs(a.suggested_offset_s - 21.17) > 1.0  # duration-ok: an offset (the chance one)
    assert "chance alignment" in a.confidence_note


def test_a_retakes_splice_stays_said_without_a_jump_far_from_it():
    run = corpus.build("breakout-retake")
    splice = run.truth["tamper"]["video_s"]
    a = _read(run)
    # on main: `sync.offset_jump` at 16.97 s and at 33.68 s (16.7 s after the splice)
    assert [(f.rule, round(f.video_start_s, 2)) for f in a.findings] == \
        [("sync.no_reaction", 16.97)]
    assert abs(a.findings[0].video_start_s - splice) <= 1.0  # duration-ok: a video time (the splice's)
