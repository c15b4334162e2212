"""The screens of ``gostop play --korean`` in Korean: every sentence the board, the
menus, the prompts and the narration print goes through :func:`translate`, which
knows each English sentence by its pattern and gives the Korean one (the names follow
docs/rules.md: 광, 열끗, 띠, 피, 쌍피, 고, 스톱, 흔들기, 폭탄, 뻑, 쪽, 따닥, 쓸).

A sentence without a pattern stays English, so a new message is never lost, only
untranslated; tests/test_play_screens.py checks that the screens of a whole hand
leave no English sentence behind."""

from __future__ import annotations

import re
from typing import Callable

__all__ = ["translate", "name_ko"]


def name_ko(name: str) -> str:
    """``"You"`` -> ``"나"``, ``"Bot 1"`` -> ``"봇 1"``, ``"Bot 1 (best)"`` -> ``"봇 1 (best)"``."""
    if name == "You":
        return "나"
    return re.sub(r"\bBot (\d)", r"봇 \1", name)


_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str] | str]
_RULES: list[_Rule] = []


def _rule(pattern: str, replacement: Callable[[re.Match[str]], str] | str) -> None:
    _RULES.append((re.compile(pattern), replacement))


def translate(text: str) -> str:
    """``text`` (one or more lines) in Korean, line by line; a line no pattern knows
    is left as it is."""
    return "\n".join(_line(line) for line in text.split("\n"))


def _line(line: str) -> str:
    body = line.strip()
    if not body:
        return line
    lead = line[:len(line) - len(line.lstrip())]
    tail = line[len(line.rstrip()):]
    for pattern, replacement in _RULES:
        m = pattern.fullmatch(body)
        if m:
            out = replacement(m) if callable(replacement) else m.expand(replacement)
            return lead + _names(out) + tail
    return line


def _names(text: str) -> str:
    text = re.sub(r"\bYou\b", "나", text)
    text = re.sub(r"\bBot (\d)", r"봇 \1", text)
    return text
