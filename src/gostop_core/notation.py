"""Position and player-view strings (see ``docs/notation.md``).

A position string holds the full state, stock order included::

    gostop/1 rules=casual players=2 dealer=0 turn=0 phase=play turns=0
      field=1J1,3R hands=1B,2A|3B,4R captured=-|- stock=5A,6R go=0,0 lastgo=0,0 fliponly=0,0

(one line; tokens separated by single spaces).  A view string is what one seat
may see: its own hand, the field, every captured pile, Go counts, and only the
number of cards for the other hands and the stock.

The module stays one module: the two parsers and the checks of what no game
reaches (``_check_reachable`` and the checks it calls) read the same fields, and
each check names the key of the string it refuses.
"""

from __future__ import annotations

from typing import Any

from gostop_core.cards import CARD_CODES, card_index, format_mask
from gostop_core.errors import CardCodeError, PositionError, RulesError
from gostop_core.movegen import CHIPS_CAP, PAY_CAP, PHASE_NAMES
from gostop_core.rules import FIELDS, Rules

POSITION_TAG = "gostop/1"
VIEW_TAG = "gostop-view/1"

_POSITION_KEYS = ("rules", "players", "dealer", "turn", "phase", "turns", "field", "hands",
                  "captured", "stock", "go", "lastgo", "fliponly")
_VIEW_KEYS = ("rules", "players", "seat", "dealer", "turn", "phase", "turns", "field", "hand",
              "hands", "captured", "stock", "go", "lastgo", "fliponly")
# Written only when they differ from their defaults (so a casual deal stays short).
_OPTIONAL_KEYS = ("sitter", "asker", "forced", "stake", "shaken", "bombs", "ppeoks", "played", "chips", "pending",
                  "turnbonus", "stackbonus", "flags", "end", "winner", "points")
_END_NAMES = ("", "stop", "last_turn_stop", "draw", "chongtong", "three_ppeok", "family")

# Limits of the counters, chosen so that each fits its C type (int16 turns, int8
# per-seat counters) for every state the engine can reach from an accepted string:
# a counter grows by at most one per turn, and every turn uses up a card of a
# hand or of the stock, so "value + turns still possible <= limit" holds after
# every move (see _check_counters).
MAX_TURNS = 10000
MAX_SEAT_COUNT = 100      # go, played, ppeoks
MAX_BOMBS = 12
MAX_FLIP_ONLY = 40        # three per bomb at most, twelve bombs
MAX_LAST_GO = 10000
_TURN_FLAGS_MAX = 63      # ppeok, ttadak, jjok, stack, sseul, captured


def rules_to_token(rules: Rules) -> str:
    """``casual`` or ``casual+threshold_2p=5,godori=3`` (overrides in name order)."""
    base = rules.preset.split("+")[0]
    diffs = rules.differences(base)
    if not diffs:
        return base
    return base + "+" + ",".join(f"{k}={v[0]}" for k, v in sorted(diffs.items()))


def rules_from_token(token: str) -> Rules:
    base, _, rest = token.partition("+")
    overrides = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or key not in FIELDS:
                raise PositionError(f"bad rules override {item!r} (expected field=value)", "rules")
            digits = value[1:] if value.startswith("-") else value
            if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
                # ASCII digits only, no spaces or signs but '-', no thousands of zeros
                raise PositionError(f"rules override {key} needs an integer, got "
                                    f"{value[:30]!r}", "rules")
            overrides[key] = int(value)
    try:
        return Rules(base, **overrides)
    except RulesError as exc:
        raise PositionError(str(exc), "rules") from None


def _cards(text: str, key: str) -> list[int]:
    if text in ("", "-"):
        return []
    out = []
    for item in text.split(","):
        try:
            out.append(card_index(item))
        except CardCodeError as exc:
            raise PositionError(str(exc), key) from None
    return out


def _one_card(text: str, key: str) -> int:
    """Exactly one card code (``-`` or nothing is no card, a list is too many)."""
    cards = _cards(text, key)
    if len(cards) != 1:
        raise PositionError(f"expected one card, got {text!r}", key)
    return cards[0]


def _mask_of(cards: list[int], key: str) -> int:
    mask = 0
    for c in cards:
        if mask >> c & 1:
            raise PositionError(f"card {CARD_CODES[c]} appears twice", key)
        mask |= 1 << c
    return mask


def _int(text: str, key: str, lo: int, hi: int) -> int:
    # ASCII digits only, as the engine writes them: int() would also take '٣',
    # '1_0', '+3' and spaces, and spend time on thousands of digits
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
        raise PositionError(f"expected a number, got {text[:30]!r}", key)
    value = int(text)
    if not lo <= value <= hi:
        raise PositionError(f"{value} is out of range {lo}..{hi}", key)
    return value


