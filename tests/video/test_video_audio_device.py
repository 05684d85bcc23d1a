"""Audio reaching an output device (issue 12 point 3), for real: a PulseAudio daemon of the
test's own with a null sink, the workstation's audio path (`AudioTrack` -> `AudioFeeder` ->
`default_sink()`, a pipe into `paplay`) playing a track of pink noise, and the sink's monitor
recorded with `parec`. The recording must hold the track's samples (cross-correlation of
short pieces) and they must be heard when the picture's clock shows them, within
`SYNC_TOLERANCE_S`.

On a loaded machine the sound server misses a few milliseconds now and then: it plays silence
where data was late (an underrun) or drops a little to catch up. One 5 ms gap made a 0.5 s
window's correlation 0.88 and failed the test at load 20 (as did a server starved for 1.3 s
at nice 19). So the track is matched in 50 ms pieces, and the sound chain (the daemon,
`paplay`, `parec`) runs at a desktop sound server's raised priority where the test may give
it one (as root, in CI). A piece that straddles a gap is not found; how many gaps there are
depends on the machine's load, not on the workstation (80 % of the pieces had to be found:
19 of 25 at load 18 failed it, session 10). So a piece may be missing only where the
recording itself shows the gap: the pieces found on either side of it are shifted against
each other (silence inserted or samples dropped in between). A missing piece between two that
agree is samples the device never played in their place: a failure at any load.

Skipped, loudly, where PulseAudio is not installed (`.ci/run` installs it; in CI a missing
daemon is a failure)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import threading
import time

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.audio import AudioFeeder, AudioTrack, PipeSink, default_sink

NO_SOUND = "no PulseAudio to test audio output"
RATE = 48000
# Lip sync: viewers notice sound 45 ms early or 125 ms late (ITU-R BT.1359); a moderator
# judges keyboard clicks against the picture, so the bound is the tighter side, doubled for
# the timer's and the measurement's jitter on a loaded machine.
SYNC_TOLERANCE_S = 0.09
SINK = "moderator_test"
PIECE_S = 0.05  # the track is matched in pieces this long
SPAN_S = (0.5, 1.75)  # of each play: after the first ticks started the sink, before the seek
FOUND = 0.9  # a piece is found where its normalised correlation is above this
SHIFT_SAMPLES = 2  # pieces this close to their places in the track have no gap between them
HANG_GUARD_S = 120  # for the daemon and the recorder to start: a guard, not a timing
SOUND_NICE = -10  # a desktop sound server's priority (PulseAudio asks rtkit for more)


@contextlib.contextmanager
def sound_priority():
    """The test's thread at a sound server's priority, where allowed (root; elsewhere it
    stays as it is): the processes started from it meanwhile (the daemon, the player's
    `paplay`, the recorder) inherit it."""
    tid = threading.get_native_id()
    before = os.getpriority(os.PRIO_PROCESS, tid)
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, tid, SOUND_NICE)
    try:
        yield
    finally:
        os.setpriority(os.PRIO_PROCESS, tid, before)  # lowering back is always allowed


def _need(*exes: str) -> None:
    missing = [e for e in exes if shutil.which(e) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{NO_SOUND}: {', '.join(missing)} missing in CI (.ci/run installs it)")
        pytest.skip(f"{NO_SOUND}: {', '.join(missing)} not installed")  # loud: see conftest


@pytest.fixture
def pulse(tmp_path, monkeypatch):
    """A private PulseAudio daemon with one null sink; PULSE_SERVER points at it."""
    _need("pulseaudio", "parec", "paplay", "ffmpeg")
    home = tmp_path / "pa"
    home.mkdir()
    sock = home / "native"
    env = dict(os.environ, HOME=str(home), XDG_RUNTIME_DIR=str(home),
               PULSE_RUNTIME_PATH=str(home / "run"))
    with sound_priority():  # the daemon inherits it (no preexec_fn: unsafe with threads)
        proc = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
             "--log-target=stderr", f"--load=module-null-sink sink_name={SINK} rate={RATE}",
             f"--load=module-native-protocol-unix socket={sock} auth-anonymous=1"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = f"unix:{sock}"
    try:
        deadline = time.monotonic() + HANG_GUARD_S
        while subprocess.run(["pactl", "--server", server, "info"],
                             capture_output=True).returncode != 0:
            if proc.poll() is not None:
                pytest.fail("the PulseAudio daemon exited at start")
            if time.monotonic() > deadline:
                pytest.fail("the PulseAudio daemon did not come up")
            time.sleep(0.05)
        monkeypatch.setenv("PULSE_SERVER", server)
        yield server
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def noise_video(tmp_path_factory):
    """The corpus's 30 s MP4 with 30 s of pink noise (stereo PCM) muxed in, and that noise as
    decoded by ffmpeg (the truth)."""
    out = tmp_path_factory.mktemp("noise") / "noise.mkv"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(vc.build(vc.RECIPES["mp4"])),
                    "-f", "lavfi", "-i", "anoisesrc=d=30:c=pink:r=48000:a=0.5:seed=7",
                    "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "pcm_s16le",
                    "-ac", "2", str(out)], check=True)
    pcm = subprocess.run(["ffmpeg", "-v", "error", "-i", str(out), "-f", "s16le", "-ac", "2",
                          "-ar", str(RATE), "-"], capture_output=True, check=True).stdout
    return out, np.frombuffer(pcm, np.int16).reshape(-1, 2)[:, 0].astype(np.float64)


class Recorder:
    """`parec` on the sink's monitor; `wall_of(i)`: when recorded sample i was played."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            ["parec", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=2",
             "--latency-msec=10", "-d", f"{SINK}.monitor"], stdout=subprocess.PIPE)
        self.chunks: list[bytes] = []
        self.arrivals: list[tuple[float, int]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        got = 0
        assert self.proc.stdout is not None
        while True:
            b = self.proc.stdout.read1(65536)
            if not b:
                return
            got += len(b) // 4
            self.chunks.append(b)
            self.arrivals.append((time.monotonic(), got))

    def wait_running(self) -> None:
        deadline = time.monotonic() + HANG_GUARD_S
        while len(self.arrivals) < 20:
            if time.monotonic() > deadline:
                pytest.fail("parec recorded nothing")
            time.sleep(0.01)

    def stop(self) -> np.ndarray:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.thread.join(timeout=10)
        data = np.frombuffer(b"".join(self.chunks), np.int16)
        return data[: data.size // 2 * 2].reshape(-1, 2)[:, 0].astype(np.float64)

    def lateness(self) -> float:
        """How much later than the earliest bound the recorder's chunks came, at worst (after
        its start): on a loaded machine the sound server and its clients run late."""
        offsets = [t - k / RATE for t, k in self.arrivals[20:]]
        return max(offsets) - min(t - k / RATE for t, k in self.arrivals) if offsets else 0.0

    def wall_of(self, i: int) -> float:
        # a sample can only arrive after it was played: the earliest arrival bounds it
        return min(t - k / RATE for t, k in self.arrivals) + i / RATE


def find(recording: np.ndarray, ref: np.ndarray) -> tuple[int, float]:
    """Where `ref` is in `recording` (sample index) and the normalised correlation there."""
    n = ref.size
    spec = np.fft.rfft(recording, recording.size + n)
    c = np.fft.irfft(spec * np.conj(np.fft.rfft(ref, recording.size + n)))[: recording.size - n]
    k = int(np.argmax(c))
    window = recording[k:k + n]
    return k, float(c[k] / (np.linalg.norm(ref) * np.linalg.norm(window) + 1e-9))


def pieces(recording: np.ndarray, truth: np.ndarray, v0: float) -> list[tuple[float, int | None]]:
    """(video time, recording sample) of each piece of the play from `v0`; the sample is None
    where the recording does not hold the piece (one straddling a gap is not found)."""
    out: list[tuple[float, int | None]] = []
    n = round(PIECE_S * RATE)
    for i in range(round((SPAN_S[1] - SPAN_S[0]) / PIECE_S)):
        t = v0 + SPAN_S[0] + i * PIECE_S
        k, corr = find(recording, truth[round(t * RATE):round(t * RATE) + n])
        out.append((t, k if corr > FOUND else None))
    return out


def unexplained(found: list[tuple[float, int | None]]) -> list[float]:
    """The video times of missing pieces that no gap explains: the nearest pieces found
    before and after it lie as far apart in the recording as in the track (within
    `SHIFT_SAMPLES`), so nothing was inserted or dropped between them, yet the recording
    does not hold the piece. A missing piece before the first found or after the last is
    at the edge of what was recorded, and explained by it."""
    def shift(t: float, k: int) -> int:
        return k - round(t * RATE)

    out = []
    for i, (t, k) in enumerate(found):
        if k is not None:
            continue
        before = next((p for p in reversed(found[:i]) if p[1] is not None), None)
        after = next((p for p in found[i + 1:] if p[1] is not None), None)
        if before is None or after is None:
            continue
        if abs(shift(*before) - shift(*after)) <= SHIFT_SAMPLES:
            out.append(t)
    return out


def test_a_gap_explains_a_missing_piece_and_nothing_else_does():
    # The checker itself, on a recording made here: the track with a 5 ms underrun of
    # silence every 0.2 s and 3 ms dropped once (as a loaded sound server does) loses 6 of
    # 25 pieces (19 found: the failure seen at load 18, under the old "80 % found" rule);
    # every one is explained by its gap.
    # The same track with one piece's samples replaced in place (no shift) is a failure.
    rng = np.random.default_rng(7)
    truth = rng.normal(0, 8000, 4 * RATE)
    v0 = 1.0
    start, end = round((v0 + SPAN_S[0] - 0.2) * RATE), round((v0 + SPAN_S[1] + 0.2) * RATE)
    parts, at = [np.zeros(1000)], start
    for k, cut in enumerate(range(start + 9000, end, round(0.2 * RATE))):
        parts.append(truth[at:cut])
        parts.append(np.zeros(round(0.005 * RATE)))
        at = cut + (round(0.003 * RATE) if k == 2 else 0)  # once: 3 ms dropped
    parts.append(truth[at:end])
    gappy = np.concatenate(parts)
    found = pieces(gappy, truth, v0)
    missing = sum(1 for _, k in found if k is None)
    assert missing >= 0.2 * len(found)  # the old rule: a failure
    assert unexplained(found) == []
    assert [k for _, k in found if k is not None] == sorted(k for _, k in found if k is not None)
    clean = truth[start:end].copy()
    t_bad = v0 + SPAN_S[0] + 10 * PIECE_S
    i_bad = round(t_bad * RATE) - start
    clean[i_bad:i_bad + round(PIECE_S * RATE)] = rng.normal(0, 8000, round(PIECE_S * RATE))
    found = pieces(clean, truth, v0)
    assert [t for t, k in found if k is None] == [t_bad]
    assert unexplained(found) == [t_bad]


def test_sound_reaches_the_device_in_step_with_the_picture(pulse, noise_video):
    path, truth = noise_video
    sink = default_sink()
    assert isinstance(sink, PipeSink) and sink.name == "paplay"  # the workstation's choice
    track = AudioTrack(path, 0.0)
    track.open()  # as the player does on load
    plays: list[tuple[float, float]] = []

    def clock() -> float:  # the player's clock: video time now
        v0, w0 = plays[-1]
        return v0 + time.monotonic() - w0

    late = 0.0  # how late this machine woke a 10 ms timer during the plays
    with sound_priority():
        feeder = AudioFeeder(track, sink, clock=clock)
        rec = Recorder()
        rec.wait_running()
        try:
            for v0 in (5.0, 12.0):  # a play, then a seek and another: the sink restarts
                w0 = time.monotonic()
                plays.append((v0, w0))
                while (el := time.monotonic() - w0) < 2.0:
                    feeder.tick(v0 + el, True, 1.0, False)  # the player's clock
                    before = time.monotonic()
                    time.sleep(0.01)
                    late = max(late, time.monotonic() - before - 0.01)
                feeder.reset()
            time.sleep(0.3)
        finally:
            feeder.close()
            recording = rec.stop()
    server_late = rec.lateness()
    for v0, w0 in plays:
        every = pieces(recording, truth, v0)
        # The track's own samples reached the device, in order: every piece but those a late
        # sound server's gaps split, which the recording shows (`unexplained`).
        assert unexplained(every) == [], (v0, every)
        found = [(t, k) for t, k in every if k is not None]
        assert found, (v0, "no piece of the track was recorded")
        assert [k for _, k in found] == sorted(k for _, k in found), v0
        t, k = found[0]
        heard = rec.wall_of(k)
        shown = w0 + (t - v0)  # when the picture's clock showed video time t
        # A loaded machine wakes the player's timer and the sound server late; what it could
        # not do is not the player's error: the bound widens by the lateness seen (on a quiet
        # machine a few ms; the bugs this test caught were 0.33 s and 1.5-2.5 s late).
        bound = SYNC_TOLERANCE_S + max(late, server_late)
        assert abs(heard - shown) <= bound, (v0, heard - shown, late, server_late)  # duration-ok
