"""What the captured piles of the terminal board are worth, in words: each seat's
progress toward every score (:func:`progress_text`), the multipliers in force
(:func:`in_force_text`), the baks each seat risks (:func:`risk_text`) and why a
card counts otherwise than its kind (:func:`pile_notes`).  Pure functions of a
:class:`~gostop_core.PlayerView`; :mod:`gostop_cli.board` draws them.  Where a
card counts and which baks a seat risks come from :mod:`gostop_core.display`, as
on the web table and the SVG boards."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text

from gostop_core import PlayerView, Rules
from gostop_core.cards import MASK_CHEONGDAN, MASK_CHODAN, MASK_GODORI, MASK_HONGDAN
from gostop_core.display import bak_risks, uncounted_cards
from gostop_core.scoring import Score

from gostop_cli.korean import translate

__all__ = ["moved_to_junk", "uncounted", "pile_notes", "progress_text", "in_force_text",
           "risk_text"]


def _t(text: str, korean: bool) -> str:
    return translate(text) if korean else text


def moved_to_junk(sc: Score) -> set[str]:
    """The animals this score counts as junk (9A, and 5A under standard)."""
    return {code for code, moved in (("9A", sc.sake_cup_as_junk), ("5A", sc.bridge_as_junk))
            if moved}


def uncounted(rules: Rules) -> set[str]:
    """Cards that count for nothing in their kind under ``rules``
    (:func:`gostop_core.display.uncounted_cards`)."""
    return set(uncounted_cards(rules))


def pile_notes(v: PlayerView, scores: Sequence[Score], korean: bool = False) -> list[Text]:
    """Why a card on the board counts otherwise than its kind: ``12R*`` (the rain
    ribbon counts for no ribbon under these rules) and ``9A→pi`` (the sake cup counted
    as junk, where it scores more)."""
    captured = set()
    moved = set()
    for s in range(v.players):
        captured |= set(v.captured[s].codes())
        moved |= moved_to_junk(scores[s])
    notes = []
    if "12R" in captured and "12R" in uncounted(v.rules):
        notes.append(f"12R*: the rain ribbon counts toward no ribbon score under "
                     f"{v.rules.preset} rules")
    rules = v.rules
    for code, value, name in (("9A", rules.sake_cup_junk, "the sake cup"),
                              ("5A", rules.bridge_junk, "the bridge")):
        if code in moved:
            notes.append(f"{code}→pi: {name} counts as {value} junk, not as an animal "
                         "(it scores more so)")
    return [Text(_t(n, korean), style="dim") for n in notes]


def progress_text(v: PlayerView, seat: int, sc: Score, korean: bool = False) -> Text:
    """How far a seat is toward each score: ``brights 2/3 · godori 2/3 · hongdan 1/3 ·
    ribbons 3/5 · animals 4/5 · junk 7/10`` (only what it has started; a set that
    scores is bold)."""
    rules = v.rules
    mask = v.captured[seat].mask
    parts: list[tuple[str, bool]] = []
    family = bool(rules.family_scoring)
    if sc.brights:
        parts.append((f"brights {sc.brights}" + ("" if sc.brights >= 3 else "/3"),
                      sc.bright_points > 0))
    for name, set_mask, points in (("godori", MASK_GODORI, sc.godori_points),
                                   ("hongdan", MASK_HONGDAN, sc.hongdan_points),
                                   ("cheongdan", MASK_CHEONGDAN, sc.cheongdan_points),
                                   ("chodan", MASK_CHODAN, sc.chodan_points)):
        have = bin(mask & set_mask).count("1")
        if have and not (family and name in ("godori", "chodan")):
            parts.append((f"{name} {have}/3", points > 0 or (family and have == 3)))
    if not family:
        for name, have, need, points in (
                ("ribbons", sc.ribbons, rules.ribbon_min, sc.ribbon_points),
                ("animals", sc.animals, rules.animal_min, sc.animal_points),
                ("junk", sc.junk, rules.junk_min, sc.junk_points)):
            if have:
                parts.append((f"{name} {have}/{need}" if have < need else f"{name} {have}",
                              points > 0))
    out = Text()
    for i, (word, scored) in enumerate(parts):
        if i:
            out.append(" · ", style="dim")
        out.append(_t(word, korean), style="bold green" if scored else "")
    return out


def in_force_text(v: PlayerView, names: Sequence[str], korean: bool = False) -> Text:
    """The multipliers in force: shakes (and bombs that count as shakes), bombs,
    Go calls and a nagari stake; empty when there is none."""
    rules = v.rules
    parts = []
    for s in range(v.players):
        who = names[s]
        if v.shaken[s]:
            months = ",".join(str(m) for m in v.shaken[s])
            wins = "you win" if who == "You" else f"{who} wins"
            parts.append(f"{who} shook {months} (x{2 ** len(v.shaken[s])} if {wins})")
        if v.bombs[s] and not rules.bomb_counts_as_shake:
            parts.append(f"{who} {v.bombs[s]} bomb" + ("s" if v.bombs[s] > 1 else ""))
        if v.go_counts[s]:
            go = f"{who} {v.go_counts[s]} Go"
            if rules.go_bak:
                go += f" ({'pay' if who == 'You' else 'pays'} double if another wins)"
            parts.append(go)
    if v.stake_doublings:
        parts.append(f"nagari stakes x{2 ** v.stake_doublings}")
    if not parts:
        return Text()
    out = Text(_t("In force: ", korean), style="bold magenta")
    out.append(" · ".join(_t(p, korean) for p in parts), style="magenta")
    return out


def _risk_words(name: str, have: int, need: int, you: bool) -> str:
    if name == "pi_bak":
        return f"pi-bak (junk {have}/{need})"
    if name == "gwang_bak":
        return "gwang-bak (no bright)"
    if name == "go_bak":
        return f"go-bak ({have} Go called)"
    return f"mong-bak (an opponent holds {have} animals)"


def risk_text(v: PlayerView, names: Sequence[str], korean: bool = False) -> Text:
    """The baks each seat would pay if another seat won now
    (:func:`gostop_core.display.bak_risks`, from the public piles and Go calls):
    ``At risk: You pi-bak (junk 3/6), gwang-bak (no bright) · Bot 1 go-bak (1 Go
    called)``; empty when nobody risks one (or the hand is over)."""
    if v.phase == "over":
        return Text()
    parts = []
    for s in range(v.players):
        risks = bak_risks(v, s)
        if risks:
            parts.append(f"{names[s]} " + ", ".join(
                _risk_words(r.name, r.have, r.need, names[s] == "You") for r in risks))
    if not parts:
        return Text()
    out = Text(_t("At risk: ", korean), style="bold red")
    out.append(" · ".join(_t(p, korean) for p in parts), style="red")
    return out
