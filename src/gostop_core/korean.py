"""Go-Stop's sentences in Korean, the one table for ``gostop play --korean``, the web
table's report and log (gostop_web) and the SVG titles: every sentence the board, the
menus, the prompts, the narration and the payment report print goes through
:func:`translate`, which
knows each English sentence by its pattern and gives the Korean one (the names follow
docs/rules.md: 광, 열끗, 띠, 피, 쌍피, 고, 스톱, 흔들기, 폭탄, 뻑, 쪽, 따닥, 쓸).

A sentence without a pattern stays English, so a new message is never lost, only
untranslated; tests/test_play_screens.py checks that the screens of a whole hand
leave no English sentence behind."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

__all__ = ["translate", "name_ko", "bot_name_ko", "BOT_NAMES_KO", "MONTH_NAMES_KO", "KIND_NAMES_KO",
           "card_name_ko"]


@lru_cache(maxsize=256)  # every frame names the seats again
def name_ko(name: str) -> str:
    """``"You"`` -> ``"나"``, ``"Bot 1"`` -> ``"봇 1"``, ``"Bot 1 (best)"`` -> ``"봇 1 (best)"``,
    ``"Player 0"`` -> ``"참가자 0"``."""
    if name == "You":
        return "나"
    return re.sub(r"\bPlayer (\d)", r"참가자 \1", re.sub(r"\bBot (\d)", r"봇 \1", name))


#: The built-in bots' names in Korean (``gostop_core.bots.registry.BOT_NAMES``).
BOT_NAMES_KO = {"random": "무작위", "greedy": "욕심쟁이", "expectimax": "기댓값 탐색",
                "expectimax-v1": "기댓값 탐색 1판", "best": "최강", "ismcts": "몬테카를로",
                "learned": "학습", "neural": "신경망", "person": "사람"}

#: Each month's plant, as Korean players name the month's cards (송학 for January).
MONTH_NAMES_KO = ("", "송학", "매조", "벚꽃", "흑싸리", "난초", "모란", "홍싸리", "공산", "국화",
                  "단풍", "오동", "비")
#: The kinds of card in Korean.
KIND_NAMES_KO = {"B": "광", "A": "열끗", "R": "띠", "J": "피", "D": "쌍피", "X": "보너스"}
#: The cards with a name of their own (gostop_core.cards builds its Korean names
#: from this table).
_CARD_WORDS_KO = {"1R": "홍단", "2A": "꾀꼬리", "2R": "홍단", "3R": "홍단", "4A": "두견새",
                  "4R": "초단", "5A": "다리", "5R": "초단", "6A": "나비", "6R": "청단",
                  "7A": "멧돼지", "7R": "초단", "8A": "기러기", "9A": "술잔", "9R": "청단",
                  "10A": "사슴", "10R": "청단", "12A": "제비", "X2": "보너스 쌍피",
                  "X3": "보너스 쓰리피"}


def card_name_ko(code: str) -> str:
    """A card's short Korean name, the month's plant and the card: ``"1B"`` ->
    ``"송학 광"``, ``"2A"`` -> ``"매조 꾀꼬리"``, ``"11D"`` -> ``"오동 쌍피"``, ``"X2"`` ->
    ``"보너스 쌍피"``."""
    if code in ("X2", "X3"):
        return _CARD_WORDS_KO[code]
    digits = len(code) - len(code.lstrip("0123456789"))
    month, kind = int(code[:digits]), code[digits]
    return f"{MONTH_NAMES_KO[month]} {_CARD_WORDS_KO.get(code, KIND_NAMES_KO[kind])}"


def bot_name_ko(spec: str) -> str:
    """A bot's specification with its name in Korean (``greedy`` -> ``욕심쟁이``;
    settings after the name, ``expectimax:depth=2``, are kept as typed)."""
    name, sep, settings = spec.partition(":")
    return BOT_NAMES_KO.get(name, name) + (sep + settings if sep else "")


_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str] | str]
_RULES: list[_Rule] = []


def _rule(pattern: str, replacement: Callable[[re.Match[str]], str] | str) -> None:
    _RULES.append((re.compile(pattern), replacement))


def translate(text: str) -> str:
    """``text`` (one or more lines) in Korean, line by line; a line no pattern knows
    is left as it is."""
    return "\n".join(_line(line) for line in text.split("\n"))


@lru_cache(maxsize=4096)
def _line(line: str) -> str:
    # cached: a sentence is translated once however many frames carry it (the web
    # table's frames repeat each event for every seat); the cache is bounded
    body = line.strip()
    if not body:
        return line
    lead = line[:len(line) - len(line.lstrip())]
    tail = line[len(line.rstrip()):]
    for pattern, replacement in _RULES:
        m = pattern.fullmatch(body)
        if m:
            out = replacement(m) if callable(replacement) else m.expand(replacement)
            return lead + _names(_fragments(out)) + tail
    return lead + _names(_fragments(body)) + tail


def _names(text: str) -> str:
    text = re.sub(r"(?<![A-Za-z])You(?![A-Za-z])", "나", text)
    text = re.sub(r"(?<![A-Za-z])Bot (\d)", r"봇 \1", text)
    return text


# ---------------------------------------------------------------- the sentences
# A name as the screens print it: "You", "Bot 1", "Bot 1 (best)", "Seat 0".
_WHO = r"(?P<who>You|Bot \d(?: \([^)]*\))?|Seat \d)"
_C = r"(?:1[0-2]|[1-9])[BARJD]\d?|X[23]"  # a card code
_CS = rf"(?:{_C})(?: (?:{_C}))*"          # cards separated by blanks


def _subject(m: re.Match[str]) -> str:
    """The seat named in ``m`` as the subject of a sentence: 내가, 봇 1이(가)."""
    who = m.group("who")
    return "내가" if who == "You" else f"{name_ko(who)}이(가)"


# whole lines: (pattern, Korean) -- \g<name> and \1 refer to the groups
for _pattern, _korean in (
    # events
    (rf"{_WHO} played (?P<c>{_C}) and took (?P<t>.+)", r"\g<who>: \g<c> 내서 \g<t> 먹음"),
    (rf"{_WHO} played (?P<c>{_C}) on the month-(?P<m>\d+) stack and took all of it: (?P<t>.+)",
     r"\g<who>: \g<c>(으)로 \g<m>월 더미를 통째로 먹음: \g<t>"),
    (rf"{_WHO} placed (?P<c>{_C}) on (?P<t>{_C}): the pair waits for the flip",
     r"\g<who>: \g<c>을(를) \g<t> 위에 놓음, 뒤집기를 기다림"),
    (rf"{_WHO} played (?P<c>{_C}): no match, it stays on the field",
     r"\g<who>: \g<c> 냄, 짝이 없어 바닥에 남음"),
    (rf"{_WHO} flipped (?P<c>{_C}) and took the month-(?P<m>\d+) stack: (?P<t>{_CS})(?P<rest>.*)",
     r"\g<who>: \g<c> 뒤집어 \g<m>월 더미를 먹음: \g<t>\g<rest>"),
    (rf"{_WHO} flipped (?P<c>{_C}) and took (?P<t>.+)", r"\g<who>: \g<c> 뒤집어 \g<t> 먹음"),
    (rf"{_WHO} flipped (?P<c>{_C}): no match, it stays on the field",
     r"\g<who>: \g<c> 뒤집음, 짝이 없어 바닥에 남음"),
    (rf"{_WHO} flipped (?P<c>{_C}): jjok! it takes back the card just played: (?P<t>{_CS})(?P<rest>.*)",
     r"\g<who>: \g<c> 뒤집음: 쪽! 방금 낸 패를 먹음: \g<t>\g<rest>"),
    (rf"{_WHO} flipped (?P<c>{_C}): ttadak! the fourth of month (?P<m>\d+): took (?P<t>{_CS})(?P<rest>.*)",
     r"\g<who>: \g<c> 뒤집음: 따닥! \g<m>월 넷째 장: \g<t> 먹음\g<rest>"),
    (rf"{_WHO} flipped (?P<c>{_C}): ppeok! it matches the pair just made, and the three stay on "
     r"the field as a stack",
     r"\g<who>: \g<c> 뒤집음: 뻑! 방금 만든 짝과 맞아 석 장이 더미로 바닥에 남음"),
    (rf"{_WHO} flipped (?P<c>{_C}): ppeok, it matches the pair just made; the pair is taken and "
     rf"(?P<d>{_C}) stays on the field",
     r"\g<who>: \g<c> 뒤집음: 뻑, 방금 만든 짝과 맞음; 짝은 먹고 \g<d>은(는) 바닥에 남음"),
    (rf"{_WHO} flipped the bonus card (?P<c>{_C}): banked, and flipped again",
     r"\g<who>: 보너스 패 \g<c> 뒤집음: 가져가고 다시 뒤집음"),
    (rf"{_WHO} flipped the bonus card (?P<c>{_C}): it goes with this turn's captures; flipped again",
     r"\g<who>: 보너스 패 \g<c> 뒤집음: 이번 차례에 먹는 패와 함께 가져감; 다시 뒤집음"),
    (rf"{_WHO} flipped (?P<c>{_C})", r"\g<who>: \g<c> 뒤집음"),
    (rf"{_WHO} took the waiting pair (?P<t>{_CS})", r"\g<who>: 기다리던 짝 \g<t> 먹음"),
    (rf"{_WHO} took (?P<c>{_C}) from your junk", r"\g<who>: 내 피 \g<c> 뺏음"),
    (rf"{_WHO} took (?P<c>{_C}) from (?P<v>Bot \d|Seat \d)'s junk",
     r"\g<who>: \g<v>의 피 \g<c> 뺏음"),
    (rf"{_WHO} took the month-(?P<m>\d+) stack \((?P<t>{_CS})\)",
     r"\g<who>: \g<m>월 더미를 먹음 (\g<t>)"),
    (rf"{_WHO} took (?P<t>{_CS})", r"\g<who>: \g<t> 먹음"),
    (rf"{_WHO} banked the bonus card (?P<c>{_C}) and drew a replacement card",
     r"\g<who>: 보너스 패 \g<c> 내고 한 장 더 받음"),
    (rf"{_WHO} banked the bonus card (?P<c>{_C}) and drew (?P<d>{_C})",
     r"\g<who>: 보너스 패 \g<c> 내고 \g<d> 받음"),
    (rf"{_WHO} banked the bonus card (?P<c>{_C})", r"\g<who>: 보너스 패 \g<c> 냄"),
    (rf"{_WHO} drew a replacement card", r"\g<who>: 한 장 더 받음"),
    (rf"{_WHO} drew (?P<c>{_C})", r"\g<who>: \g<c> 받음"),
    (rf"{_WHO} dropped a bomb: (?P<b>{_CS}), taking (?P<t>{_CS}) with them",
     r"\g<who>: 폭탄! \g<b>(으)로 \g<t> 먹음"),
    (rf"{_WHO} dropped a bomb: (?P<b>{_CS})", r"\g<who>: 폭탄! \g<b>"),
    (rf"{_WHO} shook month (?P<m>\d+): (?P<b>{_CS}) \(doubles the payment if .+\)",
     r"\g<who>: \g<m>월 흔들기 \g<b> (이기면 두 배)"),
    (rf"sseul: {_WHO} swept the field", r"쓸: \g<who> 바닥을 쓸었음"),
    (r"^chips: (?P<rest>.+)$", r"칩: \g<rest>"),
    (rf"{_WHO} receives (?P<n>\d+) chips? from each opponent \((?P<why>.+)\)",
     r"\g<who>: 상대마다 칩 \g<n>개 받음 (\g<why>)"),
    (rf"{_WHO}: a flip-only turn \(after the bomb\): the stock is empty, nothing to flip",
     r"\g<who>: 뒤집기만 하는 차례 (폭탄 뒤): 더미가 비어 뒤집을 패가 없음"),
    (rf"{_WHO}: a flip-only turn \(after the bomb\)", r"\g<who>: 뒤집기만 하는 차례 (폭탄 뒤)"),
    (rf"{_WHO} called Go! \((?P<n>\d+) Go(?:es)?\)", r"\g<who>: 고! (\g<n>고)"),
    (rf"{_WHO} called Stop \(automatic on the last turn\)", r"\g<who>: 스톱 (마지막 차례라 자동)"),
    (rf"{_WHO} called Stop", r"\g<who>: 스톱"),
    (rf"{_WHO} called Stop: (?P<n>\d+) point\(s\)", r"\g<who>: 스톱, \g<n>점"),
    (rf"{_WHO} reached the threshold on the last turn: (?P<n>\d+) point\(s\)",
     r"\g<who>: 마지막 차례에 날 점수에 닿음, \g<n>점"),
    (rf"{_WHO} held four of a month \(chongtong\): (?P<n>\d+) point\(s\)",
     r"\g<who>: 총통 (한 달 넉 장), \g<n>점"),
    (rf"{_WHO} made a third ppeok: (?P<n>\d+) point\(s\)", r"\g<who>: 세 번째 뻑, \g<n>점"),
    (rf"{_WHO} made a third ppeok: the hand ends", r"\g<who>: 세 번째 뻑, 판이 끝남"),
    (rf"ppeok: the flip matched {_WHO}'s new pair; the month-(?P<m>\d+) stack stays",
     r"뻑: 뒤집은 패가 \g<who>의 새 짝과 맞음; \g<m>월 더미가 남음"),
    (rf"ttadak: {_WHO} took all four of month (?P<m>\d+)", r"따닥: \g<who> \g<m>월 넉 장을 다 먹음"),
    (rf"jjok: {_WHO}'s flip took the card just played", r"쪽: \g<who>의 뒤집은 패가 방금 낸 패를 먹음"),
    (rf"bonus card (?P<c>{_C}) dealt to the field went to the dealer, {_WHO}",
     r"바닥에 깔린 보너스 패 \g<c>은(는) 선인 \g<who>에게 감"),
    (r"four of a month on the field: the deal was void and redealt \((?P<n>\d+)x\)",
     r"바닥에 한 달 넉 장: 다시 돌림 (\g<n>번)"),
    (rf"chongtong: {_WHO} holds all four of month (?P<m>\d+)", r"총통: \g<who> \g<m>월 넉 장을 쥠"),
    (r"every hand is played out and nobody stopped: the hand is a nagari",
     "모든 패를 다 냈고 아무도 스톱하지 않음: 나가리"),
    (r"everyone received the showdown: the hand is a nagari", "모두 쇼다운을 받음: 나가리"),
    (r"the stock is gone: the hand is scored", "더미가 떨어짐: 점수를 셈"),
    (r"nobody stopped: the hand is drawn \(nagari\)", "아무도 스톱하지 않음: 나가리"),
    (r"the stock is gone: card points against the break-even target",
     "더미가 떨어짐: 패 점수를 본전과 비교"),
    # the engine's own event sentences (gostop_core.events.Event.describe)
    (rf"{_WHO} played (?P<c>{_C})", r"\g<who>: \g<c> 냄"),
    (rf"{_WHO} captured (?P<t>{_CS})", r"\g<who>: \g<t> 먹음"),
    (rf"{_WHO} took (?P<c>{_C}) from (?P<v>Bot \d|Seat \d|You)", r"\g<who>: \g<v>에게서 \g<c> 뺏음"),
    (rf"{_WHO} banked bonus card (?P<c>{_C})", r"\g<who>: 보너스 패 \g<c> 냄"),
    (rf"{_WHO} dropped a bomb of month (?P<m>\d+) \((?P<b>{_CS})\)", r"\g<who>: \g<m>월 폭탄 (\g<b>)"),
    (rf"{_WHO} has a flip-only turn", r"\g<who>: 뒤집기만 하는 차례"),
    (rf"{_WHO} called Go \((?P<n>\d+)\)", r"\g<who>: 고 (\g<n>고)"),
    (rf"{_WHO} stopped \(last turn: automatic\)", r"\g<who>: 스톱 (마지막 차례라 자동)"),
    (rf"{_WHO} stopped", r"\g<who>: 스톱"),
    (rf"{_WHO}'s turn ends", r"\g<who>: 차례 끝"),
    (rf"{_WHO} shook month (?P<m>\d+) \((?P<b>{_CS})\)", r"\g<who>: \g<m>월 흔들기 (\g<b>)"),
    (rf"{_WHO} receives (?P<n>\d+) chip\(s\) from each opponent \((?P<why>[a-z_]+)\)",
     lambda m: f"{name_ko(m.group('who'))}: 상대마다 칩 {m.group('n')}개 받음 ("
               + _CHIP_REASONS_KO.get(m.group("why"), m.group("why")) + ")"),
    (rf"{_WHO} asks for a showdown: it holds (?P<c>{_C}), another player's win-card",
     r"\g<who>: \g<c>을(를) 쥐고 쇼다운을 청함 (다른 사람의 날 패)"),
    (r"every hand is played out and nobody stopped: the hand is drawn \(nagari\)",
     "모든 패를 다 냈고 아무도 스톱하지 않음: 나가리"),
    (r"everyone received the showdown: the hand is drawn \(nagari\)", "모두 쇼다운을 받음: 나가리"),
    # the menus
    (rf"play (?P<c>{_C}) \((?P<w>[^)]*)\), take (?P<t>.+)", r"\g<c> (\g<w>) 내고 \g<t> 먹기"),
    (rf"place (?P<c>{_C}) \((?P<w>[^)]*)\) on (?P<t>{_C}) \((?P<u>[^)]*)\), captured after the flip",
     r"\g<c> (\g<w>)을(를) \g<t> (\g<u>) 위에 놓기, 뒤집은 뒤 먹음"),
    (rf"play (?P<c>{_C}) \((?P<w>[^)]*)\) on the stack (?P<t>{_CS}): take all four(?P<rest>.*)",
     r"\g<c> (\g<w>) 내고 더미 \g<t>까지 넉 장 다 먹기\g<rest>"),
    (rf"play (?P<c>{_C}) \((?P<w>[^)]*)\): no match, it stays on the field",
     r"\g<c> (\g<w>) 내기: 짝이 없어 바닥에 남음"),
    (rf"bank the bonus card (?P<c>{_C}) \((?P<n>\d) junk\), draw a replacement, then play",
     r"보너스 패 \g<c> (피 \g<n>장) 내고 한 장 더 받은 뒤 치기"),
    (rf"shake: show (?P<b>{_CS}); doubles your payment if you win, then you still play",
     r"흔들기: \g<b> 보여 주기; 이기면 두 배, 그리고 계속 침"),
    (rf"bomb: play (?P<b>{_CS}) at once and take (?P<t>{_CS})(?P<rest>.*)",
     r"폭탄: \g<b> 한꺼번에 내고 \g<t> 먹기\g<rest>"),
    (r"flip-only turn: play no card, only flip the stock \((?P<n>\d+) owed after your bomb\)",
     r"뒤집기만: 패를 내지 않고 더미만 뒤집기 (폭탄 뒤 \g<n>번 남음)"),
    (rf"the flipped (?P<c>{_C}) takes (?P<t>{_C}) \((?P<w>[^)]*)\)",
     r"뒤집은 \g<c>(으)로 \g<t> (\g<w>) 먹기"),
    (r"Go #(?P<n>\d+): play on for more \(asked again only when your score rises\)(?P<rest>.*)",
     r"\g<n>고: 더 치기 (점수가 오를 때만 다시 물음)\g<rest>"),
    (r"Stop: end the hand now and win (?P<n>\d+) points(?P<rest>.*)",
     r"스톱: 지금 끝내고 \g<n>점 얻기\g<rest>"),
    (r"Stop: end the hand now", "스톱: 지금 끝내기"),
    (rf"ask for a showdown with (?P<c>{_C}), another player's win-card",
     r"\g<c>(으)로 쇼다운 청하기 (다른 사람의 날 패)"),
    (r"receive the showdown \(if everyone receives, the hand is a nagari\)",
     "쇼다운 받기 (모두 받으면 나가리)"),
    (r"refuse the showdown: the asker must lay the card down", "쇼다운 거절: 청한 사람이 그 패를 내야 함"),
    # prompts and headings
    (r"Your move:", "내 차례:"),
    (r"Choose 1-(?P<n>\d+) or type a move:", r"1-\g<n> 중에서 고르거나 수를 입력:"),
    (r"Type 1 \(or Enter\) to confirm:", "1 (또는 Enter)로 확인:"),
    (r"Press Enter to continue \(q quits\)", "계속하려면 Enter (q: 끝내기)"),
    (r"Press Enter to continue \(u takes back, q quits\)", "계속하려면 Enter (u: 무르기, q: 끝내기)"),
    (r"Press Enter to deal hand (?P<n>\d+) \(q quits\)", r"\g<n>번째 판을 돌리려면 Enter (q: 끝내기)"),
    (rf"The flipped (?P<c>{_C}) matches two field cards: which one does it take\?",
     r"뒤집은 \g<c>이(가) 바닥의 두 장과 맞음: 어느 것을 먹을까요?"),
    (r"You have (?P<n>\d+) points \((?P<m>\d+) needed\): Go or Stop\?",
     r"내 점수 \g<n>점 (\g<m>점 필요): 고 또는 스톱?"),
    (rf"Turn (?P<n>\d+) · {_WHO}(?P<rest>:?)", r"\g<n>번째 차례 · \g<who>\g<rest>"),
    (r"Since your last move", "내가 마지막으로 친 뒤"),
    (r"The last turns", "지난 차례들"),
    (r"Hand over", "판 끝"),
    (r"Hand (?P<n>\d+) of (?P<m>\d+) is over", r"\g<m>판 중 \g<n>번째 판 끝"),
    (r"Hand (?P<n>\d+) of (?P<m>\d+)", r"\g<m>판 중 \g<n>번째 판"),
    (r"Standings", "순위"),
    (r"Final standings after (?P<n>\d+) hands", r"\g<n>판 뒤 최종 순위"),
    (r"Ledger after hand (?P<n>\d+) of (?P<m>\d+)", r"\g<m>판 중 \g<n>번째 판 뒤 장부"),
    (r"You left the game\.", "게임을 떠났습니다."),
    (r"End of input: the game is abandoned\.", "입력이 끝남: 게임을 그만둡니다."),
    (rf"You are seat 0; against (?P<o>.+)\.", r"나는 자리 0; 상대: \g<o>."),
    (rf"{_WHO} deals? and plays? first\.  First to (?P<n>\d+) points may call Go or Stop\.",
     lambda m: f"{_subject(m)} 선이고 먼저 침.  먼저 {m.group('n')}점을 내면 고 또는 스톱을 "
               "부를 수 있음."),
    (rf"{_WHO} deals? and plays? first\.  No Go/Stop: the stock is played out and card points "
     r"are counted against (?P<n>\d+) \(break-even\)\.",
     lambda m: f"{_subject(m)} 선이고 먼저 침.  고/스톱 없음: 더미를 다 치고 패 점수를 본전 "
               f"{m.group('n')}과 비교."),
    (r"Matgo, the full Korean rules: gostop play --rules standard",
     "맞고 (한국 정식 규칙): gostop play --rules standard"),
    (r"Hint: all (?P<n>\d+) moves, best first, with the net (?P<u>\w+) each should bring you "
     r"from here(?P<s>.*), then a likely line \(flip = a card from the stock\)\. The numbers are "
     r"the menu's:",
     r"힌트: 가능한 수 \g<n>가지, 좋은 순서로, 이 수가 앞으로 가져올 순 \g<u>, 그리고 예상 "
     r"수순 (flip = 더미에서 뒤집는 패). 번호는 메뉴의 번호:"),
    (r"Your view \(gostop hint takes it\):", "내 뷰 (gostop hint에 넣을 수 있음):"),
    (r"Full position \(every hand and the stock order\):", "전체 포지션 (모든 손패와 더미 순서):"),
    (rf"{_WHO} asks for a showdown, showing (?P<c>{_C}), another player's win-card: receive it "
     r"or refuse\?", r"\g<who>: \g<c>을(를) 보이며 쇼다운을 청함 (다른 사람의 날 패): 받을까요, "
     r"거절할까요?"),
    (rf"{_WHO} asks for a showdown, showing (?P<c>{_C}), another player's win-card",
     r"\g<who>: \g<c>을(를) 보이며 쇼다운을 청함 (다른 사람의 날 패)"),
    (rf"{_WHO} (?P<v>receives?|refuses?) the showdown(?P<rest>.*)",
     lambda m: f"{name_ko(m.group('who'))}: 쇼다운 "
               + ("받음" if m.group("v").startswith("receive") else "거절")
               + (f": {m.group('rest')[2:].split(' must')[0]}을(를) 내야 함"
                  if m.group("rest") else "")),
    (rf"There is no choice (?P<n>\S+): type (?:1|a number from 1 to (?P<m>\d+)), or a move such as "
     r"(?P<e>\S+)\.",
     lambda m: f"{m.group('n')}번 선택지는 없음: "
               f"{'1' if m.group('m') is None else '1부터 ' + m.group('m') + '까지의 번호'}, "
               f"또는 {m.group('e')} 같은 수를 입력."),
    (r"Not a move: .+\.  Type a number from the list, a move, or a command \((?P<c>.+)\)\.",
     r"수가 아님.  목록의 번호, 수 (3B, 9R/9A, go, stop ...), 또는 명령 (\g<c>)을 입력."),
    (r"'(?P<t>.*)' is not available here\.", r"'\g<t>'은(는) 여기서 쓸 수 없음."),
    (r"Not possible: (?P<r>.+)\.", r"둘 수 없음: \g<r>."),
    (r"Draw for the first dealer: (?P<d>.+?); (?P<r>.+): (?P<w>.+)\.",
     r"선 정하기: \g<d>; \g<r>: \g<w>."),
    (r"(?P<n>\d+) hands: the winner deals the next hand(?P<rest>.*)\.",
     r"\g<n>판: 이긴 사람이 다음 판의 선\g<rest>."),
    (r"(?P<n>\d+) hands: the dealer stays the same(?P<rest>.*)\.",
     r"\g<n>판: 선은 그대로\g<rest>."),
    (rf"Next: {_WHO} deals?(?P<rest>.*)\.", r"다음 판: \g<who>이(가) 선\g<rest>."),
    (rf"{_WHO} leads? the match with (?P<n>[+-]?\d+)\.", r"\g<who>이(가) \g<n>(으)로 앞섬."),
    (r"A tie at the top\.", "1등이 동점."),
    (r"Taken back: your (?P<m>\S+)(?P<rest>.*)\.", r"무름: 내 \g<m>\g<rest>."),
    # the board
    (r"Your hand", "내 손패"),
    (rf"{_WHO}'s hand", r"\g<who>의 손패"),
    (r"\(empty\)", "(없음)"),
    (r"Field", "바닥"),
    (r"Player", "이름"), (r"Hand", "손패"), (r"Brights", "광"), (r"Animals", "열끗"),
    (r"Ribbons", "띠"), (r"Junk", "피"), (r"Pts", "점수"), (r"Go", "고"), (r"Chips", "칩"),
    (r"Won", "딴 점수"), (r"Bal\.", "잔액"), (r"Points", "점수"), (r"Card points", "패 점수"),
    (r"sits out", "쉼"), (r"shook (?P<m>[\d,]+)", r"\g<m>월 흔듦"),
    (r"(?P<n>\d+) bombs?", r"폭탄 \g<n>"), (r"(?P<n>\d+) ppeok", r"뻑 \g<n>"),
    (r"D = dealer  ▶ = to play", "D = 선  ▶ = 칠 차례"),
    (r"Pts = card points \(\+ set bonus\)  D = dealer  ▶ = to play",
     "점수 = 패 점수 (+ 세트 보너스)  D = 선  ▶ = 칠 차례"),
    (r"In force:", "배수:"),
    (r"At risk:", "박 위험:"),
    (r"12R\*: the rain ribbon counts toward no ribbon score under (?P<p>\S+) rules",
     r"12R*: \g<p> 규칙에서 비띠는 띠 점수에 들지 않음"),
    (r"9A→pi: the sake cup counts as (?P<n>\d) junk, not as an animal \(it scores more so\)",
     r"9A→pi: 국진을 열끗이 아니라 피 \g<n>장으로 셈 (그쪽이 점수가 높음)"),
    (r"5A→pi: the bridge counts as (?P<n>\d) junk, not as an animal \(it scores more so\)",
     r"5A→pi: 다리(5월 열끗)를 열끗이 아니라 피 \g<n>장으로 셈 (그쪽이 점수가 높음)"),
    # the report
    (r"brights: (?P<n>\d+) card\(s\) -> (?P<p>\d+)", r"광: \g<n>장 -> \g<p>"),
    (r"ribbons: (?P<n>\d+) counted -> (?P<p>\d+)", r"띠: \g<n>장 -> \g<p>"),
    (r"animals: (?P<n>\d+) counted -> (?P<p>\d+)", r"열끗: \g<n>장 -> \g<p>"),
    (r"junk: (?P<n>\d+) counted(?P<x>.*) -> (?P<p>\d+)", r"피: \g<n>장\g<x> -> \g<p>"),
    (r"(?P<s>hongdan|cheongdan|chodan|godori) -> (?P<p>\d+)", r"\g<s> -> \g<p>"),
    (r"total: (?P<n>\d+)", r"합계: \g<n>"),
    (r"(?P<n>\d+) Go\(es\): (?P<p>\d+) point\(s\) in all", r"\g<n>고: 모두 \g<p>점"),
    (rf"{_WHO}:? pays? (?P<n>\d+) \(x(?P<m>\d+): (?P<why>.+)\)",
     r"\g<who>: \g<n> 냄 (x\g<m>: \g<why>)"),
    (r"(?P<l>Chips|Points won|Balance) this hand: (?P<rest>.+)", r"이번 판 \g<l>: \g<rest>"),
    (r"The next hand's payment is doubled \(nagari\)\.", "다음 판은 두 배 (나가리)."),
    (rf"\(Your (?P<c>{_C}) waits on (?P<t>{_C}): the pair is taken once this flip is settled\.\)",
     r"(내 \g<c>이(가) \g<t> 위에서 기다림: 이 뒤집기가 끝나면 짝을 먹음)"),
    (r"After the drawn hand\(s\) before: (?P<s>.+)\.", r"앞 판 나가리: \g<s>."),
    # the multipliers of the report (board.REASON_WORDS)
    (r"shake: the winner shook \(x2 per shake\)", "흔들기: 이긴 사람이 흔듦 (한 번에 x2)"),
    (r"bomb: the winner's bomb counts as a shake \(x2 per month shown\)",
     "폭탄: 이긴 사람의 폭탄은 흔들기로 셈 (보여 준 달마다 x2)"),
    (r"nagari: stakes doubled by a drawn hand before \(x2 per nagari\)",
     "나가리: 앞 판 나가리로 판돈 두 배 (나가리마다 x2)"),
    (r"double-joker: the winner holds the double-payment joker", "더블 조커: 이긴 사람이 조커를 쥠"),
    (r"gwang-bak: the winner scores brights, this player holds none \(x2\)",
     "광박: 이긴 사람이 광으로 났고 이 사람은 광이 없음 (x2)"),
    (r"gwang-bak-plus-two: the winner scores brights, this player holds none \(\+2\)",
     "광박: 이긴 사람이 광으로 났고 이 사람은 광이 없음 (+2)"),
    (r"pi-bak: the winner scores junk, this player holds fewer than (?P<n>\d+) \(x2\)",
     r"피박: 이긴 사람이 피로 났고 이 사람은 피가 \g<n>장보다 적음 (x2)"),
    (r"mong-bak: the winner holds (?P<n>\d+) or more animals \(x2\)",
     r"멍박: 이긴 사람이 열끗을 \g<n>장 이상 쥠 (x2)"),
    (r"go-bak: this player called Go and lost \(x2\)", "고박: 이 사람이 고를 부르고 짐 (x2)"),
    (r"pays-third: the Go caller also pays the third player's share",
     "고를 부른 사람이 셋째 사람 몫도 냄"),
    (r"covered-by-go-caller: paid by the player who called Go", "고를 부른 사람이 대신 냄"),
    (r"balance = card points - (?P<t>\d+) \((?P<a>\d+) / (?P<n>\d+)\) \+ own set bonus "
     r"x(?P<k>\d+) - the others' set bonuses",
     r"잔액 = 패 점수 - \g<t> (\g<a> / \g<n>) + 내 세트 보너스 x\g<k> - 다른 사람들의 세트 보너스"),
):
    _rule(_pattern, _korean)

#: Why special chips are paid (gostop_core.movegen.CHIP_REASON_NAMES), in Korean.
_CHIP_REASONS_KO: dict[str, str] = {"first_turn_ppeok": "첫 차례 뻑", "first_turn_capture": "첫 차례 따먹기",
                    "three_ppeok": "세 번째 뻑", "chongtong": "총통", "gwangpalli": "광팔이"}

#: The settlement's reasons (as the Stop line of a menu names them) in Korean.
_REASONS_KO = {"shake": "흔들기", "bomb": "폭탄", "nagari": "나가리", "double-joker": "조커",
               "gwang-bak": "광박", "gwang-bak-plus-two": "광박 +2", "pi-bak": "피박",
               "mong-bak": "멍박", "go-bak": "고박", "pays-third": "셋째 몫",
               "covered-by-go-caller": "고 부른 사람이 냄"}

# pieces inside a translated line (suffixes of the menus, words of the board)
_FRAGMENTS: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [(re.compile(p), k) for p, k in (
    # the baks at risk (gostop_cli.tally.risk_text)
    (r"pi-bak \(junk (\d+)/(\d+)\)", r"피박 (피 \1/\2)"),
    (r"go-bak \((\d+) Go called\)", r"고박 (\1고)"),
    (r"mong-bak \(an opponent holds (\d+) animals\)", r"멍박 (상대 열끗 \1장)"),
    (r" \+ 1 junk from each opponent", " + 상대마다 피 1장"),
    (r" \(\+1 junk from each opponent\)", " (+상대마다 피 1장)"),
    (r"; doubles your payment like a shake", "; 흔들기처럼 두 배"),
    (r"; the month is shown already: no further double", "; 이미 보여 준 달: 더 두 배 되지 않음"),
    (r"; you then owe (\d) flip-only turns, to use when you like",
     r"; 그 뒤 뒤집기만 하는 차례 \1번, 원할 때 씀"),
    (r"; your next (\d) turns only flip", r"; 다음 \1번은 뒤집기만 함"),
    (r"; if another player wins, you pay double \(go-bak\)", "; 다른 사람이 이기면 두 배 (고박)"),
    (r"; but your hand is empty: you cannot score again, so a Go can only end in a drawn hand "
     r"or a loss", "; 하지만 손패가 없음: 더 날 수 없으니 고는 나가리나 패배로만 끝남"),
    (r"(Bot \d|Seat \d) pays (\d+)", r"\1 \2 냄"),
    (r"no multiplier", "배수 없음"),
    (r"the winner shook", "이긴 사람이 흔듦"),
    (r"the winner's bomb counts as a shake", "이긴 사람의 폭탄 (흔들기로 셈)"),
    (r"stake doubled by a drawn hand before", "앞 판 나가리로 두 배"),
    (r"gwang-bak \(no bright\)", "광박 (광 없음)"),
    (r"pi-bak \(too little junk\)", "피박 (피가 모자람)"),
    (r"mong-bak \(the winner's animals\)", "멍박 (이긴 사람의 열끗)"),
    (r"go-bak \(called Go and lost\)", "고박 (고를 부르고 짐)"),
    (r" \(9A as junk\)", " (9A는 피)"), (r" \(5A as junk\)", " (5A는 피)"),
    (r"\bbrights (\d)", r"광 \1"), (r"\bgodori (\d)", r"고도리 \1"),
    (r"\bhongdan\b", "홍단"), (r"\bcheongdan\b", "청단"), (r"\bchodan\b", "초단"),
    (r"\bgodori\b", "고도리"),
    (r"\bribbons (\d)", r"띠 \1"), (r"\banimals (\d)", r"열끗 \1"), (r"\bjunk (\d)", r"피 \1"),
    (r"shook ([\d,]+) \(x(\d+) if (?:you win|.+? wins)\)", r"\1월 흔듦 (이기면 x\2)"),
    (r"(\d+) bombs?\b", r"폭탄 \1"),
    (r"(\d+) Go \(pays? double if another wins\)", r"\1고 (지면 두 배)"),
    (r"(\d+) Go\b", r"\1고"),
    (r"nagari stakes x(\d+)", r"나가리 x\1"),
    (r"(You|Bot \d|Seat \d) drew ", r"\1 "),
    (r"the earliest month deals \(at night\)", "밤이라 낮은 달이 선"),
    (r"the latest month deals \(by day\)", "낮이라 높은 달이 선"),
    (r"the highest month deals", "높은 달이 선"),
    (r" \(within a month: bright, animal, ribbon, then junk\)", " (같은 달이면 광, 열끗, 띠, 피 순)"),
    (r"; a drawn hand \(nagari\) doubles the next payment", "; 나가리면 다음 판은 두 배"),
    (r" and the (\d+) moves? after it", r" 그리고 그 뒤의 \1수"),
    (r"\bstakes x(\d+) \((\d+) nagaris? before\)", r"판돈 x\1 (앞서 나가리 \2번)"),
    (r"\bstakes x(\d+) \(the cap: (\d+) or more nagaris before\)",
     r"판돈 x\1 (상한: 앞서 나가리 \2번 이상)"),
    (r"\bstakes x(\d+)", r"판돈 x\1"),
    (r"\b(Chips|Points won|Balance)\b",
     lambda m: {"Chips": "칩", "Points won": "딴 점수", "Balance": "잔액"}[m.group(1)]),
    (r"(\d+) Go\(es\)", r"\1고"),
    (r"\(x(\d+): ([a-z, -]+)\)", lambda m: f"(x{m.group(1)}: " + ", ".join(
        _REASONS_KO.get(r, r) for r in m.group(2).split(", ")) + ")"),
    (r"순 (points|chips|balance)\b",
     lambda m: "순 " + {"points": "점수", "chips": "칩", "balance": "잔액"}[m.group(1)]),
)]



def _fragments(text: str) -> str:
    for pattern, korean in _FRAGMENTS:
        text = pattern.sub(korean, text)
    return text
