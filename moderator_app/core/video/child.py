"""The isolated video process: every byte of an untrusted video is parsed here, never in the
workstation or the CLI (issue 15: a decoder is a large C codebase fed hostile bytes; a crash or
heap corruption here must become a finding, not kill the app).

Run as `python -m moderator_app --video-child` (the bundle: `moderator-app --video-child`).
The parent (`isolate.py`) passes the open file as a file descriptor (so no path, UTF-8 or not,
is ever handed to FFmpeg) and one JSON request per line on stdin. Each answer is a message: a 4-byte big-endian length, a JSON header,
then the binary blobs the header lists (an index, pixels, arrays; never pickle). Memory is
capped with RLIMIT_AS so a bomb fails here, as a finding.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import struct
import sys
import threading
import time

from .trace import summary, trace, tracing
from .wire import write_all


def _limit_memory() -> None:
    try:
        import resource
        cap = int(os.environ.get("MODERATOR_VIDEO_MEM", str(3 << 30)))
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ImportError, ValueError, OSError):
        pass


def send(out, header: dict, blobs: tuple[bytes, ...] = ()) -> None:
    header = dict(header, blobs=[len(b) for b in blobs])
    if tracing():
        trace("child", f"send to rid={_RID[0]} {summary(header)}")
    data = json.dumps(header).encode()
    # whole writes: a signal (SIGUSR1, the player's interrupt) in a write blocked on the full
    # pipe made `out.write` return short, and the rest of a warm-up's frames was lost (wire.py)
    write_all(out, struct.pack(">I", len(data)) + data)
    for b in blobs:
        write_all(out, b)
    out.flush()


class Input:
    """The requests on stdin, read from the descriptor itself: lines, the payloads after them,
    and whether a line has come (`wait`), which a playback stream asks between two frames (a
    buffered reader could hold a line that `select` on the descriptor does not see)."""

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        self.buf = bytearray()
        self.eof = False

    def _fill(self) -> bool:
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def readline(self) -> bytes:
        while b"\n" not in self.buf and not self.eof:
            self._fill()
        i = self.buf.find(b"\n")
        end = len(self.buf) if i < 0 else i + 1
        line = bytes(self.buf[:end])
        del self.buf[:end]
        return line

    def read(self, n: int) -> bytes:
        while len(self.buf) < n and self._fill():
            pass
        data = bytes(self.buf[:n])
        del self.buf[:n]
        return data

    def wait(self, timeout: float) -> bool:
        """Whether a line (or the end of the input) is there, waiting up to `timeout` s."""
        import select
        if b"\n" in self.buf or self.eof:
            return True
        end = time.monotonic() + timeout
        while True:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, end - time.monotonic()))
            if ready and (not self._fill() or b"\n" in self.buf):
                return True
            if time.monotonic() >= end:
                return False


def _open(req: dict):
    from .opening import open_container
    src = req["source"]
    return open_container(src)


def _decoder(req: dict, state: dict, inp: Input):
    """The player's decoder: made from the index the request carries (its first request),
    else the one made before."""
    from .decoder import ExactDecoder
    from .index import FrameIndex
    if "index_len" in req:
        index = FrameIndex.from_bytes(inp.read(int(req["index_len"])))
        state["dec"] = ExactDecoder(_open(req), index, reopen=lambda: _open(req))
    return state["dec"]


def op_frame(req: dict, out, state: dict, inp: Input) -> None:
    """Decode frame n; pixels as RGB24 or the request's `pixels` layout (`to_rgb`),
    optionally scaled to width x height."""
    from .pixels import to_rgb
    dec = _decoder(req, state, inp)
    decoded, fallbacks = dec.decoded, dec.fallbacks
    t0, c0 = time.perf_counter(), time.process_time()
    frame = dec.read(int(req["n"]), int(req.get("cache_before", 0)))
    if frame is None:
        send(out, {"ok": False, "reason": f"frame {req['n']} cannot be decoded"})
        return
    t1, c1 = time.perf_counter(), time.process_time()
    img = to_rgb(frame, req.get("width"), req.get("height"), dec.index.orientation,
                 str(req.get("pixels", "rgb24")))
    t2, c2 = time.perf_counter(), time.process_time()
    h, w = img.shape[:2]
    # what the read cost (frames decoded, fallbacks), and where its time went (wall and the
    # process's CPU, ms: seek + decode, then conversion + scaling): the bench and the tests
    # read them
    send(out, {"ok": True, "n": int(req["n"]), "width": w, "height": h,
               "decoded": dec.decoded - decoded, "fallbacks": dec.fallbacks - fallbacks,
               "stages_ms": {"decode": round((t1 - t0) * 1e3, 2),
                             "decode_cpu": round((c1 - c0) * 1e3, 2),
                             "convert": round((t2 - t1) * 1e3, 2),
                             "convert_cpu": round((c2 - c1) * 1e3, 2)}},
         (img.tobytes(),))
    if req.get("ahead"):  # playback: decode the next frame while the workstation paints
        dec.prefetch(int(req["n"]) + 1)


# Playback streams frames ahead of the clock: at most this far (wall time: video time over the
# speed), never more than PLAY_AHEAD_BYTES of pixels in flight.
PLAY_AHEAD_S = 0.25
PLAY_AHEAD_BYTES = 48 << 20


def op_play(req: dict, out, state: dict, inp: Input) -> None:
    """Playback: decode from frame `n` on, every `stride`-th frame, ahead of the player's clock,
    and send each as a message of its own (`{"play": n, ...}` and its pixels) without being
    asked, until a line arrives on stdin (the player paused, sought or changed speed) or the
    video ends; then the answer (`{"ok": true, "last": n}`), and the line is the next request
    (a selected frame or the next stream, served at once; "stop" is only that).

    The clock is the player's: it starts at video time `video0` when the first frame is sent
    (the player starts it when that frame comes: a stream's first frame is never late), on
    CLOCK_MONOTONIC, at `speed`. A frame is sent only while it is at most
    PLAY_AHEAD_S ahead of the clock (the player keeps what it was sent until its time comes),
    and a frame whose time the clock has already passed is decoded (the next ones refer to it)
    but neither converted nor sent: the stream then goes on from the frame the clock will be
    at when the next one is ready. So a child that was starved of the CPU catches up instead
    of sending late frames, and a late tick in the window costs nothing: its frame is
    already there (issue 11 point 8)."""
    import numpy as np

    from .pixels import to_rgb
    dec = _decoder(req, state, inp)
    index = dec.index
    count = index.frame_count
    stride = max(1, int(req.get("stride", 1)))
    speed = max(1e-3, float(req.get("speed", 1.0)))
    video0 = float(req["video0"])
    wall0: float | None = None  # the clock starts when the first frame is sent
    width, height = req.get("width"), req.get("height")
    pixels = str(req.get("pixels", "rgb24"))
    n = int(req["n"])
    cost = index.frame_duration_s / speed  # wall time to make a frame (moving average)
    frame_bytes = (3 if pixels == "rgb24" else 4) * int(width or index.width) \
        * int(height or index.height)
    ahead = min(PLAY_AHEAD_S, max(2, PLAY_AHEAD_BYTES // max(1, frame_bytes))
                * index.frame_duration_s / speed)
    sent = 0
    last = None
    while 0 <= n < count:
        now = time.monotonic()
        clock = video0 if wall0 is None else video0 + (now - wall0) * speed
        due = (float(index.times_s[n]) - clock) / speed  # wall seconds until its time
        if due > ahead and wall0 is not None:
            # far enough ahead: wait for the clock, or for the player's word (the first frame
            # is sent at once: the clock waits for it)
            if inp.wait(min(due - ahead, 0.05)):
                break
            continue
        if inp.wait(0):
            break
        late = due + (index.duration_of(n) / speed) < cost
        if late and wall0 is not None:
            # its time will be over before it could be shown: go on from the frame the clock
            # will be at once a frame is made (the decoder decodes what it must up to it)
            k = int(np.searchsorted(index.times_s, clock + 2 * cost * speed, side="right")) - 1
            n += stride * max(1, -(-(k - n) // stride))  # on the stride's grid: m0 + j*stride
            continue
        t0, decoded = time.monotonic(), dec.decoded
        frame = dec.read(n)
        if frame is None:  # as a request for it would: the player stops and says so
            send(out, {"ok": False, "reason": f"frame {n} cannot be decoded"})
            return
        if inp.wait(0):  # the player's word came during the decode: not converted nor sent
            break
        img = to_rgb(frame, width, height, index.orientation, pixels)
        h, w = img.shape[:2]
        send(out, {"play": n, "width": w, "height": h}, (img.tobytes(),))
        if wall0 is None:
            wall0 = time.monotonic()
        elif dec.decoded - decoded <= 2 * stride:
            # the cost of a frame in the stream's stride; not of a catch-up (a decode through
            # the skipped frames): counting those made every skip longer than the one before
            cost = 0.7 * cost + 0.3 * (time.monotonic() - t0)
        sent += 1
        last = n
        n += stride
    if state.get("fault") == "play-fails" and inp.wait(0):
        # tests: the player's line came while a frame that does not decode was decoded (a
        # broken video): the stream's answer is that frame's failure, the line comes next
        send(out, {"ok": False, "reason": f"frame {n} cannot be decoded"})
        return
    send(out, {"ok": True, "last": last, "sent": sent})


# Set by the player's interrupt (`VideoProcess.interrupt`): a request is waiting, a warm-up
# gives up at its next decoded frame. One flag per lowest bit of the warm-up generation the
# interrupt names (`wire.interrupt_signal`). A warm-up clears the other bit's (stale: meant for
# the one before, come after its answer) as it starts, keeps its own (timely: sent while its
# line was read), and clears its own after its answer (session 20, issue 11).
_INTERRUPT = [False, False]
_WARM_BIT = [0]  # the lowest bit of the generation of the warm-up being served
_RID = [None]  # the id of the request being served (a trace's, `trace.py`)


def _on_interrupt(signum, _frame) -> None:
    bit = 1 if signum == getattr(signal, "SIGUSR2", None) else 0
    _INTERRUPT[bit] = True
    if tracing():
        trace("child", f"interrupt bit={bit} during rid={_RID[0]}")


def _interrupted() -> bool:
    """Whether the warm-up being served was interrupted (a request is waiting)."""
    return _INTERRUPT[_WARM_BIT[0]]


def op_warm(req: dict, out, state: dict) -> None:
    """Decode frames the moderator may go to next (the neighbouring events and findings) into
    the frame decoder's cache with a decoder of their own, so that the player's decoder keeps
    its place; a selection of one of them is then served without a decode. Given up as soon
    as the player interrupts (a request is waiting): it never delays a selection by more
    than the frame being decoded.

    `send` ({"width", "height", "pixels"}, as a frame request's): the frames warmed are also
    sent back, converted as a frame request would convert them (one blob each, `sent` and
    `sizes` in the header), so that the workstation keeps them and shows one at once when it
    is selected (ui/frame_cache.py): no request, no wait for this process to be scheduled."""
    import threading
    bit = _WARM_BIT[0] = int(req.get("gen", 0)) & 1
    stale = _INTERRUPT[1 - bit]
    _INTERRUPT[1 - bit] = False  # meant for the warm-up before this one (see _INTERRUPT)
    if tracing():
        trace("child", f"warm gen={req.get('gen')} interrupt={_INTERRUPT[bit]} stale={stale}")
    dec = state.get("dec")
    done: list[int] = []
    blobs: list[bytes] = []
    sent: list[int] = []
    sizes: list[list[int]] = []
    if dec is not None:
        frames = [int(n) for n in req.get("frames", ())[:8]
                  if 0 <= int(n) < dec.index.frame_count and not dec.near(int(n))]
        result: dict = {}
        # The warm-up decodes on a thread of its own at the background's nice value, with
        # one decoder thread: idle work never outweighs the scan or a verification, and the
        # main thread stays free to take the interrupt (the signal handler runs there).
        worker = threading.Thread(target=_warm_thread, args=(req, state, dec, frames, result),
                                  daemon=True)
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
        if "error" in result:
            raise result["error"]
        done = result.get("done", [])
        for n, img in result.get("images", ()):
            sent.append(n)
            sizes.append([int(img.shape[1]), int(img.shape[0])])
            blobs.append(img.tobytes())
    send(out, {"ok": True, "done": done, "interrupted": _interrupted(), "sent": sent,
               "sizes": sizes}, tuple(blobs))
    _INTERRUPT[bit] = False


def _warm_thread(req: dict, state: dict, dec, frames: list[int], result: dict) -> None:
    from moderator_app.core.priority import lower_this_thread

    from .decoder import ExactDecoder
    lower_this_thread()
    try:
        if "warm" not in state:
            state["warm"] = ExactDecoder(_open(req), dec.index, threads=False,
                                         reopen=lambda: _open(req))
        result["done"] = state["warm"].warm(frames, dec, _warm_stop(state.get("fault")))
        spec = req.get("send")
        if isinstance(spec, dict):
            from .pixels import to_rgb
            images = result["images"] = []
            for n in result["done"]:
                frame = dec.cached_frame(n)
                if _interrupted() or frame is None:
                    continue  # a request is waiting: it goes first
                images.append((n, to_rgb(frame, spec.get("width"), spec.get("height"),
                                         dec.index.orientation,
                                         str(spec.get("pixels", "rgb24")))))
    except Exception as exc:  # noqa: BLE001 - reported by the main thread, as any op's
        result["error"] = exc


def _warm_stop(fault: str | None):
    """What a warm-up asks at every decoded frame: whether to give up (an interrupt came).
    Tests (`MODERATOR_VIDEO_FAULT=warm-crawl`): each frame takes WARM_CRAWL_S more, as a
    warm-up starved on a loaded machine, still given up at once when interrupted."""
    if fault != "warm-crawl":
        return _interrupted

    def crawl() -> bool:
        end = time.monotonic() + WARM_CRAWL_S
        while not _interrupted() and time.monotonic() < end:
            time.sleep(0.01)
        return _interrupted()
    return crawl


WARM_CRAWL_S = 5.0


def op_scan(req: dict, out) -> None:
    from .signals import scan_container
    if req.get("nice"):
        from moderator_app.core.priority import lower_group
        os.nice(int(req["nice"]))  # background work never starves playback
        lower_group(None, int(req["nice"]))  # nor its session's group (autogroup)
    container = _open(req)

    def progress(done: int, total: int) -> None:
        send(out, {"progress": [done, total]})

    budget = req.get("budget_s")
    arrays, meta = scan_container(container, progress, int(req.get("total", 0)),
                                  None if budget is None else float(budget),
                                  req.get("source"))
    from .signals import pack_arrays
    send(out, dict(meta, ok=True), (pack_arrays(arrays),))


def _receive_file() -> str | None:
    """The file's descriptor from the parent's socket (isolate.py: `FD_SOCKET_ENV`), as a
    path FFmpeg can open; "" when the parent left without sending one; None when the parent
    passed the file otherwise (the path in each request, outside Linux)."""
    fd = os.environ.pop("MODERATOR_VIDEO_FDSOCK", None)  # isolate.FD_SOCKET_ENV
    if fd is None:
        return None
    import contextlib
    import socket
    with socket.socket(fileno=int(fd)) as sock:
        # imported: ready (the bench waits for it); an error: the parent already sent the
        # file and closed its end
        with contextlib.suppress(OSError):
            sock.send(b"R")
        try:
            _, fds, _, _ = socket.recv_fds(sock, 1, 1)
        except (OSError, ValueError):
            return ""
    return f"/proc/self/fd/{fds[0]}" if fds else ""


def _tick() -> None:
    """A thread that wakes now and then for a moment of CPU (the `stuck` and `warm-silent`
    faults): alive to a look at its CPU time, never answering."""
    while True:
        busy = time.process_time() + 0.0002
        while time.process_time() < busy:
            pass
        time.sleep(0.05)


def main() -> int:
    for name in ("SIGUSR1", "SIGUSR2"):  # first: an interrupt must never find the default
        if hasattr(signal, name):  # action (the process's end)
            signal.signal(getattr(signal, name), _on_interrupt)
            signal.siginterrupt(getattr(signal, name), False)
    _limit_memory()
    os.environ.setdefault("AV_LOG_FORCE_NOCOLOR", "1")
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the message stream
    # PyAV's 53 extension modules and FFmpeg's libraries bound lazily: Python loads extensions
    # with RTLD_NOW, which resolves every function they could call before the first runs
    # (~10 M instructions of the ~190 M `import av` costs; a 3 s file's whole decode floor is
    # ~0.08 s of CPU). The functions are the same; each is bound when first called.
    flags = sys.getdlopenflags()
    sys.setdlopenflags(os.RTLD_LAZY)
    try:
        import av
    finally:
        sys.setdlopenflags(flags)
    av.logging.set_level(None)
    # every request needs these: imported before the file is known (a child started ahead
    # has them ready when its file comes)
    from . import decoder, index, opening, signals  # noqa: F401
    # the collector was paused for the imports (`moderator_app.__main__`): what they made
    # lives as long as the process, so it is frozen out of the collector's passes
    gc.freeze()
    gc.enable()
    source = _receive_file()
    if source == "":
        return 0  # started ahead and never given a file: the parent has gone
    fault = os.environ.get("MODERATOR_VIDEO_FAULT")  # tests: prove the parent survives these
    state: dict = {"fault": fault}
    inp = Input(sys.stdin.buffer.fileno())
    while True:
        line = inp.readline()
        if not line.strip():
            if inp.eof:
                # the parent closed its end (`VideoProcess.close` after a kept request): as
                # after a last answer, no interpreter teardown to wait for
                os._exit(0)
            continue
        if fault == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif fault == "hang":
            time.sleep(3600)
        elif fault == "spin":  # a decoder in a loop: busy, never answering
            while True:
                pass
        elif fault == "stuck":  # deadlocked, one thread waking now and then (FFmpeg's HEVC)
            threading.Thread(target=_tick, daemon=True).start()
            threading.Event().wait()
        elif fault == "crawl":  # a child starved by the machine's load: ~4 % of a core, 3 s
            end = time.monotonic() + 3.0
            while time.monotonic() < end:
                busy = time.process_time() + 0.002
                while time.process_time() < busy:
                    pass
                time.sleep(0.05)
            fault = None
        req = json.loads(line)
        _RID[0] = req.get("rid")
        if tracing():
            trace("child", f"line rid={_RID[0]} op={req.get('op')} n={req.get('n')} "
                  f"frames={req.get('frames')} interrupt={_INTERRUPT}")
        if source is not None:
            req["source"] = source
        op = req.get("op")
        try:
            if op == "probe":
                from .child_probe import op_probe
                send(out, *op_probe(req))
            elif op == "frame":
                op_frame(req, out, state, inp)
            elif op == "play":
                op_play(req, out, state, inp)
            elif op == "stop":
                continue  # the end of a playback stream (answered by `op_play`)
            elif op == "warm":
                if fault == "warm-silent":
                    # tests: a warm-up whose answer never comes, the child back on its input
                    # and waking now and then, as seen in session 18 (its interrupts' CPU)
                    threading.Thread(target=_tick, daemon=True).start()
                    continue
                op_warm(req, out, state)
            elif op == "audio":
                from .child_audio import op_audio
                send(out, *op_audio(req, state, _open))
            elif op == "scan":
                op_scan(req, out)
            elif op == "held":
                from .child_held import op_held
                send(out, *op_held(req, _open))
            elif op == "quit":
                return 0
            else:
                send(out, {"ok": False, "reason": f"unknown op {op!r}"})
        except MemoryError:
            send(out, {"ok": False, "reason": "the video needs more memory than allowed"})
        except ImportError as exc:
            # a module loaded on first use, under the memory limit: "failed to map segment
            # from shared object" named a library path as the video's fault (QA s15 H4)
            full = "map segment" in str(exc) or "allocate memory" in str(exc)
            send(out, {"ok": False, "reason": "the video needs more memory than allowed" if full
                       else "a part of the video reader could not be loaded"})
        except opening.OpenFailed as exc:  # FFmpeg's own words, not a misleading errno
            send(out, {"ok": False, "reason": str(exc)[:500]})
        except Exception as exc:  # noqa: BLE001 - any decoder error is the video's fault
            text = str(exc).replace(f": '{req.get('source')}'", "")
            send(out, {"ok": False, "reason": f"{type(exc).__name__}: {text}"[:500]})
        if not req.get("keep"):
            # the answer is sent (`send` flushes) and nothing else is held: leave without the
            # interpreter's teardown (freeing PyAV's and numpy's modules took 30-200 ms,
            # which the parent waited for in `VideoProcess.close`)
            os._exit(0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
