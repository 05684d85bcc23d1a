"""Session 26's QA pass (docs/qa/session26.md): held-out inputs for session 26's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s26/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-25's machinery
(scripts/qa_session25.py and through it qa_session10/12..24.py, qa_common.py) is reused by
import. Every generator is deterministic (fixed seeds, fixed encoder settings, one thread).

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session26.py build [frames|streams|small|chain|hostile]
    .venv/bin/python scripts/qa_session26.py frames [CASE...]     # issue 12: joined recordings
    .venv/bin/python scripts/qa_session26.py streams [CASE...]    # issue 12: several_streams
    .venv/bin/python scripts/qa_session26.py small [CASE...] [--pairs N]  # issue 12: scan
    .venv/bin/python scripts/qa_session26.py chain [SHAPE...]     # issue 15: held-out shapes
    .venv/bin/python scripts/qa_session26.py sync-build|sync [RUN...]   # issue 13 (ale-py)
    .venv/bin/python scripts/qa_session26.py sync-cmp BEFORE.jsonl AFTER.jsonl
    .venv/bin/python scripts/qa_session26.py mismatch [CASE...]   # issue 13: another run's log
    .venv/bin/python scripts/qa_session26.py pcmmov [CASE...]     # T1: MOV with PCM audio
    .venv/bin/python scripts/qa_session26.py hostile [ID...]      # issue 15: new classes
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts"), str(REPO / "bench")]
import qa_session25 as s25  # noqa: E402

s24, s23, s22, s21, s19, s14 = s25.s24, s25.s23, s25.s22, s25.s21, s25.s19, s25.s14
CACHE = s25.CACHE.parent / "qa-s26"
s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
CLI = s22.CLI
_rows, _ff, _X264, _VP9 = s22._rows, s23._ff, s23._X264, s25._VP9


# -- 1. frame export in joined recordings (issue 12, joined3) ------------------------------------
def _h264(bf: int, g: int) -> list[str]:
    return [*_X264, "-bf", str(bf), "-g", str(g)]


MKV, WEBM = ["-f", "matroska"], ["-f", "webm"]
#: case -> (fps, [(frames, encoder args, muxer args)], how, suffix), as qa_session25.FRAMES
FRAMES = {
    # four H.264 recordings of the same settings (-bf 2, GOP 2 s), 5 + 6 + 7 + 6 s at 30 fps,
    # cat-joined Matroska (the third and the fourth after two joins and three)
    "f26_four_h264_cat_mkv_30": (30, [(150, _h264(2, 60), MKV), (180, _h264(2, 60), MKV),
                                      (210, _h264(2, 60), MKV), (180, _h264(2, 60), MKV)],
                                 "cat", ".mkv"),
    # three VP9 WebM recordings (GOP 2 s), 7 + 8 + 9 s at 25 fps, cat-joined
    "f26_three_vp9_cat_webm_25": (25, [(175, [*_VP9, "-g", "50"], WEBM),
                                       (200, [*_VP9, "-g", "50"], WEBM),
                                       (225, [*_VP9, "-g", "50"], WEBM)], "cat", ".webm"),
    # three H.264 recordings of different GOP / B-frame settings (no B-frames GOP 1 s; -bf 3
    # one key frame; -bf 1 GOP 0.4 s), 8 + 7 + 9 s at 25 fps, cat-joined Matroska
    "f26_h264_gopmix_cat_mkv_25": (25, [(200, _h264(0, 25), MKV), (175, _h264(3, 250), MKV),
                                        (225, _h264(1, 10), MKV)], "cat", ".mkv"),
}


def frame_times(case: str, total: int | None = None) -> list[float]:
    """qa_session25.frame_times on this pass' cases (the frame before and the two after each
    join, 1.3 s after it, early, late)."""
    return s25.frame_times(case, total)


# -- 2. video.several_streams per span (issue 12, joined3: QA s25 S4) ----------------------------
STREAMS = {
    # MOV: 30 s of 25 fps H.264 + a 320x180 webcam stream at 3.0-4.5 s and 12.0-15.0 s (the
    # last span ends 15 s before the file's end)
    "s26_webcam_two_spans_mov": [(3.0, 4.5), (12.0, 15.0)],
    # fragmented MP4 (1 s fragments): 24 s of 30 fps + a webcam stream at 5.0-7.0 and
    # 14.0-17.0 s
    "s26_webcam_frag_mp4": [(5.0, 7.0), (14.0, 17.0)],
}


def build_streams(case: str) -> Path:
    import qa_hostile_s20 as h20

    d = CACHE / "streams" / case
    d.mkdir(parents=True, exist_ok=True)
    if case == "s26_webcam_two_spans_mov":
        _ff(["-f", "lavfi", "-i", s23._SRC.format(fps=25, d=30), "-f", "lavfi", "-i",
             "testsrc=size=320x180:rate=25:duration=30", "-map", "0:v", "-map", "1:v",
             "-filter:v:1", "select='between(t\\,3\\,4.49)+between(t\\,12\\,14.99)'",
             "-fps_mode:v:1", "passthrough", *_X264, "-g", "50", "-f", "mov"], d / "video.mov")
    elif case == "s26_webcam_frag_mp4" and not (d / "video.mp4").exists():
        _ff(["-f", "lavfi", "-i", s23._SRC.format(fps=30, d=24), "-f", "lavfi", "-i",
             "testsrc=size=320x180:rate=30:duration=24", "-map", "0:v", "-map", "1:v",
             "-filter:v:1", "select='between(t\\,5\\,6.99)+between(t\\,14\\,16.99)'",
             "-fps_mode:v:1", "passthrough", *_X264, "-g", "30", "-f", "mp4"], d / "whole.mp4")
        # fragmented by a remux, delay_moov: with empty_moov the webcam's first frame is
        # stamped 0.0 s (its edit list has nowhere to go) and lasts until its second
        _ff(["-i", str(d / "whole.mp4"), "-map", "0", "-c", "copy", "-movflags",
             "+frag_keyframe+delay_moov+default_base_moof", "-frag_duration", "1000000",
             "-f", "mp4"], d / "video.mp4")
        (d / "whole.mp4").unlink()
    elif case not in STREAMS:
        raise ValueError(case)
    h20._with_sample_log(d)
    return d


# -- 3. the small-file scan against its decode floor (issue 12, scansmall) ----------------------
SMALL = {
    # 8 s of 320x180 H.264 at 30 fps (-bf 2), MP4
    "small26_a_320x180_8s_mp4": ("testsrc2=size=320x180:rate=30", 8,
                                 [*_X264, "-g", "60", "-bf", "2"], "mp4"),
    # 3 s of 208x160 H.264 at 24 fps (-bf 3), Matroska
    "small26_b_208x160_3s_mkv": ("testsrc2=size=208x160:rate=24", 3,
                                 [*_X264, "-g", "48", "-bf", "3"], "mkv"),
}


# -- 4. the official chain on held-out payload shapes (issue 15, chain) --------------------------
_TOK = ["the", " cat", "ing", " 0", ".", ",", " de", "\u00e9", " \u4e2d", "\u6587", " Ж",
        "\U0001f600", " run", "()", "\n", " {", "}", " x", "ed", " model"]


def _logprobs_payload(rng: random.Random, size: int) -> dict:
    """A language model's top-5 alternatives per token: small objects of a short string, a
    float with 6-8 digits and a short array of byte values."""
    rows, used = [], 0
    while used < size - 60:
        tops = []
        for _ in range(5):
            t = rng.choice(_TOK)
            tops.append({"t": t, "lp": round(-rng.expovariate(1.5), rng.randint(4, 7)),
                         "b": list(t.encode("utf-8"))[:4]})
        rows.append(tops)
        used += len(json.dumps(tops, ensure_ascii=False, separators=(",", ":")).encode())
    return {"top": rows}


def _uescapes_payload(rng: random.Random, size: int) -> dict:
    """A multilingual chat transcript (Cyrillic, CJK, Greek, emoji); the shape is in how it is
    written: every non-ASCII character as a \\uXXXX escape, emoji as surrogate pairs
    (Python's json.dumps default spelling, see build_chain)."""
    alph = ("приветмирдобро", "中文字符测试漢字", "αβγδεζηθ", "\U0001f600\U0001f680\u2764")
    parts, used = [], 0
    while used < size - 40:
        a = rng.choice(alph)
        w = "".join(rng.choice(a) for _ in range(rng.randint(2, 9)))
        parts.append(w)
        used += len(json.dumps(w)) + 1
    return {"chat": " ".join(parts)}


CHAIN_SHAPES = {"logprobs": _logprobs_payload, "uescapes": _uescapes_payload}
CHAIN_ENCODE = {"uescapes": lambda ev: json.dumps(ev, separators=(",", ":")).encode()}


def build_chain(shape: str) -> Path:
    """As qa_session23.build_chain (120,000 ~1.4 KB events, 4 zstd frames, seed 23), with a
    writer's own spelling where CHAIN_ENCODE names one."""
    import moderator_app.core.samples.trajectory_writer as tw

    d = CACHE / "chain" / shape
    path = d / "events.jsonl.zst"
    if path.exists():
        return d
    d.mkdir(parents=True, exist_ok=True)
    fn = CHAIN_SHAPES[shape]
    orig = tw.shaped_payload
    tw.shaped_payload = lambda s, rng, size: fn(rng, size)
    try:
        evs = tw.make_run_events(s23.CHAIN_EVENTS, seed=23, text_bytes=1270, variety=0.15,
                                 shape=shape)
    finally:
        tw.shaped_payload = orig
    part = d / "events.jsonl.zst.part"
    kw = {"encode": CHAIN_ENCODE[shape]} if shape in CHAIN_ENCODE else {}
    tw.write_trajectory(part, evs, frames=4, compress=True, **kw)
    part.rename(path)
    return d


def check_chain(shape: str) -> dict:
    s23.CHAIN_SHAPES.update(CHAIN_SHAPES)
    s23.build_chain = build_chain
    return s23.check_chain(shape, repeat=5)


# -- 5. real-game runs (issue 13): games and a recorder nobody used -----------------------------
def mario_bros(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Mario Bros. (turtles, crabs and flies walk the floors on their own, fireballs bounce;
    Mario is small: LEFT/RIGHT run, FIRE jumps)."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 14))]
    if r < 0.85:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(4, 10))]


