"""`moderator-app verify PATH --json` on official runs: valid/tampered, plain/compressed, bundles."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import orjson
import pytest
from trajhelp import chain_lines, join, zstd

EXE = Path(sys.executable).parent / "moderator-app"
LINES = chain_lines(25, seed=11)


def _run(*args: str) -> tuple[int, dict | None, str]:
    proc = subprocess.run([str(EXE), "verify", *args], capture_output=True, timeout=60)
    try:
        rep = orjson.loads(proc.stdout) if "--json" in args else None
    except orjson.JSONDecodeError:
        rep = None
    return proc.returncode, rep, proc.stderr.decode()


@pytest.fixture
def valid_dir(tmp_path):
    d = tmp_path / "run"
    d.mkdir()
    (d / "events.jsonl.zst").write_bytes(zstd(join(LINES), 2))
    return d


def test_valid_compressed_folder_passes(valid_dir):
    rc, rep, _ = _run(str(valid_dir), "--json")
    assert rc == 0
    assert rep["kind"] == "official" and rep["verdict"] == "pass" and rep["events"] == 25
    assert rep["verification_level"] == "validated"
    assert rep["chain"]["complete"] and rep["chain"]["first_break"] is None
    assert rep["chain"]["head"] == orjson.loads(LINES[-1])["hash"]
    assert rep["run"]["score"]["authoritative"] is not None
    assert rep["files"][0]["name"] == "events.jsonl.zst"


def test_plain_file_passes_and_tampered_fails_at_the_line(tmp_path):
    p = tmp_path / "events.jsonl"
    p.write_bytes(join(LINES))
    rc, rep, _ = _run(str(p), "--json")
    assert rc == 0 and rep["events"] == 25
    swapped = list(LINES)
    swapped[9], swapped[10] = swapped[10], swapped[9]
    p.write_bytes(join(swapped))
    rc, rep, _ = _run(str(p), "--json")
    assert rc == 1 and rep["verdict"] == "fail"
    assert rep["verification_level"] == "self_reported"
    assert rep["summary"]["first_error_line"] == 10
    assert rep["chain"]["first_break"] == {"line": 10, "kind": "link"}


def test_truncated_zst_is_incomplete(tmp_path):
    p = tmp_path / "events.jsonl.zst"
    z = zstd(join(LINES))
    p.write_bytes(z[:-10])
    rc, rep, _ = _run(str(p), "--json")
    assert rc == 1 and rep["complete"] is False and rep["chain"]["complete"] is False
    assert rep["summary"]["first_error_rule"] == "traj.zstd_truncated"
    assert rep["summary"]["first_error_line"] == rep["events"] + 1


@pytest.mark.parametrize("fmt", ["zip", "tar.gz"])
def test_bundles(tmp_path, fmt):
    data = zstd(join(LINES))
    src = tmp_path / "events.jsonl.zst"
    src.write_bytes(data)
    if fmt == "zip":
        b = tmp_path / "bundle.zip"
        with zipfile.ZipFile(b, "w") as zf:
            zf.write(src, "bundle/events.jsonl.zst")
    else:
        b = tmp_path / "bundle.tar.gz"
        with tarfile.open(b, "w:gz") as tf:
            tf.add(src, "bundle/events.jsonl.zst")
    src.unlink()
    rc, rep, _ = _run(str(b), "--json")
    assert rc == 0 and rep["events"] == 25 and rep["verdict"] == "pass"


def test_unreadable_input_exits_2(tmp_path):
    rc, rep, err = _run(str(tmp_path / "missing"), "--json")
    assert rc == 2 and rep["verdict"] == "unreadable"


def test_human_output_names_the_first_break(tmp_path):
    p = tmp_path / "events.jsonl"
    p.write_bytes(join(LINES[:5] + LINES[6:]))
    proc = subprocess.run([str(EXE), "verify", str(p)], capture_output=True, timeout=60)
    out = proc.stdout.decode()
    assert proc.returncode == 1
    assert "first break at line 6 (link)" in out and "chain.link" in out
