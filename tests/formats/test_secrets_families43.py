"""One marker gate over the decoded text views, then the spellings still published, by family
(session 43, spell; issue 15, QA s42 T5, review s42 R4). Each family is asked with keys and
tools of its own through the engine (`scan_public`), verify's gate and `withhold_log`
(`refused_and_named`); honest look-alikes stay quiet in all three. Each key here is published
on 7f3538f (the family's test fails there)."""

from __future__ import annotations

import base64

from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats import secrets_public
from moderator_app.core.formats.secrets_decode import BASE64
from moderator_app.core.formats.secrets_public import view_may_hold

PROSE = b"press fire when the gem turns green, then take the west stair to the bell tower\n"


def _counted(monkeypatch) -> list[bytes]:
    texts: list[bytes] = []
    read = secrets_public._view_hit

    def counted(decoded, text, how):
        texts.append(decoded)
        return read(decoded, text, how)

    monkeypatch.setattr(secrets_public, "_view_hit", counted)
    return texts


def test_a_decoded_view_with_no_marker_is_read_by_nothing(monkeypatch, tmp_path):
    """Base64 of prose: its text holds no detector's or view's marker, so neither the
    detectors nor its own views read it (main read it twice: joined, then its views)."""
    texts = _counted(monkeypatch)
    line = obs_line("$ base64 -w0 hint.txt\n" + base64.b64encode(PROSE * 3).decode())
    assert not view_may_hold(PROSE * 3)
    quiet(tmp_path, line)
    assert texts == []


def test_the_gate_opens_on_each_kind_of_marker_and_a_key_behind_it_is_named(monkeypatch,
                                                                               tmp_path):
    key = "ghp_" + "QA43gateKey0aB1cD2eF3gH4iJ5kL6mN7oP8q"
    for inner in (f"token = {key}", "see https://example.org/help",
                  "the key is 6768705f" + key[4:].encode().hex(),
                  "AWS_SECRET_ACCESS_KEY=" + "k" * 12):
        assert view_may_hold(PROSE + inner.encode()), inner
    texts = _counted(monkeypatch)
    hit = refused_and_named(tmp_path, obs_line("$ base64 -w0 k\n" + base64.b64encode(
        PROSE + f"token = {key}\n".encode()).decode()), BASE64, "base64 of a secret")
    assert hit.how == f"{BASE64} (GitHub token)" and texts

