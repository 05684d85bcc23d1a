"""The analysis' fast paths give their plain versions' answers bit for bit (issue 13's cost
work changed no result): each is checked against the straightforward computation it
replaced, on signals with chance onsets everywhere and one reacting tile."""

from __future__ import annotations

import numpy as np
import pytest
from one_tile import bits as _bits
from one_tile import signals as _signals

from moderator_app.core.sync import align, lookup, reactions, stretch, track


@pytest.mark.parametrize("speed", [1.0, 1.0325])
@pytest.mark.parametrize("chunk", [lookup.CHUNK_FLOATS, 7, 100])
def test_scores_are_the_plain_sum_of_the_lookup(monkeypatch, speed, chunk):
    monkeypatch.setattr(lookup, "CHUNK_FLOATS", chunk)  # block edges inside rows and between
    sig, actions = _signals()
    nov = reactions.novelty(sig)
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    grid = align.offset_grid(sig, actions)
    inner = grid.copy()
    inner[len(grid) // 2] += 0.5  # the same ends and length: asked after `grid`, not its rows
    for run_s, offsets in [(actions, grid), (actions[3:10], grid[::3] + 0.0021),
                           (actions[:1], grid), (actions, grid[:1]), (actions, inner)]:
        plain = look(offsets[:, None] + (run_s / speed)[None, :]).sum(axis=1)
        got = lookup.scores(look, offsets, run_s, speed)
        assert _bits(got) == _bits(plain)
        assert lookup.scores(look, offsets, run_s, speed) is got  # asked again: kept
        assert not got.flags.writeable
    # a lookup sharing the index (`like`) answers from its own table
    other = lookup.Lookup(sig, lookup.lookahead(sig, nov)[::-1].copy(), like=look)
    plain = other(grid[:, None] + (actions / speed)[None, :]).sum(axis=1)
    assert _bits(lookup.scores(other, grid, actions, speed)) == _bits(plain)
    assert _bits(lookup.scores(look, grid, actions, speed)) != _bits(plain)


def test_the_lookup_table_is_built_as_it_was():
    sig, _ = _signals()
    best = lookup.lookahead(sig, reactions.novelty(sig))
    look = lookup.Lookup(sig, best)
    t0, res = float(sig.times[0]), 0.25 / sig.fps
    grid = t0 + np.arange(int((sig.times[-1] - t0) / res) + 2) * res
    k = np.searchsorted(sig.times, grid - 1e-6)
    table = np.where(k < len(best), best[np.clip(k, 0, len(best) - 1)], 0.0)
    assert _bits(look.table) == _bits(np.concatenate([[0.0], table, [0.0]]))


def test_median_is_numpys():
    rng = np.random.default_rng(5)
    for n in list(range(1, 12)) + [30, 31, 200]:
        x = np.round(rng.uniform(0, 100, n), rng.integers(0, 4))
        assert _bits(align.median(x)) == _bits(np.median(x))


def _measure_one_by_one(sig, nov, run_s, offsets, speed, min_z):
    """The first frame within REACTION_MAX_S after each action's expected time that stands
    out, searched action by action (the plain version)."""
    out = []
    for i, (e, o) in enumerate(zip(run_s, offsets, strict=True)):
        exp = o + e / speed
        k0 = max(0, reactions.frame_at(sig.times, exp) - reactions.EARLY_FRAMES)
        k1 = min(len(sig), reactions.frame_at(sig.times, exp + reactions.REACTION_MAX_S))
        z = nov.excess[k0:k1] / nov.spread[k0:k1]
        hits = np.nonzero((z >= min_z) & (nov.score[k0:k1] > 0))[0]
        if k0 >= k1 or not len(hits):
            out.append(reactions.Reaction(i, float(e), float(exp), None, None, 0.0))
            continue
        k = k0 + int(hits[0])
        zk = float(nov.excess[k] / nov.spread[k])
        vs = float(sig.times[k])
        out.append(reactions.Reaction(i, float(e), float(exp), vs, vs - float(exp),
                                      float(min(1.0, max(0.0, (zk - min_z + 1.0) / 4.0)))))
    return out


def test_reactions_of_all_actions_at_once_are_those_one_by_one():
    sig, actions = _signals()
    nov = reactions.novelty(sig)
    rng = np.random.default_rng(2)
    offs = 1.5 + rng.choice([0.0, -0.7, 30.0, -60.0], len(actions))  # some off the footage
    for offset in [offs, np.full(len(actions), 1.5)]:
        for speed, min_z in [(1.0, 2.5), (0.97, 1.0)]:
            got = reactions.measure(sig, nov, actions, offset, speed, min_z)
            assert got == _measure_one_by_one(sig, nov, actions, offset, speed, min_z)
    assert reactions.measure(sig, nov, actions, 1.5) == reactions.measure(
        sig, nov, actions, np.full(len(actions), 1.5))
    assert any(r.video_s is None for r in reactions.measure(sig, nov, actions, offs))


def test_weighted_onset_counts_add_each_frames_weights_in_tile_order():
    """The reweighted novelty's sums (`reactions.weighted_counts`, not BLAS): each frame's
    onset tiles' weights added left to right from 0, bit for bit; within rounding of the
    matrix product it replaced."""
    sig, _ = _signals(chance=0.2)
    nov = reactions.novelty(sig)
    w = np.random.default_rng(5).uniform(0.5, 3.5, 64)
    got = reactions.weighted_counts(nov.onset_pairs, len(sig), w)
    plain = []
    for row in nov.onsets:
        acc = 0.0
        for j in np.flatnonzero(row):
            acc += float(w[j])
        plain.append(acc)
    assert _bits(got) == _bits(plain)
    assert (nov.onsets.sum(axis=1) >= 3).sum() > 100  # frames where the order can matter
    np.testing.assert_allclose(got, nov.onsets.astype(float) @ w, rtol=1e-14, atol=0)
    assert _bits(reactions.novelty(sig, w, like=nov).score) == _bits(np.log1p(plain))


def test_reweighted_novelty_and_tile_weights_are_as_before():
    sig, actions = _signals()
    nov = reactions.novelty(sig)
    w = np.linspace(0.5, 3.5, 64)
    again = reactions.novelty(sig, w, like=nov)
    fresh = reactions.novelty(sig, w)
    for a, b in zip((again.onsets, again.score, again.excess, again.spread),
                    (fresh.onsets, fresh.score, fresh.excess, fresh.spread), strict=True):
        assert a.tobytes() == b.tobytes()
    vs = list(sig.times[[0, 1, 5, 100, 900, len(sig) - 1]]) + [float(sig.times[-1]) + 1.0]
    q = reactions.background_rates(sig, nov)
    on, win = nov.onsets, max(1, int(round(0.08 * sig.fps)))
    hit = np.zeros(on.shape[1])
    for k in np.searchsorted(sig.times, np.asarray(vs) - 1e-6):
        hit += on[max(0, k - 1):k + win].any(axis=0)
    plain = 0.5 + np.clip(np.log((hit / len(vs) + 0.02) / (q + 0.02)), 0.0, 3.0)
    assert _bits(reactions.tile_weights(sig, nov, vs, q, floor=0.5)) == _bits(plain)


@pytest.mark.parametrize("n", [1, 2, 4, 5, 6, 50, 401])
@pytest.mark.parametrize("w", [1, 2, 5, 6])
def test_onset_share_is_the_convolution(n, w):
    on = np.random.default_rng(n * 10 + w).random((n, 5)) < 0.15
    plain = [np.convolve(on[:, j].astype(float), np.ones(w), "same").clip(0, 1).mean()
             for j in range(5)]
    assert _bits(stretch.onset_share(on, w)) == _bits(plain)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
@pytest.mark.parametrize("f", [1, 2, 4])
def test_block_sums_are_numpys_reduction(dtype, f):
    from moderator_app.core.sync.signals import block_sums
    rng = np.random.default_rng(f)
    t = rng.integers(0, np.iinfo(dtype).max, (50, 8, 8), endpoint=True).astype(dtype)
    g = 8 // f
    plain = t.reshape(50, g, f, g, f).sum(axis=(2, 4), dtype=np.uint16)
    got = block_sums(t, f)
    assert got.dtype == np.uint16 and got.tobytes() == plain.tobytes()


def _plain_top_speed(look, offsets, run_s, speeds) -> float:
    """What `align.fit` computed before `top_speed`: every speed's every score."""
    return float(max(speeds, key=lambda s: lookup.scores(look, offsets, run_s, float(s)).max()))


@pytest.mark.parametrize("seconds", [40.0, 150.0])
@pytest.mark.parametrize("drift", [1.0, 1.0437])
def test_top_speed_is_the_plain_search_over_every_score(seconds, drift):
    """The bounded search picks the speed summing every offset picks, on the real log and on
    shuffled ones (the drift test's null sets, where bounds prune least), and each fit's
    answer is unchanged."""
    sig, actions = _signals(seconds=seconds)
    nov = reactions.novelty(sig)
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    rng = np.random.default_rng(3)
    logs = [actions * drift] + [np.sort(rng.permutation(np.diff(actions, prepend=0.0)).cumsum())
                                for _ in range(3)]
    for run_s in logs:
        grid = align.offset_grid(sig, run_s)
        for speeds in (align.SPEEDS, align.SPEEDS[::4], align.SPEEDS[20:29]):
            assert align.top_speed(look, grid, run_s, speeds) == \
                _plain_top_speed(look, grid, run_s, speeds)


def test_top_speed_takes_the_first_of_tied_speeds():
    """A table of one value everywhere: every speed ties, the first one is chosen (as max())."""
    sig, actions = _signals()
    look = lookup.Lookup(sig, np.ones(len(sig)))
    grid = align.offset_grid(sig, actions)
    speeds = np.array([1.01, 0.99, 1.0])
    assert align.top_speed(look, grid, actions[2:8], speeds) == 1.01
    assert align.top_speed(look, grid, actions[2:8], speeds[::-1]) == 1.0


@pytest.mark.parametrize("width", [1, 2, 5, 17, 40])
def test_window_max_bounds_every_index_it_covers(width):
    sig, _ = _signals()
    look = lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))
    t = look.table
    lo = np.array([-50, -3, 0, 1, 7, len(t) // 2, len(t) - width, len(t) - 2, len(t) + 9])
    got = look.window_max(lo, width)
    # from the clipped start (an index before the table reads its first value)
    c = np.clip(lo, 0, len(t) - 1)
    plain = [max(float(np.take(t, i, mode="clip")) for i in range(a, a + width)) for a in c]
    assert _bits(got) == _bits(plain)
    covered = [max(float(np.take(t, i, mode="clip")) for i in range(a, a + width)) for a in lo]
    assert (got >= np.array(covered)).all()


@pytest.mark.parametrize("seconds", [40.0, 150.0])
def test_top_speed_score_is_the_plain_best_score_of_its_speed(seconds):
    """The score `top_speed_score` returns with its speed is `_scores(...).max()` at that
    speed, bit for bit (the drift test's shuffled logs are judged by it alone)."""
    sig, actions = _signals(seconds=seconds)
    look = lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))
    rng = np.random.default_rng(4)
    logs = [actions * 1.0437] + [np.sort(rng.permutation(np.diff(actions, prepend=0.0))
                                         .cumsum()) for _ in range(2)]
    for run_s in logs:
        grid = align.offset_grid(sig, run_s)
        for speeds in (align.SPEEDS, align.SPEEDS[20:29], align.SPEEDS[24:25]):
            s, score = align.top_speed_score(look, grid, run_s, speeds)
            assert s == _plain_top_speed(look, grid, run_s, speeds)
            plain = lookup.scores(look, grid, run_s, s).max()
            assert _bits(score) == _bits(plain)


