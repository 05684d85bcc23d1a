"""A failing community log hidden in a nested archive beside a self-made trajectory (issue 15,
point 1, by a new route: session 26's hostile sweep). The nested archive was an "other file",
never opened, and the run passed as `validated`: core/verify/nested.py lists an official
submission's nested archives one level down."""

from __future__ import annotations

import gzip
import io
import sys
import tarfile
import zipfile
from pathlib import Path

import hostile_corpus as H

from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory
from moderator_app.core.text import safe_text
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths


def _official(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    write_trajectory(folder / "events.jsonl", make_run_events(8, seed=5))
    return folder


def _failing_log(tmp: Path) -> bytes:
    return (H.make_forged_official(tmp / "forged")[0] / "agent-log.jsonl").read_bytes()


def _zip(members: dict[str, bytes]) -> bytes:
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as zf:
        for name, data in members.items():
            H._zip_add(zf, name, data)
    return b.getvalue()


def _tgz(members: dict[str, bytes]) -> bytes:
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w:gz") as tf:
        for name, data in members.items():
            H._tar_add(tf, name, data)
    return b.getvalue()


def _verdict(path: Path) -> tuple[str, list[tuple[str, str | None, str]]]:
    report = verify_paths([path], VerifyOptions(probe_video=False)).report
    return report.verdict, [(f.rule, f.file, f.message) for f in report.findings
                            if f.rule == "input.ambiguous_kind"]


def test_a_log_in_a_zip_beside_a_self_made_trajectory_cannot_pass(tmp_path):
    sub = _official(tmp_path / "sub")
    (sub / "logs.zip").write_bytes(_zip({"run/agent-log.jsonl": _failing_log(tmp_path)}))
    verdict, found = _verdict(sub)
    assert verdict == "fail"  # was "pass" (validated)
    assert found[0][1] == "logs.zip" and "holds an agent log (run/agent-log.jsonl)" in found[0][2]


def test_a_log_in_a_tar_gz_inside_a_zip_submission_cannot_pass(tmp_path):
    sub = _official(tmp_path / "src")
    bundle = tmp_path / "bundle.zip"
    bundle.write_bytes(_zip({"events.jsonl": (sub / "events.jsonl").read_bytes(),
                             "extra/evidence.tar.gz": _tgz({"agent-log.jsonl":
                                                            _failing_log(tmp_path)})}))
    verdict, found = _verdict(bundle)
    assert verdict == "fail"
    assert found[0][1] == "extra/evidence.tar.gz"


def test_archives_that_cannot_be_looked_into_cannot_pass(tmp_path):
    """Two levels down, a format not opened, a compressed log: what they hold is unknown."""
    log = _failing_log(tmp_path)
    shapes = {"deep.zip": _zip({"inner.zip": _zip({"agent-log.jsonl": log})}),
              "logs.7z": b"7z\xbc\xaf\x27\x1c" + bytes(100),
              "agent-log.jsonl.gz": gzip.compress(log),
              "broken.zip": b"PK\x03\x04" + bytes(60)}
    for name, data in shapes.items():
        sub = _official(tmp_path / name.replace(".", "_"))
        (sub / name).write_bytes(data)
        verdict, found = _verdict(sub)
        assert verdict == "fail", name
        assert found and found[0][1] == name, name


def test_an_official_run_with_a_nested_archive_of_other_files_still_passes(tmp_path):
    sub = _official(tmp_path / "sub")
    (sub / "screens.zip").write_bytes(_zip({"a.png": b"\x89PNG", "notes.txt": b"hello"}))
    (sub / "config.json.txt").write_bytes(b"{}")
    verdict, found = _verdict(sub)
    assert verdict == "pass" and not found


def test_past_sixteen_nested_archives_the_run_cannot_pass(tmp_path):
    sub = _official(tmp_path / "sub")
    for i in range(17):
        (sub / f"s{i:02d}.zip").write_bytes(_zip({"a.txt": b"x"}))
    verdict, found = _verdict(sub)
    assert verdict == "fail" and len(found) == 1 and "16 nested archives" in found[0][2]


def _packed_tar(members: dict[str, bytes], mode: str) -> bytes:
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode=mode) as tf:
        for name, data in members.items():
            H._tar_add(tf, name, data)
    return b.getvalue()


