"""Honest text the high-entropy rule of the reader's view flagged (session 32's review of
5e90ce4): `withhold` refused the sample log of a run whose `run_start.model` is a Hugging
Face model id (`verify` 0 -> 11 `secret.suspect`), a screenshot in base64 wrapped at 76
characters a line, an Ogg clip in base64, camel-case identifiers with version digits. The run
is read between `/` (as `secrets_public`'s gate reads it), as words when its case changes
split it into dictionary-like parts (`secrets_read._words`), a wrapped payload as one, and
audio / video / archive signatures as files. A random key stays found beside them."""

from __future__ import annotations

import base64
import random
import struct
import zlib

import orjson
import pytest

from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.secrets_read import high_entropy
from moderator_app.core.formats.withhold import public_secret_hits, withhold_log

UNKNOWN = "zq9T4mK2vX8pL5nR7wQ3jH6bY1cF0dG"  # no family: 31 random characters
_RNG = random.Random(32)


def _noise(n: int) -> bytes:
    return bytes(_RNG.randrange(256) for _ in range(n))


def _png(n: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(_noise(n))) + chunk(b"IEND", b""))


MODELS = ["TheBloke/Mistral-7B-Instruct-v0.2-GGUF", "unsloth/DeepSeek-R1-Distill-Qwen-32B-GGUF",
          "mistralai/Mixtral-8x22B-Instruct-v0.1", "Qwen/Qwen2.5-VL-72B-Instruct-AWQ",
          "provider/model-2026-10-22-Preview4bitQ5KM-GGUF"]
HONEST = [
    {"screenshot": base64.encodebytes(_png(1200)).decode()},  # 76 a line, 1.6 KB
    {"audio": base64.b64encode(b"OggS" + _noise(60)).decode()},
    {"audio": base64.b64encode(b"ID3\x04" + _noise(60)).decode(),
     "flac": base64.b64encode(b"fLaC" + _noise(60)).decode(),
     "webm": base64.b64encode(b"\x1a\x45\xdf\xa3" + _noise(60)).decode()},
    {"summary": "calling getBoundingClientRect2D3 on canvasElementRef2 via "
                "requestAnimationFrame60Hz"},
    {"stdout": "Python3DotElevenVersion2024 sizeEndCentDir64Locator ControllerP1PressA2ThenB3"},
    *({"summary": f"loaded {m} in 2.1 s"} for m in MODELS),
]


@pytest.mark.parametrize("data", HONEST)
def test_honest_shapes_stay_quiet(data):
    line = orjson.dumps({"seq": 1, "type": "observation", "data": data})
    assert scan_public(line) is None
    assert public_secret_hits(b'{"seq":0,"type":"run_start","data":{}}\n' + line, 1) == []


@pytest.mark.parametrize("model", MODELS)
def test_withhold_publishes_a_run_of_a_hugging_face_model(tmp_path, model):
    start = {"seq": 0, "at": "2026-12-05T20:00:00.000Z", "elapsedMs": 0, "type": "run_start",
             "data": {"game": "x", "category": "any-percent", "model": model,
                      "scaffold": {"name": "a"}}}
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(orjson.dumps(start) + b"\n")
    withhold_log(src, tmp_path / "public.jsonl")
    assert orjson.loads((tmp_path / "public.jsonl").read_bytes())["data"]["model"] == model


@pytest.mark.parametrize("text", [
    f"written to cache/{UNKNOWN}", f"{MODELS[0]} token {UNKNOWN}",
    "wrapped:\n" + base64.encodebytes(b"x" * 57).decode() + UNKNOWN,
    f"key {UNKNOWN[:10]}+{UNKNOWN[10:]}",
])
def test_a_random_key_beside_them_is_still_found(text):
    hit = scan_public(orjson.dumps({"seq": 1, "type": "observation", "data": {"out": text}}))
    assert hit is not None and hit.label == "high-entropy run (a key of a family no table holds?)"


def test_words_are_words_and_random_keys_are_not():
    assert not high_entropy("Python3DotElevenVersion2024")
    assert not high_entropy("DeepSeek-R1-Distill-Qwen-32B-GGUF")
    assert high_entropy(UNKNOWN) and high_entropy("AKIAA1b2C3d4E5f6G7h8I9")
    assert high_entropy("bPxRfiCYQA31SPLITKEY")  # a random head, a word at its end
