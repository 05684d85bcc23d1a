"""Reading evidence bytes: strict JSON lines, RFC 8785, zstd, archives, submission members,
the event index, withholding, the hash chain and the optional C accelerator (`_jcs.c`).

Nothing here decides a verdict; the verifiers in `core/verify` do.
"""