def _plain_fit_line(look, offsets, run_s, speeds) -> tuple[float, float, float]:
    """(speed, offset, score) of the exhaustive search: every speed, every offset."""
    s = _plain_top_speed(look, offsets, run_s, speeds)
    sc = lookup.scores(look, offsets, run_s, s)
    i = int(np.argmax(sc))
    return s, float(offsets[i]), float(sc[i])


@pytest.mark.parametrize(("drift", "pause"), [(1.0, False), (1.045, False), (0.97, False),
                                              (1.0775, False), (1.0, True), (0.97, True),
                                              (1.0775, True)])  # on the speed grid
def test_long_runs_pinned_search_finds_the_exhaustive_line(drift, pause):
    """On a run longer than EVERY_SPEED_SPAN_S the fit searches every speed near the lines
    a first pass pins (`align.pivots`: the densest 40 s stretch at 1 % steps, and speed 1
    over the whole log): on the real log (genuine or drifting, up to the grid's edge; with
    its actions spread evenly or crowded away from the middle by a long pause) it finds the
    speed, offset and score of the search over every speed and offset; on shuffled logs it
    never scores above it (a best over fewer lines), and the drift test's score
    (`best_score`) is the fit's."""
    sig, actions = _signals(seconds=150.0, actions_n=100 if pause else 60,
                            chance=0.003 if pause else 0.01)
    if pause:  # no action from 40 to 100 s: the densest stretch is at an end
        actions = actions[(actions < 40.0) | (actions > 100.0)]
    nov = reactions.novelty(sig)
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    run_s = actions * drift
    assert run_s[-1] - run_s[0] > align.EVERY_SPEED_SPAN_S
    grid = align.offset_grid(sig, run_s)
    found = align.pins(look, grid, run_s, align.SPEEDS)
    # the true line passes within reach of a pin
    assert min(abs(v - (1.5 + e / drift)) for e, v in found) < align.PIVOT_REACH_S
    f = align.fit(sig, nov, run_s, look=look)
    plain = _plain_fit_line(look, grid, run_s, align.SPEEDS)
    assert f.speed == drift and abs(f.offset_s - 1.5) < 3 / sig.fps  # duration-ok: video time within 3 frames
    assert f.score == lookup.scores(look, grid, run_s, drift).max()
    assert (f.speed, f.offset_s, f.score) == plain
    assert align.best_score(look, grid, run_s) == f.score
    rng = np.random.default_rng(6)
    for _ in range(3):
        p = np.sort(rng.permutation(np.diff(run_s, prepend=0.0)).cumsum())
        g = align.offset_grid(sig, p)
        f = align.fit(sig, nov, p, look=look)
        assert f.score <= _plain_fit_line(look, g, p, align.SPEEDS)[2]
        assert align.best_score(look, g, p) == f.score