def _ints(text: str, key: str, n: int, lo: int, hi: int) -> list[int]:
    parts = text.split(",")
    if len(parts) != n:
        raise PositionError(f"expected {n} comma-separated numbers (one per player), got {len(parts)}", key)
    return [_int(p, key, lo, hi) for p in parts]


def _per_player(text: str, key: str, n: int) -> list[str]:
    parts = text.split("|")
    if len(parts) != n:
        raise PositionError(f"expected {n} card lists separated by '|' (one per player), got {len(parts)}", key)
    return parts


def _tokens(text: str, tag: str, keys: tuple[str, ...]) -> dict[str, str]:
    if not isinstance(text, str):
        raise PositionError(f"expected a string, got {type(text).__name__}")
    parts = text.split()
    if not parts or parts[0] != tag:
        got = parts[0] if parts else "nothing"
        raise PositionError(f"must start with {tag!r}, got {got!r}", "tag")
    found: dict[str, str] = {}
    for i, part in enumerate(parts[1:], start=2):
        key, eq, value = part.partition("=")
        if not eq:
            raise PositionError(f"token {i} {part!r} is not key=value", "syntax")
        if key not in keys and key not in _OPTIONAL_KEYS:
            raise PositionError(f"unknown key {key!r} (token {i}); expected {', '.join(keys)}", key)
        if key in found:
            raise PositionError("given twice", key)
        found[key] = value
    missing = [k for k in keys if k not in found]
    if missing:
        raise PositionError(f"missing {', '.join(missing)}", missing[0])
    return found


def _phase(text: str, key: str = "phase") -> tuple[int, int | None]:
    name, _, card = text.partition(":")
    if name not in PHASE_NAMES:
        raise PositionError(f"unknown phase {name!r}; one of {', '.join(PHASE_NAMES)}", key)
    phase = PHASE_NAMES.index(name)
    if name in ("flip", "showdown"):
        if not card:
            what = "the flipped card, e.g. flip:9A" if name == "flip" else "the win-card, e.g. showdown:3B"
            raise PositionError(f"phase {name} needs {what}", key)
        return phase, _one_card(card, key)
    if card:
        raise PositionError(f"phase {name} takes no card", key)
    return phase, None


def _phase_token(fields: dict) -> str:
    name = PHASE_NAMES[fields["phase"]]
    if fields["flip_card"] is not None:
        return f"{name}:{CARD_CODES[fields['flip_card']]}"
    if name == "showdown" and fields.get("showdown_card") is not None:
        return f"{name}:{CARD_CODES[fields['showdown_card']]}"
    return name


def _list(mask: int) -> str:
    return format_mask(mask, ",")


def format_position(rules: Rules, fields: dict) -> str:
    n = fields["nplayers"]
    parts = [
        POSITION_TAG,
        f"rules={rules_to_token(rules)}",
        f"players={n}",
        f"dealer={fields['dealer']}",
        f"turn={fields['to_move']}",
        f"phase={_phase_token(fields)}",
        f"turns={fields['turns']}",
        f"field={_list(fields['field'])}",
        "hands=" + "|".join(_list(h) for h in fields["hands"]),
        "captured=" + "|".join(_list(c) for c in fields["captured"]),
        "stock=" + (",".join(CARD_CODES[c] for c in fields["stock"]) or "-"),
        "go=" + ",".join(map(str, fields["go_counts"])),
        "lastgo=" + ",".join(map(str, fields["last_go_scores"])),
        "fliponly=" + ",".join(map(str, fields["flip_only"])),
    ]
    parts += _format_extras(fields)
    return " ".join(parts)


def _format_extras(fields: dict) -> list[str]:
    n = fields["nplayers"]
    out = []
    if fields.get("sitter") is not None:
        out.append(f"sitter={fields['sitter']}")
    if fields.get("showdown_caller") is not None:
        out.append(f"asker={fields['showdown_caller']}")
    if fields.get("forced_card") is not None:
        out.append(f"forced={CARD_CODES[fields['forced_card']]}")
    if fields.get("stake_doublings"):
        out.append(f"stake={fields['stake_doublings']}")
    shaken = fields.get("shaken", [0] * n)
    if any(shaken):
        out.append("shaken=" + "|".join(
            ",".join(str(m) for m in range(1, 13) if s >> m & 1) or "-" for s in shaken))
    for key, name in (("bombs", "bombs"), ("ppeoks", "ppeoks"), ("turns_played", "played"),
                      ("chips", "chips")):
        values = fields.get(key, [0] * n)
        if any(values):
            out.append(f"{name}=" + ",".join(map(str, values)))
    if fields.get("played_card") is not None:
        pending = CARD_CODES[fields["played_card"]]
        if fields.get("played_target") is not None:
            pending += "/" + CARD_CODES[fields["played_target"]]
        out.append(f"pending={pending}")
    if fields.get("turn_bonus"):
        out.append(f"turnbonus={_list(fields['turn_bonus'])}")
    stack_bonus = fields.get("stack_bonus", [0, 0])
    if any(stack_bonus):
        out.append("stackbonus=" + ",".join(
            f"{CARD_CODES[48 + b]}:{m}" for b, m in enumerate(stack_bonus) if m))
    if fields.get("turn_flags"):
        out.append(f"flags={fields['turn_flags']}")
    if PHASE_NAMES[fields["phase"]] == "over":
        if fields.get("end_reason"):
            out.append(f"end={_END_NAMES[fields['end_reason']]}")
        out.append(f"winner={'-' if fields['winner'] is None else fields['winner']}")
        out.append(f"points={fields['points']}")
    return out


