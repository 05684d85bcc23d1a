"""Tests of plain JSON values, and their wording in findings."""

from __future__ import annotations

import math
from typing import Any, TypeGuard


def is_number(x: Any) -> TypeGuard[int | float]:
    """A finite, non-negative JSON number."""
    t = type(x)
    return (t is int or t is float) and x >= 0 and (t is int or math.isfinite(x))


def nonempty_str(x: Any) -> TypeGuard[str]:
    return isinstance(x, str) and bool(x.strip())


def short_repr(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def json_type(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "boolean"
    if isinstance(x, (int, float)):
        return "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, list):
        return "array"
    return type(x).__name__
