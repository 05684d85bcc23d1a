"""Adversarial QA of official-run verification, through `moderator-app verify PATH --json`.

The corpus is written by an INDEPENDENT writer (below: `_seal`, `_line`), not by
`trajectory_writer`, so that a bug shared by the writer and the verifier cannot hide. It uses
only `canonical_json` (RFC 8785, held to the JCS vectors elsewhere) and `hashlib`, and spells
the lines three different legal ways (canonical bytes, compact `json.dumps`, spaced ASCII-escaped
`json.dumps`) so that the verifier must hash the canonical form, not the bytes it read.

Every case states, before it was run, what a careful reviewer concludes: exit code, verdict,
`events`, first error rule and line, and `chain.first_break`. Cases where the tool disagrees
and is wrong are `xfail(strict=True)` and written up in `.team/qa-official.md`.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import orjson
import pytest
import zstandard

from moderator_app.core.formats.canonical import canonical_json

# Every test here runs on both engines (conftest.engine): their reports must be the same.
pytestmark = pytest.mark.usefixtures("engine")

EXE = Path(sys.executable).parent / "moderator-app"
SCHEMA = "ale-trajectory-event/v1"
RUN = "run_QA_7Q3f"
ZERO = "0" * 64
AFTER = -1  # expected first error line: the line after the last event read
TRUST = {"agent": "untrusted_agent", "harness": "trusted_harness",
         "evaluator": "trusted_evaluator", "proxy": "trusted_proxy"}
SECRET = "qa-test-secret-not-a-real-one"  # a test value: the real secret is never used here
SEEDS = ("8675309", "1337")

# ---------------------------------------------------------------- the independent writer


def _wall(t: float) -> str:
    ms = round(t * 1000)
    return f"2026-07-10T14:{ms // 60000:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}Z"


def _ev(producer: str, etype: str, seq: int, t: float, payload: dict, **over) -> dict:
    e = {"schema": SCHEMA, "producer_sequence": seq, "wall_time": _wall(t), "run_id": RUN,
         "trust_level": TRUST.get(producer, "untrusted_agent"), "producer": producer,
         "type": etype, "payload": payload}
    e.update(over)
    return e


def _jcs_hash(prev: str, body: dict) -> str:
    return hashlib.sha256(prev.encode("ascii") + canonical_json(body)).hexdigest()


def _seal(events: list[dict], first_prev: str = ZERO,
          hasher: Callable[[str, dict], str] = _jcs_hash) -> list[dict]:
    """hash = SHA256(prev_hash || JCS(event without hash)); prev_hash stays in the hashed body."""
    out, prev = [], first_prev
    for e in events:
        body = {k: v for k, v in e.items() if k != "hash"}
        body["prev_hash"] = prev
        body["hash"] = hasher(prev, body)
        out.append(body)
        prev = body["hash"]
    return out


def _line(e: dict, style: int) -> bytes:
    """Three legal spellings of one event: the verifier must hash the value, not the text."""
    if style % 3 == 0:
        return canonical_json(e)
    if style % 3 == 1:
        return json.dumps(e, ensure_ascii=False, separators=(",", ":"),
                          allow_nan=False).encode("utf-8")
    return json.dumps(e, ensure_ascii=True, allow_nan=False).encode("ascii")


def _lines(sealed: list[dict]) -> list[bytes]:
    """Styles by line number; a line with keys outside the BMP is never ASCII-escaped here,
    because the tool has a known bug there (its own case: valid_escaped_nonbmp_and_pua_keys),
    and the other cases must each test their own rule."""
    out = []
    for i, e in enumerate(sealed):
        style = i % 3
        if style == 2 and max(canonical_json(e).decode()) > "\uffff":
            style = 1
        out.append(_line(e, style))
    return out


def _join(lines: list[bytes], eol: bytes = b"\n") -> bytes:
    return b"".join(x + eol for x in lines)


def _zst(data: bytes, frames: int = 1) -> bytes:
    c = zstandard.ZstdCompressor(write_checksum=True)
    if frames <= 1:
        return c.compress(data)
    step = -(-len(data) // frames)
    return b"".join(c.compress(data[i:i + step]) for i in range(0, len(data), step))


def _zst_frames(lines: list[bytes], groups: list[int]) -> bytes:
    """One zstd frame per group of whole lines (group sizes given)."""
    c = zstandard.ZstdCompressor(write_checksum=True)
    out, i = [], 0
    for g in groups:
        out.append(c.compress(_join(lines[i:i + g])))
        i += g
    return b"".join(out)


def commitment(seed: str, run_id: str = RUN, secret: str = SECRET) -> str:
    return hashlib.sha256((seed + run_id + secret).encode("utf-8")).hexdigest()


def base_events(seeds: tuple[str, ...] = (), run_marks: bool = True,
                eval_result: bool = True) -> list[dict]:
    """Ten events (plus one per seed after line 1), unusual but legal:
    floats JCS spells differently from Python, keys outside the BMP and in the private use
    area in one object, U+2028/U+2029 inside a string, wall_time going backwards ACROSS
    producers (the proxy's clock), two adjacent agent events (lines 6-7)."""
    evs = [_ev("harness", "run_start", 0, 0.0, {"game": "ale/pong-v5", "config": {"episodes": 2}})]
    evs += [_ev("evaluator", "seed_commitment", i, 0.2 + i / 10,
                {"seed_commitment": commitment(s), "episode": i}) for i, s in enumerate(seeds)]
    evs += [
        _ev("agent", "tool_call", 0, 1.0, {
            "tool": "shell", "command": "python train.py --lr 0.5",
            "metrics": {"lr": 56.0, "big": 1e21, "small": 9.5e-6, "neg": -0.0, "tiny": 5e-324,
                        "third": 1 / 3, "int": 9007199254740991},
            "keys": {"\U0001F600": "grin", "\ue000": "pua", "z": 0, "\u00e9": 1, "": "empty"}}),
        _ev("proxy", "http_request", 0, 0.4, {"method": "POST", "status": 200,
                                              "url": "https://api.example.test/v1/chat"}),
        _ev("agent", "model_message", 1, 2.0, {
            "text": "line one\u2028line two\u2029para \"q\" \\ \t tab \u00e9 \U0001F600 \x7f",
            "tokens": 123}),
        _ev("harness", "observation", 1, 2.5, {"frame": 10, "reward": 100000.0}),
        _ev("agent", "tool_call", 2, 3.0, {"tool": "shell", "command": "ls -la /workspace"}),
        _ev("agent", "tool_call", 3, 3.5, {"tool": "shell", "command": "cat results.json"}),
        _ev("proxy", "http_request", 1, 1.2, {"method": "GET", "status": 204,
                                              "url": "https://api.example.test/v1/ping"}),
    ]
    if eval_result:
        evs.append(_ev("evaluator", "eval_result", len(seeds), 9.0,
                       {"score": 0.75, "episodes": 2, "seed_commitment": commitment(seeds[0])}
                       if seeds else {"score": 0.75, "episodes": 2}))
    evs.append(_ev("harness", "run_end", 2, 10.0, {"status": "ok"}))
    if not run_marks:
        evs = [e for e in evs if e["type"] not in ("run_start", "run_end")]
    return evs


def valid_lines(**kw) -> list[bytes]:
    lines = _lines(_seal(base_events(**kw)))
    # the harness observation (line 5 without seeds) spells 100000.0 as `1e5`: same JSON
    # value, same JCS bytes
    for k, x in enumerate(lines):
        lines[k] = x.replace(b"100000.0", b"1e5")
    return lines


def resealed(mutate: Callable[[list[dict]], None], **kw) -> list[bytes]:
    """The base events changed by `mutate`, then the whole chain re-sealed correctly: the chain
    is valid, so only the event rules can catch the change."""
    evs = base_events(**kw)
    mutate(evs)
    return _lines(_seal(evs))


def _flip_hex(s: bytes) -> bytes:
    return bytes([s[0] ^ 0x01]) if chr(s[0]) in "0123456789" else (b"0" if s != b"0" else b"1")


def tamper_field(lines: list[bytes], idx: int, name: str, pos: int = -1) -> list[bytes]:
    """Change one hex digit of `name` ("hash"/"prev_hash") on line idx+1, in place."""
    out = list(lines)
    ev = orjson.loads(out[idx])
    old = ev[name]
    i = pos % 64
    new = old[:i] + ("0" if old[i] != "0" else "1") + old[i + 1:]
    assert out[idx].count(old.encode()) >= 1
    key = f'"{name}"'.encode()
    start = out[idx].index(key)
    j = out[idx].index(old.encode(), start)
    out[idx] = out[idx][:j] + new.encode() + out[idx][j + 64:]
    return out


# ---------------------------------------------------------------- running the CLI


def run_cli(args: list[str], env_extra: dict | None = None) -> tuple[int, dict | None, str]:
    env = {k: v for k, v in os.environ.items() if k != "ALE_EVALUATOR_SECRET"}
    env.update(env_extra or {})
    proc = subprocess.run([str(EXE), "verify", *args, "--json"], capture_output=True,
                          timeout=120, env=env, stdin=subprocess.DEVNULL)
    try:
        rep = orjson.loads(proc.stdout)
    except orjson.JSONDecodeError:
        rep = None
    return proc.returncode, rep, proc.stderr.decode("utf-8", "replace")


@dataclass
class Case:
    """One submission and what a careful reviewer concludes about it (written before running)."""

    name: str
    build: Callable[[Path], list[str]]  # writes the submission under tmp, returns CLI args
    rc: int
    events: int | None
    rule: str | None  # first error rule (summary.first_error_rule)
    line: int | None  # first error line
    brk: tuple[int, str] | None = None  # chain.first_break
    check: Callable[[dict], None] | None = None
    env: dict = field(default_factory=dict)
    xfail: str | None = None
    slow: bool = False


def _plain(lines_or_data, name: str = "events.jsonl"):
    data = lines_or_data if isinstance(lines_or_data, bytes) else _join(lines_or_data)

    def build(tmp: Path) -> list[str]:
        p = tmp / name
        p.write_bytes(data)
        return [str(p)]
    return build


def _zstd(lines_or_data, frames: int = 1, name: str = "events.jsonl.zst"):
    data = lines_or_data if isinstance(lines_or_data, bytes) else _join(lines_or_data)
    return _plain(_zst(data, frames), name)


def _raw(data: bytes, name: str = "events.jsonl.zst"):
    return _plain(data, name)


def _seeded(build, seeds_text: str = "8675309\n1337\n"):
    def b(tmp: Path) -> list[str]:
        args = build(tmp)
        s = tmp / "seeds.txt"
        s.write_text(seeds_text)
        return [*args, "--seeds", str(s)]
    return b


# ---------------------------------------------------------------- bundles


def _zip(members: list[tuple], name: str = "bundle.zip"):
    """members: (arcname, bytes) or (arcname, bytes, 'symlink')."""
    def build(tmp: Path) -> list[str]:
        p = tmp / name
        with zipfile.ZipFile(p, "w") as zf:
            for m in members:
                if len(m) == 3 and m[2] == "symlink":
                    zi = zipfile.ZipInfo(m[0])
                    zi.create_system = 3
                    zi.external_attr = (0o120777 << 16)
                    zf.writestr(zi, m[1])
                else:
                    with warnings.catch_warnings():  # a duplicate name is the point
                        warnings.simplefilter("ignore", UserWarning)
                        zf.writestr(m[0], m[1])
        return [str(p)]
    return build


def _tar(members: list[tuple], suffix: str = "tar"):
    """members: (arcname, bytes) or (arcname, target, 'symlink')."""
    def build(tmp: Path) -> list[str]:
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tf:
            for m in members:
                ti = tarfile.TarInfo(m[0])
                if len(m) == 3 and m[2] == "symlink":
                    ti.type, ti.linkname = tarfile.SYMTYPE, m[1]
                    tf.addfile(ti)
                else:
                    ti.size = len(m[1])
                    tf.addfile(ti, io.BytesIO(m[1]))
        raw = buf.getvalue()
        if suffix == "tar.gz":
            import gzip
            raw = gzip.compress(raw)
        elif suffix == "tar.zst":
            raw = zstandard.ZstdCompressor().compress(raw)
        p = tmp / f"bundle.{suffix}"
        p.write_bytes(raw)
        return [str(p)]
    return build


def _video(path: Path, seconds: float, fps: int = 10) -> None:
    import cv2
    import numpy as np
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (64, 48))
    assert w.isOpened()
    for i in range(round(seconds * fps)):
        w.write(np.full((48, 64, 3), i % 255, np.uint8))
    w.release()


