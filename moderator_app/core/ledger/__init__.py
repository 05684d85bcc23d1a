"""The moderator's decisions: records bound to the evidence (`records`) and the append-only,
hash-chained store (`store`, SQLite).
"""