def test_short_runs_search_speeds_as_before():
    """A 40 s run keeps its coarse-to-fine speed search (1 % steps, then 0.25 % near the
    best): the fit's speed is the plain search's over those speeds."""
    sig, actions = _signals(seconds=40.0)
    nov = reactions.novelty(sig)
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    run_s = actions * 1.0437
    grid = align.offset_grid(sig, run_s)
    coarse = _plain_top_speed(look, grid, run_s, align.SPEEDS[::4])
    near = align.SPEEDS[np.abs(align.SPEEDS - coarse) < 0.0101]
    f = align.fit(sig, nov, run_s, look=look)
    assert f.speed == _plain_top_speed(look, grid, run_s, near)
    assert align.best_score(look, grid, run_s) == f.score


@pytest.mark.parametrize("seconds", [40.0, 150.0])
def test_peak_is_the_first_highest_score(seconds):
    """`align.peak` (a shuffled log's learned fit, by bounded blocks) answers the index and
    value of `_scores(...)`'s first maximum, bit for bit; ties go to the first offset."""
    sig, actions = _signals(seconds=seconds)
    look = lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))
    rng = np.random.default_rng(8)
    logs = [actions] + [np.sort(rng.permutation(np.diff(actions, prepend=0.0)).cumsum())
                        for _ in range(3)]
    for run_s in logs:
        grid = align.offset_grid(sig, run_s)
        for speed in (1.0, 1.0325):
            sc = lookup.scores(look, grid, run_s, speed)
            i, v = align.peak(look, grid, run_s, speed)
            assert i == int(np.argmax(sc)) and _bits(v) == _bits(sc.max())
    flat = lookup.Lookup(sig, np.ones(len(sig)))  # every offset on the footage ties
    grid = align.offset_grid(sig, actions[2:8])
    sc = lookup.scores(flat, grid, actions[2:8], 1.0)
    assert align.peak(flat, grid, actions[2:8], 1.0) == (int(np.argmax(sc)), float(sc.max()))


