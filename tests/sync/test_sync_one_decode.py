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
