"""Which logged events are inputs to the game (the sync analysis's one input from the log).

The reading itself lives in `formats.input_events`, below `verify`, so that the workstation's
verification process (`verify/child.py`) can read the times beside the report and the window
never parses a hostile log (issue 15); this module keeps the sync room's names.
"""

from moderator_app.core.formats.input_events import (
    INPUT_TOOLS,
    OFFICIAL_INPUT_TYPES,
    community_inputs,
    idle_stretches,
    input_times,
    inputs,
    is_official_input,
    official_inputs,
)

__all__ = ["INPUT_TOOLS", "OFFICIAL_INPUT_TYPES", "community_inputs", "idle_stretches",
           "input_times", "inputs",
           "is_official_input", "official_inputs"]
