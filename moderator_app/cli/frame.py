"""`moderator-app frame`: write the exact frame the workstation shows for a moment or an event,
as a PNG (rejections are argued with frames).

`--time T` is video time (what the player's clock shows); `--line N` is the event on line N of
the log or trajectory, placed at video time = its run time + `--offset` (the sync contract).
The frame is chosen by the same rule as the player's (core/video/export.py: the last frame
at or before that time, none where the probe declares no footage) and decoded exactly in the isolated video process. Exit 0 written,
1 the moment has no footage (said why), 2 unreadable input or a wrong command line.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from moderator_app.cli.common import (
    EXIT_FAIL,
    EXIT_PASS,
    EXIT_UNREADABLE,
    finite_seconds,
    safe_text,
)


def add_frame_command(sub: argparse._SubParsersAction) -> None:
    f = sub.add_parser("frame", help="write the exact frame shown at a moment or an event "
                                     "(PNG); exit 1 when that moment has no footage")
    f.add_argument("paths", nargs="+", metavar="PATH",
                   help="a submission (folder, archive, or files), or a video file")
    where = f.add_mutually_exclusive_group(required=True)
    where.add_argument("--time", type=_time_arg, metavar="T",
                       help="video time: seconds (12.5), mm:ss or hh:mm:ss.mmm")
    where.add_argument("--line", type=int, metavar="N",
                       help="the event on line N of the log or trajectory")
    f.add_argument("--offset", type=finite_seconds, default=0.0, metavar="SECONDS",
                   help="video time at which run_start happens (default 0), for --line")
    f.add_argument("-o", "--out", type=Path, required=True, metavar="out.png")
    f.set_defaults(handler=cmd_frame)


def _time_arg(text: str) -> float:
    parts = text.strip().split(":")
    if not 1 <= len(parts) <= 3:
        raise argparse.ArgumentTypeError(f"not a time: {text!r}")
    try:
        value = 0.0
        for p in parts:
            value = value * 60 + float(p)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a time: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a time: {text!r}")
    return value


def _bare_video(path: Path) -> bool:
    """Whether a lone PATH is a video file, not a submission: any regular file that is neither
    evidence nor an archive by its name. The container is judged by its bytes in the isolated
    reader, as everywhere else (a list of suffixes refused MPEG-TS, `.m2ts`, `.flv` ..., which
    the reader plays; a file it cannot read is exit 2 with the reader's reason)."""
    from moderator_app.core.formats.members import ARCHIVE_SUFFIXES
    return path.is_file() and not path.name.lower().endswith((*ARCHIVE_SUFFIXES, ".jsonl",
                                                              ".zst"))


def _err(msg: str, code: int) -> int:
    print(f"moderator-app frame: {safe_text(msg)}", file=sys.stderr)
    return code


def cmd_frame(args: argparse.Namespace) -> int:
    """`frame`. A video inside an archive is copied to a folder that lives until the frame is
    written (verify_paths alone removes its copy on return: every bundle said "unreadable")."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="moderator-app-") as tmp:
        return _frame(args, Path(tmp))


def _frame(args: argparse.Namespace, spool: Path) -> int:
    from moderator_app.core.atomic import atomic_write
    from moderator_app.core.errors import InputError
    from moderator_app.core.video.export import (
        frame_for_time,
        no_footage_reason,
        png_bytes,
        read_frames,
    )
    from moderator_app.core.video.isolate import VideoProcessError
    from moderator_app.core.video.probe import probe_video

    paths = [Path(p) for p in args.paths]
    video_only = len(paths) == 1 and _bare_video(paths[0])
    label = ""
    if video_only:
        if args.line is not None:
            return _err("--line needs a submission (the log or trajectory), not only a video",
                        EXIT_UNREADABLE)
        probe, video_path = probe_video(paths[0], paths[0].name), paths[0]
        t = args.time
    else:
        from moderator_app.core.verify.options import VerifyOptions
        from moderator_app.core.verify.pipeline import verify_paths
        try:
            result = verify_paths(paths, VerifyOptions(offset=args.offset, spool_dir=spool,
                                                       build_index=args.line is not None))
        except InputError as exc:
            return _err(str(exc), EXIT_UNREADABLE)
        probe, video_path = result.video_probe, result.video_path
        if probe is None:
            return _err("the submission has no video", EXIT_UNREADABLE)
        if args.line is not None:
            index = result.index
            row = index.row_for_line(args.line) if index is not None else None
            if row is None or index.lines[row] != args.line:
                return _err(f"no event on line {args.line}", EXIT_UNREADABLE)
            run_t = index.times[row]
            if not math.isfinite(run_t):
                return _err(f"the event on line {args.line} has no usable time", EXIT_FAIL)
            t = run_t + args.offset
            label = f"for the event on line {args.line} (run time {run_t:.3f} s) "
        else:
            t = args.time
    if not probe.ok or probe.index is None or video_path is None:
        # the probe's findings already say "the video cannot be read: ..." (not twice)
        lead = "the video cannot be read: "
        reasons = "; ".join(f.message.removeprefix(lead) for f in probe.findings)
        return _err(lead + (reasons or "unreadable"), EXIT_UNREADABLE)
    why = no_footage_reason(probe.index, t, no_footage=probe.no_footage)
    n = frame_for_time(probe.index, t, no_footage=probe.no_footage)
    if n is None or why is not None:
        # a time far past any video (`--time 1e308`) in 4 significant digits, not 300
        shown = f"{t:.3f}" if abs(t) < 1e9 else f"{t:.4g}"
        return _err(f"no footage at video time {shown} s {label}({why})", EXIT_FAIL)
    try:
        img, = read_frames(video_path, probe.index, [n])
    except VideoProcessError as exc:
        return _err(f"the frame cannot be decoded: {exc.reason}", EXIT_UNREADABLE)
    if img is None:
        return _err(f"frame {n} cannot be decoded", EXIT_UNREADABLE)
    try:
        atomic_write(args.out, png_bytes(img))
    except OSError as exc:
        return _err(f"cannot write {args.out}: {exc.strerror or exc}", EXIT_UNREADABLE)
    shown = probe.index.time_of(n)
    print(f"{safe_text(str(args.out))}: frame {n} (video time {shown:.3f} s, "
          f"{img.shape[1]}x{img.shape[0]}), on screen at {t:.3f} s {label}".rstrip())
    return EXIT_PASS