def _folder(traj_name: str, data: bytes, video_s: float | None):
    def build(tmp: Path) -> list[str]:
        d = tmp / "run"
        d.mkdir()
        (d / traj_name).write_bytes(data)
        if video_s is not None:
            _video(d / "screen.mp4", video_s)
        return [str(d)]
    return build


# ---------------------------------------------------------------- the corpus

V = valid_lines()
N = len(V)  # 10
VS = valid_lines(seeds=SEEDS)  # 12: commitments on lines 2-3; base line k>=2 is line k+2


def _swap(lines, i, j):
    out = list(lines)
    out[i], out[j] = out[j], out[i]
    return out


def _del(lines, *idx):
    return [x for k, x in enumerate(lines) if k not in idx]


def _ins(lines, idx, new):
    return [*lines[:idx], new, *lines[idx:]]


def _sub(lines, idx, old: bytes, new: bytes):
    out = list(lines)
    assert old in out[idx], (idx, old)
    out[idx] = out[idx].replace(old, new, 1)
    return out


def _intruder_after(lines: list[bytes], idx: int) -> list[bytes]:
    """A well-formed event sealed onto line idx+1's hash, inserted after it."""
    prev = orjson.loads(lines[idx])["hash"]
    e = _seal([_ev("intruder", "note", 0, 2.2, {"text": "inserted"})], first_prev=prev)[0]
    return _ins(lines, idx + 1, _line(e, 1))


