"""core/queue: the review queue (a folder of submissions, verdicts cached by evidence digest,
decision states from the ledger)."""
