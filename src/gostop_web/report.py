"""The hand-over report of the web table, in English and in Korean, saying what the
preset counts: points under casual rules (nobody pays), chips with each payment's
multipliers under chip rules (traditional, standard), card points against the
break-even target and each seat's balance under family rules.  One line gives
the multipliers with their total; a month shaken and then bombed is one month
shown, one double (the settlement counts it so).

Built from the :class:`~gostop_core.Outcome` and a view of the finished hand (the
captured piles and the shown months are public by then)."""

from __future__ import annotations

from typing import Callable

from gostop_core import Outcome, PlayerView
from gostop_core.display import (
    BakRisk, MultipliersInForce, family_target, multipliers_in_force,
)
from gostop_core.scoring import score as score_pile

__all__ = ["hand_report", "head_lines", "multiplier_words", "bak_words"]

#: A settlement's bak reasons: (English, Korean), with the factor they apply.
_BAKS = {"gwang_bak": ("gwang-bak x2", "광박 x2"), "gwang_bak_plus_two": ("gwang-bak +2", "광박 +2"),
         "pi_bak": ("pi-bak x2", "피박 x2"), "mong_bak": ("mong-bak x2", "멍박 x2"),
         "go_bak": ("go-bak x2", "고박 x2")}


def _signed(n: int) -> str:
    return f"{n:+d}"


def _months(months: tuple[int, ...], korean: bool) -> str:
    listed = ",".join(str(m) for m in months)
    return f"{listed}월" if korean else ("month " if len(months) == 1 else "months ") + listed


def _part_words(force: MultipliersInForce, korean: bool) -> list[str]:
    """Each doubling in force, in words: months shown, nagari, a joker."""
    words = []
    for part in force.parts:
        if part.reason == "shake":
            words.append(f"흔들기·폭탄 {_months(part.months, True)} x{part.factor}" if korean
                         else f"shaken or bombed {_months(part.months, False)} x{part.factor}")
        elif part.reason == "nagari":
            words.append(f"나가리 x{part.factor}")
        else:
            words.append(f"조커 x{part.factor}" if korean else f"joker x{part.factor}")
    return words


def multiplier_words(force: MultipliersInForce, korean: bool = False) -> str:
    """The multipliers in force and their total, on one line:
    ``shaken or bombed month 10 x2 · nagari x2 = x4`` (``none`` when there is none)."""
    words = _part_words(force, korean)
    if not words:
        return "없음" if korean else "none"
    return " · ".join(words) + f" = x{force.total}"


def bak_words(risk: BakRisk, korean: bool = False) -> str:
    """A bak a seat risks, in words: ``pi-bak: junk 3/6``, ``gwang-bak: no bright``,
    ``go-bak: 1 Go called``, ``mong-bak: an opponent holds 7 animals``."""
    if risk.name == "pi_bak":
        return f"피박 위험: 피 {risk.have}/{risk.need}" if korean else \
            f"pi-bak risk: junk {risk.have}/{risk.need}"
    if risk.name == "gwang_bak":
        return "광박 위험: 광 없음" if korean else "gwang-bak risk: no bright"
    if risk.name == "go_bak":
        return f"고박 위험: {risk.have}고" if korean else f"go-bak risk: {risk.have} Go called"
    return f"멍박 위험: 상대 열끗 {risk.have}장" if korean else \
        f"mong-bak risk: an opponent holds {risk.have} animals"


def hand_report(outcome: Outcome, view: PlayerView, names: list[str], *,
                korean: bool = False,
                head: Callable[[], list[str]] | None = None) -> list[str]:
    """The report's lines.  ``names`` are the seats' names in the report's
    language; ``head`` gives the first lines (who won and how, the winner's points
    by category) in that language, by default :meth:`Outcome.report`'s."""
    rules = view.rules
    n = view.players
    lines = list(head() if head is not None else head_lines(outcome, names))
    if outcome.reason == "family":
        target = family_target(rules, n)
        lines.append(f"본전: 패 점수 {target} (240 / {n})" if korean
                     else f"break-even target: {target} card points (240 / {n})")
        for q in range(n):
            sc = score_pile(view.captured[q], rules)
            bonus = ""
            if sc.family_set_bonus:
                bonus = (f", 세트 보너스 {sc.family_set_bonus} x{n - 1}" if korean
                         else f", set bonus {sc.family_set_bonus} x{n - 1}")
            balance = _signed(outcome.chips[q])
            lines.append(f"  {names[q]}: 패 점수 {sc.total}{bonus} -> 잔액 {balance}" if korean
                         else f"  {names[q]}: {sc.total} card points{bonus} -> balance {balance}")
        lines.append(("잔액: " if korean else "balances: ")
                     + ", ".join(f"{names[q]} {_signed(c)}" for q, c in enumerate(outcome.chips)))
        return lines
    if rules.payment == 1:
        settlement = outcome.settlement
        if settlement and outcome.winner is not None:
            w = outcome.winner
            shared = _part_words(multipliers_in_force(view, w), korean)
            totals = []
            for q in range(n):
                if q == w or q == view.sitter:
                    continue
                why = settlement["reasons"][q]
                words = shared + [(_BAKS[r][1] if korean else _BAKS[r][0]) for r in why
                                  if r in _BAKS]
                mult = settlement["multiplier"][q]
                pay, base = settlement["pay"][q], settlement["base"]
                said = " · ".join(words) if words else ("배수 없음" if korean else "no multiplier")
                sum_ = f"{base} x{mult}"
                if "covered_by_go_caller" in why:  # its share is the Go caller's to pay
                    sum_ = (f"0 ({sum_}, 고 부른 사람이 대신 냄)" if korean
                            else f"0 ({sum_}, paid by the Go caller)")
                elif pay != base * mult:  # gwang-bak's +2, or the third seat's share too
                    extra = pay - base * mult
                    sum_ += f" + {extra}" + ("" if "pays_third" not in why else
                                             " (셋째 몫)" if korean else " (the third seat's share)")
                lines.append(f"  {names[q]}: 칩 {pay}개 냄 = {sum_} ({said})" if korean
                             else f"  {names[q]} pays {pay} chips = {sum_} ({said})")
                totals.append(f"{names[q]} x{mult}")
            shown = " · ".join(shared) if shared else ("없음" if korean else "none")
            lines.append((f"배수: {shown} · 합계: " if korean else f"multipliers: {shown} · in total: ")
                         + ", ".join(totals))
        lines.append(("칩: " if korean else "chips: ")
                     + ", ".join(f"{names[q]} {_signed(c)}" for q, c in enumerate(outcome.chips)))
        return lines
    # casual: the winner scores its points, nobody pays
    if outcome.winner is None:
        lines.append("점수: 아무도 얻지 못함" if korean else "points: nobody scores")
    else:
        lines.append(f"점수: {names[outcome.winner]} {outcome.points}점 (아무도 내지 않음)" if korean
                     else f"points: {names[outcome.winner]} scores {outcome.points} "
                          "(nobody pays)")
    return lines


def head_lines(outcome: Outcome, names: list[str]) -> list[str]:
    """Who won and how, and the winner's points by category: the engine's report
    without its payments (said here in the preset's terms)."""
    out = []
    for line in outcome.report(names):
        body = line.strip()
        if body.startswith("chips: ") or " pays " in body or ": pays " in body:
            continue
        out.append(line)
    return out

