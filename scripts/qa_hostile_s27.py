"""Issue 15 classes of session 27's QA pass (docs/qa/session27.md), for the shared runner
(scripts/qa_common.run_hostile). Classes no earlier pass used (grep of scripts/qa_hostile_s*.py,
scripts/hostile_sweep_s*.py and tests/hostile_corpus.py: no RealMedia, Flash Screen Video,
Sorenson Video, CineForm, C1 control characters in a log's keys and types, CR-only line ends,
and no secret spelled with JSON escapes other than `sk\\u002d`):

- h27_01: RealVideo 2 + AC-3 in RealMedia (`video.rm`);
- h27_02: Flash Screen Video 2 (a screen recorder's lossless codec) in FLV;
- h27_03: Sorenson Video 1 + AAC in QuickTime MOV (QuickTime 4-era);
- h27_04: GoPro CineForm + 24-bit PCM in MOV;
- h27_05: an official trajectory (hash chain valid) whose observations hold five secrets,
  each spelled with JSON escapes another way than session 26's `sk\\u002d` (escapes inside the
  pattern's marker, upper-case hex, an escaped space, every character escaped, a `\\/`):
  `verify` must warn `secret.suspect` on each of the five lines (s27-hostile's "escaped secrets
  warned in verify"), never print a secret; POST_CHECKS counts the warnings;
- h27_06: the sample's community log with one observation holding a Google API key spelled
  `\\u0041Iza...` (upper-case hex): `withhold` must refuse it (nothing written);
- h27_07: the sample's log with C1 control characters (U+009B CSI, U+0085 NEL) and U+2028 in an
  event's type and in a data key, written raw (UTF-8) in the file: no raw control character
  in any output;
- h27_08: the sample's log with CR-only line ends (classic Mac): a FAIL naming a line, or read;
  never a crash.
Deterministic (ffmpeg from the bundled sample, fixed settings, one thread; fixed seeds);
written under `.cache/qa-s27/hostile/`. Each command under prlimit 512 MiB, timeout 60 s.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import qa_hostile_s14 as qh
import qa_hostile_s20 as h20

MARK = "QA-S27-PRIVATE"
EVAL_SECRET = "qa27-evaluator-secret-5e19"
#: the five secrets of h27_05 (made up, of each pattern's shape) and how each is spelled
ESCAPED = [
    ("xoxb-2719274650-qa27slacktokenvalue", "xox\\u0062-2719274650-qa27slacktokenvalue"),
    ("AIzaQA27googleapikeyvalue0123456789abcd",
     "\\u0041\\u0049\\u007A\\u0061QA27googleapikeyvalue0123456789abcd"),
    ("hf_QA27huggingfacetokenvalue0123456789",
     "".join(f"\\u{ord(c):04x}" for c in "hf_QA27huggingfacetokenvalue0123456789")),
    ("Bearer qa27bearertokenvalue0123456789abcdef",
     "Bearer\\u0020qa27bearertokenvalue0123456789abcdef"),
    ("ghp_QA27githubtokenvalue0123456789abcdefgh",
     "gh\\u0070_QA27githubtokenvalue0123456789abcdefgh"),
]
GOOGLE = "AIzaQA27withheldgooglekey0123456789xyzw"  # AIza + 35, as the pattern wants
SECRETS = [EVAL_SECRET, GOOGLE, *(s for s, _ in ESCAPED),
           *(s.split(" ")[-1] for s, _ in ESCAPED)]
ENV: dict = {}


def _ffmpeg(args: list[str], out: Path) -> None:
    if not out.exists():
        part = out.with_name(out.name + ".part" + out.suffix)
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(part)], check=True)
        part.rename(out)


def _official_escaped(d: Path) -> None:
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    path = d / "events.jsonl"
    if path.exists():
        return
    events = make_run_events(30, seed=27, run_id="run_qa27_escaped", variety=0.0)
    k = 0
    for e in events:
        if e["type"] == "observation" and k < len(ESCAPED):
            e["payload"]["stdout"] = f"deploy log: token {ESCAPED[k][0]} done"
            k += 1
    assert k == len(ESCAPED), k

    def encode(ev: dict) -> bytes:
        raw = json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()
        for plain, spelled in ESCAPED:
            raw = raw.replace(plain.encode(), spelled.encode())
        return raw

    d.mkdir(parents=True, exist_ok=True)
    write_trajectory(path, events, encode=encode)


def _sample_lines() -> list[str]:
    return (qh.SAMPLE / "agent-log.jsonl").read_text(encoding="utf-8").splitlines()


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    sample = str(qh.SAMPLE / "video.mp4")
    out = []

    def add(d: Path, log_class: bool = False) -> None:
        h20._with_sample_log(d)
        ENV[d.name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
        third = (["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{d.name[:6]}.pub")]
                 if log_class else
                 ["frame", str(d), "--time", "5", "--offset", "0", "-o",
                  str(root / f"{d.name[:6]}.png")])
        out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json", "--scan"], third,
                             ["decide", str(d), "--reject", "--reason", "other", "--note",
                              "qa27 hostile", "--offset", "0"]]))

    def video(name: str, args: list[str], file: str) -> None:
        d = root / name
        d.mkdir(exist_ok=True)
        _ffmpeg(["-i", sample, *args], d / file)
        add(d)

    video("h27_01_rm_rv20_ac3", ["-vf", "scale=320:-2", "-c:v", "rv20", "-q:v", "5", "-g", "30",
                                 "-threads", "1", "-c:a", "ac3", "-b:a", "96k", "-f", "rm"],
          "video.rm")
    video("h27_02_flv_flashsv2", ["-an", "-vf", "scale=320:-2,format=bgr24", "-c:v", "flashsv2",
                                  "-g", "30", "-f", "flv"], "video.flv")
    video("h27_03_mov_svq1", ["-vf", "scale=320:-2", "-c:v", "svq1", "-q:v", "5", "-g", "30",
                              "-threads", "1", "-c:a", "aac", "-b:a", "96k", "-f", "mov"],
          "video.mov")
    video("h27_04_mov_cfhd_pcm24", ["-vf", "scale=320:-2", "-c:v", "cfhd", "-threads", "1",
                                    "-c:a", "pcm_s24le", "-f", "mov"], "video.mov")

    d = root / "h27_05_official_escaped_secrets"
    _official_escaped(d)
    ENV[d.name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["decide", str(d), "--reject", "--reason", "other", "--note",
                          "qa27 hostile"]]))

    lines = _sample_lines()
    d = root / "h27_06_log_escaped_google_key"
    d.mkdir(exist_ok=True)
    log = d / "agent-log.jsonl"
    if not log.exists():
        new = []
        for i, x in enumerate(lines):
            if i == 4:  # an observation
                row = json.loads(x)
                row["data"]["summary"] = f"score 1200 key={GOOGLE}"
                x = json.dumps(row, separators=(",", ":")).replace(
                    GOOGLE, "\\u0041" + GOOGLE[1:])
            new.append(x)
        log.write_text("\n".join(new) + "\n", encoding="utf-8")
        os.link(qh.SAMPLE / "video.mp4", d / "video.mp4")
    add(d, log_class=True)

    d = root / "h27_07_log_c1_controls"
    d.mkdir(exist_ok=True)
    log = d / "agent-log.jsonl"
    if not log.exists():
        new = []
        for i, x in enumerate(lines):
            row = json.loads(x)
            if i == 4:
                row["type"] = "obs\u009b2J\u0085ervation\u2028"
            if i == 6 and isinstance(row.get("data"), dict):
                row["data"]["k\u009b31m\u0085ey\u2028"] = "v\u009b0m"
            new.append(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
        log.write_text("\n".join(new) + "\n", encoding="utf-8")
        os.link(qh.SAMPLE / "video.mp4", d / "video.mp4")
    add(d, log_class=True)

    d = root / "h27_08_log_cr_only"
    d.mkdir(exist_ok=True)
    log = d / "agent-log.jsonl"
    if not log.exists():
        log.write_bytes(("\r".join(lines) + "\r").encode())
        os.link(qh.SAMPLE / "video.mp4", d / "video.mp4")
    add(d, log_class=True)
    return out


def _secret_warnings(root: Path) -> dict:
    """h27_05: `verify --json`'s secret.suspect findings (lines and count) against the five
    lines holding an escaped secret."""
    import qa_session22 as s22

    d = root / "h27_05_official_escaped_secrets"
    code, rep, _err = s22._verify(d)
    lines = []
    with open(d / "events.jsonl", encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if any(sp in line for _, sp in ESCAPED):
                lines.append(n)
    found = [f for f in rep.get("findings", []) if f.get("rule") == "secret.suspect"]
    got = sorted({f.get("line") for f in found if f.get("line") is not None})
    return {"check": "h27_05 secret.suspect", "exit": code, "verdict": rep.get("verdict"),
            "secret_lines": lines, "warned_lines": got, "warnings": len(found),
            "messages": [str(f.get("message", ""))[:120] for f in found][:6],
            "met": set(lines) <= set(got)}


POST_CHECKS = (_secret_warnings,)
