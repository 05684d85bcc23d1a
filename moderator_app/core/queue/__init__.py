"""core/queue: the review queue (a folder of submissions, verdicts cached by evidence digest,
decision states from the ledger). The names below are the queue's vocabulary; they live here,
import-free, so that building the command line's parser stays cheap."""

QUEUE_SCHEMA = "moderator-app/queue/v1"
STATES = ("pending", "claimed", "accepted", "rejected")
# `timed_out`: the examination passed the per-submission time limit (core/queue/workers.py)
VERDICTS = ("pass", "fail", "unreadable", "timed_out")
# A hostile submission holds a worker this long at most. The largest honest submissions
# measured verify in under 30 s here (a 1,000,000-event log: 27 s, README); ten times that
# leaves room for a loaded machine and a long video's probe.
SUBMISSION_TIME_LIMIT_S = 300.0