def _set(i: int, **kv):
    def m(evs):
        evs[i].update(kv)
    return m


def _score_authoritative(rep: dict) -> None:
    assert rep["run"]["score"]["authoritative"]["score"] == 0.75


def _claims_999(rep: dict) -> None:
    _score_authoritative(rep)
    assert [c["score"] for c in rep["run"]["score"]["untrusted_claims"]] == [999]
    assert all(c["label"] == "untrusted" for c in rep["run"]["score"]["untrusted_claims"])


def _valid_report(rep: dict) -> None:
    assert rep["kind"] == "official" and rep["verification_level"] == "validated"
    assert rep["chain"]["complete"] and rep["chain"]["valid"] and rep["chain"]["breaks"] == 0
    assert rep["chain"]["head"] == orjson.loads(V[-1])["hash"]
    _score_authoritative(rep)
    assert rep["run"]["producers"]["agent"] == {"events": 4, "trust_level": "untrusted_agent"}
    assert rep["run"]["duration_s"] == pytest.approx(10.0)


def _warns(*rules):
    def chk(rep: dict) -> None:
        got = {f["rule"] for f in rep["findings"] if f["severity"] == "warning"}
        assert set(rules) <= got, got
    return chk


def _has(rule: str, line: int | None, severity: str = "error"):
    def chk(rep: dict) -> None:
        assert any(f["rule"] == rule and f["line"] == line and f["severity"] == severity
                   for f in rep["findings"]), rep["findings"]
    return chk


def _no_seed_leak(rep: dict) -> None:
    assert not [f for f in rep["findings"] if f["rule"] == "seed.leak"]


