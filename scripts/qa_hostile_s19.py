"""Issue 15 classes of session 19's QA pass (docs/qa/session19.md), for the shared runner
(scripts/qa_common.run_hostile) and the window (qa_session16.gui_hostile). Bytes no earlier pass
used (grep of scripts/qa_hostile_s*.py and tests/hostile_corpus.py: no m3u8, xz, bz2,
overlong UTF-8, PTS wrap, zero-frame video track, image named as a video, case-variant log):

- h19_01: `video.mp4` is an HLS playlist whose segments are file:///etc/passwd and a local URL;
- h19_02: `video.mp4` is an HLS playlist naming the sample's honest video by absolute path;
- h19_03: the sample's video in MPEG-TS with timestamps from 95,440 s (the 33-bit PTS wraps);
- h19_04/05: the sample as `.tar.xz` / `.tar.bz2` with a 1 GiB zero member;
- h19_06: `video.mp4` that is one PNG picture;
- h19_07a/b: `agent-log.jsonl` beside `Agent-Log.jsonl`, one passing, one with a human action;
- h19_08: an MKV whose video track holds no frame, with 60 s of Opus audio;
- h19_09: overlong UTF-8 (C0 AF, E0 80 AF, F0 80 80 AF) inside a string of one log line.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import qa_hostile_s14 as qh

MARK = "QA-S19-PRIVATE"
#: the evaluator secret, and what /etc/passwd's text would show if a playlist were followed
SECRETS = ["qa19-evaluator-secret-7d2f", "root:x:0:0"]
ENV: dict = {}


def _ffmpeg(args: list[str], out: Path) -> None:
    if not out.exists():
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(out)], check=True)


def _with_sample_log(d: Path) -> None:
    if not (d / "agent-log.jsonl").exists():
        os.link(qh.SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")


def _write(p: Path, data: bytes) -> None:
    if not p.exists():
        p.write_bytes(data)


def _tar_bomb(d: Path, name: str, compressor: list[str]) -> Path:
    """The sample (log, video) and a 1 GiB member of zeros, tarred and compressed by a pipe."""
    out = d / name
    if out.exists():
        return out
    zeros = d / "zeros.bin"
    with open(zeros, "wb") as fh:
        fh.truncate(1 << 30)  # sparse on disk; tar reads it as 1 GiB of zeros
    tar = subprocess.Popen(["tar", "-cf", "-", "-C", str(qh.SAMPLE), "agent-log.jsonl",
                            "video.mp4", "-C", str(d), "zeros.bin"], stdout=subprocess.PIPE)
    with open(out, "wb") as fh:
        subprocess.run(compressor, stdin=tar.stdout, stdout=fh, check=True)
    tar.wait()
    zeros.unlink()
    return out


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: PLR0915 - one table
    def cmds(d: Path, name: str, log: Path | None = None) -> list[list[str]]:
        return [["verify", str(d)], ["verify", str(d), "--json", "--scan"],
                ["withhold", str(log or d / "agent-log.jsonl"), "-o", str(root / f"{name}.pub")],
                ["decide", str(d), "--reject", "--reason", "other", "--note",
                 "qa19 hostile", "--offset", "0"],
                ["frame", str(d), "--line", "5", "--offset", "0", "-o",
                 str(root / f"{name}.png")],
                ["decisions", "verify"]]

    out = []
    root.mkdir(parents=True, exist_ok=True)

    def add(name: str, d: Path, log: Path | None = None) -> None:
        ENV[name] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
        out.append((name, cmds(d, name[:7], log)))

    d = root / "h19_01_hls_file_passwd"
    d.mkdir(exist_ok=True)
    _write(d / "video.mp4", b"#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:30\n"
           b"#EXTINF:30.0,\nfile:///etc/passwd\n#EXTINF:30.0,\nhttp://127.0.0.1:9/seg.ts\n"
           b"#EXT-X-ENDLIST\n")
    _with_sample_log(d)
    add(d.name, d)

    d = root / "h19_02_hls_points_at_honest_video"
    d.mkdir(exist_ok=True)
    _write(d / "video.mp4", b"#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:30\n"
           b"#EXTINF:27.6,\n" + str(qh.SAMPLE / "video.mp4").encode() + b"\n#EXT-X-ENDLIST\n")
    _with_sample_log(d)
    add(d.name, d)

    d = root / "h19_03_ts_pts_wrap"
    d.mkdir(exist_ok=True)
    # (re-encoded to H.264: MPEG-4 Part 2 copied into TS loses its VOL header, undecodable)
    _ffmpeg(["-i", str(qh.SAMPLE / "video.mp4"), "-c:v", "libx264", "-preset", "ultrafast",
             "-g", "10", "-threads", "1", "-output_ts_offset", "95440", "-f", "mpegts"],
            d / "video.ts")
    _with_sample_log(d)
    add(d.name, d)

    for tag, name, comp in (("h19_04_tar_xz_zero_bomb", "submission.tar.xz", ["xz", "-0", "-T1"]),
                            ("h19_05_tar_bz2_zero_bomb", "submission.tar.bz2", ["bzip2", "-1"])):
        d = root / tag
        d.mkdir(exist_ok=True)
        z = _tar_bomb(d, name, comp)
        ENV[tag] = {"ALE_EVALUATOR_SECRET": SECRETS[0]}
        out.append((tag, [["verify", str(z)], ["verify", str(z), "--json", "--scan"],
                          ["decide", str(z), "--accept", "--offset", "0"],
                          ["frame", str(z), "--line", "5", "--offset", "0", "-o",
                           str(root / f"{tag[:7]}.png")],
                          ["decisions", "verify"]]))

    d = root / "h19_06_png_named_mp4"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=1", "-frames:v", "1", "-f",
             "image2", "-c:v", "png"], d / "video.mp4")
    _with_sample_log(d)
    add(d.name, d)

    good = (qh.SAMPLE / "agent-log.jsonl").read_bytes()
    bad = qh._dump(qh._ghost_after(qh._lines(), 6))
    for tag, exact, variant in (("a_exact_fails", bad, good), ("b_exact_passes", good, bad)):
        d = root / f"h19_07{tag}_case_variant_log"
        d.mkdir(exist_ok=True)
        _write(d / "agent-log.jsonl", exact)
        _write(d / "Agent-Log.jsonl", variant)
        if not (d / "video.mp4").exists():
            os.link(qh.SAMPLE / "video.mp4", d / "video.mp4")
        add(d.name, d)

    d = root / "h19_08_mkv_no_video_frames"
    d.mkdir(exist_ok=True)
    _ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=60:sample_rate=48000",
             "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=10:duration=60",
             "-map", "1:v", "-map", "0:a", "-vf", "select=0", "-c:v", "libx264", "-c:a",
             "libopus", "-f", "matroska"], d / "video.mkv")
    _with_sample_log(d)
    add(d.name, d)

    lines = qh._dump(qh._lines()).splitlines()
    at = 3
    i = lines[at].rfind(b'"}')
    if i < 0:
        i = lines[at].rfind(b'"')
    lines[at] = lines[at][:i] + b"\xc0\xaf..\xe0\x80\xaf\xf0\x80\x80\xafetc" + lines[at][i:]
    d = qh._folder(root, "h19_09_overlong_utf8_log", b"\n".join(lines) + b"\n")
    add(d.name, d)
    return out
