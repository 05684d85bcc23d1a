"""core/queue: the review queue (a folder of submissions, verdicts cached by evidence digest,
decision states from the ledger). The names below are the queue's vocabulary; they live here,
import-free, so that building the command line's parser stays cheap."""

QUEUE_SCHEMA = "moderator-app/queue/v1"
# `unknown`: not examined yet, so its evidence digest (the ledger's key) is not known
UNKNOWN_STATE = "unknown"
STATES = ("pending", "claimed", "accepted", "rejected", UNKNOWN_STATE)
# `timed_out`: the examination passed the per-submission time limit (core/queue/workers.py);
# `unverified`: listed before its examination ended (a listing in progress, `--no-verify`)
UNVERIFIED = "unverified"
VERDICTS = ("pass", "fail", "unreadable", "timed_out", UNVERIFIED)
# A hostile submission holds a worker this long at most. The largest honest submissions
# measured verify in under 30 s here (a 1,000,000-event log: 27 s, README); ten times that
# leaves room for a loaded machine and a long video's probe.
SUBMISSION_TIME_LIMIT_S = 300.0
