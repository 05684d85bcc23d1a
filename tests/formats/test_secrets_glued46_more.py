"""Four more families glued between pads (session 46, lead; review s46 R2: left by redact's
rows, `xai-` + 80, AWS `ASIA`, Stripe's `sk_test_` / `rk_test_`). Each case below was
published whole on 2d5ce33 (verify silent, `withhold` wrote the key); now named by its
family and kept out by both. Honest look-alikes (`task_test_` + an id, `ASIAN...`) stay as
they were."""

from __future__ import annotations

import random
import string

import gluedmatrix
import pytest
from secretshelp import START, obs_line

from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log

_ALNUM = gluedmatrix.ALNUM


def _draw(seed: str, n: int, alphabet: str = _ALNUM) -> str:
    return gluedmatrix.draw(random.Random("glued46more/" + seed), alphabet, n)


_KEYS = {"xai": ("xai-" + _draw("xai", 80), "xAI key"),
         "sktest": ("sk_test_" + _draw("skt", 24), "Stripe test key"),
         "rktest": ("rk_test_" + _draw("rkt", 24), "Stripe test key"),
         "asia": ("ASIA" + _draw("asia", 16, string.ascii_uppercase + string.digits),
                  "AWS access key id")}
_PADS = {"Q64": "Q" * 64, "x10": "x" * 10, "ae5": "ae" * 5, "digits": "1234567890",
         "zero20": "0" * 20}
_PUBLISHED_BEFORE = (
    [f"xai-{c}" for c in ("Q64-both", "Q64-before", "x10-both", "zero20-both")]
    + [f"sktest-{p}-{s}" for p in ("Q64", "x10", "ae5", "zero20") for s in ("both", "before")]
    + [f"rktest-{p}-{s}" for p in ("Q64", "x10", "ae5", "zero20") for s in ("both", "before")]
    + ["rktest-digits-both"]
    + [f"asia-{p}-{s}" for p in ("Q64", "digits", "zero20") for s in ("both", "before", "after")])


def _text(name: str) -> tuple[str, str, str]:
    family, pad_name, side = name.split("-")
    key, label = _KEYS[family]
    pad = _PADS[pad_name]
    text = {"both": pad + key + pad, "before": pad + key + " done", "after": "got " + key + pad}
    return text[side], key, label


@pytest.mark.parametrize("name", _PUBLISHED_BEFORE)
def test_a_glued_key_of_four_more_families_is_named_and_kept_out(tmp_path, name):
    text, key, label = _text(name)
    line = obs_line(text)
    found = public_secret_hits(START + b"\n" + line, 1)
    assert [(n, h.label) for n, h in found] == [(2, label)]
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    if found[0][1].redact:  # (inside what reads as base64 of binary data: starred)
        withhold_log(src, out)
        assert key.encode() not in out.read_bytes()
    else:
        with pytest.raises(WithholdError, match="^line 2: "):
            withhold_log(src, out)
        assert not out.exists()


@pytest.mark.parametrize("text", ["ASIANFOODMARKET2024ABCD", "FANTASIA0123456789ABCDEF",
                                  "sshkey-task_test_run 12", "ASIA" + "PACIFIC REGION 2024"])
def test_honest_look_alikes_of_the_four_stay_quiet(text):
    assert public_secret_hits(START + b"\n" + obs_line(text), 1) == []


def _php_escaped_blob_with(key: str) -> str:
    """Base64 of 3,000 random bytes as PHP's `json_encode` prints it (`\\/` for each `/`),
    with `key` glued into its middle (a letter either side)."""
    import base64

    rng = random.Random("glued46more/blob")
    text = base64.b64encode(bytes(rng.randrange(256) for _ in range(3000))).decode()
    half = len(text) // 2
    return ("$ php -r \"echo json_encode($j);\"\n{\"png\":\""
            + (text[:half] + key + text[half:]).replace("/", "\\/") + "\"}")


@pytest.mark.parametrize("family", ["stripe"])
def test_a_key_glued_into_php_escaped_base64_is_kept_out(tmp_path, family):
    """Review s46 R2 (HIGH): unescaped, such a key was named; escaped (`\\/`), the reader had
    no candidate and `glued_family` was never asked: verify silent, `withhold` published the
    key whole. Now both keep it out. (`rk_live_`, `LTAI`, `npm_`, `r8_`, `xai-` there are
    not asked yet: no marker of the line gate, `withhold_gate`, holds them; left open.)"""
    key = {"stripe": "sk_live_" + _draw("b-stripe", 24)}[family]
    line = obs_line(_php_escaped_blob_with(key))
    found = public_secret_hits(START + b"\n" + line, 1)
    assert [n for n, _ in found] == [2]
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    try:
        withhold_log(src, out)
    except WithholdError:
        assert not out.exists()
    else:
        assert key[-16:].encode() not in out.read_bytes()
