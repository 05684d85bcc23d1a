"""`Timeline`: one rising timeline for a file of several recordings joined.

A transport stream of two captures, or two Matroska files joined by `cat`, restarts its
timestamps earlier at the second recording. Each part is a segment, shown after the one before
it in file order (as mpv and ffmpeg play such a file), its timestamps shifted so that the whole
video has one rising timeline. The index (`index.build_index`) learns the shifts in one pass
from the start of the file; the scan, the exact decoder and the sound replay them, so that all
of them put every packet at the same time. Apart from index.py so that the index stays the
story of what frames a file holds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .middle import median

if TYPE_CHECKING:
    from .index import FrameIndex


#: Presentation times kept for a new segment's offset (`Timeline._split`): a B-frame group's
#: and more (H.264's deepest reordering is 16 frames).
RECENT = 24


class Timeline:
    """The shift that puts each packet of a file of joined recordings on one rising timeline.

    Fed packets in decode order (`shift(pts, dts)`, the offset to add to both). A new segment
    starts where the decode timestamp goes back (within one recording it never does: muxers
    refuse it). Learning (`offsets` None, a pass from the start of the file: the index, the
    scan), the new segment's offset puts its first packet one packet interval after the latest
    presentation time so far, or keeps the current offset when its timestamps are later
    already; the first packet of a recording is its keyframe, shown first. Replaying
    (`offsets` from the index, a decode after a seek into `segment`), the same offsets are
    applied, so decoded frames carry the index's timestamps. A recording that opens on an
    open GOP (frames shown before its first packet) is not placed exactly: such frames can
    fall among the previous segment's.

    `reorder` (ticks, `reorder_ticks`): a decode timestamp equal to its packet's presentation
    time that goes back by at most this much from the latest one is frame reordering, not a
    restart. Matroska stores presentation times only, and FFmpeg's guessed decode times of
    B-frames can equal them: in two H.264 MKVs joined by `cat`, every B-frame group of the
    second went back by 1-2 frames and was read as a new recording (QA s21 N3: "23 recordings
    joined" where 2 are, 31.77 s for 28 s, pictures 2-3.8 s early). A decode timestamp of its
    own (MPEG-TS, MP4) that goes back is a restart however little (a TS capture appended with
    one frame of overlap, QA s21 seg_ts_res_change), as is every step back when `reorder` is
    0 (as before). Where every decode time is a guess (`guessed_dts`: Matroska) the window
    applies to each step back, equal to its presentation time or not."""

    def __init__(self, offsets: Sequence[int] | None = None, segment: int = 0,
                 reorder: int = 0, guessed_dts: bool = False) -> None:
        self.learning = offsets is None
        self.reorder = max(0, int(reorder))
        self.guessed_dts = guessed_dts  # the container keeps no decode times (`_later`)
        self.offsets: list[int] = [0] if offsets is None else list(offsets)
        self.segment = segment
        self.last_dts: int | None = None
        self.latest: int | None = None  # the latest shifted presentation time so far
        self.before: int | None = None  # the latest before `latest` was set (`_restarts`)
        self.step = 1  # the last forward step of the decode timestamps (one packet interval)
        # the last RECENT presentation times, shifted (`_split`)
        self.recent: deque[int] = deque(maxlen=RECENT)
        # each segment after the first: (its first packet's shifted pts, how far back in ticks)
        self.splices: list[tuple[int, int]] = []

    def shift(self, pts: int | None, dts: int | None) -> int:
        p = pts if pts is not None else dts
        if dts is not None:
            if self.last_dts is not None:
                # guessed decode times (Matroska) are not always the presentation times:
                # from a first recording without B-frames, a joined one's came out as pts
                # 100 with dts 67 after dts 133 (QA s21 seg_mkv_h264_profile_change)
                window = self.reorder if dts == pts or self.guessed_dts else 0
                if dts < self.last_dts - window and not self._later(p):
                    self._split(p if p is not None else dts, self.last_dts - dts)
                elif p is not None and self._restarts(p):
                    self._split(p, self._back(p))
                elif dts < self.last_dts:
                    dts = self.last_dts  # reordered within its group: the latest stays
                elif dts > self.last_dts:
                    self.step = dts - self.last_dts
            self.last_dts = dts
        off = self.offsets[min(self.segment, len(self.offsets) - 1)]
        if p is not None and (self.latest is None or p + off > self.latest):
            self.before, self.latest = self.latest, p + off
        if p is not None and self.guessed_dts and self.learning:
            self.recent.append(p + off)
        return off

    def _later(self, pts: int | None) -> bool:
        """Whether a packet whose decode time goes back is shown after every packet so far
        (its pts past the latest), or within the reordering window before the latest: no
        recording restarts there, whatever its decode time. A recording joined after
        another restarts its presentation times too.

        Matroska keeps no decode times (`guessed_dts`); FFmpeg guesses them, and the guesses
        go back where nothing restarts. For libxvid's B-frames written straight to it (each
        packet stamped later than the one before, in decode order) its guess went back at
        every P-frame: read as a restart, 598 frames of 24 s made "203 recordings joined"
        measuring 25.32 s (QA session 21, N1). After an MPEG-4 Part 2 recording, FFmpeg's
        MPEG-4 parser reads the joined H.264 packets as MPEG-4 and changes its reorder depth
        on the way, and a stale entry of its reorder buffer came out as a decode time 9.68 s
        back (pts 16480, dts 6800 after 16520) while the presentation time was 40 ms before
        the latest, a B-frame: read as a third recording (QA s22 P3, "of the 3 joined", a
        restart "back by 9.720 s at 20.600 s"). So where decode times are guessed, the
        presentation time decides. The window's edge is in it, as for a decode time equal to
        its pts (`shift`): in an H.264 B-pyramid (`-bf 3`) a B-frame is shown exactly the
        window (3 frames, 100 ticks at 30 fps) before the latest, and read as a restart
        after a guessed decode time 0.9 s ahead of its pts (QA s23 Q1: "of the 3 joined",
        "back by 0.767 s at 6.167 s", a stretch to 25.0 s in a 24.0 s file). A container's
        own decode times going back are a restart however little (MPEG-TS: a capture
        appended with a frame of overlap)."""
        if not self.guessed_dts or pts is None or self.latest is None:
            return False
        off = self.offsets[min(self.segment, len(self.offsets) - 1)]
        return pts + off >= self.latest - self.reorder

    def _restarts(self, pts: int) -> bool:
        """Whether a packet whose guessed decode time goes on is a restart all the same: its
        presentation time is more than the reordering window, and 8 packet intervals, before
        the latest one shown before the latest (`before`). A B-frame is shown after the
        anchor decoded before its own, whatever hole in the timestamps precedes that one (a
        VFR file that drops repeats: B-frames 2 s behind the latest after a 2 s hole). FFmpeg's Matroska guess for a joined recording's first packet can go on
        from the recording before: an MPEG-4 Part 2 (or MPEG-2) recording ending at pts 3960
        then an H.264 one whose keyframe is pts 0 with a guessed dts of 3960 (QA s24
        j24_mpeg4bf1_then_h264bf2_mkv_25). The restart was read one packet later, at a
        B-frame's pts 120, so the recording was placed 0.12 s early: its first packets fell
        among the first recording's last frames (103 frames for ffprobe's 100) and its
        stretch ended 0.12 s before the file's end."""
        if not self.guessed_dts or self.before is None:
            return False
        off = self.offsets[min(self.segment, len(self.offsets) - 1)]
        return pts + off < self.before - max(self.reorder, 8 * self.step)

    def _back(self, pts: int) -> int:
        off = self.offsets[min(self.segment, len(self.offsets) - 1)]
        return (self.latest if self.latest is not None else pts + off) - (pts + off)

    @classmethod
    def resumed(cls, index: FrameIndex) -> Timeline:
        """A learning timeline in the state a cut index's pass left it in (its segments'
        offsets, the latest time reached, its packet interval), to go on with packets read
        further on (`tail_end`)."""
        tl = cls(reorder=index.reorder_ticks, guessed_dts=index.guessed_dts)
        tl.offsets = [0, *(off for _, off in index.segments)]
        tl.segment = len(tl.offsets) - 1
        if index.frame_count:
            tl.latest = int(index.pts.max())
            d = np.diff(index.pts)
            d = d[d > 0]
            tl.step = int(median(d)) if d.shape[0] else 1
        return tl

    def _split(self, first: int, back: int) -> None:
        self.segment += 1
        if self.learning:
            off = self.offsets[-1]
            # guessed decode times (Matroska): not a step of several frames. FFmpeg guesses
            # a joined recording's decode times as its presentation times, whose forward
            # steps are from anchor to anchor (120 ticks with 2 B-frames at 25 fps): a third
            # recording read on after it (`joined_chain`) was placed 80 ms late, 120 ms
            # after the second's last frame. The least step between the last presentation
            # times is taken where the step is 1.5 of it or more (33 against 34 ticks, a
            # 30 fps clock in ms, keeps the step), after the second recording only (the
            # first split is where the step is the first recording's own, as before)
            shown = sorted(set(self.recent))
            steps = [b - a for a, b in zip(shown, shown[1:], strict=False)]
            step = self.step
            if self.guessed_dts and len(self.offsets) > 1 and steps and \
                    2 * step >= 3 * min(steps):
                step = min(steps)
            self.recent.clear()
            if self.latest is not None:
                off = max(off, self.latest + step - first)
            self.offsets.append(off)
            self.splices.append((first + off, back))


