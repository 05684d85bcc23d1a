"""Log-video correspondence (issue 13): does the video show what the log says?

signals (per-frame change, the one seam to the picture) -> reactions (novelty over the local
motion level, per action) -> align (global offset and clock speed) -> track (offsets in
windows, Viterbi segments) -> fit (offset, speed, significance against shuffled logs) -> analysis
(which stretch's fit to trust, the suggestion) -> local_findings (jumps, drift, a stretch at
chance) and reaction_findings (no reaction, activity) -> records (SyncFinding, SyncAnalysis)
-> run (submission and report).
"""
