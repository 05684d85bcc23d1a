"""How a video file is opened for PyAV (runs inside the isolated video process).

Every reader (the probe, the scan, the player, `frame`) opens a file here, so every one gets
the same bounds: probing bounded in bytes and time, at most MAX_STREAMS streams, pictures
decoded while probing for the first PROBED_STREAMS streams only, and FFmpeg's own reason when
it refuses a file whose error code would mislead. Apart from `decoder` because opening is
about the untrusted file's header, decoding about its frames.
"""

from __future__ import annotations

import contextlib
import errno

import av


class OpenFailed(Exception):
    """FFmpeg refused to open the file; the text is FFmpeg's own reason (issue 15)."""


# Codes FFmpeg returns for a header it refuses, whose system text names something else: a
# y4m header of W30000 H30000 is "[Errno 16] Device or resource busy" (its size check's code).
# ENOMEM too: a header declaring more than MAX_STREAMS streams is refused with it ("Number of
# streams exceeds max_streams parameter (64)" is what FFmpeg logs).
_MISLEADING = {errno.EBUSY, errno.EINVAL, errno.ENOMEM}

# Streams FFmpeg reads from one file (its `max_streams`, 1000 by default). Opening probes a
# decoder for every stream: ~0.9 MB each, so a 5 MB Matroska file of 500 tiny H.264 streams
# took 440 MB to open and 1000 streams 895 MB (QA session 15, H4: past the 512 MiB a hostile
# input may use, and under that cap an import failing inside the reader became the finding).
# A game recording holds one video stream and an audio track or two; 64 leave room for every
# real file; a file with more is refused (`open_container`), within ~100 MB.
MAX_STREAMS = 64
TOO_MANY_STREAMS = (f"the file holds {MAX_STREAMS} streams or more (a game recording holds one "
                    "video stream and an audio track or two): not read")


# Streams whose first pictures opening decodes (FFmpeg's stream probe); the streams after them
# are probed without decoding a picture (`skip_frame=all`: their header and parser still give
# size, codec and rate). Each decoded 1080p stream held ~10 MB: 40 of them in a 27 MB
# Matroska file took 428 MB to open, and under a 512 MiB limit the demuxer then stopped after
# 4 packets of stream 0 without an error: "2 frames, 0.067 s", a false tail and header
# mismatch (QA session 15, H7). With this, 103 MB. Files of up to PROBED_STREAMS streams (every
# honest recording: a video, an audio track or two, a cover) open exactly as before.
PROBED_STREAMS = 4
_OPEN_OPTIONS = {"probesize": str(32 << 20), "analyzeduration": str(30_000_000),
                 "max_streams": str(MAX_STREAMS)}
_SKIPPED: list[dict[str, str]] = [{}] * PROBED_STREAMS + [{"skip_frame": "all"}] * (MAX_STREAMS - PROBED_STREAMS)
_streams_late: set[str] = set()  # files whose streams appear only while probing (MPEG-TS)


def _open(path: str):
    if path not in _streams_late:
        try:
            # PyAV's stub says list[str]; it takes one dict per stream (av/container/input.py)
            return av.open(path, options=_OPEN_OPTIONS,
                           stream_options=_SKIPPED)  # type: ignore[arg-type]
        except ValueError:
            # PyAV applies per-stream options only where the header lists the streams before
            # the probe; MPEG-TS and MPEG-PS find theirs in it: opened as before
            _streams_late.add(path)
    return av.open(path, options=_OPEN_OPTIONS)


def open_container(path: str):
    """Open a file for PyAV with bounded probing (a hostile header cannot make it read
    gigabytes before the first packet). When FFmpeg refuses the file with a code whose system
    text would mislead (EBUSY, EINVAL), the reason is the error FFmpeg logged while opening
    ("Picture size 30000x30000 is invalid"), from a second open made to hear it.

    Why not listen on every open: PyAV's log callback takes the GIL in FFmpeg's threads, and
    PyAV frees a decoder (`avcodec_free_context`, which waits for its frame threads) with the
    GIL held. A frame thread that logs while its decoder is freed with the callback on
    deadlocks the process: every thread in a futex wait, the frame threads in `take_gil`
    (waking every 5 ms), the main thread in the free (session 14, gdb: with the callback left
    on, random seeks and reopens hung 3 of 3 runs on the 10-bit 4:4:4 HEVC file and 1 of 1 on
    H.264, within ~25 s each; with it off, 2 runs of 400 passes ended). Listening during every open
    met a free by the garbage collector now and then (session 12: HEVC, ~1 in 60 seeks under
    load). So nothing listens while a file that opens is opened; only after a refusal a
    second open listens, with the garbage collected first (freed while nothing listens) and
    the collector off meanwhile."""
    try:
        container = _open(path)
    except av.error.FFmpegError as exc:
        if exc.errno not in _MISLEADING:
            raise
        said = _said_while_opening(path)
        if any("max_streams" in s for s in said):
            raise OpenFailed(TOO_MANY_STREAMS) from None
        if said:
            raise OpenFailed(f"FFmpeg refuses the file: {said[-1][:300]}") from None
        raise
    if len(container.streams) >= MAX_STREAMS:
        # Matroska keeps the first MAX_STREAMS and stops reading at the first packet of a
        # later one (2 frames of 50 indexed: a false header mismatch), so such a file is
        # refused as the other containers refuse it
        container.close()
        raise OpenFailed(TOO_MANY_STREAMS)
    return container


def _said_while_opening(path: str) -> list[str]:
    """The errors FFmpeg logs while opening `path` (which failed to open)."""
    import gc
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    repeated = av.logging.get_skip_repeated()
    av.logging.set_skip_repeated(False)  # the same file refused twice says it twice
    av.logging.set_level(av.logging.ERROR)
    try:
        with av.logging.Capture() as logs, contextlib.suppress(av.error.FFmpegError):
            _open(path).close()
        return [str(m).strip() for lvl, _, m in logs
                if lvl <= av.logging.ERROR and str(m).strip()]
    finally:
        av.logging.set_level(None)
        av.logging.set_skip_repeated(repeated)
        if was:
            gc.enable()
