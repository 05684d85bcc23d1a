"""THE table of keyboard shortcuts: the main window binds its actions from it, Help > Keyboard
shortcuts lists it, and the README's table is generated from it (`python -m
moderator_app.ui.shortcuts` prints Markdown). One source, so the three never disagree.

`owner` says who binds a key: "window" (the main window, from this table) or another panel that
binds it itself (listed here for the help only; binding it twice would make Qt treat the key as
ambiguous and fire neither). `keys=""` is a menu command without a key. `per_key` makes one
action per key (`0`-`9`), whose handler gets the key's position / 10. `checkable` actions are
toggles whose handler gets the new state.

Keys follow mpv and YouTube where the two agree (Space, `,` `.`, `f` fullscreen, `m` mute,
`0`-`9` jump to 0-90 %, Home/End), so a habit never silently changes the review: retime marks,
which are stored with a decision, need Shift (`Shift+I`, `Shift+O`) and show on the timeline.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shortcut:
    keys: str  # QKeySequence portable text; several separated by "; "
    action: str  # stable action id
    description: str
    group: str
    owner: str = "window"
    per_key: bool = False
    checkable: bool = False

    @property
    def sequences(self) -> list[str]:
        return [k.strip() for k in self.keys.split(";") if k.strip()]


SHORTCUTS: tuple[Shortcut, ...] = (
    # Playback
    Shortcut("Space", "play_pause", "Play / pause", "Playback"),
    Shortcut(",", "frame_back", "Previous frame (exact)", "Playback"),
    Shortcut(".", "frame_forward", "Next frame (exact)", "Playback"),
    Shortcut("[", "frames_back_n", "Back N frames (N in the player bar)", "Playback"),
    Shortcut("]", "frames_forward_n", "Forward N frames", "Playback"),
    Shortcut("J", "slower", "Slower (when paused: back 1 s)", "Playback"),
    Shortcut("K", "pause", "Pause", "Playback"),
    Shortcut("L", "faster", "Play; press again for faster (up to 4x)", "Playback"),
    Shortcut("Shift+Left", "back_1s", "Back 1 second", "Playback"),
    Shortcut("Shift+Right", "forward_1s", "Forward 1 second", "Playback"),
    Shortcut("Ctrl+Left", "back_5s", "Back 5 seconds", "Playback"),
    Shortcut("Ctrl+Right", "forward_5s", "Forward 5 seconds", "Playback"),
    Shortcut("Home", "jump_start", "Jump to the start of the video", "Playback"),
    Shortcut("End", "jump_end", "Jump to the end of the video", "Playback"),
    Shortcut("0; 1; 2; 3; 4; 5; 6; 7; 8; 9", "jump_percent",
             "Jump to 0 %, 10 %, … 90 % of the video", "Playback", per_key=True),
    Shortcut("G; Ctrl+G", "goto", "Go to time (hh:mm:ss.mmm) or frame number", "Playback"),
    Shortcut("F", "fullscreen_video", "Video full screen (F or Escape to leave)", "Playback"),
    Shortcut("M", "mute", "Mute / unmute (audio is muted at speeds other than 1x)",
             "Playback"),
    # Navigation
    Shortcut("Left", "prev_event", "Previous event (at or before the playhead)", "Events"),
    Shortcut("Right", "next_event", "Next event", "Events"),
    Shortcut("N", "next_finding", "Next finding", "Events"),
    Shortcut("Shift+N", "prev_finding", "Previous finding", "Events"),
    Shortcut("Ctrl+F", "search", "Search the events (text in the raw lines)", "Events"),
    Shortcut("", "pin_detail", "Pin the event detail (do not follow the video)", "Events",
             checkable=True),
    # Timeline
    Shortcut("+; =", "zoom_in", "Zoom the timeline in (also Ctrl+wheel)", "Timeline"),
    Shortcut("-", "zoom_out", "Zoom the timeline out", "Timeline"),
    Shortcut("Shift+F", "fit", "Fit the timeline to the run", "Timeline"),
    # Sync and retime
    Shortcut("Alt+,", "offset_back", "Sync offset: one frame earlier", "Sync"),
    Shortcut("Alt+.", "offset_forward", "Sync offset: one frame later", "Sync"),
    Shortcut("Ctrl+T", "run_start_here", "run_start is at the current frame", "Sync"),
    Shortcut("Shift+I", "retime_start", "Retime: mark start at the current frame", "Sync"),
    Shortcut("Shift+O", "retime_end", "Retime: mark end at the current frame", "Sync"),
    Shortcut("", "retime_clear", "Retime: clear both marks", "Sync"),
    # Decision (bound by the decision panel itself)
    Shortcut("Ctrl+Shift+A", "accept", "Accept the submission", "Decision", "decision_panel"),
    Shortcut("Ctrl+Shift+R", "reject", "Reject the submission", "Decision", "decision_panel"),
    # Files and windows
    Shortcut("Ctrl+O", "open_file", "Open a submission file (log, trajectory, archive)",
             "File"),
    Shortcut("Ctrl+Shift+O", "open_folder", "Open a submission folder", "File"),
    Shortcut("Ctrl+Shift+N", "next_submission", "Open the next submission (review queue)",
             "File"),
    Shortcut("", "open_queue", "Open a review queue (a folder of submissions)", "File"),
    Shortcut("", "set_store", "Decision store: SQLite file or PostgreSQL team store", "File"),
    Shortcut("Ctrl+E", "export_findings", "Export findings (JSON report + Markdown summary)",
             "File"),
    Shortcut("Ctrl+Shift+C", "copy_finding", "Copy the selected finding with its time", "File"),
    Shortcut("S", "save_frame", "Save the frame on screen as PNG (exact, full size; as mpv)",
             "File"),
    Shortcut("Ctrl+Q", "quit", "Quit", "File"),
    # hidden at first on a window under 900 px tall: their 102 px go to the video
    Shortcut("", "show_plots", "Plots under the timeline (actions/min, latency, tokens)",
             "View", checkable=True),
    Shortcut("", "reset_layout", "Reset the window layout", "View"),
    Shortcut("F1", "help_shortcuts", "This list of keyboard shortcuts", "Help"),
)


def by_action() -> dict[str, Shortcut]:
    return {s.action: s for s in SHORTCUTS}


def keys_text(s: Shortcut) -> str:
    """The keys as the README and the help show them."""
    seqs = s.sequences
    if not seqs:
        return "(menu)"
    if s.per_key:
        return f"`{seqs[0]}`–`{seqs[-1]}`"
    return " or ".join(f"`{k}`" for k in seqs)


def markdown_table() -> str:
    """The README's shortcut table."""
    lines = ["| Keys | Action | Group |", "|---|---|---|"]
    for s in SHORTCUTS:
        lines.append(f"| {keys_text(s)} | {s.description} | {s.group} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