def _parse_extras(tok: dict[str, str], fields: dict, claim) -> None:
    """Read the optional keys into ``fields`` (defaults when absent)."""
    n = fields["nplayers"]
    fields["stake_doublings"] = _int(tok.get("stake", "0"), "stake", 0, 20)
    fields["sitter"] = _int(tok["sitter"], "sitter", 0, n - 1) if "sitter" in tok else None
    fields["showdown_caller"] = _int(tok["asker"], "asker", 0, n - 1) if "asker" in tok else None
    fields["forced_card"] = _one_card(tok["forced"], "forced") if "forced" in tok else None
    if PHASE_NAMES[fields["phase"]] == "showdown":
        if fields["showdown_caller"] is None:
            raise PositionError("phase showdown needs asker=<seat>", "asker")
        if fields["showdown_caller"] == fields["to_move"]:
            raise PositionError("the asker does not answer its own showdown", "asker")
    elif fields["showdown_caller"] is not None:
        raise PositionError("asker is only given in phase showdown", "asker")
    shaken = []
    for part in _per_player(tok.get("shaken", "|".join(["-"] * n)), "shaken", n):
        mask = 0
        if part != "-":
            for m in part.split(","):
                mask |= 1 << _int(m, "shaken", 1, 12)
        shaken.append(mask)
    fields["shaken"] = shaken
    zeros = ",".join(["0"] * n)
    fields["bombs"] = _ints(tok.get("bombs", zeros), "bombs", n, 0, MAX_BOMBS)
    fields["ppeoks"] = _ints(tok.get("ppeoks", zeros), "ppeoks", n, 0, MAX_SEAT_COUNT)
    fields["turns_played"] = _ints(tok.get("played", zeros), "played", n, 0, MAX_SEAT_COUNT)
    fields["chips"] = _ints(tok.get("chips", zeros), "chips", n, -CHIPS_CAP, CHIPS_CAP)
    fields["played_card"] = fields["played_target"] = None
    if "pending" in tok:
        card, sep, target = tok["pending"].partition("/")
        played = _cards(card, "pending")
        if len(played) != 1 or (sep and len(_cards(target, "pending")) != 1):
            raise PositionError("expected the played card, optionally /its field card", "pending")
        fields["played_card"] = played[0]
        if sep:
            fields["played_target"] = _one_card(target, "pending")
        for c in [fields["played_card"], fields["played_target"]]:
            if c is not None and not fields["field"] >> c & 1:
                raise PositionError(f"the pending card {CARD_CODES[c]} must be on the field", "pending")
    fields["turn_bonus"] = claim(_cards(tok.get("turnbonus", "-"), "turnbonus"), "turnbonus")
    stack_bonus = [0, 0]
    if "stackbonus" in tok:
        for item in tok["stackbonus"].split(","):
            code, colon, month = item.partition(":")
            cards = _cards(code, "stackbonus")
            if not colon or len(cards) != 1 or cards[0] < 48:
                raise PositionError(f"expected X2:<month> or X3:<month>, got {item!r}", "stackbonus")
            if not fields["field"] >> cards[0] & 1:
                raise PositionError(f"{CARD_CODES[cards[0]]} sits with a stack, so it must be on the field", "stackbonus")
            stack_bonus[cards[0] - 48] = _int(month, "stackbonus", 1, 12)
    fields["stack_bonus"] = stack_bonus
    fields["turn_flags"] = _int(tok.get("flags", "0"), "flags", 0, _TURN_FLAGS_MAX)
    end = tok.get("end", "")
    if end and end not in _END_NAMES:
        raise PositionError(f"unknown end reason {end[:30]!r}; one of {', '.join(_END_NAMES[1:])}", "end")
    if "end" in tok and PHASE_NAMES[fields["phase"]] != "over":
        # the writer prints it only then: kept, it would make a game differ from its string
        raise PositionError("end is only given when phase=over", "end")
    fields["end_reason"] = _END_NAMES.index(end)


def _rules_and_players(tok: dict[str, str]) -> tuple[Rules, int]:
    """The rules and the player count of a parsed string, checked against each other."""
    rules = rules_from_token(tok["rules"])
    n = _int(tok["players"], "players", 2, 4)
    try:
        rules.check_players(n)
    except RulesError as exc:
        raise PositionError(str(exc), "players") from None
    return rules, n


