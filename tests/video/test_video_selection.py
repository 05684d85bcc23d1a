"""What the exact frame for a selected event costs (issue 11 point 8), counted in frames the
isolated decoder decodes, never in time: a selection decodes the reference frames from the
keyframe up to it and the frame itself, nothing the picture does not depend on."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.isolate import VideoProcess
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


@pytest.fixture(scope="module")
def mp4():
    """H.264 with B-frames (some of them references), a keyframe every 60 frames."""
    path = vc.build(vc.RECIPES["mp4"])
    return path, probe_video(path, "mp4").index


def _reads(path, index, frames):
    """(decoded, fallbacks, source frame shown) for each read, in one decoder process."""
    blob = index.to_bytes()
    out = []
    with VideoProcess(path) as vp:
        first = {"index_len": len(blob)}
        for n in frames:
            msg = vp.request({"op": "frame", "n": n, "keep": True, **first},
                             blob if first else b"")
            first, blob = {}, b""
            h = msg.header
            img = np.frombuffer(msg.blobs[0], np.uint8).reshape(h["height"], h["width"], 3)
            out.append((h["decoded"], h["fallbacks"], vc.read_code(img)))
    return out


def _truth(index, n):
    return vc.expected_code(vc.RECIPES["mp4"].script, round(index.time_of(n) * vc.RECIPES["mp4"].script.fps))


def _reference_frames(path, index, start, end):
    """Frames in [start, end) that a decoder skipping every non-reference frame still
    outputs: the frames a picture in this GOP can depend on (from the file, by PyAV)."""
    import av
    where = {int(p): i for i, p in enumerate(index.pts)}
    with av.open(str(path)) as c:
        s = c.streams.video[0]
        s.codec_context.skip_frame = "NONREF"
        c.seek(int(index.pts[start]), stream=s, backward=True)
        kept = set()
        for f in c.decode(s):
            i = where.get(int(f.pts)) if f.pts is not None else None
            if i is not None and i >= end:
                break
            if i is not None and i >= start:
                kept.add(i)
    return kept


def test_a_selection_decodes_only_what_its_picture_depends_on(mp4):
    """20 frames after a keyframe: the reference frames before it and the frame itself (the
    old margin decoded all 21; the packet of the first frame to keep now switches decoding
    back on, so no margin is needed), and the picture is the exact frame."""
    path, index = mp4
    kf = index.keyframe_index(620)
    assert kf == 600  # the recipe: a keyframe every 60 frames
    refs = _reference_frames(path, index, kf, 620)
    assert len(refs) < 20  # the file has non-reference frames to skip
    (_, _, _), (decoded, fallbacks, shown) = _reads(path, index, [100, 620])
    assert shown == _truth(index, 620) and fallbacks == 0
    assert decoded <= len(refs) + 1, (decoded, sorted(refs))


def test_b_frames_shown_before_a_kept_frame_are_skipped_after_its_packet(mp4):
    """A selection at each place of a mini-GOP (20, 21, 22, 23 frames after a keyframe, in
    four GOPs: one of them a P-frame, whose packet comes before the B-frames shown before
    it): exactly the reference frames up to it and itself are decoded, however the frames
    are ordered in the file. Switching back to full decoding for good at the first kept
    packet decoded the non-reference B-frames that follow it in the file."""
    path, index = mp4
    targets = [620, 561, 502, 443]  # backwards: each one a seek
    reads = _reads(path, index, [100, *targets])[1:]
    extra = []
    for n, (decoded, fallbacks, shown) in zip(targets, reads, strict=True):
        kf = index.keyframe_index(n)
        assert n - kf == 20 + targets.index(n)
        assert shown == _truth(index, n) and fallbacks == 0
        extra.append(decoded - len(_reference_frames(path, index, kf, n)) - 1)
    assert extra == [0, 0, 0, 0]


def test_a_selection_in_a_later_gop_seeks_rather_than_decoding_through(mp4):
    """Frame 75 after frame 10: 65 frames ahead, which used to be decoded forward through
    the rest of the first GOP; a seek to the keyframe at 60 decodes at most 16."""
    path, index = mp4
    assert index.keyframe_index(75) == 60
    (_, _, first), (decoded, fallbacks, shown) = _reads(path, index, [10, 75])
    assert first == _truth(index, 10)
    assert shown == _truth(index, 75) and fallbacks == 0
    assert decoded <= 75 - 60 + 1, decoded


def test_the_next_frames_in_the_gop_continue_the_decode(mp4):
    """Stepping forward within a GOP never seeks: frame 12 after frame 10 decodes only what
    lies between them."""
    path, index = mp4
    (_, _, _), (decoded, fallbacks, shown) = _reads(path, index, [10, 12])
    assert shown == _truth(index, 12) and fallbacks == 0
    assert decoded <= 2, decoded


def test_a_warmed_neighbour_is_served_without_a_decode(mp4):
    """The player warms the frames of the neighbouring events and findings while idle; a
    selection of one of them then decodes nothing, and the warm-up left the player's own
    decode where it was (the next frame still continues it)."""
    path, index = mp4
    blob = index.to_bytes()
    with VideoProcess(path) as vp:
        h = vp.request({"op": "frame", "n": 100, "keep": True, "index_len": len(blob)},
                       blob).header
        assert h["fallbacks"] == 0
        warm = vp.request({"op": "warm", "frames": [700, 101, 350], "keep": True}).header
        assert warm["done"] == [700, 350] and not warm["interrupted"]  # 101: next, cheap
        for n, most in ((350, 0), (101, 1), (700, 0)):
            msg = vp.request({"op": "frame", "n": n, "keep": True})
            h = msg.header
            img = np.frombuffer(msg.blobs[0], np.uint8).reshape(h["height"], h["width"], 3)
            assert vc.read_code(img) == _truth(index, n)
            assert h["decoded"] <= most, (n, h)


def test_a_request_interrupts_the_warm_up(mp4):
    """An interrupt (the player has a request waiting) stops the warm-up at its next frame;
    the next read is still exact."""
    path, index = mp4
    blob = index.to_bytes()
    far = [130, 250, 370, 490, 610, 730, 850, 190]
    with VideoProcess(path) as vp:
        vp.request({"op": "frame", "n": 10, "keep": True, "index_len": len(blob)}, blob)
        vp.interrupt()  # before the warm-up is read: it stops at its first frame
        warm = vp.request({"op": "warm", "frames": far, "keep": True}).header
        assert warm["interrupted"] and warm["done"] == []
        msg = vp.request({"op": "frame", "n": 495, "keep": True})
        h = msg.header
        img = np.frombuffer(msg.blobs[0], np.uint8).reshape(h["height"], h["width"], 3)
        assert vc.read_code(img) == _truth(index, 495) and h["fallbacks"] == 0
        # the interrupt was spent: the next warm-up runs to the end
        assert vp.request({"op": "warm", "frames": [250], "keep": True}).header["done"] == [250]


def test_the_players_pixels_are_the_same_frame_in_qts_32_bit_layout(mp4):
    """The player asks for `bgra` (Qt's RGB32 on a little-endian machine: what the scaler
    writes for less CPU and Qt paints as it is): 4 bytes a pixel, alpha 255, and the colours
    of the RGB24 answer for the same frame and size: the same bytes unscaled, within the
    scaler's rounding scaled (1080p to 834x468: 0.78 levels on average, 4-5 at most)."""
    path, index = mp4
    blob = index.to_bytes()
    got = {}
    with VideoProcess(path) as vp:
        vp.request({"op": "frame", "n": 0, "keep": True, "index_len": len(blob)}, blob)
        for fmt in ("rgb24", "bgra"):
            for size in ((None, None), (160, 90)):
                msg = vp.request({"op": "frame", "n": 37, "keep": True, "pixels": fmt,
                                  "width": size[0], "height": size[1]})
                h = msg.header
                got[fmt, size] = np.frombuffer(msg.blobs[0], np.uint8).reshape(
                    h["height"], h["width"], 3 if fmt == "rgb24" else 4)
    for size in ((None, None), (160, 90)):
        rgb, bgra = got["rgb24", size], got["bgra", size]
        assert bgra.shape[:2] == rgb.shape[:2]
        assert (bgra[..., 3] == 255).all()
        diff = np.abs(bgra[..., 2::-1].astype(int) - rgb.astype(int))
        if size == (None, None):
            assert diff.max() == 0  # unscaled: the same conversion, byte for byte
        else:  # scaled: another output path of the scaler, rounded its own way
            assert diff.mean() < 2 and (diff.max(axis=2) > 8).mean() < 0.001
    assert vc.read_code(got["bgra", (None, None)][..., 2::-1]) == 37


def test_a_warm_up_sends_back_the_frames_it_warmed(mp4):
    """With `send`, the warmed frames come back converted as a frame request would convert
    them (the workstation keeps them and shows one at once when it is selected); a frame the
    warm-up skipped as cheap (the next one) is not sent."""
    path, index = mp4
    blob = index.to_bytes()
    with VideoProcess(path) as vp:
        vp.request({"op": "frame", "n": 100, "keep": True, "index_len": len(blob)}, blob)
        msg = vp.request({"op": "warm", "frames": [700, 101, 350], "keep": True,
                          "send": {"width": None, "height": None, "pixels": "rgb24"}})
        h = msg.header
        assert h["done"] == h["sent"] == [700, 350] and len(msg.blobs) == 2
        for n, (w, ht), data in zip(h["sent"], h["sizes"], msg.blobs, strict=True):
            img = np.frombuffer(data, np.uint8).reshape(ht, w, 3)
            assert vc.read_code(img) == _truth(index, n)
