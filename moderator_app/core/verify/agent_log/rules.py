"""The community-run rules: every `log.*` finding the agent-log verifier can emit, and the
format's event types."""

from __future__ import annotations

from moderator_app.core.formats.streams import MAX_LINE
from moderator_app.core.rules import Severity, rule

E, W = Severity.ERROR, Severity.WARNING
G = "agent-log"

# --- line syntax -------------------------------------------------------------------------------
JSON = rule("log.json", E, "Every line is one JSON value (valid JSON).", G)
UTF8 = rule("log.utf8", E, "The log is UTF-8 text.", G)
NOT_OBJECT = rule("log.not_object", E, "Every line is a JSON object, not an array or scalar.", G)
DUPLICATE_MEMBER = rule("log.duplicate_member", E,
                        "A line's object repeats a member name (ambiguous between parsers).", G)
LINE_TOO_LONG = rule("log.line_too_long", E,
                     f"A line is longer than {MAX_LINE >> 20} MiB (not read).", G)
BLANK_LINE = rule("log.blank_line", E, "A blank line between events (JSON Lines has none).", G)
TRAILING_BLANK = rule("log.trailing_blank", W,
                      "Blank lines at the end of the file (harmless, but not JSON Lines).", G)
BOM = rule("log.bom", W, "The file starts with a UTF-8 byte order mark (ignored).", G)
CRLF = rule("log.crlf", W, "Lines end with CR LF instead of LF (tolerated).", G)
EMPTY = rule("log.empty", E, "The log holds no events.", G)
# the trajectory's rule (one id, one meaning): here on a line's public part, as `withhold`
# reads it
SECRET = rule("secret.suspect", W,
              "Something that looks like a secret (API key, private key, bearer token).",
              "secret")
# session 42 (review s41 R2, QA s41 T6, T7): what `withhold` redacts rather than refuses
REDACTED = rule("secret.redacted", Severity.INFO,
                "A key's shape inside base64 of binary data (by chance in a screenshot or "
                "compressed data, or a key glued there): `withhold` publishes the line with "
                "those characters replaced by `*`.", "secret")

# --- every event -------------------------------------------------------------------------------
SEQ = rule("log.seq", E,
           "`seq` is an integer: 0 on the first line, then exactly one more on each line.", G)
AT_FORMAT = rule("log.at_format", E, "`at` is an ISO 8601 date and time.", G)
AT_NOT_UTC = rule("log.at_not_utc", E, "`at` is in UTC (`Z` or `+00:00`).", G)
AT_ORDER = rule("log.at_order", E, "`at` is never earlier than on the line before.", G)
ELAPSED_FORMAT = rule("log.elapsed_format", E,
                      "`elapsedMs` is a non-negative number of milliseconds.", G)
ELAPSED_ORDER = rule("log.elapsed_order", E,
                     "`elapsedMs` is never smaller than on the line before.", G)
ELAPSED_DRIFT = rule("log.elapsed_drift", E,
                     "`elapsedMs` is within 2 s of `at` minus the run_start time.", G)
TYPE_UNKNOWN = rule("log.type_unknown", E, "`type` is one of the event types of the format.", G)
DATA_NOT_OBJECT = rule("log.data_not_object", E, "`data` is a JSON object.", G)

# --- event types -------------------------------------------------------------------------------
RUN_START_POSITION = rule("log.run_start_position", E,
                          "The first line is the run_start, and only the first line.", G)
RUN_START_FIELDS = rule("log.run_start_fields", E,
                        "run_start has `game`, `category`, `model` and `scaffold.name`.", G)
RUN_START_SLUG = rule("log.run_start_slug", W,
                      "run_start `game` and `category` look like site slugs (a-z, 0-9, -).", G)
RUN_END_POSITION = rule("log.run_end_position", E, "run_end is the last line only.", G)
RUN_END_MISSING = rule("log.run_end_missing", E,
                       "The log ends with a run_end (otherwise it may be truncated).", G)
RUN_END_FIELDS = rule("log.run_end_fields", E, "run_end has a `reason` string.", G)
WITHHELD_LEAK = rule("log.withheld_leak", E,
                     "A withheld model_request holds nothing but `\"withheld\": true`; a "
                     "model_response marked withheld keeps no `text` or `reasoning`.", G)
RESPONSE_FIELDS = rule("log.response_fields", E,
                       "model_response has `id` and `model` strings; `usage` an object and "
                       "`actions` a list of {name, args} objects when present.", G)
RESPONSE_ID_DUPLICATE = rule("log.response_id_duplicate", E,
                             "A model_response `id` is unique in the log.", G)
TOO_MANY_RESPONSES = rule("log.too_many_responses", E,
                          "More model responses or requested actions than a log is checked "
                          "for (memory bound): not examined past there (the rest was hashed).",
                          G)
ACTION_FIELDS = rule("log.action_fields", E,
                     "An action has `call` and `name` strings and `args`.", G)
ACTION_UNKNOWN_CALL = rule("log.action_unknown_call", E,
                           "An action's `call` is the id of an earlier model_response.", G)
ACTION_NOT_REQUESTED = rule("log.action_not_requested", E,
                            "An action (name and args) is one its response asked for.", G)
RESPONSE_WITHOUT_ACTIONS = rule("log.response_without_actions", W,
                                "An action names a response that lists no actions, so the "
                                "response cannot vouch for it.", G)
ERROR_FIELDS = rule("log.error_fields", E, "An error event has a `message` string.", G)
NO_RESPONSE = rule("log.no_response", E, "A run has at least one model_response.", G)
NO_ACTION = rule("log.no_action", E, "A run has at least one action.", G)

# --- moderation signals (warnings; thresholds in thresholds.py) -------------------------------
GAP = rule("log.gap", W, "A long stretch with no events: watch the video there.", G)
ACTION_LATE = rule("log.action_late", W,
                   "An action runs long after the response that asked for it.", G)
ACTION_REPEATED = rule("log.action_repeated", W,
                       "An action runs more times than its response asked for it.", G)
RESPONSE_ACTIONS_UNRUN = rule("log.response_actions_unrun", W,
                              "A response asked for actions that never ran.", G)
RESPONSE_TOO_FAST = rule("log.response_too_fast", W,
                         "A response came faster after its request than a model can answer.", G)
MODEL_MISMATCH = rule("log.model_mismatch", W,
                      "A response's `model` differs from the run_start `model`.", G)

EVENT_TYPES = frozenset(("run_start", "model_request", "model_response", "action",
                         "observation", "error", "run_end"))
DRIFT_LIMIT_US = 2_000_000  # the 2 s rule, in microseconds (exact integer arithmetic)
JSON_KINDS = {"json": JSON, "utf8": UTF8, "not_object": NOT_OBJECT,
               "duplicate_member": DUPLICATE_MEMBER}
