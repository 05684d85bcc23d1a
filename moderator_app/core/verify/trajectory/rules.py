"""The official-run rules: every finding the trajectory verifier can emit, and the event
schema's constants (the envelope's producers and trust levels)."""

from __future__ import annotations

from moderator_app.core.formats.streams import MAX_LINE
from moderator_app.core.rules import Severity, rule

SCHEMA = "ale-trajectory-event/v1"
AGENT, AGENT_TRUST = "agent", "untrusted_agent"
EVALUATOR, EVALUATOR_TRUST = "evaluator", "trusted_evaluator"

G = "trajectory"
# -- chain -------------------------------------------------------------------------------
EDITED = rule("chain.edited", Severity.ERROR,
              "The event's hash does not recompute: the event was edited.", "chain")
LINK = rule("chain.link", Severity.ERROR,
            "The event's prev_hash is not the previous event's hash: an event was deleted, "
            "inserted or reordered just before it.", "chain")
RESPELLED = rule("chain.respelled", Severity.WARNING,
                 "No known serialiser spells the line's bytes as they are, though its value and "
                 "hash are intact: bytes were probably edited in place (a warning: the hashed "
                 "content is unchanged).", "chain")
FIRST_PREV = rule("chain.first_prev_hash", Severity.ERROR,
                  "The first event's prev_hash is not 64 zeros: the stream does not start at "
                  "the start of the run (events deleted before it).", "chain")
# -- lines -------------------------------------------------------------------------------
BAD_JSON = rule("traj.json", Severity.ERROR, "The line is not valid JSON.", G)
BAD_UTF8 = rule("traj.utf8", Severity.ERROR, "The line is not valid UTF-8 text.", G)
NOT_OBJECT = rule("traj.not_object", Severity.ERROR, "The line is JSON but not an object.", G)
DUPLICATE = rule("traj.duplicate_member", Severity.ERROR,
                 "The event repeats a member name (hashed content would be ambiguous).", G)
BLANK = rule("traj.blank", Severity.ERROR,
             "A blank line, or a run of them (one finding at its first line): every line must "
             "be one event. Blank lines are not counted as events and break no link.", G)
LINE_ENDING = rule("traj.line_ending", Severity.ERROR,
                   "The line ends with \\r\\n: lines end with \\n only.", G)
NO_FINAL_NEWLINE = rule("traj.no_final_newline", Severity.WARNING,
                        "The last line has no terminating \\n.", G)
TOO_LONG = rule("traj.too_long", Severity.ERROR,
                f"A line longer than {MAX_LINE >> 20} MiB (not read: a decompression bomb "
                "guard).", G)
EMPTY = rule("traj.empty", Severity.ERROR, "The trajectory holds no event.", G)
UNREPRESENTABLE = rule("traj.number_unrepresentable", Severity.ERROR,
                       "A number RFC 8785 cannot represent exactly (an integer that is not "
                       "exactly a double, infinite, or not zero but below the smallest double): "
                       "the event cannot be hashed canonically.", G)
# -- envelope ----------------------------------------------------------------------------
SCHEMA_UNSUPPORTED = rule("traj.schema_unsupported", Severity.ERROR,
                          f"`schema` is missing or not {SCHEMA!r}: the event is not read "
                          "further (never guessed at).", G)
FIELD_MISSING = rule("traj.field_missing", Severity.ERROR,
                     "A required member of the event is missing.", G)
FIELD_TYPE = rule("traj.field_type", Severity.ERROR,
                  "A member of the event has the wrong JSON type.", G)
HASH_FORMAT = rule("traj.hash_format", Severity.ERROR,
                   "`hash` or `prev_hash` is not 64 lowercase hex characters.", G)
SEQUENCE = rule("traj.producer_sequence", Severity.ERROR,
                "producer_sequence is not strictly increasing within its producer.", G)
WALL_FORMAT = rule("traj.wall_time_format", Severity.ERROR,
                   "wall_time is not an RFC 3339 UTC timestamp (…Z or …+00:00).", G)
WALL_BACKWARDS = rule("traj.wall_time_backwards", Severity.WARNING,
                      "wall_time goes backwards within one producer (clock adjusted?).", G)
RUN_ID = rule("traj.run_id_mismatch", Severity.ERROR,
              "The event's run_id differs from the first event's.", G)
TRUST_INCONSISTENT = rule("traj.trust_inconsistent", Severity.ERROR,
                          "A producer changes its trust level within the stream.", G)
AGENT_TRUSTED = rule("traj.agent_trusted", Severity.ERROR,
                     "The agent producer claims a trust level other than untrusted_agent.", G)
EVAL_UNTRUSTED = rule("traj.eval_result_untrusted", Severity.ERROR,
                      "An eval_result not from producer `evaluator` with trusted_evaluator: an "
                      "untrusted score claim.", G)
RUN_END_MISSING = rule("traj.run_end_missing", Severity.WARNING,
                       "run_start without run_end: the run did not finish, or its tail is "
                       "missing.", G)
RUN_SPAN_ORDER = rule("traj.run_span_order", Severity.WARNING,
                      "run_end is earlier than run_start: the run span, and the video's "
                      "coverage of it, cannot be measured.", G)
NO_EVAL_RESULT = rule("traj.no_eval_result", Severity.WARNING,
                      "No trusted eval_result: there is no authoritative score.", G)
# -- compressed stream -------------------------------------------------------------------
ZSTD_TRUNCATED = rule("traj.zstd_truncated", Severity.ERROR,
                      "The zstd stream ends inside a frame: the trajectory is incomplete.", G)
ZSTD_CORRUPT = rule("traj.zstd_corrupt", Severity.ERROR,
                    "A zstd frame cannot be decoded: the trajectory is incomplete.", G)
TRAILING_GARBAGE = rule("traj.trailing_garbage", Severity.ERROR,
                        "Bytes after the last zstd frame are not a zstd frame.", G)
ZSTD_WINDOW = rule("traj.zstd_window", Severity.ERROR,
                   "A valid zstd frame needs a decoding window beyond the 128 MiB cap "
                   "(`zstd --long=31`): not read, to keep memory bounded.", G)
TOO_LARGE = rule("traj.too_large", Severity.ERROR,
                 "The decompressed trajectory exceeds the size cap (decompression bomb "
                 "guard).", G)
SECRET = rule("secret.suspect", Severity.WARNING,
              "Something that looks like a secret (API key, private key, bearer token).",
              "secret")

LINE_ERROR_RULES = {"json": BAD_JSON, "utf8": BAD_UTF8, "not_object": NOT_OBJECT,
                     "duplicate_member": DUPLICATE, "blank": BLANK}
ZSTD_RULES = {"truncated": ZSTD_TRUNCATED, "corrupt": ZSTD_CORRUPT,
               "trailing_garbage": TRAILING_GARBAGE, "too_large": TOO_LARGE,
               "window_too_large": ZSTD_WINDOW}