@pytest.mark.parametrize("speed", [1.0, 0.97])
def test_fft_scores_are_the_plain_sum_with_the_tables_spectrum_kept(monkeypatch, speed):
    """Long runs' scores by FFT (`lookup.correlated`, the table's spectrum kept on the
    lookup) are the plain sums to rounding, for offsets that put actions before the
    footage, after it and over both ends; one spectrum per transform size."""
    monkeypatch.setattr(lookup, "DIRECT_MAX", 0)  # every score by FFT correlation
    sig, actions = _signals()
    look = lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))
    grid = align.offset_grid(sig, actions)
    wide = np.arange(grid[0] - 45.0, grid[-1] + 45.0, 1 / sig.fps)  # past both ends
    for run_s, offsets in [(actions, grid), (actions, wide), (actions[:1], wide),
                           (actions[4:9], grid[::2])]:
        plain = look(offsets[:, None] + (run_s / speed)[None, :]).sum(axis=1)
        got = lookup.scores(look, offsets, run_s, speed)
        assert not lookup.direct(look, offsets, len(run_s))
        assert np.abs(got - plain).max() < 1e-9
        assert int(np.argmax(got)) == int(np.argmax(plain)) or \
            plain[int(np.argmax(got))] == plain.max()
    assert look(wide[:1] + actions[-1:] / speed)[0] == 0.0  # the wide grid starts off it
    assert look.spectrum(1000) is look.spectrum(1000)  # transformed once per size