def journey_escape(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Journey Escape (the crowd of groupies, photographers and barriers scrolls down on its
    own all the time; the band member is a small figure steered in eight directions)."""
    r = rng.random()
    if r < 0.8:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN", "UPLEFT", "DOWNRIGHT")),
                 rng.randint(5, 12))]
    return [("NOOP", rng.randint(4, 10))]


def human_cannonball(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Human Cannonball (the picture holds until FIRE shoots the cannon; the flight then runs
    on its own; UP/DOWN set the cannon's angle)."""
    r = rng.random()
    if r < 0.45:
        return [(rng.choice(("UP", "DOWN")), rng.randint(4, 10))]
    if r < 0.8:
        return [("FIRE", rng.randint(2, 4))]
    return [("NOOP", rng.randint(6, 12))]


GAMES26 = {"mario_bros": (mario_bros, 261), "journey_escape": (journey_escape, 263),
           "human_cannonball": (human_cannonball, 267)}
#: a recorder no corpus set or QA pass used: Motion JPEG + AAC in QuickTime MOV (a capture
#: card's / camera's), 25 fps, x2 bicubic, 2.7 s lead-in. (With big-endian PCM audio, as first
#: built, every run was refused as `video.too_large`: see `pcmmov`, QA s26 T1.)
RECORDERS26 = {"r25mjpegmov": {"fps": 25, "scale": 2, "lead_s": 2.7, "container": "mov",
                               "codec": "mjpegmov"}}
KINDS = ("genuine", "cut", "insert")
SYNC_RUNS = [f"{g}-{k}@r25mjpegmov" for g in GAMES26 for k in KINDS]
SYNC_EXTRA = ["mario_bros-speed4@r25mjpegmov"]  # +4 %: a drift within 1 point wanted
_ENCODE25 = s25._encode


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    if getattr(rec, "codec", "") != "mjpegmov":
        return _ENCODE25(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", "25", "-i", "-", "-f", "lavfi", "-i",
           "sine=frequency=500:sample_rate=48000", "-map", "0:v", "-map", "1:a", "-shortest",
           "-vf", f"scale={w * rec.scale}:{h * rec.scale}:flags=bicubic",
           "-c:v", "mjpeg", "-q:v", "4", "-pix_fmt", "yuvj420p", "-threads", "1",
           "-c:a", "aac", "-b:a", "128k", "-f", "mov", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
    return path


def _install() -> None:
    s25._encode = _encode
    s25.GAMES25.update(GAMES26)
    s25.RECORDERS25.update(RECORDERS26)
    s25.NEAR_S = (0.12, -0.2)  # +3 and -5 frames at 25 fps


def build_sync_run(name: str) -> Path:
    _install()
    return s25.build_sync_run(name)


def check_sync(name: str) -> dict:
    """qa_session25.check_sync (s24's bars plus the same splice bar at two offsets near the
    truth), and S-b strict: an insertion's warning must overlap the inserted footage."""
    _install()
    return s25.check_sync(name)


#: a genuine run's video beside another game's genuine log (same recorder): nothing in the
#: video answers the log, so no offset may be suggested at >= 0.5
MISMATCH = {"mario_video+journey_log": ("mario_bros", "journey_escape"),
            "journey_video+cannonball_log": ("journey_escape", "human_cannonball"),
            "cannonball_video+mario_log": ("human_cannonball", "mario_bros")}


def check_mismatch(case: str) -> dict:
    import os

    vg, lg = MISMATCH[case]
    d = CACHE / "mismatch" / case
    if not (d / "agent-log.jsonl").exists():
        d.mkdir(parents=True, exist_ok=True)
        os.link(build_sync_run(f"{vg}-genuine@r25mjpegmov") / "video.mov", d / "video.mov")
        os.link(build_sync_run(f"{lg}-genuine@r25mjpegmov") / "agent-log.jsonl",
                d / "agent-log.jsonl")
    code, rep, _err = s22._verify(d, "--scan", "--sync", "--offset", "auto")
    sy = rep.get("sync") or {}
    sug = sy.get("suggested_offset_s", sy.get("offset_s"))
    conf = sy.get("confidence")
    return {"case": case, "exit": code, "verdict": rep.get("verdict"),
            "sync": {k: v for k, v in sy.items() if k != "findings" and not isinstance(v, list)},
            "met": not (sug is not None and conf is not None and conf >= 0.5)}


def _sync_key(r: dict) -> dict:
    """What a sync row says: the suggestion, its confidence, the drift, every warning (rule
    and span) at auto, at the truth and near it."""
    def warns(x: dict) -> list:
        return ([(w.get("rule"), w.get("a"), w.get("b")) for w in x["spans"]
                 if w.get("severity") == "warning"] + [tuple(o) for o in x.get("other_warnings", [])])
    a, t = r["auto"], r["at_truth"]
    return {"auto": (a["exit"], a["suggested_offset_s"], a["confidence"], a["drift_percent"],
                     warns(a)),
            "truth": (t["exit"], t["drift_percent"], warns(t)),
            "near": {k: (v["exit"], v["warnings"]) for k, v in r.get("near", {}).items()}}


def sync_cmp(before: str, after: str) -> None:
    """Two `sync` outputs compared run by run (same / CHANGED with the fields that moved)."""
    def load(p: str) -> dict:
        rows = [json.loads(x) for x in Path(p).read_text().splitlines() if x.startswith("{")]
        return {r["run"]: _sync_key(r) for r in rows if "auto" in r}
    a, b = load(before), load(after)
    for run, key in b.items():
        moved = {f: (a[run][f], key[f]) for f in key if run in a and a[run][f] != key[f]}
        print(json.dumps({"run": run, "same": run in a and not moved, "moved": moved},
                         default=str))


# -- 5b. QuickTime with PCM audio (T1) -----------------------------------------------------------
#: case -> seconds of 320x240 25 fps MJPEG + 48 kHz stereo big-endian PCM in MOV (a capture
#: card's recording); the MOV sample tables count every PCM sample (48,000 a second)
PCMMOV = {"pcmmov_30s": 30, "pcmmov_50s": 50, "pcmmov_h264_s16le_60s": 60}


def build_pcmmov(case: str) -> Path:
    import qa_hostile_s20 as h20

    secs = PCMMOV[case]
    d = CACHE / "pcmmov" / case
    d.mkdir(parents=True, exist_ok=True)
    venc = (["-c:v", "libx264", "-preset", "ultrafast", "-threads", "1"] if "h264" in case
            else ["-c:v", "mjpeg", "-q:v", "5", "-pix_fmt", "yuvj420p", "-threads", "1"])
    aenc = "pcm_s16le" if "s16le" in case else "pcm_s16be"
    _ff(["-f", "lavfi", "-i", f"testsrc2=size=320x240:rate=25:duration={secs}", "-f", "lavfi",
         "-i", f"sine=frequency=440:sample_rate=48000:duration={secs}", "-map", "0:v",
         "-map", "1:a", "-ac", "2", *venc, "-c:a", aenc], d / "video.mov")
    h20._with_sample_log(d)
    return d


def check_pcmmov(case: str) -> dict:
    d = build_pcmmov(case)
    code, rep, err = s22._verify(d, "--scan", "--offset", "0")
    v = rep.get("video") or {}
    return {"case": case, "exit": code, "verdict": rep.get("verdict"),
            "frames": v.get("frame_count"), "duration_s": v.get("duration_s"),
            "findings": [(f.get("severity"), f.get("rule"), f.get("message", "")[:200])
                         for f in rep.get("findings", []) if f.get("severity") != "info"],
            "met": not any(f.get("rule") == "video.too_large" for f in rep.get("findings", []))}


# -- 6. hostile inputs of classes no pass used ---------------------------------------------------
def hostile_module():
    import qa_hostile_s26
    return qa_hostile_s26


def _install_video() -> None:
    s25.FRAMES.update(FRAMES)
    s25.STREAMS.update(STREAMS)
    s25.SMALL.update(SMALL)
    s25.build_streams = build_streams


def main(argv: list[str]) -> int:  # noqa: C901 - one dispatch table
    _install_video()
    what, rest = (argv[0] if argv else ""), argv[1:]
    pairs = 7
    if "--pairs" in rest:
        i = rest.index("--pairs")
        pairs = int(rest[i + 1])
        rest = rest[:i] + rest[i + 2:]
    if what == "build":
        kinds = rest or ["frames", "streams", "small"]
        if "frames" in kinds:
            _rows(lambda c: {"case": c, "folder": str(s25.build_frames(c))}, list(FRAMES),
                  "case")
        if "streams" in kinds:
            _rows(lambda c: {"case": c, "folder": str(build_streams(c))}, list(STREAMS), "case")
        if "small" in kinds:
            _rows(lambda c: {"case": c, "folder": str(s25.build_small(c))}, list(SMALL), "case")
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(build_chain(s))}, list(CHAIN_SHAPES),
                  "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hostile_module().cases(CACHE / "hostile")]))
    elif what == "frames":
        _rows(s25.check_frames, rest or list(FRAMES), "case")
    elif what == "streams":
        _rows(s25.check_streams, rest or list(STREAMS), "case")
    elif what == "small":
        _rows(lambda c: s25.check_small(c, pairs), rest or list(SMALL), "case")
    elif what == "chain":
        _rows(check_chain, rest or list(CHAIN_SHAPES), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))},
              rest or SYNC_RUNS + SYNC_EXTRA, "run")
    elif what == "sync":
        _rows(check_sync, rest or SYNC_RUNS, "run")
    elif what == "sync-cmp":
        sync_cmp(rest[0], rest[1])
    elif what == "mismatch":
        _rows(check_mismatch, rest or list(MISMATCH), "case")
    elif what == "pcmmov":
        _rows(check_pcmmov, rest or list(PCMMOV), "case")
    elif what == "hostile":
        import qa_common
        qa_common.CLI = CLI
        qa_common.run_hostile(hostile_module(), CACHE, rest)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
