"""core/queue: the review queue (a folder of submissions, verdicts cached by evidence digest,
decision states from the ledger). The names below are the queue's vocabulary; they live here,
import-free, so that building the command line's parser stays cheap."""

QUEUE_SCHEMA = "moderator-app/queue/v1"
STATES = ("pending", "claimed", "accepted", "rejected")
VERDICTS = ("pass", "fail", "unreadable")