def _sorted_keys_hasher(prev: str, body: dict) -> str:
    return hashlib.sha256(prev.encode() + json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


def _no_prev_hasher(prev: str, body: dict) -> str:
    return _jcs_hash("", {k: v for k, v in body.items() if k != "prev_hash"})


def _upper_seal(events: list[dict]) -> list[bytes]:
    out, prev = [], ZERO
    for e in events:
        body = dict(e, prev_hash=prev)
        h = hashlib.sha256(prev.encode() + canonical_json(body)).hexdigest().upper()
        body["hash"] = h
        out.append(body)
        prev = h
    return _lines(out)


@functools.lru_cache(maxsize=1)
def _big_lines(n: int) -> list[bytes]:
    pad = "x" * 1200
    evs = [_ev("harness", "run_start", 0, 0.0, {})]
    evs += [_ev("agent", "tool_call", i, 1 + i / 1000,
                {"i": i, "f": i + 0.5, "pad": pad, "\U0001F600": i % 7}) for i in range(n - 3)]
    evs += [_ev("evaluator", "eval_result", 0, 600.0, {"score": 1.5}),
            _ev("harness", "run_end", 1, 601.0, {})]
    return tuple(canonical_json(e) for e in _seal(evs))


def _cut_frame2() -> bytes:
    z = _zst_frames(V, [4, 4, 2])
    f1 = len(zstandard.ZstdCompressor(write_checksum=True).compress(_join(V[:4])))
    f2 = len(zstandard.ZstdCompressor(write_checksum=True).compress(_join(V[4:8])))
    return z[:f1 + f2 - 5]


def _frames12() -> bytes:
    """The first two of three frames: a cut exactly at a frame boundary."""
    c = zstandard.ZstdCompressor(write_checksum=True)
    return c.compress(_join(V[:4])) + c.compress(_join(V[4:8]))


ZV = _zst(_join(V))


def _folder2():
    """events.jsonl and a different events.jsonl.zst side by side: ambiguous evidence."""
    def build(tmp: Path) -> list[str]:
        d = tmp / "run"
        d.mkdir()
        (d / "events.jsonl").write_bytes(_join(V))
        (d / "events.jsonl.zst").write_bytes(_zst(_join(_swap(V, 4, 5))))
        return [str(d)]
    return build


def _frames3() -> tuple[bytes, bytes, bytes]:
    """Lines 1-4, 5-8, 9-10 in three frames."""
    c = zstandard.ZstdCompressor(write_checksum=True)
    return c.compress(_join(V[:4])), c.compress(_join(V[4:8])), c.compress(_join(V[8:]))


def _flip(data: bytes, i: int) -> bytes:
    b = bytearray(data)
    b[i] ^= 0xFF
    return bytes(b)


def _cut(data: bytes, frac: float) -> bytes:
    return data[:int(len(data) * frac)]


def _tgz(data: bytes, name: str = "events.jsonl.zst") -> bytes:
    import gzip
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        tf.addfile(ti, io.BytesIO(data))
    return gzip.compress(buf.getvalue(), mtime=0)


def _most_of_cut_tgz_read(rep: dict) -> None:
    """Half of a 10 MB .tar.gz holds about 5 MB of whole lines; at least the 4 MiB that 1 MiB
    reads get before the gzip error must be verified and counted."""
    data = _join(list(_big_lines(6500)))[:4 << 20]
    assert rep["events"] >= data.count(b"\n"), rep["events"]


def _decodable_lines_read(rep: dict) -> None:
    """A truncated single frame: every whole line the decoder can give is an event, and no
    partial last line is reported as broken JSON."""
    z = _cut(_zst(_join(list(_big_lines(6500)))), 0.3)
    whole = zstandard.ZstdDecompressor().decompressobj().decompress(z).count(b"\n")
    assert rep["events"] == whole
    assert not [f for f in rep["findings"] if f["rule"] == "traj.json"]


def _forced(sealed: list[dict], idx: int, style: int) -> list[bytes]:
    lines = _lines(sealed)
    lines[idx] = _line(sealed[idx], style)
    return lines


def _plain_events() -> list[dict]:
    """The base run without floats or keys outside the BMP on other lines (a sorted-keys dump
    then equals JCS everywhere except where a case puts the difference)."""
    evs = base_events()
    evs[1]["payload"] = {"tool": "shell", "command": "python train.py"}
    evs[4]["payload"] = {"frame": 10, "reward": 7}
    return evs


_KEYS_PAYLOAD = {"command": "ls", "keys": {"\U0001F600": 1, "\ue000": 2, "a": 3}}
KEYS = _seal([*base_events()[:5], _ev("agent", "tool_call", 2, 3.0, _KEYS_PAYLOAD),
              *base_events()[6:]])
SORTED_KEYS = _seal([*_plain_events()[:5], _ev("agent", "tool_call", 2, 3.0, _KEYS_PAYLOAD),
                     *_plain_events()[6:]], hasher=_sorted_keys_hasher)
BIGFLOAT = _seal([*base_events()[:5], _ev("agent", "tool_call", 2, 3.0,
                                          {"bytes": 1e16, "ns": 1.5e20, "neg": -2e17}),
                  *base_events()[6:]])

CASES: list[Case] = [
    # ---- valid, unusual but legal
    Case("valid_plain", _plain(V), 0, N, None, None, None, _valid_report),
    Case("valid_zst_one_frame", _zstd(V), 0, N, None, None, None, _valid_report),
    Case("valid_zst_three_frames_mid_line", _zstd(V, frames=3), 0, N, None, None, None,
         _valid_report),
    Case("valid_zst_frame_per_line", _raw(_zst_frames(V, [1] * N)), 0, N, None, None, None,
         _valid_report),
    Case("valid_no_run_marks", _plain(valid_lines(run_marks=False)), 0, 8, None, None, None,
         _score_authoritative),
    Case("valid_no_eval_result_warns", _plain(valid_lines(eval_result=False)), 0, 9, None, None,
         None, _warns("traj.no_eval_result")),
    Case("valid_no_final_newline", _plain(_join(V)[:-1]), 0, N, None, None, None,
         _warns("traj.no_final_newline")),
    Case("valid_u2028_escaped_instead_of_raw",
         _plain(_sub(V, 3, "\u2028".encode(), b"\\u2028")), 0, N, None, None, None,
         _has("chain.respelled", 4, "warning")),
    Case("valid_1e5_spelled_1E5", _plain(_sub(V, 4, b"1e5", b"1E5")), 0, N, None, None, None,
         _has("chain.respelled", 5, "warning")),
    Case("valid_1e5_spelled_100000", _plain(_sub(V, 4, b"1e5", b"100000")), 0, N, None, None),
    Case("valid_whitespace_between_tokens", _plain(_sub(V, 4, b'"payload":', b'"payload" :  ')),
         0, N, None, None, None, _has("chain.respelled", 5, "warning")),
    Case("valid_extra_unknown_member",
         _plain(resealed(_set(5, x_forward_compat={"a": [1, 2.5]}))), 0, N, None, None),
    Case("valid_seq_gaps", _plain(resealed(_set(6, producer_sequence=57))), 0, N, None, None),
    Case("valid_wall_time_plus_00_00",
         _plain(resealed(_set(5, wall_time="2026-07-10T14:00:03+00:00"))), 0, N, None, None),
    Case("valid_wall_time_backwards_same_producer_warns",
         _plain(resealed(_set(6, wall_time=_wall(0.5)))), 0, N, None, None, None,
         _warns("traj.wall_time_backwards")),
    Case("valid_secret_looking_string_warns_only",
         _plain(resealed(_set(5, payload={"command": "export OPENAI_API_KEY=sk-proj-"
                                          "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0"}))),
         0, N, None, None, None, _has("secret.suspect", 6, "warning")),
    Case("valid_private_key_block_warns_only",
         _plain(resealed(_set(6, payload={"out": "-----BEGIN RSA PRIVATE KEY-----\nMIIEow"}))),
         0, N, None, None, None, _has("secret.suspect", 7, "warning")),
    Case("valid_tail_cut_at_frame_boundary_undetectable", _raw(_frames12()), 0, 8, None, None,
         None, _warns("traj.run_end_missing")),
    Case("valid_last_line_deleted_warns_run_end_missing", _plain(V[:-1]), 0, N - 1, None, None,
         None, _warns("traj.run_end_missing")),
    Case("valid_folder_zst_with_video", _folder("events.jsonl.zst", ZV, 12.0), 0, N, None, None,
         None, lambda r: r["coverage"] is not None),
    Case("valid_folder_plain_with_video", _folder("events.jsonl", _join(V), 11.0), 0, N, None,
         None),
    Case("folder_video_too_short", _folder("events.jsonl.zst", ZV, 3.0), 1, N,
         "coverage.missing", None),
    Case("valid_zip", _zip([("bundle/events.jsonl.zst", ZV), ("bundle/notes.txt", b"hi")]),
         0, N, None, None),
    Case("valid_tar", _tar([("events.jsonl.zst", ZV)]), 0, N, None, None),
    Case("valid_tar_gz", _tar([("run/events.jsonl.zst", ZV)], "tar.gz"), 0, N, None, None),
    Case("valid_tar_zst", _tar([("run/events.jsonl.zst", ZV)], "tar.zst"), 0, N, None, None),
    Case("valid_tar_gz_plain_jsonl", _tar([("events.jsonl", _join(V))], "tar.gz"), 0, N, None,
         None),
    Case("seeds_not_checked_info", _zstd(VS), 0, 12, None, None, None,
         _has("seed.not_checked", None, "info")),
    Case("seeds_all_match", _seeded(_zstd(VS)), 0, 12, None, None, None,
         lambda r: r["run"]["seeds"] == {"commitments": 2, "checked": True},
         env={"ALE_EVALUATOR_SECRET": SECRET}),
    Case("seeds_extra_seed_unused_warns", _seeded(_zstd(VS), "8675309\n1337\n4242\n"), 0, 12,
         None, None, None, _warns("seed.unused"), env={"ALE_EVALUATOR_SECRET": SECRET}),
    Case("valid_agent_score_claim_labelled_untrusted", _plain(resealed(
        lambda evs: evs.insert(7, _ev("agent", "score_claim", 9, 3.8, {"score": 999})))),
        0, N + 1, None, None, None, _claims_999),
    Case("valid_seed_text_only_inside_hashes", _seeded(_zstd(VS), "8675309\n1337\n"), 0, 12,
         None, None, None, _no_seed_leak, env={"ALE_EVALUATOR_SECRET": SECRET}),
    Case("valid_wall_time_nanoseconds",
         _plain(resealed(_set(5, wall_time="2026-07-10T14:00:03.123456789Z"))), 0, N, None, None),
    Case("valid_wall_time_no_fraction",
         _plain(resealed(_set(5, wall_time="2026-07-10T14:00:03Z"))), 0, N, None, None),
    Case("valid_whitespace_around_object", _plain([*V[:5], b"  " + V[5] + b" \t", *V[6:]]), 0, N,
         None, None, None, _has("chain.respelled", 6, "warning")),
    # ---- tampered: chain
    Case("payload_byte_changed", _plain(_sub(V, 5, b"ls -la", b"Ls -la")), 1, N,
         "chain.edited", 6, (6, "edited"), lambda r: r["chain"]["breaks"] == 1),
    Case("payload_byte_changed_zst", _zstd(_sub(V, 5, b"ls -la", b"ls -lb"), frames=2), 1, N,
         "chain.edited", 6, (6, "edited")),
    Case("payload_float_byte_changed_1e5_1e6", _plain(_sub(V, 4, b"1e5", b"1e6")), 1, N,
         "chain.edited", 5, (5, "edited")),
    Case("payload_nonbmp_key_changed",
         _plain(_sub(V, 1, "\U0001F600".encode(), "\U0001F601".encode())), 1, N,
         "chain.edited", 2, (2, "edited")),
    Case("payload_u2028_to_u2029", _plain(_sub(V, 3, "\u2028".encode(), "\u2029".encode())),
         1, N, "chain.edited", 4, (4, "edited")),
    Case("payload_neg_zero_to_one", _plain(_sub(V, 1, b'"neg":-0.0', b'"neg":-1.0')), 1, N,
         "chain.edited", 2, (2, "edited")),
    Case("hash_byte_changed", _plain(tamper_field(V, 5, "hash")), 1, N, "chain.edited", 6,
         (6, "edited")),
    Case("prev_hash_byte_changed", _plain(tamper_field(V, 5, "prev_hash", 0)), 1, N,
         "chain.edited", 6, (6, "edited")),
    Case("first_line_deleted", _plain(_del(V, 0)), 1, N - 1, "chain.first_prev_hash", 1,
         (1, "link")),
    Case("middle_line_deleted", _plain(_del(V, 4)), 1, N - 1, "chain.link", 5, (5, "link")),
    Case("two_middle_lines_deleted", _zstd(_del(V, 4, 5)), 1, N - 2, "chain.link", 5,
         (5, "link")),
    Case("line_inserted_sealed_onto_chain", _plain(_intruder_after(V, 3)), 1, N + 1,
         "chain.link", 6, (6, "link")),
    Case("adjacent_lines_swapped_diff_producers", _plain(_swap(V, 4, 5)), 1, N, "chain.link",
         5, (5, "link")),
    Case("adjacent_agent_lines_swapped", _zstd(_swap(V, 5, 6)), 1, N, "chain.link", 6,
         (6, "link"), _has("traj.producer_sequence", 7)),
    Case("first_two_lines_swapped", _plain(_swap(V, 0, 1)), 1, N, "chain.first_prev_hash", 1,
         (1, "link")),
    Case("line_duplicated", _plain(_ins(V, 3, V[2])), 1, N + 1, "chain.link", 4, (4, "link"),
         _has("traj.producer_sequence", 4)),
    Case("last_line_duplicated", _plain([*V, V[-1]]), 1, N + 1, "chain.link", N + 1,
         (N + 1, "link")),
    Case("first_prev_hash_not_zeros_resealed",
         _plain(_lines(_seal(base_events(), first_prev="1" * 64))), 1, N,
         "chain.first_prev_hash", 1, (1, "link")),
    Case("sorted_keys_json_dumps_not_jcs",
         _plain(_lines(_seal(base_events(), hasher=_sorted_keys_hasher))), 1, N,
         "chain.edited", 2, (2, "edited")),
    Case("hash_without_prev_hash", _plain(_lines(_seal(base_events(), hasher=_no_prev_hasher))),
         1, N, "chain.edited", 1, (1, "edited"), lambda r: r["chain"]["breaks"] == N),
    Case("uppercase_hex_one_line",
         _plain(_sub(V, 5, orjson.loads(V[5])["hash"].encode(),
                     orjson.loads(V[5])["hash"].upper().encode())),
         1, N, "traj.hash_format", 6, (6, "unreadable")),
    Case("uppercase_hex_whole_chain", _plain(_upper_seal(base_events())), 1, N,
         "traj.hash_format", 1, (1, "unreadable")),
    Case("crlf_everywhere", _plain(_join(V, b"\r\n")), 1, N, "traj.line_ending", 1, None),
    Case("crlf_one_line", _plain(_join(V[:4]) + V[4] + b"\r\n" + _join(V[5:])), 1, N,
         "traj.line_ending", 5, None),
    Case("truncated_zst_inside_frame_2", _raw(_cut_frame2()), 1, 4, "traj.zstd_truncated", 5,
         None, lambda r: (r["complete"] is False and r["chain"]["complete"] is False)),
    Case("truncated_zst_one_frame", _raw(ZV[:len(ZV) // 2]), 1, None, "traj.zstd_truncated",
         AFTER, None, lambda r: r["complete"] is False),
    Case("trailing_garbage_after_last_frame", _raw(ZV + b"garbage!"), 1, N,
         "traj.trailing_garbage", AFTER, None),
    Case("trailing_garbage_after_three_frames", _raw(_zst_frames(V, [4, 4, 2]) + b"\0" * 8), 1,
         N, "traj.trailing_garbage", AFTER, None),
    Case("garbage_after_frame_2_of_3", _raw(_frames3()[0] + _frames3()[1] + b"junkjunk"), 1, 8,
         "traj.trailing_garbage", 9, None),
    Case("corrupt_checksum_frame_3_of_3", _raw(_frames3()[0] + _frames3()[1]
                                               + _flip(_frames3()[2], -2)),
         1, 8, "traj.zstd_corrupt", 9, None),
    Case("truncated_inside_checksum_of_frame_3",
         _raw(b"".join(_frames3())[:-3]), 1, N, "traj.zstd_truncated", N + 1, None),
    Case("valid_skippable_frame_after_last",
         _raw(ZV + b"\x50\x2a\x4d\x18\x04\x00\x00\x00abcd"), 0, N, None, None),
    Case("valid_escaped_nonbmp_and_pua_keys", _plain(_forced(KEYS, 5, 2)), 0, N, None, None),
    Case("valid_raw_nonbmp_and_pua_keys", _plain(_forced(KEYS, 5, 1)), 0, N, None, None),
    Case("sorted_keys_hash_escaped_nonbmp_keys", _plain(_forced(SORTED_KEYS, 5, 2)), 1, N,
         "chain.edited", 6, (6, "edited")),
    Case("sorted_keys_hash_raw_nonbmp_keys", _plain(_forced(SORTED_KEYS, 5, 1)), 1, N,
         "chain.edited", 6, (6, "edited")),
    Case("valid_canonical_line_with_1e16", _plain(_forced(BIGFLOAT, 5, 0)), 0, N, None, None),
    Case("valid_python_line_with_1e16", _plain(_forced(BIGFLOAT, 5, 1)), 0, N, None, None),
    Case("corrupt_block_bit_flip", _raw(ZV[:len(ZV) // 2] + bytes([ZV[len(ZV) // 2] ^ 0x40])
                                        + ZV[len(ZV) // 2 + 1:]), 1, None,
         "traj.zstd_corrupt", AFTER, None),
    # ---- tampered: event rules on a re-sealed (valid) chain
    Case("producer_sequence_repeated", _plain(resealed(_set(6, producer_sequence=2))), 1, N,
         "traj.producer_sequence", 7, None),
    Case("run_id_changed_one_line_resealed", _plain(resealed(_set(6, run_id="run_OTHER"))), 1,
         N, "traj.run_id_mismatch", 7, None),
    Case("agent_claims_trusted_agent_all_lines",
         _plain(resealed(lambda evs: [e.update(trust_level="trusted_agent") for e in evs
                                      if e["producer"] == "agent"])),
         1, N, "traj.agent_trusted", 2, None),
    Case("agent_claims_trusted_evaluator_one_line",
         _plain(resealed(_set(5, trust_level="trusted_evaluator"))), 1, N,
         "traj.agent_trusted", 6, None, _has("traj.trust_inconsistent", 6)),
    Case("eval_result_from_agent", _plain(resealed(
        lambda evs: evs.insert(7, _ev("agent", "eval_result", 9, 3.8, {"score": 999})))),
        1, N + 1, "traj.eval_result_untrusted", 8, None, _claims_999),
    Case("eval_result_from_agent_claiming_trusted_evaluator", _plain(resealed(
        lambda evs: evs.insert(7, _ev("agent", "eval_result", 9, 3.8, {"score": 999},
                                      trust_level="trusted_evaluator")))),
        1, N + 1, "traj.agent_trusted", 8, None, _claims_999),
    Case("eval_result_evaluator_name_untrusted_level", _plain(resealed(
        lambda evs: evs.insert(1, _ev("evaluator", "eval_result", 0, 0.1, {"score": 999},
                                      trust_level="untrusted_agent")))),
        1, N + 1, "traj.eval_result_untrusted", 2, None),
    Case("eval_result_from_lookalike_producer", _plain(resealed(
        lambda evs: evs.insert(7, _ev("evaluat0r", "eval_result", 0, 3.8, {"score": 999},
                                      trust_level="trusted_evaluator")))),
        1, N + 1, "traj.eval_result_untrusted", 8, None, _claims_999),
    Case("schema_v2_one_line_resealed",
         _plain(resealed(_set(5, schema="ale-trajectory-event/v2"))), 1, N,
         "traj.schema_unsupported", 6, None),
    Case("schema_v2_edited_not_resealed",
         _plain(_sub(V, 5, b"ale-trajectory-event/v1", b"ale-trajectory-event/v2")), 1, N,
         "traj.schema_unsupported", 6, (6, "edited")),
    Case("producer_changes_trust_level",
         _plain(resealed(_set(4, trust_level="trusted_proxy"))), 1, N,
         "traj.trust_inconsistent", 5, None),
    Case("repeated_member_name", _plain(_sub(V, 5, b'"type": "tool_call"',
                                             b'"type": "tool_call", "type": "eval_result"')),
         1, N, "traj.duplicate_member", 6, (6, "unreadable")),
    Case("repeated_member_name_in_payload",
         _plain(_sub(V, 0, b'"episodes":2', b'"episodes":2,"episodes":3')),
         1, N, "traj.duplicate_member", 1, (1, "unreadable")),
    Case("wall_time_offset_not_utc",
         _plain(resealed(_set(5, wall_time="2026-07-10T16:00:03+02:00"))), 1, N,
         "traj.wall_time_format", 6, None),
    Case("payload_not_object", _plain(resealed(_set(5, payload=["ls"]))), 1, N,
         "traj.field_type", 6, None),
    Case("producer_sequence_string", _plain(resealed(_set(5, producer_sequence="2"))), 1, N,
         "traj.field_type", 6, None),
    Case("wall_time_missing",
         _plain(resealed(lambda evs: evs[5].pop("wall_time"))), 1, N,
         "traj.field_missing", 6, None),
    Case("number_beyond_2_53", _plain(_sub(V, 1, b"9007199254740991", b"9007199254740993")), 1,
         N, "traj.number_unrepresentable", 2, (2, "unreadable")),
    Case("blank_line_in_middle", _plain(_ins(V, 5, b"")), 1, N, "traj.blank", 6, None),
    Case("utf8_bom_at_start", _plain(b"\xef\xbb\xbf" + _join(V)), 1, N, "traj.utf8", 1,
         (1, "unreadable")),
    Case("invalid_utf8_in_string", _plain(_sub(V, 5, b"workspace", b"works\xffce")), 1, N,
         "traj.utf8", 6, (6, "unreadable")),
    Case("garbage_line_replaces_event", _plain(_sub(V, 5, V[5], b'{"schema":"ale-traj')), 1, N,
         "traj.json", 6, (6, "unreadable")),
    Case("schema_missing", _plain(resealed(lambda evs: evs[5].pop("schema"))), 1, N,
         "traj.schema_unsupported", 6, None),
    Case("schema_not_a_string", _plain(resealed(_set(5, schema=1))), 1, N,
         "traj.schema_unsupported", 6, None),
    Case("nul_byte_after_last_line", _plain(_join(V) + b"\0"), 1, N + 1, "traj.json", N + 1,
         (N + 1, "unreadable")),
    Case("hash_not_a_string", _plain(_sub(V, 5, b'"hash": "', b'"hash": 1, "x": "')), 1, N,
         "traj.hash_format", 6, (6, "unreadable")),
    Case("empty_file", _plain(b""), 1, 0, "traj.empty", None, None),
    # ---- seeds
    Case("seeds_wrong_secret_unmatched", _seeded(_zstd(VS)), 1, 12,
         "seed.commitment_unmatched", 2, None, _warns("seed.unused"),
         env={"ALE_EVALUATOR_SECRET": SECRET + "x"}),
    Case("seeds_file_crlf", _seeded(_zstd(VS), "8675309\r\n1337\r\n"), 0, 12, None, None,
         env={"ALE_EVALUATOR_SECRET": SECRET}),
    Case("seeds_file_with_utf8_bom", _seeded(_zstd(VS), "\ufeff8675309\n1337\n"), 0, 12, None,
         None, env={"ALE_EVALUATOR_SECRET": SECRET}),
    Case("seed_commitment_for_another_run_id", _seeded(_plain(resealed(
        lambda evs: evs[1]["payload"].update(seed_commitment=commitment("8675309", "run_X")),
        seeds=SEEDS))), 1, 12, "seed.commitment_unmatched", 2, None,
        env={"ALE_EVALUATOR_SECRET": SECRET}),
    Case("seed_leaked_in_payload", _seeded(_zstd(resealed(
        _set(6, payload={"command": "python eval.py --seed 8675309"}), seeds=SEEDS))),
        1, 12, "seed.leak", 7, None, env={"ALE_EVALUATOR_SECRET": SECRET}),
    Case("seed_leaked_unicode_escaped", _seeded(_plain(_sub(
        resealed(_set(6, payload={"command": "python eval.py --seed 8675309"}), seeds=SEEDS),
        6, b"--seed 8675309", b"--seed \\u0038675309"))),
        1, 12, "seed.leak", 7, None, env={"ALE_EVALUATOR_SECRET": SECRET}),
    Case("seed_leaked_in_type_member", _seeded(_zstd(resealed(_set(6, type="8675309"),
                                                              seeds=SEEDS))),
         1, 12, "seed.leak", 7, None, env={"ALE_EVALUATOR_SECRET": SECRET}),
    Case("seed_commitment_uppercase", _plain(resealed(
        lambda evs: evs[1]["payload"].update(seed_commitment=commitment("8675309").upper()),
        seeds=SEEDS)), 1, 12, "seed.commitment_format", 2, None),
    # ---- bundles with hostile members
    Case("zip_dotdot_member", _zip([("bundle/events.jsonl.zst", ZV), ("../evil.txt", b"x")]),
         1, N, "archive.unsafe_path", None, None),
    Case("zip_symlink_member", _zip([("bundle/events.jsonl.zst", ZV),
                                     ("bundle/link", b"/etc/passwd", "symlink")]),
         1, N, "archive.link", None, None),
    Case("zip_duplicate_events", _zip([("events.jsonl.zst", ZV),
                                       ("events.jsonl.zst", _zst(_join(V[:5])))]),
         1, None, "archive.duplicate_name", None, None),
    Case("tar_symlink_member", _tar([("events.jsonl.zst", ZV), ("x", "/etc/passwd", "symlink")]),
         1, N, "archive.link", None, None),
    Case("tar_absolute_member", _tar([("events.jsonl.zst", ZV), ("/etc/cron.d/x", b"x")],
                                     "tar.gz"), 1, N, "archive.unsafe_path", None, None),
    Case("tar_zst_tampered_inside", _tar([("run/events.jsonl.zst", _zst(_join(_swap(V, 4, 5))))],
                                         "tar.zst"), 1, N, "chain.link", 5, (5, "link")),
    Case("folder_with_two_trajectories", _folder2(), 1, N, "input.several_logs", None, None),
    Case("zip_with_two_trajectories", _zip([("a/events.jsonl.zst", ZV),
                                            ("b/events.jsonl.zst", _zst(_join(V[:6])))]),
         1, N, "input.several_logs", None, None),
    Case("producer_sequence_bool", _plain(resealed(_set(5, producer_sequence=True))), 1, N,
         "traj.field_type", 6, None),
    Case("producer_sequence_float", _plain(resealed(_set(5, producer_sequence=2.5))), 1, N,
         "traj.field_type", 6, None),
    Case("wall_time_feb_30", _plain(resealed(_set(5, wall_time="2026-02-30T14:00:03.000Z"))),
         1, N, "traj.wall_time_format", 6, None),
    Case("hash_member_missing", _plain(_sub(V, 5, b', "hash": "', b', "hasx": "')), 1, N,
         "traj.field_missing", 6, (6, "unreadable")),
    Case("line_truncated_mid_json", _plain([*V[:5], V[5][:40], *V[6:]]), 1, N, "traj.json", 6,
         (6, "unreadable")),
    Case("not_object_line", _plain(_ins(V, 5, b"[1,2]")), 1, N + 1, "traj.not_object", 6,
         (6, "unreadable")),
    Case("tar_gz_cut_in_half", lambda t: _raw(_cut(_tgz(ZV), 0.5), "bundle.tar.gz")(t), 1, 0,
         "archive.corrupt", None, None, _has("input.unreadable", None)),
    # ---- large: the block fast path, and the worker process (plain input of 8 MiB and more)
    Case("large_truncated_at_30_percent", lambda t: _raw(_cut(_zst(_join(list(_big_lines(6500)))),
                                                              0.3))(t),
         1, None, "traj.zstd_truncated", AFTER, None, _decodable_lines_read, slow=True),
    Case("large_tar_gz_cut_in_half_worker",
         lambda t: _raw(_cut(_tgz(_join(list(_big_lines(6500))), "events.jsonl"), 0.5),
                        "bundle.tar.gz")(t),
         1, None, "input.unreadable", AFTER, None, _most_of_cut_tgz_read, slow=True),
    Case("large_trailing_garbage", lambda t: _raw(_zst(_join(list(_big_lines(6500))))
                                                  + b"garbage!")(t),
         1, 6500, "traj.trailing_garbage", AFTER, None, slow=True),
    Case("large_valid_6500", lambda t: _zstd(list(_big_lines(6500)), frames=4)(t), 0, 6500,
         None, None, None, slow=True),
    Case("large_edit_at_4321_plain_worker", lambda t: _plain(_sub(list(_big_lines(6500)), 4320,
                                                                 b'"i":4319', b'"i":4318'))(t),
         1, 6500, "chain.edited", 4321, (4321, "edited"), slow=True),
    Case("large_delete_at_5000_plain_worker", lambda t: _plain(_del(_big_lines(6500), 4999))(t),
         1, 6499, "chain.link", 5000, (5000, "link"), slow=True),
]


def _params():
    out = []
    for c in CASES:
        marks = []
        if c.xfail:
            marks.append(pytest.mark.xfail(strict=True, reason=c.xfail))
        if c.slow:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(c, id=c.name, marks=marks))
    return out


def test_corpus_is_big_enough():
    assert len(CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.fixture(scope="module")
def fast_results(tmp_path_factory) -> dict:
    """The CLI runs of every non-slow case, two at a time (each run is mostly interpreter
    start-up; the machine has two cores)."""
    from concurrent.futures import ThreadPoolExecutor

    def one(case: Case):
        return run_cli(case.build(tmp_path_factory.mktemp(case.name)), case.env)

    todo = [c for c in CASES if not c.slow]
    with ThreadPoolExecutor(2) as pool:
        return dict(zip([c.name for c in todo], pool.map(one, todo), strict=True))


@pytest.mark.parametrize("case", _params())
def test_official_case(case: Case, tmp_path: Path, request) -> None:
    if case.slow:
        rc, rep, err = run_cli(case.build(tmp_path), case.env)
    else:
        rc, rep, err = request.getfixturevalue("fast_results")[case.name]
    assert rep is not None, err
    assert "Traceback" not in err, err
    if SECRET in json.dumps(rep) + err:
        pytest.fail("the evaluator secret reached the output")
    got = (rc, rep["verdict"], rep["summary"]["first_error_rule"],
           rep["summary"]["first_error_line"])
    line = rep["events"] + 1 if case.line == AFTER else case.line
    want = (case.rc, "pass" if case.rc == 0 else "fail", case.rule, line)
    assert got == want, [f for f in rep["findings"] if f["severity"] == "error"][:5]
    if case.events is not None:
        assert rep["events"] == case.events
    brk = rep["chain"]["first_break"] if rep["chain"] is not None else None
    assert (None if brk is None else (brk["line"], brk["kind"])) == case.brk
    if case.rc == 0:
        assert rep["verification_level"] == "validated"
    else:
        assert rep["verification_level"] == "self_reported"
    if case.check is not None:
        assert case.check(rep) is not False


def _random_value(rnd, depth: int):
    import struct
    r = rnd.random()
    if depth > 2 or r < 0.45:
        kind = rnd.randrange(6)
        if kind == 0:
            while True:  # any finite double; integral ones past 2^53 are bug B, kept out
                x = struct.unpack("<d", rnd.getrandbits(64).to_bytes(8, "little"))[0]
                if x == x and abs(x) != float("inf") and not (2**53 <= abs(x) < 1e21):
                    return x
        if kind == 1:
            return rnd.choice([0.0, -0.0, 56.0, 1e21, 1e-7, 9.5e-6, 0.1, 123456789.125, 5e-324])
        if kind == 2:
            return rnd.randrange(-2**53 + 1, 2**53)
        if kind == 3:
            return "".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(12)))
        return rnd.choice([True, False, None])
    if r < 0.7:
        return [_random_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    return {"".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(1, 4))):
            _random_value(rnd, depth + 1) for _ in range(rnd.randrange(5))}


ALPHABET = ["a", "B", "z", "0", " ", "\"", "\\", "\n", "\t", "\x01", "\x7f", "\u00e9",
            "\u2028", "\u2029", "\ue000", "\uffff", "\U0001F600", "\U0010FFFF", "\u20ac",
            "/", "<"]


def test_random_valid_stream_passes(tmp_path: Path) -> None:
    """400 events with random payloads (every double, keys and strings across the planes),
    spelled three ways, must verify with no finding at all above info."""
    import random
    rnd = random.Random(20261130)
    evs, seq = [], {}
    for i in range(400):
        producer = rnd.choice(["agent", "harness", "proxy"])
        seq[producer] = seq.get(producer, -1) + rnd.randrange(1, 3)
        evs.append(_ev(producer, "tool_call", seq[producer], i / 10,
                       {"v": _random_value(rnd, 0), "w": _random_value(rnd, 1)}))
    evs.append(_ev("evaluator", "eval_result", 0, 41.0, {"score": 1}))
    p = tmp_path / "events.jsonl.zst"
    p.write_bytes(_zst(_join(_lines(_seal(evs))), frames=3))
    rc, rep, err = run_cli([str(p)])
    assert rep is not None, err
    assert [f for f in rep["findings"] if f["severity"] != "info"] == []
    assert (rc, rep["events"], rep["chain"]["valid"]) == (0, 401, True)


def test_random_orjson_spelled_stream_passes(tmp_path: Path) -> None:
    """The same, spelled by orjson (the block fast path's own spelling, so the fast hashing is
    the one under test), with integral doubles from 2^50 to 2^74 added."""
    import random
    rnd = random.Random(7)
    big = [float(2 ** e) * rnd.choice([1, 3, 5, 7]) for e in range(50, 75)]
    evs = [_ev("agent", "tool_call", i, i / 10,
               {"v": _random_value(rnd, 0), "w": [_random_value(rnd, 2) for _ in range(4)],
                "big": big[i % len(big)], "nbig": -big[i % len(big)]}) for i in range(800)]
    evs.append(_ev("evaluator", "eval_result", 0, 200.0, {"score": 1}))
    p = tmp_path / "events.jsonl"
    p.write_bytes(_join([orjson.dumps(e) for e in _seal(evs)]))
    rc, rep, err = run_cli([str(p)])
    assert rep is not None, err
    assert [f for f in rep["findings"] if f["severity"] != "info"] == []
    assert (rc, rep["events"]) == (0, 801)


ORJSON_RULES = {
    # mutation of the base events -> (first error rule, line); chain re-sealed, orjson-spelled
    "seq_repeated": (_set(6, producer_sequence=2), "traj.producer_sequence", 7),
    "run_id": (_set(6, run_id="run_OTHER"), "traj.run_id_mismatch", 7),
    "agent_trusted": (_set(5, trust_level="trusted_evaluator"), "traj.agent_trusted", 6),
    "eval_from_agent": (lambda evs: evs.insert(7, _ev("agent", "eval_result", 9, 3.8,
                                                      {"score": 999})),
                        "traj.eval_result_untrusted", 8),
    "schema_v2": (_set(5, schema="ale-trajectory-event/v2"), "traj.schema_unsupported", 6),
    "trust_change": (_set(4, trust_level="trusted_proxy"), "traj.trust_inconsistent", 5),
    "wall_plus_02": (_set(5, wall_time="2026-07-10T16:00:03+02:00"), "traj.wall_time_format", 6),
    "payload_list": (_set(5, payload=["ls"]), "traj.field_type", 6),
    "seq_bool": (_set(5, producer_sequence=True), "traj.field_type", 6),
    "producer_int": (_set(5, producer=7), "traj.field_type", 6),
    "run_id_int": (_set(5, run_id=5), "traj.field_type", 6),
    "wall_missing": (lambda evs: evs[5].pop("wall_time"), "traj.field_missing", 6),
    "trust_missing": (lambda evs: evs[5].pop("trust_level"), "traj.field_missing", 6),
    "valid": (lambda evs: None, None, None),
}


@pytest.mark.parametrize("name", sorted(ORJSON_RULES))
def test_orjson_spelled_rule_violations(name: str, tmp_path: Path) -> None:
    """Each rule again, with every line as orjson writes it: the block fast path must see
    what the line-by-line path sees."""
    mutate, rule_id, line = ORJSON_RULES[name]
    evs = base_events()
    mutate(evs)
    p = tmp_path / "events.jsonl"
    p.write_bytes(_join([orjson.dumps(e) for e in _seal(evs)]))
    rc, rep, err = run_cli([str(p)])
    assert rep is not None, err
    assert (rc, rep["summary"]["first_error_rule"], rep["summary"]["first_error_line"]) == (
        0 if rule_id is None else 1, rule_id, line)
    assert rep["chain"]["first_break"] is None and rep["events"] == len(evs)


@pytest.mark.slow
def test_large_orjson_rule_violation_in_worker(tmp_path: Path) -> None:
    """A 10 MB plain stream (worker process, whole-block proofs) with a repeated
    producer_sequence and an agent eval_result deep inside: both found at their lines."""
    pad = "y" * 1300
    evs = [_ev("harness", "run_start", 0, 0.0, {})]
    evs += [_ev("agent", "tool_call", i, 1 + i / 1000,
                {"i": i, "f": i + 0.5, "g": 56.0 if i % 5 == 0 else 1.25, "pad": pad})
            for i in range(6497)]
    evs += [_ev("evaluator", "eval_result", 0, 600.0, {"score": 1.5}),
            _ev("harness", "run_end", 1, 601.0, {})]
    evs[4000]["producer_sequence"] = 3997
    evs[5000]["type"] = "eval_result"
    p = tmp_path / "events.jsonl"
    p.write_bytes(_join([orjson.dumps(e) for e in _seal(evs)]))
    assert p.stat().st_size >= 8 << 20
    rc, rep, err = run_cli([str(p)])
    assert rep is not None, err
    errs = [(f["rule"], f["line"]) for f in rep["findings"] if f["severity"] == "error"]
    assert (rc, rep["events"], errs) == (1, 6500, [("traj.producer_sequence", 4001),
                                                   ("traj.eval_result_untrusted", 5001)])
