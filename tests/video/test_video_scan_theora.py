"""The scan on Theora (Ogg): FFmpeg's Theora encoder stores no packet for a repeated picture
(after refining it in a few small ones), so a still stretch is one frame held across a
timestamp gap, and a forced keyframe inside it splits it into two such gaps. A picture is on
screen from its timestamp to the next frame's: held across a gap it is still (frozen if long
enough, black if black) for that whole time, and a gap with one picture on both sides is a
held picture, not lost footage (QA s17 K5, docs/DECISIONS.md)."""

from __future__ import annotations

import shutil

import pytest
import video_corpus as vc

from moderator_app.core.video.scan import run_scan

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

#: Theora as QA s17 made it: quality 7, a keyframe every 90 frames (3 s at 30 fps)
THEORA = ("-c:v", "libtheora", "-q:v", "7", "-g", "90")


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))


def theora(name: str, script: vc.Script):
    return vc.build(vc.Recipe(name, script=script, ext="ogv", encode=THEORA))


def spans(result):
    return [(s.rule, s.severity, round(s.start_s, 3), round(s.end_s, 3)) for s in result.spans]


def test_a_freeze_and_a_black_stretch_held_across_timestamp_gaps_are_reported_as_made():
    """Frames 60-161 repeat frame 60 (a 3.4 s freeze, then a jump to frame 162); frames
    210-233 are black (0.8 s, QA s17's length). The file holds the freeze as frames at
    2.0-2.133 s, 3.000 s (the keyframe) and nothing until 5.400 s, the black stretch as one
    frame at 7.000 s and nothing until 7.800 s. On main: no `video.frozen` (the frame at
    3.000 s, alone in its window and not identical, was not "held"), no `video.black` (0.8 s,
    under the 1 s it was), and three `video.timestamp_gap` warnings (2.167-3.0, 3.033-5.4,
    7.033-7.8) for footage that is all there."""
    r = run_scan(theora("theora_freeze_black", vc.Script(frames=360, frozen=(60, 162),
                                                         black=(210, 234))))
    assert [s for s in spans(r) if s[0] != "video.cut"] == [
        ("video.frozen", "warning", 2.0, 5.4), ("video.black", "info", 7.0, 7.8)]
    # the jump at the freeze's end is a cut candidate, as on every container
    assert [s[2] for s in spans(r) if s[0] == "video.cut"] == [5.4]


def test_an_honest_theora_still_is_a_freeze_not_missing_footage():
    """Frames 60-161 repeat frame 60, then the footage goes on from frame 61 (a game's
    pause): nothing is missing. On main: two `video.timestamp_gap` warnings (2.167-3.0 and
    3.033-5.4: Theora's four small packets refining the still picture were taken for an
    encoder that stores repeats)."""
    r = run_scan(theora("theora_pause", vc.Script(frames=360, pause=(60, 162))))
    assert [s[0] for s in spans(r)] == ["video.frozen"]
    assert spans(r)[0][2:] == (2.0, 5.4)


def test_a_hole_in_theora_is_dated_by_the_granules_and_is_a_timestamp_gap():
    """Frames 210-230 removed with their timestamps kept (a 0.7 s hole at 7.0 s). The Ogg
    pages' granules date the frame after it at 7.700 s; FFmpeg's demuxer dates it one frame
    after the frame before (7.000 s), so on main the hole was an info `video.cut` at 7.0 s
    and no `video.timestamp_gap`."""
    recipe = vc.Recipe("theora_hole", script=vc.Script(frames=360), ext="ogv",
                       encode=("-vf", "select='not(between(n\\,210\\,230))'",
                               "-fps_mode", "passthrough", *THEORA))
    r = run_scan(vc.build(recipe))
    assert [s for s in spans(r) if s[0] != "video.cut"] == [
        ("video.timestamp_gap", "warning", 7.0, 7.7)]
    # the picture jumps 21 frames across the hole: a cut candidate where the footage resumes
    assert [s[2] for s in spans(r) if s[0] == "video.cut"] == [7.7]
    assert r.signals.frame_count == 339