def tail_end(index: FrameIndex, packets: Sequence[tuple[int | None, int | None, int]],
             min_back_s: float = 0.5) -> int | None:
    """Where the stream ends (the latest shifted pts + duration) by the `packets` (pts, dts,
    duration) read from the end of a file whose index the probe's budget cut, on the index's
    timeline: recordings joined after the point the index reached are stitched on as the
    full index would (`Timeline`), so a joined MPEG-TS cut by the budget ends where its full
    index does (its last packet's raw timestamp, 7.6-11.9 s of 20 s, was the end before).
    The first packet read going back by more than `min_back_s` from the latest time the
    index reached is a restart between the two (the tail of a file read from a later byte;
    a read that starts at the index's last packet goes on where it stopped). Restarts
    between the index's end and the tail's first packet beyond that one are not seen."""
    tl = Timeline.resumed(index)
    tb = float(index.time_base) or 1.0
    back = max(8 * tl.step, int(min_back_s / tb))
    end: int | None = None
    for i, (pts, dts, dur) in enumerate(packets):
        p = pts if pts is not None else dts
        if p is None:
            continue
        if i == 0 and tl.latest is not None and p + tl.offsets[-1] < tl.latest - back:
            tl._split(p, tl.latest - p - tl.offsets[-1])
        e = p + tl.shift(pts, dts) + max(0, dur or 0)
        end = e if end is None or e > end else end
    return end
