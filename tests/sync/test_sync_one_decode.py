"""Sync reads the integrity scan's signals: `verify --scan --offset auto`, `--sync` and the
workstation (its scan worker and its Sync panel start together) decode the video once.

Counted at the one seam every decode goes through: a "scan" request to the isolated video
process (core/video/isolate.py). The corpus run is a real Atari recording (tests/corpus).
"""

from __future__ import annotations

import json
import threading

import corpus
import pytest

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.video.scan import run_scan

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


def test_verify_scan_and_offset_auto_decode_once(decodes, capsys):
    run = corpus.build("breakout-genuine")
    assert cli_main(["verify", str(run.folder), "--scan", "--offset", "auto", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["video_scan"]["ran"] and rep["sync"]["suggested_offset_s"] is not None
    assert decodes == ["scan"]
    # again: both from the cache
    assert cli_main(["verify", str(run.folder), "--scan", "--sync", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["video_scan"]["from_cache"] is True
    assert decodes == ["scan"]


def test_sync_alone_decodes_once_and_leaves_the_scan_cached(decodes):
    run = corpus.build("breakout-genuine")
    sig = frame_signals(run.video)
    assert len(sig) == run.truth["frames"] and sig.tiles.shape == (len(sig), 64)
    assert run_scan(run.video).from_cache and decodes == ["scan"]


def test_scan_and_sync_started_together_share_one_decode(decodes):
    """The workstation's scan worker and Sync panel ask for one video at the same moment."""
    run = corpus.build("breakout-genuine")
    got: dict = {}
    threads = [threading.Thread(target=lambda: got.update(scan=run_scan(run.video))),
               threading.Thread(target=lambda: got.update(sync=frame_signals(run.video)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert decodes == ["scan"]
    assert len(got["sync"]) == got["scan"].signals.frame_count == run.truth["frames"]


def test_verify_scan_and_sync_read_the_scans_cache_once(decodes, capsys, monkeypatch):
    """`verify --scan --sync` analyses the scan the verification ran: the sync analysis does
    not read (and unpack, and judge) its cache a second time (3-4 ms of a 40 s run's 60-70 ms
    of `--sync`, issue 13's cost; session 14), and answers as from the cache."""
    from moderator_app.core.video import scan as scan_mod

    run = corpus.build("breakout-genuine")
    assert cli_main(["verify", str(run.folder), "--scan", "--json"]) == 0  # into the cache
    capsys.readouterr()
    reads: list[str] = []
    real = scan_mod.load_cached

    def counting(sha):
        reads.append(sha)
        return real(sha)

    monkeypatch.setattr(scan_mod, "load_cached", counting)
    assert cli_main(["verify", str(run.folder), "--scan", "--sync", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert len(reads) == 1 and rep["video_scan"]["from_cache"] is True
    assert decodes == ["scan"]
    # the same section as the analysis of the cached signals gives
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS, 0.0,
                run.run_end_s)
    assert rep["sync"]["suggested_offset_s"] == a.suggested_offset_s
    assert [r["video_s"] for r in rep["sync"]["reactions"]] == \
        [None if r.video_s is None else round(r.video_s, 3) for r in a.reactions]
