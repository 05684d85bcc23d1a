"""The player's kept exact frames (ui/frame_cache.py): by number and fitted size, bounded by
bytes, least recently used out first, played frames apart from the frames asked for."""

from __future__ import annotations

from PySide6.QtGui import QImage

from moderator_app.ui.frame_cache import FrameCache


def image(w: int, h: int, shade: int) -> QImage:
    img = QImage(w, h, QImage.Format.Format_RGB32)
    img.fill(shade)
    return img


def test_a_frame_is_known_by_its_number_and_fitted_size():
    cache = FrameCache()
    cache.put(7, (320, 180), image(320, 180, 1))
    cache.put(7, (None, None), image(640, 360, 2))
    assert cache.get(7, (320, 180)).pixel(0, 0) & 0xFFFFFF == 1
    assert cache.get(7, (None, None)).pixel(0, 0) & 0xFFFFFF == 2
    assert cache.get(7, (480, 270)) is None  # another view size: not this picture
    assert cache.get(8, (320, 180)) is None
    assert cache.hits == 2


def test_bounded_by_bytes_least_recently_used_out_first():
    one = image(100, 100, 0).sizeInBytes()
    cache = FrameCache(pool_bytes=3 * one)
    for n in range(3):
        cache.put(n, (100, 100), image(100, 100, n))
    assert cache.get(0, (100, 100)) is not None  # 0 is now the most recently used
    cache.put(3, (100, 100), image(100, 100, 3))
    assert len(cache) == 3
    assert cache.get(1, (100, 100)) is None  # the least recently used went
    assert all(cache.get(n, (100, 100)) is not None for n in (0, 2, 3))
    cache.put(9, (1000, 1000), image(1000, 1000, 9))  # larger than the whole bound: not kept
    assert cache.get(9, (1000, 1000)) is None and len(cache) == 3


def test_a_play_never_pushes_out_the_frames_asked_for():
    one = image(100, 100, 0).sizeInBytes()
    cache = FrameCache(pool_bytes=3 * one)
    cache.put(500, (100, 100), image(100, 100, 5))  # a selection
    for n in range(100):  # a play's stream
        cache.put(n, (100, 100), image(100, 100, n), played=True)
    assert cache.get(500, (100, 100)) is not None
    assert [n for n in range(100) if cache.get(n, (100, 100)) is not None] == [97, 98, 99]
