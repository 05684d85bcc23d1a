"""A columnar index of the events of a submission, built while verifying.

The GUI's event table and timeline read this instead of the parsed events: for each event it
keeps the byte offset and length of its line in a plain-text source file, its 1-based line
number, its time in seconds since `run_start` and a lane (event type for community runs,
producer for official runs). One million events cost ~30 MB here, while the payloads stay on
disk and are read only for the rows on screen (the approach of Anki's browser table model).
"""

from __future__ import annotations

import bisect
import math
from array import array
from pathlib import Path
from typing import BinaryIO

import orjson


class EventIndex:
    """Append-only while a verifier runs; read-only afterwards.

    `source` is a plain (uncompressed) file holding the lines at `offsets`; for a `.zst`
    trajectory or an archive member the verifier writes a spool copy and points at it.
    """

    def __init__(self, source: Path | None = None) -> None:
        self.source = source
        self.offsets = array("q")
        self.lengths = array("l")
        self.lines = array("l")
        self.times = array("d")  # seconds since run_start; NaN when the event has no usable time
        self.lanes = array("H")  # index into lane_names
        self.kinds = array("H")  # index into kind_names (event type)
        self.lane_names: list[str] = []
        self.kind_names: list[str] = []
        self._lane_ids: dict[str, int] = {}
        self._kind_ids: dict[str, int] = {}
        self._fh: BinaryIO | None = None
        # Numeric series for the plots, as (time, value) pairs: e.g. "latency_s" (request to
        # response), "tokens_in", "tokens_out". Filled by the verifiers during their one pass.
        self.metrics: dict[str, tuple[array, array]] = {}

    def add_metric(self, name: str, t: float, value: float) -> None:
        ts, vs = self.metrics.setdefault(name, (array("d"), array("d")))
        ts.append(t)
        vs.append(value)

    def __len__(self) -> int:
        return len(self.offsets)

    @staticmethod
    def _intern(name: str, names: list[str], ids: dict[str, int]) -> int:
        i = ids.get(name)
        if i is None:
            i = ids[name] = len(names)
            names.append(name)
        return i

    def add(self, offset: int, length: int, line: int, t: float | None, lane: str,
            kind: str) -> None:
        self.offsets.append(offset)
        self.lengths.append(length)
        self.lines.append(line)
        self.times.append(math.nan if t is None else t)
        self.lanes.append(self._intern(lane, self.lane_names, self._lane_ids))
        self.kinds.append(self._intern(kind, self.kind_names, self._kind_ids))

    def lane_of(self, row: int) -> str:
        return self.lane_names[self.lanes[row]]

    def kind_of(self, row: int) -> str:
        return self.kind_names[self.kinds[row]]

    def row_for_line(self, line: int) -> int | None:
        """The row whose source line is `line`, or the nearest row before it."""
        if not self.lines:
            return None
        i = bisect.bisect_right(self.lines, line) - 1
        return max(i, 0)

    def read_raw(self, row: int) -> bytes:
        """The line's bytes, read from the source file (opened once, kept open)."""
        if self.source is None:
            raise ValueError("this index has no source file")
        if self._fh is None:
            self._fh = open(self.source, "rb")  # noqa: SIM115 - kept open for lazy row reads
        self._fh.seek(self.offsets[row])
        return self._fh.read(self.lengths[row])

    def read_prefix(self, row: int, limit: int) -> bytes:
        """The first `limit` bytes of the line: what a view shows of a line of megabytes
        without reading (and then laying out) all of it."""
        if self.source is None:
            raise ValueError("this index has no source file")
        if self._fh is None:
            self._fh = open(self.source, "rb")  # noqa: SIM115 - kept open for lazy row reads
        self._fh.seek(self.offsets[row])
        return self._fh.read(max(0, min(limit, self.lengths[row])))

    def read_event(self, row: int) -> object:
        """The parsed event (or the raw text when the line is not valid JSON)."""
        raw = self.read_raw(row)
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            return raw.decode("utf-8", "replace")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
