"""Tooltips that show untrusted text as text.

Qt decides per tooltip whether it is rich text (`Qt::mightBeRichText`: a tag near the start),
so a submitted name such as `<img src='file:///…'>` or `<h1>BIG</h1>` set as a tooltip as it
is would be rendered as markup, and an element named in it loaded. `plain_tooltip` escapes the
text and marks it rich on purpose, so Qt shows exactly the characters (controls and bidi
overrides as visible escapes, `core.text.safe_output`), with its own line breaks kept.
"""

from __future__ import annotations

import html

from moderator_app.core.text import safe_output

#: A tooltip is for reading a value the view cut, not for a whole log line: longer texts are
#: cut here (the event detail pane and the exports hold everything).
MAX_TOOLTIP_CHARS = 2000


def plain_tooltip(text: str) -> str:
    """`text` as a tooltip that Qt shows character for character (never as markup)."""
    text = str(text)
    if len(text) > MAX_TOOLTIP_CHARS:
        text = text[:MAX_TOOLTIP_CHARS] + f"… ({len(text):,} characters in all)"
    body = html.escape(safe_output(text), quote=False)
    return f"<qt><p style='white-space:pre-wrap'>{body}</p></qt>"
