"""Titles and reading order of the rule groups, for Help > Formats and docs/rules.md.

The rule catalogue (`rules.py`) gives each rule a short group id; people read the groups in the
order a submission is checked (files, then the log or trajectory, then the video), under a
title, with one sentence on what the group covers. One table here, so that the help dialog and
the generated reference agree. A group missing here still shows, titled by its id, last.
"""

from __future__ import annotations

from collections.abc import Iterable

# group id -> (title, what the group covers)
GROUPS: dict[str, tuple[str, str]] = {
    "input": ("Submission", "Which files make up the submission."),
    "archive": ("Archives", "Reading `.zip`, `.tar`, `.tar.gz` and `.tar.zst` bundles in place."),
    "agent-log": ("Agent log (community runs)",
                  "Every rule of the agent log format, checked on every line of "
                  "`agent-log.jsonl`."),
    "trajectory": ("Trajectory (official runs)",
                   "The official `events.jsonl(.zst)` stream: lines, event fields, order, trust "
                   "levels, the evaluator's score and the zstd framing."),
    "chain": ("Hash chain (official runs)",
              "The chain `hash = SHA-256(prev_hash || canonical_json(event without hash))`."),
    "seed": ("Seed commitments (official runs)",
             "With `--seeds FILE` and the evaluator secret: each `seed_commitment` is checked "
             "as `SHA-256(seed || run_id || secret)`, and the stream is scanned for raw seeds."),
    "secret": ("Secrets", "Anything in the stream that looks like an API key, a private key "
               "block or a bearer token."),
    "video": ("Video", "Probing the video: it must open, and its duration is measured."),
    "coverage": ("Video coverage", "Whether the video covers the whole run (5.0 s tolerance)."),
    "sync": ("Log and video correspondence",
             "Whether the picture reacts to the logged actions at one offset all through the run "
             "(`verify --sync`, `--offset auto`). Warnings only."),
    "video-scan": ("Video integrity scan",
                   "One decoding pass over the whole video (`verify --scan`, and in the "
                   "workstation after load): stretches and jumps a moderator should look at, "
                   "each with its time span. Warnings and notes only."),
    "audio": ("Audio track", "Jumps in the audio track's timestamps, found by the integrity "
              "scan."),
}


def group_title(group: str) -> str:
    return GROUPS.get(group, (group, ""))[0]


def group_summary(group: str) -> str:
    return GROUPS.get(group, (group, ""))[1]


def ordered_groups(groups: Iterable[str]) -> list[str]:
    """The given group ids in reading order; unknown ones last, alphabetically."""
    present = set(groups)
    known = [g for g in GROUPS if g in present]
    return known + sorted(present - set(GROUPS))
