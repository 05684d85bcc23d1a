"""Qt-free core: every piece of logic and I/O, grouped by job (docs/architecture.md).

Rooms, from the floor up (an import may only point down):

- the floor, this folder: `errors`, `progress`, `atomic`, `thresholds`, the rule catalogue
  `rules` (+ `rule_groups`) and `findings`; words every room uses;
- `formats/`: reading evidence bytes (strict JSON lines, RFC 8785, zstd, archives, submission
  members, the event index, withholding, the hash chain, the optional C accelerator);
- `video/`: probing the video and frame access;
- `verify/`: the verification pipeline, both verifiers, coverage, seeds, secrets, the report;
- `ledger/`: decision records and their store;
- `samples/`: generators of realistic evidence for the bundled samples, tests and benchmarks.

Nothing in this package may import PySide6 (checked by tests/test_architecture.py).
"""