def parse_position(text: str) -> tuple[Rules, dict]:
    """Parse a position string into ``(rules, fields)``; raises :class:`PositionError`
    naming the part that is wrong."""
    tok = _tokens(text, POSITION_TAG, _POSITION_KEYS)
    rules, n = _rules_and_players(tok)
    phase, flip_card = _phase(tok["phase"])
    showdown_card = None
    if PHASE_NAMES[phase] == "showdown":
        showdown_card, flip_card = flip_card, None
    fields: dict[str, Any] = dict(
        nplayers=n,
        dealer=_int(tok["dealer"], "dealer", 0, n - 1),
        to_move=_int(tok["turn"], "turn", 0, n - 1),
        phase=phase,
        flip_card=flip_card, showdown_card=showdown_card,
        turns=_int(tok["turns"], "turns", 0, MAX_TURNS),
        go_counts=_ints(tok["go"], "go", n, 0, MAX_SEAT_COUNT),
        last_go_scores=_ints(tok["lastgo"], "lastgo", n, 0, MAX_LAST_GO),
        flip_only=_ints(tok["fliponly"], "fliponly", n, 0, MAX_FLIP_ONLY),
        winner=None,
        points=0,
    )
    seen: dict[int, str] = {}

    claim = _Claims(seen)

    if flip_card is not None:
        claim([flip_card], "phase")
    fields["field"] = claim(_cards(tok["field"], "field"), "field")
    fields["hands"] = [claim(_cards(h, "hands"), "hands")
                       for h in _per_player(tok["hands"], "hands", n)]
    fields["captured"] = [claim(_cards(c, "captured"), "captured")
                          for c in _per_player(tok["captured"], "captured", n)]
    stock = _cards(tok["stock"], "stock")
    claim(stock, "stock")
    fields["stock"] = stock
    _parse_extras(tok, fields, claim)
    if showdown_card is not None and not fields["hands"][fields["showdown_caller"]] >> showdown_card & 1:
        raise PositionError(f"the win-card {CARD_CODES[showdown_card]} must be in the asker's hand", "phase")
    if fields["forced_card"] is not None and not fields["hands"][fields["to_move"]] >> fields["forced_card"] & 1:
        raise PositionError(f"the forced card {CARD_CODES[fields['forced_card']]} must be in the hand of the seat to move", "forced")
    pack = set(range(50 if rules.bonus_cards else 48))
    extra = sorted(set(seen) - pack)
    if extra:
        raise PositionError(
            f"{', '.join(CARD_CODES[c] for c in extra)} not in the pack of these rules (no bonus cards)",
            seen[extra[0]])
    missing = sorted(pack - set(seen))
    if missing:
        raise PositionError(
            f"{len(missing)} card(s) missing from the position: {', '.join(CARD_CODES[c] for c in missing)}",
            "cards")
    if phase == 1 and flip_card is None:
        raise PositionError("phase flip needs the flipped card", "phase")
    if flip_card is not None and not fields["field"] & _month_mask(flip_card):
        raise PositionError(f"the flipped card {CARD_CODES[flip_card]} matches no field card", "phase")
    if PHASE_NAMES[phase] == "over":
        winner = tok.get("winner", "-")
        fields["winner"] = None if winner == "-" else _int(winner, "winner", 0, n - 1)
        fields["points"] = _int(tok.get("points", "0"), "points", _lowest_points(rules), PAY_CAP)
    elif "winner" in tok or "points" in tok:
        raise PositionError("winner/points are only given when phase=over", "winner")
    counts = [bin(h).count("1") for h in fields["hands"]]
    _check_reachable(rules, fields, counts, len(fields["stock"]),
                     {p: fields["hands"][p] for p in range(n)})
    return rules, fields


def _lowest_points(rules: Rules) -> int:
    """The least ``points=`` a finished hand can print: 0, or under family balances
    (``payment=2``) the highest balance, which is below 0 when cards stay unwon (a
    hand-made family position whose stock outlasts its hands ends with stock left)."""
    return -PAY_CAP if rules.payment == 2 else 0


class _Claims:
    """Places each card of a position where it is read, refusing a second place."""

    def __init__(self, seen: dict[int, str]):
        self.seen = seen

    def __call__(self, cards: list[int], where: str) -> int:
        mask = _mask_of(cards, where)
        for c in cards:
            if c in self.seen:
                raise PositionError(f"card {CARD_CODES[c]} appears twice (also in {self.seen[c]})", where)
            self.seen[c] = where
        return mask