def test_ogg_pages_that_are_not_a_theora_count_give_no_times(tmp_path):
    """Untrusted input: a truncated page, a page of garbage, no Theora stream: no times (the
    scan keeps FFmpeg's), never an error."""
    from moderator_app.core.video.ogg_theora import theora_times

    good = theora("theora_pause", vc.Script(frames=360, pause=(60, 162)))
    data = good.read_bytes()
    got = theora_times(good)
    assert got is not None and len(got[0]) == len(got[1]) > 0
    cases = {"truncated": data[:len(data) // 2 + 7], "garbage": b"OggS" + bytes(range(256)) * 9,
             "not_ogg": b"\x00" * 4096, "empty": b""}
    for name, blob in cases.items():
        p = tmp_path / f"{name}.ogv"
        p.write_bytes(blob)
        r = theora_times(p)
        assert r is None or r[0] == sorted(set(r[0])), name
    assert theora_times(tmp_path / "missing.ogv") is None


def test_a_still_screen_that_blinks_in_theora_is_not_frozen_and_a_freeze_inserted_into_it_is():
    """The video corpus' blinking still screen (a 6x6 spot blinks every 0.5 s over a still
    picture, 3-9 s), its H.264 file (one keyframe in 8.3 s) re-encoded to Theora, as a
    recording transcoded: the H.264 noise makes Theora refine each blink's picture in a few
    small packets, then store none until the next. Living: no finding (on main: 6
    `video.timestamp_gap` warnings 6.067-9.0, the refining packets read as an encoder that
    stores repeats). Made in Theora with frames 90-269 showing frame 90: `video.frozen`
    2.967-8.967 (on main: no finding at all)."""
    h264 = vc.build_lavfi("blink", vc.blink(("-g", "250")))
    living = vc.build_lavfi("blink_theora_from_h264", ("-i", str(h264), *THEORA), "ogv")
    assert [s for s in spans(run_scan(living)) if s[0] != "video.cut"] == []
    args = vc.blink(frozen=True)
    frozen = vc.build_lavfi("blink_theora", (*args[:args.index("-c:v")], *THEORA), "ogv")
    assert [s for s in spans(run_scan(frozen)) if s[0] != "video.cut"] == [
        ("video.frozen", "warning", 2.967, 8.967)]


def test_a_freeze_inserted_into_a_blinking_still_screen_is_found_in_a_file_that_drops_repeats():
    """The same held principle in a VFR file (H.264 MKV, exact repeats dropped by mpdecimate):
    the frozen blinking screen (frames 90-269 show frame 90) is 2 stored frames, the second
    held 6 s. On main: no finding (2 frames, one not identical, were not "held" by count);
    now `video.frozen` 2.967-8.967. The living screen stays without a finding."""
    for frozen, want in ((True, [("video.frozen", "warning", 2.967, 8.967)]), (False, [])):
        h264 = vc.build_lavfi("blink", vc.blink(frozen=frozen))
        vfr = vc.build_lavfi("blink_vfr", ("-i", str(h264), "-vf",
                                           "mpdecimate=hi=64:lo=64:frac=0", "-fps_mode", "vfr",
                                           *vc.X264), "mkv")
        assert [s for s in spans(run_scan(vfr)) if s[0] != "video.cut"] == want, frozen


def test_a_hole_in_theora_where_the_picture_barely_moved_is_missing_footage():
    """The video corpus' still-then-gap footage in Theora: a square rests from 7 s, the frames
    of 8-9.5 s are removed (timestamps kept), after the hole it is 10 px further on. The
    pages say it exactly: the still picture's repeats are empty packets, the hole's frames are
    no packet at all (`lost_pts`), so it is missing footage whatever the picture did; the
    picture's change across it alone (10 px) reads as a held picture."""
    args = vc.STILL_THEN_GAP
    video = vc.build_lavfi("still_then_gap_theora", (*args[:args.index("-c:v")], *THEORA),
                           "ogv")
    r = run_scan(video)
    assert [s for s in spans(r) if s[0] != "video.cut"] == [
        ("video.timestamp_gap", "warning", 8.0, 9.5)]
    assert "the file holds no packet for 45 frames there" in r.spans[0].message


def test_a_theora_frame_the_granules_redate_still_counts_as_decoded_in_verify_scan(tmp_path):
    """Frames 200-238 of 240 removed (timestamps kept): FFmpeg dates the last frame 6.667 s,
    its page 7.967 s. verify --scan judges the probe's tail by the scan's decoded frames:
    matched by timestamp alone, the re-dated last frame was "not decoded", a false
    `video.tail_undecodable` ("frames 200-200 do not") with this change and no guard; the
    hole is `video.timestamp_gap` 6.667-7.967 (on main: nothing)."""
    from moderator_app.core.samples.community import make_agent_log
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    recipe = vc.Recipe("theora_tail_hole", script=vc.Script(frames=240), ext="ogv",
                       encode=("-vf", "select='not(between(n\\,200\\,238))'",
                               "-fps_mode", "passthrough", *THEORA))
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(vc.build(recipe), run / "run.ogv")
    make_agent_log(run / "agent-log.jsonl", 20, 16, min_duration_s=5.0)
    report = verify_paths([run], VerifyOptions(scan_video=True)).report
    rules = [f.rule for f in report.findings if f.rule.startswith("video.")]
    assert "video.tail_undecodable" not in rules
    assert [(s.rule, s.start_s, s.end_s) for s in report.video_scan.findings
            if s.rule != "video.cut"] == [("video.timestamp_gap", 6.667, 7.967)]
