"""Log-video correspondence (issue 13): does the video show what the log says?

signals (per-frame change, the one seam to the picture) -> reactions (novelty over the local
motion level, per action) -> align (global offset and clock speed) -> track (offsets in
windows, Viterbi segments) -> analysis (suggestion, findings) -> run (submission and report).
"""