def test_nested_tar_xz_and_tar_bz2_are_listed_not_refused_unseen(tmp_path):
    """Session 27 (s26-hostile open item 1): an honest official run carrying its screenshots
    as a `.tar.xz` or `.tar.bz2` failed as ambiguous ("an archive this tool does not open").
    Python's own decompressors list them by name, one level down, capped: honest ones pass, a
    log inside fails as before, two of them concatenated are read whole, damaged data and a
    `.7z` stay ambiguous."""
    log = _failing_log(tmp_path)
    other = {"a.png": b"\x89PNG", "notes.txt": b"hello"}
    xz = _packed_tar(other, "w:xz")
    cases = {
        "screens.tar.xz": (xz, "pass", None),
        "screens.tbz2": (_packed_tar(other, "w:bz2"), "pass", None),
        "screens.txz": (xz + _packed_tar({"b.png": b"x"}, "w:xz"), "pass", None),
        "logs.tar.xz": (_packed_tar({"run/agent-log.jsonl": log}, "w:xz"), "fail",
                        "logs.tar.xz holds an agent log (run/agent-log.jsonl)"),
        "logs.tar.bz2": (_packed_tar({**other, "agent-log.jsonl": log}, "w:bz2"), "fail",
                         "logs.tar.bz2 holds an agent log (agent-log.jsonl)"),
        "cut.tar.xz": (xz[: len(xz) // 2], "fail", "cut.tar.xz could not be listed whole"),
    }
    for name, (data, want, words) in cases.items():
        sub = _official(tmp_path / name.replace(".", "_"))
        (sub / name).write_bytes(data)
        verdict, found = _verdict(sub)
        assert verdict == want, (name, found)
        if words is None:
            assert found == [], name
        else:
            assert found[0][1] == name and found[0][2].startswith(words), (name, found)


def test_a_log_under_a_look_alike_name_beside_a_self_made_trajectory_cannot_pass(tmp_path):
    """s27 hostile sweep: a failing log named `agent-log.jsonl` + U+200B or
    `agent-log.jsonl.txt` (neither read as a log) beside a self-made chain passed as
    `validated`. A name that reads `agent-log.` something once its invisible characters are
    gone makes the run ambiguous; honest extra files (`notes.txt`, `agent.log`) do not."""
    log = _failing_log(tmp_path)
    for i, name in enumerate(("agent-log.jsonl\u200b", "agent-log.jsonl.txt",
                              "\u00adAgent-Log\u2060.bak")):
        sub = _official(tmp_path / f"sub{i}")
        (sub / name).write_bytes(log)
        verdict, found = _verdict(sub)
        assert verdict == "fail", name  # was "pass" (validated)
        assert found == [("input.ambiguous_kind", name,
                          f"{safe_text(name)} is named like the agent log (agent-log.jsonl): "
                          "it may be "
                          "the run's agent log; beside the trajectory (events.jsonl) it is "
                          "ambiguous which is the run's evidence, and the submission cannot "
                          "pass")]
    sub = _official(tmp_path / "zwsp-zip")
    (sub / "logs.zip\u200b").write_bytes(_zip({"agent-log.jsonl": log}))
    verdict, found = _verdict(sub)
    assert verdict == "fail" and found[0][1] == "logs.zip\u200b", found
    assert found[0][2].startswith("logs.zip\\u200b holds an agent log (agent-log.jsonl)")
    sub = _official(tmp_path / "honest")
    for name in ("notes.txt", "agent.log", "my-agent-log.txt", "seeds.txt"):
        (sub / name).write_bytes(b"not a log\n")
    assert _verdict(sub) == ("pass", [])


def test_nested_tar_xz_is_listed_without_python_private_compression_module(tmp_path,
                                                                           monkeypatch):
    """Session 28 (s27 hostile open item): the nested `.tar.xz` / `.tar.bz2` listing borrowed
    the stdlib's private `_compression` module, which Python 3.14 moved. Without it the verify
    ended in an ImportError traceback; the listing now uses the public decompressors only."""
    monkeypatch.setitem(sys.modules, "_compression", None)  # `import _compression` fails
    log = _failing_log(tmp_path)
    other = {"a.png": b"\x89PNG"}
    cases = {"screens.tar.xz": (_packed_tar(other, "w:xz") + _packed_tar(other, "w:xz"),
                                "pass", None),
             "screens.tbz2": (_packed_tar(other, "w:bz2") + b"\0" * 600, "pass", None),
             "logs.tar.bz2": (_packed_tar({"agent-log.jsonl": log}, "w:bz2"), "fail",
                              "logs.tar.bz2 holds an agent log (agent-log.jsonl)"),
             "cut.tar.bz2": (_packed_tar(other, "w:bz2")[:40], "fail",
                             "cut.tar.bz2 is an archive that cannot be listed (")}
    for name, (data, want, words) in cases.items():
        sub = _official(tmp_path / name.replace(".", "_"))
        (sub / name).write_bytes(data)
        verdict, found = _verdict(sub)
        assert verdict == want, (name, found)
        assert (found == []) if words is None else found[0][2].startswith(words), (name, found)


def test_a_nested_7z_or_rar_says_which_format_is_unopened_and_that_the_run_cannot_pass(
        tmp_path):
    """s27 open item: `.7z` / `.rar` stay unopened (no reader comes with Python); the message
    names the format, why nothing in it was checked, and what would be looked into."""
    for name, kind in (("screens.7z", "7-Zip"), ("screens.RAR", "RAR")):
        sub = _official(tmp_path / name.replace(".", "_"))
        (sub / name).write_bytes(b"7z\xbc\xaf\x27\x1c" + bytes(100))
        verdict, found = _verdict(sub)
        assert verdict == "fail"
        assert found == [("input.ambiguous_kind", name,
                          f"{name} is an archive this tool does not open ({kind}: no reader "
                          "for it comes with this tool): what it holds (an agent log?) cannot "
                          "be checked; repacked as .zip, .tar.gz, .tar.xz or .tar.bz2 it would "
                          "be looked into; beside the trajectory (events.jsonl) it is "
                          "ambiguous which is the run's evidence, and the submission cannot "
                          "pass")]


def test_a_nested_bzip2_bomb_stops_at_its_ratio_not_at_two_gib(tmp_path):
    """s28 hostile sweep: an official run carrying a `.tar.bz2` whose one member is 3 GiB of
    zeros (a 64 MiB stream repeated: a few KB) was decompressed up to the 2 GiB cap, 31-39 s.
    Past 64 MiB a stream that expanded more than 200 times is a bomb: not listed whole."""
    import bz2

    size = 192 << 20
    info = tarfile.TarInfo("screens/zero.bin")
    info.size = size
    zeros = bz2.compress(bytes(64 << 20))
    data = (bz2.compress(info.tobuf(format=tarfile.GNU_FORMAT)) + zeros * 3
            + bz2.compress(bytes(1024)))
    sub = _official(tmp_path / "sub")
    (sub / "screens.tar.bz2").write_bytes(data)
    verdict, found = _verdict(sub)
    assert verdict == "fail"  # was "pass": 192 MiB of zeros listed whole
    assert found[0][1] == "screens.tar.bz2"
    assert found[0][2].startswith("screens.tar.bz2 could not be listed whole (")
    assert "times): a decompression bomb, not read further" in found[0][2]


def test_a_log_named_in_full_width_letters_or_with_another_dash_cannot_pass(tmp_path):
    """s28 hostile sweep: a failing log named `ａｇｅｎｔ－ｌｏｇ．ｊｓｏｎｌ` (full-width
    letters, hyphen and dot), `agent‐log.txt` (U+2010) or `agent-log．jsonl` beside a
    self-made chain passed as `validated`: the s27 look-alike check read names as written.
    Names are now read as NFKC, every dash a hyphen; `logs．zip` is looked into as a zip."""
    log = _failing_log(tmp_path)
    names = ("\uff41\uff47\uff45\uff4e\uff54\uff0d\uff4c\uff4f\uff47\uff0e\uff4a\uff53\uff4f"
             "\uff4e\uff4c", "agent\u2010log.txt", "agent-log\uff0ejsonl", "AGENT\u2212LOG.bak")
    for i, name in enumerate(names):
        sub = _official(tmp_path / f"sub{i}")
        (sub / name).write_bytes(log)
        verdict, found = _verdict(sub)
        assert verdict == "fail", name  # was "pass" (validated)
        assert [(f[0], f[1]) for f in found] == [("input.ambiguous_kind", name)]
        assert found[0][2].startswith(f"{safe_text(name)} is named like the agent log")
    sub = _official(tmp_path / "zip")
    (sub / "logs\uff0ezip").write_bytes(_zip({"agent-log.jsonl": log}))
    verdict, found = _verdict(sub)
    assert verdict == "fail" and found[0][2].startswith(
        "logs\uff0ezip holds an agent log (agent-log.jsonl)")
    sub = _official(tmp_path / "honest")
    for name in ("\uff4e\uff4f\uff54\uff45\uff53.txt", "agent\u2010logbook.txt"):
        (sub / name).write_bytes(b"not a log\n")
    assert _verdict(sub) == ("pass", [])
