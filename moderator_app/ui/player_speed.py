"""The player's speed and sound controls (J/L, the speed box, M): a part of `VideoPlayer`
(ui/video_player.py), moved here whole to keep that module within its size; it uses the
player's own state (`speed`, `playing`, `muted`, the stream) and nothing else.
"""

from __future__ import annotations

from moderator_app.ui.player_parts import SPEEDS


class PlayerSpeed:
    """Mixed into `VideoPlayer`: speed (the box, J/L) and mute (M)."""

    def set_speed(self, speed: float) -> None:
        speed = float(speed)
        self.speed = speed
        i = min(range(len(SPEEDS)), key=lambda j: abs(SPEEDS[j] - speed))
        self.speed_box.blockSignals(True)
        self.speed_box.setCurrentIndex(i)
        self.speed_box.blockSignals(False)
        if self.playing and self.times is not None:
            # the stream starts again at the new speed from the frame on screen: the position
            # does not jump
            self._start_stream()
            self._timer.start(max(4, int(1000 * self.times.index.frame_duration_s / speed / 4)))

    def _stride(self) -> int:
        """Frames the clock moves while one is shown: one up to real time, the speed above."""
        return max(1, round(self.speed))

    def set_muted(self, muted: bool) -> None:
        """Mute (M). Audio is muted anyway at speeds other than 1x (no pitch correction)."""
        self.muted = bool(muted)

    def toggle_mute(self) -> None:
        self.set_muted(not self.muted)

    @property
    def audible(self) -> bool:
        """Whether audio would be heard now: playing at 1x and not muted."""
        return self.playing and not self.muted and self.speed == 1.0

    def faster(self) -> None:
        """L: play, or play faster when already playing."""
        if not self.playing:
            self.set_speed(1.0)
            self.play()
            return
        bigger = [s for s in SPEEDS if s > self.speed]
        if bigger:
            self.set_speed(bigger[0])

    def slower(self) -> None:
        """J: slower while playing; when paused, back one second."""
        if not self.playing:
            self.skip_seconds(-1.0)
            return
        smaller = [s for s in SPEEDS if s < self.speed]
        if smaller:
            self.set_speed(smaller[-1])
