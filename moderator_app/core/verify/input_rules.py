"""Rules about the submission as a whole (which files are there), shared by both kinds."""

from moderator_app.core.rules import Severity, rule

MISSING_VIDEO = rule(
    "input.no_video", Severity.ERROR,
    "A community submission must include its full video (.mp4 .mkv .webm .mov .avi .ts .mpg "
    "... any container FFmpeg plays).", "input")
SEVERAL_VIDEOS = rule(
    "input.several_videos", Severity.WARNING,
    "More than one video: the largest is checked, the others are listed.", "input")
SEVERAL_LOGS = rule(
    "input.several_logs", Severity.ERROR,
    "More than one agent log or trajectory: the submission is ambiguous.", "input")
UNREADABLE_MEMBER = rule(
    "input.unreadable", Severity.ERROR,
    "A file of the submission could not be read.", "input")
AMBIGUOUS_KIND = rule(
    "input.ambiguous_kind", Severity.ERROR,
    "Both an agent log and a trajectory: which is the run's evidence is ambiguous, so the "
    "submission cannot pass (anyone can write a valid trajectory).", "input")
FOLDER_LINK = rule(
    "input.link", Severity.WARNING,
    "A file in a submission folder is a symbolic link: refused, never followed (if it was the "
    "video or the log, that file counts as missing).", "input")
TOO_MANY_ERRORS = rule(
    "input.too_many_errors", Severity.ERROR,
    "So many errors that verification stopped examining lines (the rest was hashed).",
    "input")
CHANGED_WHILE_READ = rule(
    "input.changed", Severity.ERROR,
    "A file of the submission was replaced or rewritten while it was being verified: the "
    "verdict and the digests may describe different bytes, so the submission cannot pass "
    "(verify it again once it holds still).", "input")