def _month_mask(card: int) -> int:
    if card >= 48:
        return 0
    return 0xF << (card // 4 * 4)


def format_view(rules: Rules, fields: dict, seat: int) -> str:
    """The view string of ``seat``, from a position's fields
    (``CoreState.to_fields()``) or from a view's (:func:`parse_view`)."""
    n = fields["nplayers"]
    if "hand_counts" in fields:
        hand, counts, stock_count = fields["hand"], fields["hand_counts"], fields["stock_count"]
    else:
        hand = fields["hands"][seat]
        counts = [bin(h).count("1") for h in fields["hands"]]
        stock_count = len(fields["stock"])
    parts = [
        VIEW_TAG,
        f"rules={rules_to_token(rules)}",
        f"players={n}",
        f"seat={seat}",
        f"dealer={fields['dealer']}",
        f"turn={fields['to_move']}",
        f"phase={_phase_token(fields)}",
        f"turns={fields['turns']}",
        f"field={_list(fields['field'])}",
        f"hand={_list(hand)}",
        "hands=" + ",".join(map(str, counts)),
        "captured=" + "|".join(_list(c) for c in fields["captured"]),
        f"stock={stock_count}",
        "go=" + ",".join(map(str, fields["go_counts"])),
        "lastgo=" + ",".join(map(str, fields["last_go_scores"])),
        "fliponly=" + ",".join(map(str, fields["flip_only"])),
    ]
    parts += _format_extras(fields)
    return " ".join(parts)


def parse_view(text: str) -> tuple[Rules, dict]:
    """Parse a view string into ``(rules, fields)``.  ``fields`` has the seat's
    ``hand`` mask, ``hand_counts`` for every seat and ``stock_count``;
    unknown cards are those in no visible place."""
    tok = _tokens(text, VIEW_TAG, _VIEW_KEYS)
    rules, n = _rules_and_players(tok)
    seat = _int(tok["seat"], "seat", 0, n - 1)
    phase, flip_card = _phase(tok["phase"])
    showdown_card = None
    if PHASE_NAMES[phase] == "showdown":
        showdown_card, flip_card = flip_card, None
    fields: dict[str, Any] = dict(
        nplayers=n, seat=seat,
        dealer=_int(tok["dealer"], "dealer", 0, n - 1),
        to_move=_int(tok["turn"], "turn", 0, n - 1),
        phase=phase, flip_card=flip_card, showdown_card=showdown_card,
        turns=_int(tok["turns"], "turns", 0, MAX_TURNS),
        hand_counts=_ints(tok["hands"], "hands", n, 0, 50),
        stock_count=_int(tok["stock"], "stock", 0, 50),
        go_counts=_ints(tok["go"], "go", n, 0, MAX_SEAT_COUNT),
        last_go_scores=_ints(tok["lastgo"], "lastgo", n, 0, MAX_LAST_GO),
        flip_only=_ints(tok["fliponly"], "fliponly", n, 0, MAX_FLIP_ONLY),
        winner=None, points=0,
    )
    seen: dict[int, str] = {}

    claim = _Claims(seen)

    if flip_card is not None:
        claim([flip_card], "phase")
    fields["field"] = claim(_cards(tok["field"], "field"), "field")
    fields["hand"] = claim(_cards(tok["hand"], "hand"), "hand")
    fields["captured"] = [claim(_cards(c, "captured"), "captured")
                          for c in _per_player(tok["captured"], "captured", n)]
    _parse_extras(tok, fields, claim)
    if flip_card is not None and not fields["field"] & _month_mask(flip_card):
        raise PositionError(f"the flipped card {CARD_CODES[flip_card]} matches no field card", "phase")
    own = bin(fields["hand"]).count("1")
    if fields["hand_counts"][seat] != own:
        raise PositionError(f"seat {seat} holds {own} cards but hands says {fields['hand_counts'][seat]}", "hands")
    pack = 50 if rules.bonus_cards else 48
    extra = sorted(c for c in seen if c >= pack)
    if extra:
        raise PositionError(f"{CARD_CODES[extra[0]]} is not in the pack of these rules", seen[extra[0]])
    hidden = pack - len(seen)
    counted = sum(fields["hand_counts"]) - own + fields["stock_count"]
    if hidden != counted:
        raise PositionError(
            f"{hidden} cards are unseen but the other hands and the stock hold {counted}", "stock")
    if PHASE_NAMES[phase] == "over":
        winner = tok.get("winner", "-")
        fields["winner"] = None if winner == "-" else _int(winner, "winner", 0, n - 1)
        fields["points"] = _int(tok.get("points", "0"), "points", _lowest_points(rules), PAY_CAP)
    elif "winner" in tok or "points" in tok:
        raise PositionError("winner/points are only given when phase=over", "winner")
    _check_reachable(rules, fields, fields["hand_counts"], fields["stock_count"],
                     {seat: fields["hand"]}, visible=visible_mask(fields))
    return rules, fields


def visible_mask(fields: dict) -> int:
    """The cards a seat sees, from a view's fields (``parse_view``,
    ``seat_fields``): the field, the seat's hand, every captured pile, the
    card flipped waiting for a choice and the bonus cards flipped waiting for
    the turn's captures.  The Python twin of the core's ``seen_by``
    (gamestate.pxd); every view's unseen cards are the pack less these."""
    mask = fields["field"] | fields["hand"] | fields["turn_bonus"]
    for c in fields["captured"]:
        mask |= c
    if fields["flip_card"] is not None:
        mask |= 1 << fields["flip_card"]
    return mask


def _check_reachable(rules: Rules, fields: dict, counts: list[int], stock: int,
                     known: dict[int, int], visible: int | None = None) -> None:
    """Refuse what no real game reaches, naming the key: a seat out of play that
    acts, a phase the rules do not have, cards of the wrong kind in a place,
    hands larger than dealt, counters that could outgrow their C types.
    ``counts`` are the hand sizes, ``known`` the hands whose cards are known
    (a view knows its own), ``visible`` the cards a view shows (None: a
    position, where every card is placed)."""
    n = fields["nplayers"]
    phase = PHASE_NAMES[fields["phase"]]
    to_move = fields["to_move"]
    sitter = fields.get("sitter")
    # gwangpalli: the seat before the dealer sits out, exactly when the deal makes one
    if rules.gwangpalli and n == 4:
        expected = (fields["dealer"] + 3) % 4
        if sitter != expected:
            raise PositionError(f"gwangpalli with dealer {fields['dealer']}: seat {expected} "
                                f"sits out (sitter={expected})", "sitter")
    elif sitter is not None:
        raise PositionError("only four-handed gwangpalli rules have a seat sitting out", "sitter")
    if sitter is not None:
        if to_move == sitter:
            raise PositionError(f"seat {sitter} sits out: it cannot be the seat to move", "turn")
        if fields["captured"][sitter] or fields["go_counts"][sitter] or fields["flip_only"][sitter]:
            raise PositionError(f"seat {sitter} sits out: it captures nothing, calls no Go and "
                                "owes no flip-only turn", "sitter")
        if phase == "over" and fields["winner"] == sitter:
            raise PositionError(f"seat {sitter} sits out: it cannot win", "winner")
    if rules.bomb_counts_as_shake:
        for p in range(n):
            shown = bin(fields["shaken"][p]).count("1")
            if fields["bombs"][p] > shown:
                # each bomb shows its month here and doubles the win through shaken=;
                # without the months the bombs' doubles would be lost
                raise PositionError(f"seat {p} dropped {fields['bombs'][p]} bomb(s) but shaken= "
                                    f"shows {shown} month(s): under these rules a bomb shows "
                                    "its month (list it in shaken=)", "shaken")
    _check_months(rules, fields, phase)
    size = 3 if sitter is not None else n
    dealt = getattr(rules, f"hand_{size}p")
    for p, k in enumerate(counts):
        if k > dealt:
            raise PositionError(f"seat {p} holds {k} cards, more than the {dealt} dealt to a "
                                f"hand under these rules", "hands")
    _check_phase(rules, fields, phase, counts, known, visible)
    _check_counters(fields, phase, counts, stock)
    _check_played(fields, phase)


def _steals_possible(rules: Rules) -> bool:
    """Whether a junk card can move from one captured pile to another under
    ``rules`` (the five steals of docs/rules.md; a bomb steals only where bombs
    are played)."""
    return bool(rules.stack_steal or rules.jjok_steal or rules.ttadak_steal
                or rules.sseul_steal or (rules.bomb and rules.bomb_steal))


def _month_cards(mask: int, month: int) -> str:
    return ",".join(CARD_CODES[c] for c in range(4 * month, 4 * month + 4) if mask >> c & 1)


def _check_months(rules: Rules, fields: dict, phase: str) -> None:
    """Each month's cards where a real game can put them (docs/notation.md,
    "months").  Every capture takes a month's cards two or four at a time (a pair;
    a stack, a ttadak or a bomb: all four), so without steals each pile holds an
    even number of each month.  Where three on the field form a stack, a card joins
    the field only when no card of its month lies there (dealt, or matching
    nothing) or as a ppeok leaves it, so once a pair of a month has been captured at
    most one of its cards lies on the field (besides, in phase flip, a played card
    waiting on its pair); a steal moves junk between piles, never to the field.  Any other
    split leaves a card no one can win: a family hand would end with it on the
    field and balances that do not sum to zero.  (With steals the piles together
    still hold 0, 2 or 4 of a month, as a property test checks, but the hand-made
    scenario positions of those presets give piles lone cards, so that is not
    enforced there.)"""
    piles = fields["captured"]
    taken = 0
    for pile in piles:
        taken |= pile
    paired = not _steals_possible(rules)
    waiting = fields.get("played_card") if phase == "flip" else None
    table = fields["field"]
    if fields["flip_card"] is not None:
        table |= 1 << fields["flip_card"]
    for month in range(12):
        block = 0xF << (4 * month)
        for p, pile in enumerate(piles if paired else ()):
            own = bin(pile & block).count("1")
            if own % 2:
                raise PositionError(
                    f"seat {p} has captured {own} card(s) of month {month + 1} "
                    f"({_month_cards(pile, month)}): without steals a pile holds a month's "
                    "cards two or four at a time", "captured")
        held = bin(taken & block).count("1")
        # (an odd count, which only the hand-made positions of presets with steals hold,
        # is left alone: no capture changes it, so no position played from there can
        # come back to the rule)
        if held and held % 2 == 0 and rules.field_stacks:
            lying = table & block
            if waiting is not None and waiting // 4 == month:
                lying &= ~(1 << waiting)
            if bin(lying).count("1") > 1:
                raise PositionError(
                    f"{_month_cards(lying, month)} lie on the field while {held} card(s) of "
                    f"month {month + 1} are captured: with stacks a captured month leaves "
                    "at most one of its cards on the field", "field")


def _check_played(fields: dict, phase: str) -> None:
    """Turns go round the seats in play: a seat whose turn has come since the
    hand began (among the ``turns`` completed, or the one under way in phase
    ``gostop``) has played (``played=`` above 0), or it would be offered its
    first-turn moves (a shake) mid-hand.  (The counts themselves are not
    checked further: forced flip-only turns and hand-made positions, which skip
    the first turns' effects with high counts, make them vary.)"""
    if phase == "over":
        return
    n = fields["nplayers"]
    sitter = fields.get("sitter")
    # whose turn it is: the seat to move, or in a showdown the seat that asked
    mover = fields["showdown_caller"] if phase == "showdown" else fields["to_move"]
    order = [(mover + i) % n for i in range(n) if (mover + i) % n != sitter]
    turns, seats = fields["turns"], len(order)
    for rank, p in enumerate(order):
        # the turns completed went to the seats just before the mover, going back
        had_a_turn = turns >= seats - rank if rank else turns >= seats
        if phase == "gostop" and p == mover:
            had_a_turn = True  # its turn is under way, its play counted already
        if had_a_turn and not fields["turns_played"][p]:
            raise PositionError(f"seat {p} has had its turn in the {turns} turn(s) completed "
                                "but played= counts none for it: it would be offered its "
                                "first-turn moves again (give played=, one count per seat)",
                                "played")


def _check_phase(rules: Rules, fields: dict, phase: str, counts: list[int],
                 known: dict[int, int], visible: int | None) -> None:
    """The phase and the cards that go with it (flip, showdown, forced, pending,
    turn bonus, stack bonus, turn flags) as a real game leaves them."""
    to_move = fields["to_move"]
    n = fields["nplayers"]
    sitter = fields.get("sitter")
    if fields["flip_card"] is not None and fields["flip_card"] >= 48:
        raise PositionError("a flipped bonus card is banked at once: it never waits for a choice", "phase")
    if phase == "gostop" and not rules.go_stop:
        raise PositionError("these rules have no Go/Stop (go_stop=0)", "phase")
    public = ((fields.get("showdown_card"), fields.get("showdown_caller"), "phase"),
              (fields.get("forced_card"), to_move, "forced"))
    for card, owner, key in public:
        if card is None or owner is None:  # (a showdown always names its asker: checked above)
            continue
        if not (rules.showdown and rules.go_stop):
            raise PositionError("these rules have no showdown (showdown=1 and go_stop=1)", key)
        if card >= 48:
            raise PositionError(f"{CARD_CODES[card]} is no win-card: a showdown shows a month card", key)
        if owner == sitter:
            raise PositionError(f"seat {owner} sits out: it asks for no showdown", "asker")
        if owner in known:
            if not known[owner] >> card & 1:
                raise PositionError(f"{CARD_CODES[card]} must be in the hand of seat {owner}", key)
        else:
            if visible is not None and visible >> card & 1:
                raise PositionError(f"{CARD_CODES[card]} is in seat {owner}'s hand, "
                                    "so it cannot be seen elsewhere", key)
            if counts[owner] < 1:
                raise PositionError(f"seat {owner} holds {CARD_CODES[card]} but its hand "
                                    "count is 0", "hands")
    flip = fields["flip_card"]
    if (flip is not None and rules.field_stacks
            and bin(fields["field"] & _month_mask(flip)).count("1") == 3):
        raise PositionError(f"the flipped card {CARD_CODES[flip]} meets three cards of its month: "
                            "under stacks it takes the stack at once and never waits for a "
                            "choice", "phase")
    played = fields.get("played_card")
    if (fields["flip_card"] is not None and played is not None
            and fields["flip_card"] // 4 == played // 4):
        # the flip meets the card just played: a jjok, ttadak or ppeok, settled at once
        raise PositionError(f"the flipped card {CARD_CODES[fields['flip_card']]} is of the "
                            f"month of the pending card {CARD_CODES[played]}: it takes its "
                            "cards at once and never waits for a choice", "phase")
    if fields.get("forced_card") is not None and phase != "play":
        raise PositionError("a forced card is played in phase play", "forced")
    mid_turn = phase == "flip"  # a turn's played card, flipped bonus cards and flags wait only here
    if fields["played_card"] is not None:
        if not mid_turn:
            raise PositionError("a played card waits for the flip only in phase flip", "pending")
        target = fields["played_target"]
        if fields["played_card"] >= 48 or (target is not None and (
                target // 4 != fields["played_card"] // 4 or target == fields["played_card"])):
            raise PositionError("the pending card and its field card are two cards of one month", "pending")
        alone = fields["played_card"]
        if target is None and fields["field"] & _month_mask(alone) & ~(1 << alone):
            # a played card waits alone only when it matched nothing: left so, the turn
            # would end with two cards of a month side by side, uncaptured
            raise PositionError(f"the pending card {CARD_CODES[alone]} matched nothing, so no "
                                f"other card of month {alone // 4 + 1} lies on the field "
                                f"(name its field card: pending={CARD_CODES[alone]}/<card>)",
                                "pending")
    if fields["turn_bonus"]:
        if fields["turn_bonus"] & ~(3 << 48):
            raise PositionError("only the bonus cards X2 and X3 wait for the turn's captures", "turnbonus")
        if not mid_turn or not rules.flipped_bonus:
            raise PositionError("a flipped bonus card waits for the turn's captures only in phase "
                                "flip under flipped_bonus=1", "turnbonus")
    if fields["turn_flags"] and not mid_turn:
        raise PositionError("turn flags are kept only in the middle of a turn (phase flip)", "flags")
    if fields["turn_flags"] & 16 and not rules.sseul_steal:
        # the sseul flag steals when the turn ends; the core sets it only under sseul_steal
        raise PositionError("the sseul flag (16) needs sseul_steal=1", "flags")
    for b, month in enumerate(fields["stack_bonus"]):
        if not month:
            continue
        if not rules.ppeok_keeps_bonus:
            raise PositionError("a bonus card stays with a stack only under ppeok_keeps_bonus=1", "stackbonus")
        if bin(fields["field"] & (0xF << (4 * (month - 1)))).count("1") != 3:
            raise PositionError(f"{CARD_CODES[48 + b]} sits with a stack of month {month}: the field "
                                "must hold three cards of that month", "stackbonus")
    if phase == "play" and visible is not None:
        if counts[to_move] == 0 and not (fields["flip_only"][to_move] and fields["stock_count"]):
            raise PositionError(f"seat {to_move} is to move but holds no card", "hands")


def _check_counters(fields: dict, phase: str, counts: list[int], stock: int) -> None:
    """Every counter leaves room for the turns still possible: each turn uses a
    card of a hand or of the stock, except a flip-only turn taken on an empty
    stock (casual rules: owed after a bomb, at most three per bomb), and a turn
    under way (phase flip or gostop) has used its card already but not yet been
    counted; so the counters the engine prints after any move stay within the
    parser's limits and their C types."""
    sitter = fields.get("sitter")
    if phase == "over":
        return
    under_way = 1 if phase in ("flip", "gostop") else 0

    def flip_only_left(p: int) -> int:
        return fields["flip_only"][p] + 3 * (counts[p] // 3)

    left = sum(k + flip_only_left(p) for p, k in enumerate(counts) if p != sitter) + (
        stock + under_way)
    if fields["turns"] + left > MAX_TURNS:
        raise PositionError(f"{fields['turns']} turns with {left} turn(s) still possible "
                            f"would pass {MAX_TURNS}", "turns")
    for p, k in enumerate(counts):
        mover = p == fields["to_move"]
        for key, name, limit, extra in (
                # a Go comes at the end of the turn under way (flip or gostop);
                # played and ppeoks are counted before the Go/Stop decision
                ("go_counts", "go", MAX_SEAT_COUNT, under_way if mover else 0),
                ("turns_played", "played", MAX_SEAT_COUNT, 1 if mover and phase == "flip" else 0),
                ("ppeoks", "ppeoks", MAX_SEAT_COUNT, 1 if mover and phase == "flip" else 0)):
            own = k + flip_only_left(p) + stock + extra
            if fields[key][p] + own > limit:
                raise PositionError(f"seat {p}: {fields[key][p]} with {own} turn(s) still "
                                    f"possible could pass {limit}", name)
        if fields["bombs"][p] + k // 3 > MAX_BOMBS:
            raise PositionError(f"seat {p}: {fields['bombs'][p]} bombs and {k // 3} more "
                                f"possible would pass {MAX_BOMBS}", "bombs")
        if fields["flip_only"][p] + 3 * (k // 3) > MAX_FLIP_ONLY:
            raise PositionError(f"seat {p}: {fields['flip_only'][p]} flip-only turns and three "
                                f"per possible bomb would pass {MAX_FLIP_ONLY}", "fliponly")
