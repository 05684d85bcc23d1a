"""A value named like a secret, spelled in numbered parts (`key_part1`, `key_part2`) or as an
array of parts, in a line's public bytes: what `withhold` and `verify` join and name
(`secrets_public.scan_public` asks `numbered_parts`). Moved from `secrets_public` (session 40,
speed: module size), unchanged."""

from __future__ import annotations

from moderator_app.core.formats.secrets import SecretHit, _redact, _regex, markers_of

# A value named like a secret, spelled in numbered parts: adjacent string members of one
# object whose names are one stem and consecutive numbers (`key_part1`, `key_part2`: QA s29
# h29_08 published an AWS secret key so; `token_1`, `token_2`, `secret0`, `secret1`). The
# parts are joined and held to a rule stricter than the named-secret one, since the stem is
# only a word: the name ends in a word naming a key, token, secret, password or credential
# (the whole name, or after `_`, `-`, `.`; then `part` may follow: `hotkey1`, `monkey1`,
# `tokens1` are other things), and the joined value looks like a credential: 32+ characters
# of a key's alphabet holding a letter and 2+ digits (`"key1": "ControlLeft", "key2":
# "Numpad5"`, a key-combo press in a game agent's log, stays publishable). The gate
# (`numbered_parts_in`): a string member whose name ends in `1` and in such a word.
_PART_GATE = (b'1":"', b'1": "')
_PART_MEMBER = rb'"([A-Za-z0-9_\-.]{1,64}?)([0-9]{1,3})"[ \t]*:[ \t]*"([^"\\\s]{1,4096})"'
_PART_NEXT = rb"[ \t]*,[ \t]*"
_PART_STEM = (rb"(?i)(?:\A|[_\-.])(?:key|token|secret|passw(?:or)?d|pwd|cred(?:ential)?s?)"
              rb"(?:[_\-]?part)?[_\-]?\Z")
_PART_VALUE = rb"[A-Za-z0-9+/=_\-.]{32,}"
_PART_DIGITS = b"0123456789"
# The parts as an array under such a name and a word saying they are parts (`key_parts`,
# `tokenChunks`, `secret-pieces`; `keys`, `hotkey_parts` are other things), gated by the
# name's end (`arts":`, `unks":`, `eces":`, `ents":`).
_ARRAY_GATE = (b'arts":', b'unks":', b'eces":', b'ents":')
_ARRAY_PARTS = (rb'"([A-Za-z0-9_\-.]{1,64})"[ \t]*:[ \t]*\[((?:[ \t]*"[^"\\\s]{1,4096}"'
                rb'[ \t]*,?){2,64})\]')
_ARRAY_STEM = (rb"(?i)(?:\A|[_\-.])(?:key|token|secret|passw(?:or)?d|pwd|cred(?:ential)?s?)"
               rb"[_\-]?(?:parts|chunks|pieces|segments)\Z")


_PART_GATES = _PART_GATE + _ARRAY_GATE


def numbered_parts_in(data: bytes) -> bool:
    """Whether `data` (a line or a block) may hold numbered parts `_split_named` joins: a C
    search for each string member whose name ends in `1`, and its name (within 64 bytes)
    looked at for a stem word ending it. A block of boxes (`"x1": 3`) or of options (`"opt1":
    "left"`) is not scanned line by line for it (withhold of 200,000 lines with boxes: 1.5 s
    of CPU, 3.8 s with every block holding `1":` scanned so). The gates asked first in one
    SIMD pass (`markers_of`): six `find`s cost ~4.5 ns a byte on hex text, where `"` and `1`
    are everywhere (session 36, escape)."""
    if not markers_of(data, _PART_GATES):
        return False
    for gates, word, back in ((_PART_GATE, _regex(_PART_STEM), 0),
                              (_ARRAY_GATE, _regex(_ARRAY_STEM), 4)):
        for gate in gates:
            i = data.find(gate)
            while i >= 0:
                start = data.rfind(b'"', max(0, i - 66), i)
                if start >= 0 and word.search(data[start + 1:i + back].rstrip(_PART_DIGITS)):
                    return True
                i = data.find(gate, i + 1)
    return False


def numbered_parts(raw: bytes) -> SecretHit | None:
    """The first value named like a secret and split over numbered members (above) in a
    line's public bytes, or None: adjacent and in order, else anywhere in the line in any
    order (session 31: `key_part2` before `key_part1`, `"key_part1", "region", "key_part2"`),
    else an array of parts."""
    if not numbered_parts_in(raw):
        return None
    return _split_named(raw) or _scattered_named(raw) or _array_named(raw)


def _credential(value: bytes) -> bool:
    """Whether joined parts look like a credential, not a word or a key combo (above)."""
    return (_regex(_PART_VALUE).fullmatch(value) is not None
            and len(value) - len(value.translate(None, _PART_DIGITS)) >= 2
            and _regex(rb"[A-Za-z]").search(value) is not None)


def _split_named(raw: bytes) -> SecretHit | None:
    member, sep = _regex(_PART_MEMBER), _regex(_PART_NEXT)
    stem_word = _regex(_PART_STEM)
    pos = 0
    while (m := member.search(raw, pos)) is not None:
        stem, index = m.group(1), int(m.group(2))
        values, start, end = [m.group(3)], m.start(), m.end()
        while (gap := sep.match(raw, end)) is not None:
            nxt = member.match(raw, gap.end())
            if nxt is None or nxt.group(1) != stem or int(nxt.group(2)) != index + 1:
                break
            values.append(nxt.group(3))
            index, end = index + 1, nxt.end()
        joined = b"".join(values)
        if len(values) > 1 and stem_word.search(stem) and _credential(joined):
            return SecretHit("value named like a secret, split over numbered members",
                             start + 1, _redact(joined))
        pos = m.end() if len(values) == 1 else end
    return None


_PART_LABEL = "value named like a secret, split over numbered members"


def _scattered_named(raw: bytes) -> SecretHit | None:
    """Numbered parts of one stem anywhere in the line, joined in their numbers' order: the
    numbers consecutive, none twice (two objects' `key1` are two things, not one key)."""
    stem_word = _regex(_PART_STEM)
    parts: dict[bytes, dict[int, tuple[int, bytes]]] = {}
    twice: set[bytes] = set()
    for m in _regex(_PART_MEMBER).finditer(raw):
        stem = m.group(1)
        if not stem_word.search(stem):
            continue
        seen = parts.setdefault(stem, {})
        if int(m.group(2)) in seen:
            twice.add(stem)
        seen[int(m.group(2))] = (m.start(), m.group(3))
    for stem, seen in parts.items():
        order = sorted(seen)
        if stem in twice or len(order) < 2 or order[-1] - order[0] != len(order) - 1:
            continue
        joined = b"".join(seen[k][1] for k in order)
        if _credential(joined):
            return SecretHit(_PART_LABEL, min(p for p, _ in seen.values()) + 1,
                             _redact(joined))
    return None


def _array_named(raw: bytes) -> SecretHit | None:
    """An array of 2+ strings under a name saying they are a secret's parts, joined."""
    word = _regex(_ARRAY_STEM)
    for m in _regex(_ARRAY_PARTS).finditer(raw):
        if word.search(m.group(1)):
            joined = b"".join(_regex(rb'"([^"\\\s]*)"').findall(m.group(2)))
            if _credential(joined):
                return SecretHit("value named like a secret, split over an array of parts",
                                 m.start() + 1, _redact(joined))
    return None