def test_fast_len_is_the_smallest_5_smooth_size():
    def smooth(m: int) -> bool:
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        return m == 1
    for n in [1, 2, 7, 97, 1000, 147_000, 150_001, 262_144]:
        got = lookup.fast_len(n)
        assert got >= n and smooth(got)
        assert not any(smooth(m) for m in range(n, got))


def _significance(sig, run_s):
    from moderator_app.core.sync import fit
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    q = reactions.background_rates(sig, nov1)
    return fit.significance(sig, nov1, look1, q, run_s, 1.0, th)


def test_a_long_runs_significance_settled_early_decides_as_all_shuffles(monkeypatch):
    """A 150 s run that stands far above its first shuffled logs stops there
    (`fit.SIGNIFICANCE_SETTLED`): the same fit, the stretch passes as with all 19, and the
    confidence, from min(fit z, null z), is the same."""
    from moderator_app.core.sync import fit
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th
    sig, actions = _signals(seconds=150.0, actions_n=200, chance=0.005)
    f, early = _significance(sig, actions)
    monkeypatch.setattr(fit, "SIGNIFICANCE_SETTLED", fit.NULL_SETS + 1)  # never settled
    f_all, every = _significance(sig, actions)
    assert f == f_all and early != every
    assert early >= fit.SIGNIFICANCE_SETTLED_FACTOR * max(f.z, th.sync_min_null_z)
    assert every >= th.sync_min_null_z and every > f.z
    assert fit.confidence(min(f.z, early), 10) == fit.confidence(min(f.z, every), 10)


def test_short_runs_and_stretches_of_long_videos_test_every_shuffle_as_before(monkeypatch):
    """A 40 s run is never settled early; a 40 s stretch of a 150 s video finds its
    shuffled logs' learned peaks by bounded blocks (`align.peak`): the same z, bit for bit,
    as the plain learned fits."""
    from moderator_app.core.sync import fit
    sig, actions = _signals()
    monkeypatch.setattr(fit, "SIGNIFICANCE_SETTLED", 1)
    short = _significance(sig, actions)[1]
    monkeypatch.setattr(fit, "SIGNIFICANCE_SETTLED", fit.NULL_SETS + 1)
    assert _bits(short) == _bits(_significance(sig, actions)[1])
    sig, actions = _signals(seconds=150.0)
    stretch_s = actions[actions < 40.0]
    bounded = _significance(sig, stretch_s)[1]
    monkeypatch.setattr(align, "EVERY_SPEED_SPAN_S", 1e9)  # the plain learned fits
    assert _bits(bounded) == _bits(_significance(sig, stretch_s)[1])


@pytest.mark.parametrize("speed", [1.0, 1.0437])
def test_shared_rows_sum_each_subset_as_scores_do(speed):
    sig, actions = _signals(seconds=150.0, actions_n=420)
    look = lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))
    offsets = align.offset_grid(sig, actions)[1000:2500]
    rows = track.SharedRows(look, offsets, actions / speed)
    # numpy's pairwise sum: under 8 terms, 8 running sums up to 128, split in two beyond
    for start, count in [(0, 1), (0, 5), (2, 7), (3, 8), (3, 9), (10, 16), (10, 23), (40, 128),
                         (41, 129), (60, 300), (60, 301), (400, 20)]:
        idx = np.arange(start, start + count)
        run_s = actions[idx]
        plain = look(offsets[:, None] + (run_s / speed)[None, :]).sum(axis=1)
        assert rows.applies(count)
        assert _bits(rows.scores(idx)) == _bits(plain)
        assert _bits(lookup.scores(look, offsets, run_s, speed)) == _bits(plain)


@pytest.mark.parametrize("speed", [1.0, 0.97])
def test_track_windows_are_each_windows_own_fit(monkeypatch, speed):
    sig, actions = _signals(seconds=150.0, actions_n=130)
    nov = reactions.novelty(sig)
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    got = track.windows(sig, nov, look, actions, speed, 3.0, 4)
    calls = []
    monkeypatch.setattr(track.SharedRows, "applies", lambda self, n: calls.append(n) and False)
    # align.fit per window (on a fresh lookup: the first's keeps the windows it fitted)
    plain = track.windows(sig, nov, lookup.Lookup(sig, lookup.lookahead(sig, nov)), actions,
                          speed, 3.0, 4)
    assert len(calls) > 60  # every window of 4 actions or more was fitted plainly
    assert got == plain
    assert len({p.z for p in got}) > 40  # each window's own fit, none left out
