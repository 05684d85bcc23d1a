"""Session 14's cuts of the analysis' cost (issue 13: the analysis adds at most 20 % to the
scan's time; QA's Gopher run stood at 28.7 %) give the answers of the code they replaced, bit
for bit: the every-speed search by the C sums against the plain search, the shuffled logs'
learned scores against their full learned fits, the player's tiles and answers against the
loops they replaced, and the insertion search's sorted checks against its masks."""

from __future__ import annotations

import numpy as np
import pytest
from one_tile import bits as _bits
from one_tile import signals as _signals

from moderator_app.core.sync import (
    align,
    analysis,
    fit,
    insertion,
    local_findings,
    lookup,
    reactions,
    stretch,
)
from moderator_app.core.sync.signals import FrameSignals, frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

needs_c = pytest.mark.skipif(lookup.NATIVE is None, reason="the C sums are not built")


def _breakout():
    """A real 40 s recording (tests/corpus): its 8x8 signals and logged actions' times."""
    import corpus

    if corpus.available() is not None:
        pytest.skip(f"corpus cannot be built: {corpus.available()}")
    run = corpus.build("breakout-genuine")
    return frame_signals(run.video), np.array(run.action_times)


def _plain(look, offsets, run_s, speeds) -> tuple[float, float]:
    """Every speed's every score (`_scores`), the first speed of the highest."""
    tops = [float(lookup.scores(look, offsets, run_s, float(s)).max()) for s in speeds]
    k = max(range(len(tops)), key=lambda i: tops[i])
    return float(speeds[k]), tops[k]


@needs_c
@pytest.mark.parametrize("batch", [None, 5000])  # None: as built
def test_every_speed_search_by_the_c_sums_is_the_plain_search(monkeypatch, batch):
    """With the C sums a search over several speeds sums every offset at every speed (in
    batches of speeds) instead of bounding blocks: the same speed and score as the plain
    search, on the real log, a drifting one and shuffled ones. Fails before session 14: the
    bounded blocks were asked."""
    if batch is not None:
        monkeypatch.setattr(align, "SPEED_BATCH_FLOATS", batch)

    def no_bounds(*a, **kw):
        raise AssertionError("bounded blocks asked")

    monkeypatch.setattr(align, "_bounded", no_bounds)
    sig, actions = _signals()
    look = lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))
    rng = np.random.default_rng(3)
    logs = [actions, actions * 1.0437] + [fit.permuted(actions, rng) for _ in range(4)]
    for run_s in logs:
        grid = align.offset_grid(sig, run_s)
        for speeds in (align.SPEEDS[::4], align.SPEEDS[20:29], np.array([1.01, 0.99, 1.0])):
            got = align.top_speed_score(look, grid, run_s, speeds)
            assert (got[0], _bits(got[1])) == (lambda p: (p[0], _bits(p[1])))(
                _plain(look, grid, run_s, speeds))
    flat = lookup.Lookup(sig, np.ones(len(sig)))  # every speed ties: the first is chosen
    grid = align.offset_grid(sig, actions)
    assert align.top_speed(flat, grid, actions[2:8], np.array([1.01, 0.99, 1.0])) == 1.01


def test_shuffled_logs_learned_scores_are_their_learned_fits_scores():
    """The significance test of a 40 s run takes each shuffled log's learned score from
    its peaks (`fit._learned_score`) rather than from its whole learned fit: the same z, bit
    for bit, as with the fits (fails before session 14 only in cost: shown by the count)."""
    sig, actions = _signals()
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    q = reactions.background_rates(sig, nov1)
    rng = np.random.default_rng(7)
    for _ in range(6):
        p = fit.permuted(actions, rng)
        assert _bits(fit._learned_score(sig, nov1, look1, q, p, 1.0, TH)) == \
            _bits(fit.learned_fit(sig, nov1, look1, q, p, 1.0, TH)[0].score)


