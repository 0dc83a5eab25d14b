"""Escaping for what reaches the markdown pages from outside the suite's code: solver, parameter, library
and collection names (a solver folder or a manifest of a pull request)."""

from __future__ import annotations

import re

_SPECIAL = re.compile(r"([\\`*_\[\]|])")


def name(text: str) -> str:
    """A name as literal text in a markdown table cell or heading: markdown's emphasis, code, link and table
    characters backslash-escaped, ``&``, ``<`` and ``>`` as HTML entities, line breaks as spaces."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _SPECIAL.sub(r"\\\1", " ".join(text.splitlines()))
