"""Qt-free core: formats, canonical JSON, verification, video probing, decision store.

Nothing in this package may import PySide6 (checked by tests/test_architecture.py).
"""