@needs_c
def test_a_short_runs_significance_needs_no_whole_fit_per_shuffled_log(monkeypatch):
    """40 s, C sums built: the 19 shuffled logs ask no `align.fit` (session 13 fitted each
    one twice, its z and margin never read); the z is the one the fits give."""
    sig, actions = _breakout()
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    q = reactions.background_rates(sig, nov1)
    f, z = fit.significance(sig, nov1, look1, q, actions, 1.0, TH, {})
    assert z >= TH.sync_min_null_z  # every shuffled log ran (none did as well)
    calls = []
    real = align.fit
    monkeypatch.setattr(align, "fit", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    f2, z2 = fit.significance(sig, nov1, look1, q, actions, 1.0, TH, {})
    assert len(calls) <= 2  # the real log's learned fit only (plain, then learned)
    assert f2 == f and _bits(z2) == _bits(z)
    monkeypatch.setattr(fit, "_learned_score", lambda s, n1, l1, qq, p, sp, th:
                        fit.learned_fit(s, n1, l1, qq, p, sp, th)[0].score)
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    assert _bits(fit.significance(sig, nov1, look1, q, actions, 1.0, TH, {})[1]) == _bits(z)


def _input_tiles_loop(sig, nov, video_s, window_s, q):
    """`stretch.input_tiles` as session 13 computed it: a loop over the reactions."""
    on = nov.onsets
    w = max(1, int(round(window_s * sig.fps)))
    react = np.zeros(on.shape[1])
    for v in video_s:
        k = reactions.frame_at(sig.times, v)
        react += on[k:k + w].any(axis=0)
    p = react / max(1, len(video_s))
    return (p >= stretch.INPUT_SHARE) & (p >= stretch.INPUT_RATIO * q)


def _answers_plain(sig, nov, tiles, expected_v):
    """`stretch.answers` as session 13 computed it on every call."""
    x = np.asarray(nov.onsets[:, tiles].any(axis=1))
    n = x.shape[0]
    w = max(1, int(round(stretch.WINDOW_S * sig.fps)))
    c = np.concatenate([[0], np.cumsum(x)])
    idx = np.arange(n)
    hit = (c[np.clip(idx + w + 1, 0, n)] - c[np.clip(idx - 1, 0, n)]) > 0
    ks = np.clip(np.searchsorted(sig.times, expected_v - 1e-6), 0, n - 1)
    span = int(stretch.LOCAL_S * sig.fps)
    h = np.concatenate([[0], np.cumsum(hit)])
    lo, hi = np.clip(ks - span, 0, n), np.clip(ks + span, 0, n)
    chance = (h[hi] - h[lo]) / np.maximum(1, hi - lo)
    past = np.asarray(expected_v) > sig.times[-1] + 1e-6
    return hit[ks] & ~past, np.clip(chance, stretch.CHANCE_FLOOR, 0.98)


@pytest.mark.parametrize("chance", [0.002, 0.02, 0.2])
def test_player_tiles_and_answers_are_the_loops_they_replaced(chance):
    sig, actions = _signals(chance=chance)
    nov = reactions.novelty(sig)
    w = reactions.tile_weights(sig, nov, 1.5 + actions, reactions.background_rates(sig, nov))
    nov_r = reactions.novelty(sig, w, like=nov)  # shares the onsets' counts
    q = reactions.background_rates(sig, nov)
    rng = np.random.default_rng(2)
    # reactions on the footage, before it, past its end, on a frame time exactly, and none
    for video_s in (list(1.5 + actions), [-3.0, 0.0, float(sig.times[5]), 39.99, 55.0], []):
        got = stretch.input_tiles(sig, nov_r, video_s, 0.1, q)
        assert got.tolist() == _input_tiles_loop(sig, nov_r, video_s, 0.1, q).tolist()
    tiles = np.isin(np.arange(64), [9, 20, 41])
    answer = stretch.answerer(sig, nov_r, tiles)
    for v in (1.5 + actions, rng.uniform(-5.0, 50.0, 200), np.array([float(sig.times[-1])]),
              1.5 + actions[None, :] + np.linspace(-1, 1, 7)[:, None]):
        s, c = answer(v)
        s0, c0 = _answers_plain(sig, nov_r, tiles, v)
        assert s.tolist() == s0.tolist() and _bits(c) == _bits(c0)
        assert [x.tolist() for x in stretch.answers(sig, nov_r, tiles, v)] == \
            [s0.tolist(), c0.tolist()]


def test_an_analysis_finds_the_player_tiles_once_per_scale(monkeypatch):
    """`unexplained`, `with_insertion` and `with_answers` ask about the same analysis in
    turn: its player tiles and answers are found once (session 13: three times), with the
    same answers."""
    sig, actions = _breakout()
    before = analysis.analyze_at(actions, sig, TH)
    calls = []
    real = stretch.input_tiles
    monkeypatch.setattr(stretch, "input_tiles",
                        lambda *a, **kw: calls.append(1) or real(*a, **kw))
    after = analysis.analyze_at(actions, sig, TH)
    assert after.suggested_offset_s is not None and after.answers
    assert len(calls) == 2  # `activity`'s (a window of its own) and the answers' (was 4)
    assert repr(after) == repr(before) and after.answers == before.answers
    out = local_findings._stretch_answers(after, sig, reactions.novelty(sig), TH,
                                          reactions.background_rates(sig, reactions.novelty(sig)))
    assert out is not None and len(calls) == 3  # without the analysis' memo: found again


def _find_masks(answer, exp, s, chance, sig, min_null_z, min_rest, monkeypatch):
    """`insertion.find` with its sorted first checks off (each side checked by masks only,
    as before session 14)."""
    monkeypatch.setattr(insertion, "_side_fits", lambda *a, **kw: True)
    try:
        return insertion.find(answer, exp, s, chance, sig, min_null_z, min_rest)
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_insertion_search_with_sorted_checks_finds_what_the_masks_find(monkeypatch, seed):
    """Footage inserted at a random place (its two splices among random large changes), the
    actions in log order, shuffled, and with a NaN time: the same insertion, or none, with
    and without the sorted first checks."""
    rng = np.random.default_rng(seed)
    fps, n = 60.0, 2700
    t = np.arange(n) / fps
    run = np.sort(rng.uniform(0.5, 36.0, 22))
    at, size = float(rng.uniform(8.0, 20.0)), float(rng.choice([2.0, 4.0, 6.5]))
    head = run < at - 2.0  # the actions shown before the insertion
    shown = np.where(head, 2.0 + run, 2.0 + size + run) + 0.5 / fps
    change = rng.integers(1, 100, n).astype(np.uint16)
    for v in [2.0 + at - 2.0 + 0.3, 2.0 + at - 2.0 + 0.3 + size, *rng.uniform(1, 44, 6)]:
        change[int(round(v * fps))] = 5000
    sig = FrameSignals(t, np.zeros((n, 16), np.uint16), fps, whole=change)

    def answer(v):
        v = np.asarray(v, float)
        d = v[..., None] - shown
        return ((d >= -1 / fps) & (d <= 0.1)).any(axis=-1), np.full(v.shape, 0.2)

    found = 0
    order = rng.permutation(len(run))
    for exp in (2.0 + size + run, (2.0 + size + run)[order], 2.0 + run,
                np.r_[2.0 + size + run[:-1], np.nan]):
        s, c = answer(exp)
        got = insertion.find(answer, exp, s, c, sig, TH.sync_min_null_z_splice, 6)
        want = _find_masks(answer, exp, s, c, sig, TH.sync_min_null_z_splice, 6, monkeypatch)
        assert (got is None) == (want is None)
        if got is not None:
            found += 1
            assert (got.start_s, got.end_s, got.head, got.z) == \
                (want.start_s, want.end_s, want.head, want.z)
            assert got.moved.tolist() == want.moved.tolist()
    assert found >= 1  # the insertion is there to find


@pytest.mark.parametrize("n", [1, 5, 6, 401])
@pytest.mark.parametrize("w", [1, 5, 6])
def test_onset_share_from_the_novelty_counts_is_as_counted_anew(n, w):
    sig, _ = _signals()
    nov = reactions.novelty(sig)
    on = nov.onsets[:n]
    counts = nov.onset_counts[:n + 1]
    assert _bits(stretch.onset_share(on, w, counts)) == _bits(stretch.onset_share(on, w))


@pytest.mark.parametrize("fps", [24.0, 30.0, 60.0, 120.0])
def test_lookahead_is_the_maximum_over_its_frames(fps):
    """best[k] = max(clip(excess / spread, 0, 6)) over frames k-1 .. k+W (`_lookahead`, a
    running maximum in place since session 14), as the stacked copies gave it."""
    sig, _ = _signals(fps=fps, seconds=20.0)
    nov = reactions.novelty(sig)
    w = max(1, int(round(lookup.WINDOW_FRAMES_S * fps)))
    x = np.clip(nov.excess / nov.spread, 0.0, 6.0)
    pad = np.concatenate([[0.0], x, np.zeros(w + 1)])
    plain = np.stack([pad[i:i + len(x)] for i in range(w + 2)]).max(axis=0)
    assert _bits(lookup.lookahead(sig, nov)) == _bits(plain)


def test_piecewise_support_counts_each_action_at_its_stretchs_offset():
    """`fit.piecewise_support` looks every action up at once: the count the loop over the
    actions gave (one `track.supported` call each, session 13)."""
    from moderator_app.core.sync import track

    sig, actions = _signals(seconds=60.0, actions_n=50)
    nov = reactions.novelty(sig)
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    for run_s, offset, speed in ((actions, 1.5, 1.0), (actions * 1.03, 1.2, 1.03),
                                 (actions[:20], 0.4, 1.0)):
        cands = fit.candidates(sig, nov, look, run_s, offset, speed, TH)
        path = track.segment(look, run_s, cands, speed, TH.sync_reaction_z)
        loop = sum(bool(track.supported(look, run_s[i:i + 1], cands[j], speed,
                                        TH.sync_reaction_z)[0]) for i, j in enumerate(path))
        want = loop - track.SWITCH_PENALTY * int(np.count_nonzero(np.diff(path)))
        assert fit.piecewise_support(sig, look, run_s, offset, speed, TH, nov) == want
