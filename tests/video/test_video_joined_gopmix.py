"""Never a wrong picture in a join of H.264 recordings of other settings (session 26, issue 12;
QA s26 T6: `frame --time 11.06` on three cat-joined recordings of other GOP / B-frame settings
wrote a uniform green picture as "frame 202" for the true frame 276).

FFmpeg's Matroska demuxer plays the second recording with the first's header (SPS/PPS). A
recording with 3 B-frames played with the header of one without (another picture order count
type) gives no frame for most of its packets, and a few garbled ones far into it. The check of
joined recordings compared a recording's first 12 pictures both ways, and where none of those
came out it compared nothing, so the few garbled ones were footage. It now compares the
first that come out. Built here by ffmpeg: `draw_frame` pictures numbered on across the
recordings (frame n shows n), QA's settings (x264 veryfast: no B-frames GOP 1 s; 3 B-frames,
one keyframe; 1 B-frame GOP 0.4 s)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

FPS = 25


def _h264(bf: int, g: int) -> list[str]:
    return ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1",
            "-bf", str(bf), "-g", str(g), "-f", "matroska"]


#: QA s26's f26_h264_gopmix_cat_mkv_25, shorter: (encoder args, frames) a recording
_PARTS = [(_h264(0, 25), 50), (_h264(3, 250), 100), (_h264(1, 10), 50)]


def _joined(d: Path) -> Path:
    blobs, first = [], 0
    for k, (args, n) in enumerate(_PARTS):
        blobs.append(vc.encode(d / f"{k}.mkv", args, frames=n, fps=str(FPS),
                               first=first).read_bytes())
        first += n
    out = d / "joined" / "video.mkv"
    out.parent.mkdir()
    out.write_bytes(b"".join(blobs))
    make_agent_log(out.parent / "agent-log.jsonl", n_events=20, seed=2)
    return out


def test_a_recording_played_with_another_settings_header_shows_no_picture(tmp_path):
    """The middle of every frame's time exported (`read_frames`, as `moderator-app frame` and File >
    Save frame read): each picture is the frame drawn then, and the second recording
    (2.0-6.0 s) is refused as a whole, one `video.joined_undecodable` stretch; before, some
    of its moments gave a garbled picture, shown as footage."""
    path = _joined(tmp_path)
    p = probe_video(path, path.name)
    assert p.index is not None
    stretches = [(f.video_start_s, f.video_end_s) for f in p.findings
                 if f.rule == "video.joined_undecodable"]
    assert stretches == [(2.0, 6.0)], [f.message for f in p.findings]
    moments = [(k + 0.5) / FPS for k in range(sum(n for _, n in _PARTS))]  # every frame
    frames = [frame_for_time(p.index, t, no_footage=p.no_footage) for t in moments]
    shown = [(t, n) for t, n in zip(moments, frames, strict=True) if n is not None]
    got = [None if img is None else vc.read_code(img)
           for img in read_frames(path, p.index, [n for _, n in shown])]  # type: ignore[arg-type]
    # the picture drawn at each moment shown: a wrong one is the worst outcome
    assert [(round(t, 2), g) for (t, _), g in zip(shown, got, strict=True)] == \
        [(round(t, 2), int(t * FPS + 1e-9)) for t, _ in shown]
    # every moment outside the second recording shown, every one inside refused
    assert [round(t, 2) for t, _ in shown] == \
        [round(t, 2) for t in moments if not 2.0 <= t < 6.0]
