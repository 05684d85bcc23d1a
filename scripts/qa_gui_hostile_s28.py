"""The offscreen workstation on session 28's hostile inputs (docs/qa/session28.md section 5):
scripts/qa_gui_hostile_s16.py with Unicode TAG characters (U+E0000-U+E007F: h28_12 spells an
API key in them) added to the characters no text the window shows may hold raw.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/qa_gui_hostile_s28.py OUT PATH [PATH...]

`QLineEdit:reviewer.text` rows are the harness' own typed reviewer (ESC, U+202E, BEL), not
something the window shows of the submission.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qa_gui_hostile_s16 as g  # noqa: E402

g.RAW_CONTROL = [*g.RAW_CONTROL, *(chr(c) for c in range(0xE0000, 0xE0080))]
g.__file__ = __file__  # each input's child process runs this file, with the list above

if __name__ == "__main__":
    if sys.argv[1:2] == ["one"]:
        res = g.one(Path(sys.argv[2]), Path(os.fsdecode(os.fsencode(sys.argv[3]))),
                    queue="--queue" in sys.argv[4:])
        print(json.dumps(res, ensure_ascii=True), flush=True)
        sys.exit(0)
    sys.exit(g.main(sys.argv[1:]))
