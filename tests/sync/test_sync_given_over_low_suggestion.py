"""A suggestion under the one-click bar never overrides the moderator's offset (issue 13,
session 26; reading.analyze_at, GIVEN_NEAR_S).

Kaboom! with 4 s cut at video 19.37 s (seed 2613, truth 2.6 s): at `--offset auto` the rest
of the run singles out -1.40 s, the offset after the cut, offered at 0.4 (under the one-click
bar: its first 12 presses are at chance there, core/sync/head.py). With the truth given, or
an offset near it, the reactions and every finding were still read at -1.40 s: the run's head
said to be at chance and the cut unseen. They are read at the moderator's offset now, and
the held picture that ends at the cut is found there.
"""

from __future__ import annotations

import corpus
import pytest
from test_sync_head_refusal import _auto
from test_sync_splice_span import _run

from moderator_app.core.sync.reading import GIVEN_NEAR_S
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


@pytest.mark.parametrize("given", [0.0, 0.3, -0.5, -1.0])
def test_a_low_confidence_suggestion_far_away_does_not_override_the_offset_given(given):
    run = _run("kaboom", "cut", 2613)
    t = run.truth
    auto = _auto(run)
    # the premise: at auto, a suggestion under the bar, seconds from the truth
    assert auto.suggested_offset_s is not None and auto.confidence < APPLY_MIN_CONFIDENCE
    assert abs(auto.suggested_offset_s - t["offset_s"]) > GIVEN_NEAR_S + 1.0  # duration-ok: offsets on the video clock, not a wall time
    offset = t["offset_s"] + given
    a = _auto(run, offset)
    # on main: read at -1.385 s (the suggestion), a `sync.no_reaction` over the run's head
    assert a.offset_used_s == pytest.approx(offset)  # duration-ok: an offset, not a time
    assert a.suggested_offset_s is None
    assert "under the one-click bar" in a.reason
    first = float(run.action_times[0])
    heads = [f for f in a.findings if f.run_start_s is not None and f.run_start_s <= first]
    assert heads == []
    cut = t["tamper"]["video_s"]
    # every finding at the cut's place (an edge within 1 s of it, QA's bar)
    spans = [(f.rule, f.video_start_s, f.video_end_s) for f in a.findings]
    assert spans and all(v0 is not None and v1 is not None and
                         min(abs(v0 - cut), abs(v1 - cut)) <= 1.0 for _, v0, v1 in spans), spans


def _jumps(a) -> list[tuple[float, float]]:
    return [(round(f.video_start_s, 2), round(f.size_s, 1)) for f in a.findings
            if f.rule == "sync.offset_jump" and f.video_start_s is not None
            and f.size_s is not None]


def test_a_low_confidence_suggestion_near_the_offset_given_is_still_read():
    # Pong with 4 s cut (truth 1.767 s): its suggestion 1.790 s lies 1.023 s from the truth
    # - 1.0 s (the reactions' lag past the moderator's 1 s): read there, its cut is found
    run = corpus.build("pong-cut")
    a = _auto(run, run.truth["offset_s"] - 1.0)
    assert a.suggested_offset_s is not None
    assert _jumps(a) == [(22.95, -4.0)]


def test_a_suggestion_whose_first_stretch_is_near_the_offset_given_is_still_read():
    # Kaboom! with 4 s inserted at 22.87 s (seed 2621): its reading suggests the offset after
    # the insertion, its first stretch is the truth's (analysis._first_stretch); given the
    # truth, the insertion is found there
    run = _run("kaboom", "insert", 2621)
    a = _auto(run, run.truth["offset_s"])
    assert a.suggested_offset_s == pytest.approx(run.truth["offset_s"], abs=1 / 30)  # duration-ok: an offset within a frame (video clock)
    assert _jumps(a) == [(22.87, 4.0)]
