"""Reading evidence bytes: strict JSON lines, RFC 8785, zstd, archives, submission members,
the event index, withholding, the hash chain and the optional C accelerators (`_jcs.c` for
trajectories, `_skim.c` for agent logs).

Nothing here decides a verdict; the verifiers in `core/verify` do.
"""
