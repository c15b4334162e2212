#!/usr/bin/env python
"""Write the rule vectors of ``tests/vectors/`` (a maintainer's tool, not a test).

    python tests/vectors/make_vectors.py          # rewrite every vector file
    python tests/vectors/make_vectors.py --check  # build and compare, write nothing

Each vector is built here from a hand-written scenario template: a position (the
interesting cards named, the rest of the pack filled in below the stock, as the
``make_position`` helper of ``tests/conftest.py`` does), a seeded deal or a seeded
match, the moves to play, the rule row of ``docs/rules.md`` it exercises and the seed
line it comes from.  The expected results are what the reference engine
(``gostop_core.testing.reference``) does; before a vector is written the compiled core must
do exactly the same, and the template's own ``want`` checks must hold (so that a
vector really plays the rule it names: the ppeok happens, the right junk is stolen,
the payment is doubled...).  Any disagreement stops the tool.

The vector format is described in ``docs/testing.md`` ("Rule vectors");
``tests/test_vectors.py`` plays every file on both engines.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from conftest import make_position, not_first_turn, quote_sources  # noqa: E402
from test_vectors import (  # noqa: E402
    SOURCE_LABEL, differences, observe_core, observe_reference,
)
from gostop_core import CardSet, Game  # noqa: E402
from gostop_core.cards import BRIGHTS, CARD_CODES  # noqa: E402
from gostop_core.notation import format_position, parse_position, rules_from_token  # noqa: E402
from gostop_core.testing.reference import ReferenceGame  # noqa: E402

SOURCES = quote_sources()


class VectorError(Exception):
    """A template that does not do what it says, or two engines that disagree."""


# ---------------------------------------------------------------- the collection
VECTORS: list[dict] = []


def add(preset: str, rule: str, name: str, source: str, quote: str, note: str, *,
        position: str | None = None, moves=(), deal: dict | None = None,
        match: dict | None = None, hands=None, want=()) -> None:
    """Record one scenario; it is played and checked in :func:`build`."""
    VECTORS.append(dict(
        id=f"{preset}/{slug(rule)}/{name}", preset=preset, rule=rule,
        seed_line={"source": source, "quote": quote}, note=note,
        position=position, deal=deal, match=match, hands=hands,
        moves=list(moves), want=list(want) if isinstance(want, (list, tuple)) else [want]))


def slug(text: str) -> str:
    out = "".join(ch if ch.isalnum() else "-" for ch in text.lower())
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def pos(rules: str, players: int = 2, *, first: bool = False, tokens: str = "", **kw) -> str:
    """A position by ``make_position``; every seat has played a turn already unless
    ``first`` (so that first-turn chips stay out), plus optional ``tokens``."""
    extra = [] if first else [not_first_turn(players)]
    if tokens:
        extra.append(tokens)
    return make_position(rules=rules, players=players, extra=" ".join(extra), **kw)


# ---------------------------------------------------------------- want checks
def all_events(o: dict) -> list[list]:
    return [e for move in o["events"] for e in move] + o.get("deal_events", [])


def kinds(o: dict) -> list[str]:
    return [e[0] for e in all_events(o)]


def has(*wanted: str):
    def check(o):
        got = kinds(o)
        return all(k in got for k in wanted) or f"events {wanted} expected, got {got}"
    return check


def lacks(*unwanted: str):
    def check(o):
        got = kinds(o)
        return not any(k in got for k in unwanted) or f"no {unwanted} expected, got {got}"
    return check


def stolen(*pairs):
    """Exactly these steals: (card, victim) pairs in order."""
    def check(o):
        got = [(e[2], e[3]) for e in all_events(o) if e[0] == "stolen"]
        return got == list(pairs) or f"steals {pairs} expected, got {got}"
    return check


def no_steal(o):
    return stolen()(o)


def chips(*values):
    def check(o):
        return o["chips"] == list(values) or f"chips {values} expected, got {o['chips']}"
    return check


def phase(name: str):
    def check(o):
        return o["phase"] == name or f"phase {name} expected, got {o['phase']}"
    return check


def reason(name: str):
    def check(o):
        got = (o["outcome"] or {}).get("reason")
        return got == name or f"end {name} expected, got {got}"
    return check


def points(value: int):
    def check(o):
        got = (o["outcome"] or {}).get("points")
        return got == value or f"points {value} expected, got {got}"
    return check


def pays(*values):
    """The settlement's payments (each seat's share)."""
    def check(o):
        got = (o["settlement"] or {}).get("pay")
        return got == list(values) or f"payments {values} expected, got {got}"
    return check


def legal(*moves, exact: bool = False):
    def check(o):
        got = o["legal"]
        if exact:
            return got == sorted(moves) or f"legal {sorted(moves)} expected, got {got}"
        return set(moves) <= set(got) or f"legal moves {moves} expected in {got}"
    return check


def not_legal(*moves):
    def check(o):
        return not set(moves) & set(o["legal"]) or f"{moves} must not be legal: {o['legal']}"
    return check


def captured(seat: int, cards: str):
    def check(o):
        want = set(cards.split())
        got = set(o["captured"][str(seat)])
        return want <= got or f"seat {seat} should hold {sorted(want)}: {sorted(got)}"
    return check


def not_captured(seat: int, cards: str):
    def check(o):
        bad = set(cards.split()) & set(o["captured"][str(seat)])
        return not bad or f"seat {seat} should not hold {sorted(bad)}"
    return check


def scores(*values):
    def check(o):
        return o["scores"] == list(values) or f"scores {values} expected, got {o['scores']}"
    return check


def on_field(cards: str):
    def check(o):
        field = o["position"].split(" field=")[1].split()[0].split(",")
        missing = set(cards.split()) - set(field)
        return not missing or f"{sorted(missing)} should be on the field: {field}"
    return check


def token(text: str):
    """A token of the position after the moves (``stackbonus=X2:3``, ``ppeoks=1,0``)."""
    def check(o):
        return text in o["position"].split() or f"{text} expected in {o['position']}"
    return check


def no_token(prefix: str):
    def check(o):
        return not any(t.startswith(prefix) for t in o["position"].split()) or \
            f"no {prefix} expected in {o['position']}"
    return check


def multiplier(*values):
    def check(o):
        got = (o["settlement"] or {}).get("multiplier")
        return got == list(values) or f"multipliers {values} expected, got {got}"
    return check


# ---------------------------------------------------------------- quotes
# Every quote is checked word for word (whitespace collapsed) against its source.
Q = {
    # seed 000 (casual)
    "000.capture": ("000", "If it matches the month of a card already on the field, you capture both."),
    "000.choose": ("000", "If the field holds more than one card of that month, you choose which one to take."),
    "000.flip": ("000", "Flip the top card of the draw pile onto the field. If it matches a field card by month, you capture both."),
    "000.bonus_hand": ("000", "Playing one banks it straight into your junk pile, you draw a replacement from the stock, and you still play a card that turn — banking a bonus is free, not your move."),
    "000.bonus_empty": ("000", "If the stock is empty there is nothing to draw, so the banking is the turn."),
    "000.bonus_flip": ("000", "A bonus card turned up from the stock during your flip banks the same way, and another is turned up behind it."),
    "000.bonus_value": ("000", "One counts as two junk, the other as three junk."),
    "000.bonus_field": ("000", "it is given to the dealer and the field is topped up"),
    "000.bomb": ("000", "If you hold three cards of one month and the fourth is on the field, you may drop a bomb: play all three at once, take all four cards, and take one junk card from every opponent."),
    "000.flip_only": ("000", "so your next two turns only flip the deck"),
    "000.level": ("000", "you play nothing from hand until the hands are level again."),
    "000.never_forced": ("000", "so the bomb is never forced"),
    "000.no_shake": ("000", "Shaking (흔들기) is not implemented, so the bomb needs no announcement first."),
    "000.not_included": ("000", "the bak penalties (gwang-bak, pi-bak, go-bak), shaking (heundeulgi, 흔들기), ppeok (뻑), jjok (쪽), the sweep (쓸), and multi-hand match play."),
    "000.only_bomb": ("000", "Of the junk-stealing plays, only the bomb is implemented."),
    "000.objective": ("000", "Be the first player to reach the point threshold and call Stop."),
    "000.gostop": ("000", "The moment your score reaches the threshold, you must choose:"),
    "000.stop": ("000", "Stop — the hand ends immediately and you bank your score. You win."),
    "000.go": ("000", "Each Go adds +1 point to your eventual score, and from the fourth Go onward your whole total doubles."),
    "000.again": ("000", "You are only asked again once your score has actually gone up since your last Go."),
    "000.draw": ("000", "Every hand is played out and nobody called Stop — the hand is drawn, with no score."),
    "000.wins": ("000", "A player calls Stop — that player wins the hand."),
    "000.bright3": ("000", "3 brights = 3 points — but only 2 if one of them is the December Rain bright"),
    "000.ribbons": ("000", "5 ribbons = 1 point, plus 1 for each ribbon beyond the fifth"),
    "000.ribbon_set": ("000", "Each completed ribbon set (hongdan, cheongdan, chodan) = 3 points"),
    "000.animals": ("000", "5 animals = 1 point, plus 1 for each animal beyond the fifth"),
    "000.godori": ("000", "All three godori birds = 5 points"),
    "000.junk": ("000", "10 junk = 1 point, plus 1 for each beyond the tenth"),
    "000.double": ("000", "Double junk counts as two"),
    "000.sake": ("000", "it can count as an animal or as a double junk — you are never asked which, because the game always counts it whichever way scores you more."),
    "000.rain_ribbon": ("000", "December's ribbon belongs to no set."),
    "000.dealer": ("000", "The dealer wears a D on their seat."),
    "000.four_players": ("000", "in this version all four players are dealt in and play every hand, using the same 7-card deal and 6-card field as the three-player game."),
    "000.gwangpalli": ("000", "one sits out each hand and is paid for the brights in their hand."),
    "000.single_hand": ("000", "A single hand is the unit of play here, so the dealer never changes"),
    # seed 001 (traditional)
    "001.players": ("001", "2 or 3 people can play."),
    "001.deal2": ("001", "2 players: deal 10 cards to each player and 8 face up to the center of the table"),
    "001.deal3": ("001", "3 players: deal 7 cards to each player and 6 face up to the center of the table"),
    "001.dealer_draw": ("001", "The player who draws the highest month, or the highest-ranking card if same month is drawn, is the first dealer."),
    "001.winner_deals": ("001", "Thereafter, the winner of each round becomes the dealer (and plays first) in any subsequent round."),
    "001.chongtong": ("001", "If a player has four cards of the same month in his hand, he shows them and wins the game immediately, collecting 5 chips from each opponent."),
    "001.chongtong2": ("001", "In a three-player game, if two players have quads, each collects five chips from the third player"),
    "001.stack": ("001", "If there are three cards of the same month on the table, they are combined into a stack, which is later captured as a single unit."),
    "001.redeal": ("001", "If there are four cards of the same month on the table, the deal is void. The cards are reshuffled and dealt again by the same dealer."),
    "001.flip_one": ("001", "If this card from the stock matches a card in the center layout, you capture these two cards"),
    "001.flip_two": ("001", "If the card from the stock matches two cards in the center layout, you choose which of these cards to capture along with the stock card."),
    "001.flip_stack": ("001", "If the card from the stock matches a stack of three cards in the center layout, then it captures the stack, and you move all four cards to your capture area."),
    "001.place": ("001", "you place it on top of the matching card"),
    "001.choose": ("001", "If there are two cards of this month in the layout, you can choose which one you will place your played card onto."),
    "001.pair_waits": ("001", "If the stock card does not match any card in the center layout, you add it to the center layout as a separate card, and you capture the matching pair that you created with the play from your hand"),
    "001.two_pairs": ("001", "capture both matching pairs you have created, and move these two pairs of cards to your capture area."),
    "001.ppeok": ("001", "You do not capture anything this turn, but you must add this stock card to the pair you made, creating a stack of three cards."),
    "001.ttadak": ("001", "If the card you played from your hand matched two cards in the layout, and the card you turn from the stock is also of this same month, you capture all four cards of this month. This is known as ttadak."),
    "001.stack_play": ("001", "If the card you play from your hand matches a stack of three matching cards in the table layout, then it captures this stack and all four cards are moved to your capture area."),
    "001.sseul": ("001", "There are only two cards in the center layout, belonging to different months, and the player captures both of them, leaving the center layout empty (sseul)."),
    "001.chok": ("001", "The player plays a card from his hand that does not match anything in the center layout, adds this card to the center layout, and then draws a matching card from the stock, capturing the card just played (chok)."),
    "001.stack_steal": ("001", "The player captures a stack of three cards by playing the fourth card of this month from hand or stock."),
    "001.surrender": ("001", "each opponent must surrender one junk card of their choice from their capture area, and the cards are moved face up to the player's capture area."),
    "001.no_junk": ("001", "A player who does not have any junk cards in their capture area does not have to surrender a card."),
    "001.valuable": ("001", "a player who has no ordinary junk cards must surrender a valuable junk card if he has one."),
    "001.last_turn": ("001", "the first three special events above don't count in the last player's last turn, since the cards are guaranteed to match."),
    "001.last_stack": ("001", "Nevertheless, a capturing a three-card stack at the end of the play still counts."),
    "001.first_ppeok": ("001", "If you make a ppuk (create a stack of three cards) in your first turn of the game, each opponent pays you you money worth 3 points (or could be 3 chips, if playing with chips) and play continues."),
    "001.three_ppeok": ("001", "If you make a total of three ppuk during one hand, the play ends and each opponent pays you 5 chips."),
    "001.first_capture": ("001", "some award a payment of 3 chips from each opponent for this, and play continues."),
    "001.before_play": ("001", "After the cards are dealt out and before players begin to play, players check for triples or quads (3 or 4 cards of the same month) in their hands or on the table."),
    "001.heundeum": ("001", "It is a disadvantage to hold three cards of the same month, but if a player chooses to show them he gets an extra bonus if he manages to win."),
    "001.shake": ("001", "If the winner showed 3 cards of the same month before the start of play, then each opponent must pay double."),
    "001.two_shakes": ("001", "If the winner showed two such sets, two doubles are applied, thus quadrupling the payment."),
    "001.jokers_off": ("001", "The game is usually played without them"),
    "001.joker_play": ("001", "Whenever you play a joker - either from your hand or by turning one up from the stock - you place it directly into your capture area face up"),
    "001.joker_double": ("001", "Double - the owner collects double chips if he or she wins"),
    "001.joker_bright": ("001", "Bright protection - the owner who has captured no \"bright\" cards does not have to pay double to a winner with a \"bright\" set"),
    "001.target": ("001", "When there are 3 players the target is normally set at 3 points. With only 2 players it is usual to set a higher target - normally 5 or 7 points."),
    "001.first_time": ("001", "The first time that the total score of your captured cards at the end of your turn reaches the agreed target, you have the opportunity to \"stop\" the game."),
    "001.again": ("001", "you do not get another opportunity to \"stop\" the game until the score at the end of your turn is higher than it was the last time you said \"Go\"."),
    "001.paid": ("001", "The player who \"stops\" the game is paid chips equal to their score by each other player."),
    "001.nagari": ("001", "This is called nagari, and there is no payment for this deal."),
    "001.nagari_double": ("001", "If the previous deal ended with no winner (nagari) the payment is doubled."),
    "001.kwang_bak": ("001", "then any opponent with no captured \"bright\" cards must pay double."),
    "001.kwang_bak2": ("001", "Some apply an extra payment of only 2 chips (rather than a double) when a player without \"brights\" pays a winner with a set of brights."),
    "001.mong_bak": ("001", "If the winner has a set of at least 7 \"animal\" cards, then each opponent must pay double."),
    "001.pi_bak": ("001", "then any opponent with fewer than 5 \"junk\" cards must pay double."),
    "001.pi_bak7": ("001", "In the two-player game, some require a player to have 7 \"junk\" rather than 5 to protect against a double payment to a player with a \"junk\" set."),
    "001.go_bak": ("001", "If the player that called \"Go\" fails to score a point and the opponent(s) reach(es) the minimum points in the same round, the player must pay double."),
    "001.go_bak3": ("001", "In a three-player game, if another player wins after you have said \"Go\", you have to pay not only your own losses but also those of the third player. The third player pays nothing."),
    "001.go1": ("001", "If the winner previously said \"Go\" once, each opponent pays one extra chip."),
    "001.go2": ("001", "If the winner previously said \"Go\" twice, each opponent pays two extra chips."),
    "001.go3": ("001", "If the winner previously said \"Go\" three times, each opponent pays double."),
    "001.go4": ("001", "If the winner previously said \"Go\" more than three times, the payment is doubled again for each \"Go\" beyond three."),
    "001.go_variant": ("001", "Some award one chip to a player who said \"Go\" once before winning, double payment to a player who said \"Go\" twice, triple payment to a player who said \"Go\" three times, and so on."),
    "001.order": ("001", "When calculating payments, if the winner said \"Go\" once or twice, the chips for this are added before the doubles are applied."),
    "001.worked": ("001", "An opponent who has only 4 \"junk\" will pay you 28 chips"),
    "001.bright4_rain": ("001", "Some score only 3 points rather than 4 for a set of 4 bright including rain (December)."),
    "001.godori3": ("001", "Some score only 3 points rather than 5 for Godori."),
    "001.sake_two": ("001", "Some play that the chrysanthemum and sake cup card counts as one \"animal\" or two \"junk\", rather than one \"junk\"."),
    "001.sake": ("001", "The September \"object\" card (chrysanthemum and sake cup) can be used either as an \"object\" card or as a \"junk\" card for the purpose of scoring."),
    "001.bright5": ("001", "A set of 5 bright cards scores 15 points"),
    "001.bright4": ("001", "A set of 4 bright cards scores 4 points"),
    "001.godori": ("001", "The godori combination of 3 bird cards scores 5 points"),
    "001.animals": ("001", "A set of 5 animal cards scores 1 point"),
    "001.ribbons": ("001", "A set of any 5 ribbon cards scores 1 point"),
    # seed 002 (standard)
    "002.choose": ("002", "If there are two cards of the same month already on the table, the player may select one of them."),
    "002.flip": ("002", "If the player finds a matching card on the table, the player collects both cards along with the cards matched in step 2. Otherwise, the drawn card is added to the table."),
    "002.ppeok": ("002", "If the card drawn from the top of the draw pile in step 3 matches the two cards matched in step 2, the three cards remain on the table. This is known as ppeok (뻑)."),
    "002.jjok": ("002", "If a player draws a card that matches the card discarded in step 2, the player collects both cards as well as one junk card (pi) from each opponent's stock pile. This is known as jjok (쪽)."),
    "002.ttadak": ("002", "the player collects all four cards as well as one junk card (pi) from each opponent's stock pile. This is known as ttadak (따닥)."),
    "002.threshold": ("002", "The object of the game is to create scoring combinations to accumulate points up to a score of either three (for three players) or seven (for two players), at which point a \"Go\" or a \"Stop\" must be called."),
    "002.nagari": ("002", "A game that ends with neither a \"Go\" nor \"Stop\" call is called a Nagari game (나가리)."),
    "002.nagari_double": ("002", "when the game ends, the loser owes the winner double money."),
    "002.shake": ("002", "Each time a player shakes within a single hand, final points are doubled in the event that that player wins the hand."),
    "002.bomb": ("002", "the player may play all three cards in one turn and collect all four cards as well as one junk card (pi) from each player's stock pile. This is known as a poktan"),
    "002.shake_bomb": ("002", "Shaking the cards before playing a poktan is also an option."),
    "002.flip_only": ("002", "A player who has played a poktan may then choose to skip step 2 above in as many as two turns"),
    "002.four_wins": ("002", "Any player who has a set of four cards of the same month can show them to the other players and win the hand immediately."),
    "002.stack": ("002", "The player who collects the pile using the fourth card of that month will also collect one junk card (pi) from each player's stock pile."),
    "002.redeal": ("002", "If there is a set of four cards of the same month on the table, the cards are reshuffled and redealt by the same dealer."),
    "002.bonus_field": ("002", "If there is a bonus card on the table during initial deal, the dealer collects the bonus card and turns the top card of the draw pile face-up and places it on the table."),
    "002.bonus_hand": ("002", "If a player is dealt a bonus card, they may add it to their stock pile at the beginning of any turn and draw a card from the draw pile to replace it in their hand."),
    "002.bonus_flip": ("002", "If a player draws a bonus card from the draw pile during their regular turn, they will automatically collect it along with any other cards matched during that turn"),
    "002.bonus_ppeok": ("002", "except in the event of a ppeok, in which all four cards (i.e. the three cards involved in the ppeok plus the bonus card) must remain on the table."),
    "002.rain_ribbon": ("002", "Although there are ten cards with ribbons, the ribbon card for December is excluded."),
    "002.bridge": ("002", "Two of the Animal cards do not picture animals: May (bridge) and September (cup). These two cards may be counted instead as double junk cards."),
    "002.wet": ("002", "However, if the Three Brights include bi gwang, this is called \"Wet Three Brights\" (bi sam gwang), and is worth two points."),
    "002.four_brights": ("002", "It does not matter whether 'bi gwang' is included in \"Four Brights\" or not."),
    "002.five_brights": ("002", "is worth 15 to 50 points, depending on house rules."),
    "002.ribbons8": ("002", "the player can claim three points for hong dan, three points for cheong dan, and an additional two points for having six Ribbon cards, for a total of eight points."),
    "002.animals7": ("002", "the player can claim five points for godori, and two additional points for having six Animal cards, for a total of seven points."),
    "002.double_junk": ("002", "In addition, there are special junk cards called Double Junks (쌍피; ssang pi), which are counted as two junk cards."),
    "002.again": ("002", "If a player says \"Go\" once, the player must increase their score by at least one point in order to be given another opportunity to call \"Go\" or “Stop\"."),
    "002.go12": ("002", "A player who calls “Go” once has one point added to their final score. With two \"Go\"s, two points are added."),
    "002.go3": ("002", "With the third \"Go\", the score is doubled."),
    "002.go4": ("002", "the score is multiplied by the number one less than the number of times the winner has called \"Go\"."),
    "002.go_bak": ("002", "any non-winning players who have called \"Go\" have their penalty (calculated from the winning player's total points) doubled. This is called go bak."),
    "002.gwang_bak": ("002", "If a non-winning player has no Bright cards when the winner has accumulated points by collecting Bright cards, the player without Bright cards will have their penalty doubled."),
    "002.pi_bak": ("002", "if a non-winning player has fewer than six junk cards and the winner has accumulated points by collecting junk cards, the non-winning player will have their penalty doubled."),
    "002.times8": ("002", "Thus, the player's penalty would be doubled three times, or multiplied by eight."),
    # seed 003 (standard)
    "003.night": ("003", "with nighttime favoring the earliest month card, i.e. January, and the latest month card favored during daytime, i.e. December."),
    "003.showdown": ("003", "Player can show down when player have the others' win-card."),
    "003.showdown_no": ("003", "If next player says \"No\", player lay down another player's win-card."),
    "003.showdown_yes": ("003", "If everyone says \"Yes\", the game will be Nagari game."),
    "003.nagari": ("003", "The dealer and play order of the following game remain the same as with the Nagari game, and when the game ends, the loser owes double money to the winner."),
    "003.four_players": ("003", "Typically there are two or three players, although there is a variation where four players can play."),
    # seed 004 (standard text, then the family variant)
    "004.ppeok": ("004", "If the card drawn from the top of the draw pile in step 3 matches the two cards matched in step 2, the player collects the two cards and adds the drawn card on the table."),
    "004.jjok": ("004", "If a player draws a card which matches the card discarded in step 2, the player collects both cards."),
    "004.ttadak": ("004", "If a player plays a card in step 2 for which two matching cards are already on the table, and then draws the fourth matching card from the draw pile in step 3, the player collects all four cards."),
    "004.no_ppeok": ("004", "Rules 1-3 are the same as in \"Go-Stop\", but in this version there is no ppeok or ttadak."),
    "004.stack": ("004", "If there is a set of three cards of the same month on the table, they are combined into one stack."),
    "004.setup": ("004", "Some families play a variant of the game with slightly different rules, although the setup is identical. This version is playable by 2-4 players."),
    "004.deal4": ("004", "So, all players have 5 cards with 8 face up on the table."),
    "004.deal3": ("004", "So, all players have 7 cards with 6 face up on the table."),
    "004.deal2": ("004", "So, both players have 10 cards, with 8 face up on the table."),
    "004.choose": ("004", "If there are two cards of the same month already on the table, the player may select one of them."),
    "004.flip": ("004", "If the player locates a matching card on the table, the player collects both cards along with the cards matched in step 2. Otherwise, the drawn card is added to the table."),
    "004.bright": ("004", "Bright cards are each individually worth 20 points."),
    "004.ribbon": ("004", "Ribbon cards are worth 5 points individually"),
    "004.animal": ("004", "Animal cards are worth 10 points each."),
    "004.junk": ("004", "Junk cards, and the November and December Double Junk cards are worth nothing on their own."),
    "004.ribbon_set": ("004", "if a player collects either three red ribbon cards with poetry or three blue ribbon cards, then each other player owes that player 30 points at the end of the game."),
    "004.may": ("004", "If a player collects all the \"May\" cards, depicting an iris, then each other player owes them 20 points at the end of the game."),
    "004.october": ("004", "If a player collects all the \"October\" cards, depicting a maple, then each other player owes them 20 points at the end of the game."),
    "004.november": ("004", "If a player collects all the \"November\" cards, depicting a paulownia, then each other player owes them 40 points at the end of the game."),
    "004.december": ("004", "If a player collects all the \"December\" cards, depicting a willow, then each other player owes them 20 points at the end of the game."),
    "004.target": ("004", "For two players, this number is 120. For three players, this number is 80. For four players, this number is 60."),
    "004.zero": ("004", "If all the players' balances add up to 0, the scoring has been done correctly."),
    "004.run_out": ("004", "A round is played until the deck has run out."),
    "004.break_even": ("004", "The object of the game is to \"break even\" with a certain number which varies depending on the number of players."),
    "004.bonus_field": ("004", "If there is a bonus card on the table during initial deal, the dealer collects the bonus card and turns the top card of the draw pile face-up and places it on the table."),
    "004.go3": ("004", "With the third \"Go\", the score is doubled."),
    # the rules matrix
    "m.steal": ("matrix", "A steal takes one junk from each opponent: the opponent gives its least valuable junk (a single junk; if none, a double junk; bonus cards last). An opponent with no junk gives nothing."),
    "m.three_casual": ("matrix", "choose one of them (no stacks)"),
    "m.jjok_casual": ("matrix", "plain capture"),
    "m.ppeok_casual": ("matrix", "impossible (pair already taken)"),
    "m.ttadak_casual": ("matrix", "not possible (pair taken at play)"),
    "m.four_casual": ("matrix", "no special rule"),
    "m.threshold": ("matrix", "7 / 3 / 3 (000 silent)"),
    "m.bomb_shake": ("matrix", "counts as a shake for payment"),
    "m.family_bomb": ("matrix", "No Go/Stop, no ppeok, no ttadak steals. Play until the stock is gone."),
    "m.gwangpalli": ("matrix", "gwangpalli four-handed play (000 describes it; one player sits out and sells brights)"),
    "m.showdown": ("matrix", "showdown (003)"),
    "m.sake": ("matrix", "animal or double junk, whichever scores more, never asked"),
    "m.sake_trad": ("matrix", "animal or single junk (variant: double junk)"),
    "m.bridge": ("matrix", "animal or double junk"),
    "m.no_sseul": ("matrix", "no (not in 002-004)"),
    "m.last_turn": ("matrix", "sseul/ttadak/chok steal nothing; stack capture still steals"),
    "m.casual_payment": ("matrix", "the score, once"),
    "m.casual_draw": ("matrix", "draw, no score"),
    "m.pi_bak_std": ("matrix", "opponent < 6 junk"),
    "m.pi_bak_opts": ("matrix", "pi-bak threshold 5/6/7"),
    "m.gwang_bak2": ("matrix", "gwang-bak as +2 chips instead of x2"),
    "m.go_bak_std": ("matrix", "a non-winner who called Go pays double"),
    "m.flexible": ("matrix", "for a loser facing pi-bak, \"best\" means the assignment that avoids the penalty if one does."),
    "m.first_turn_opt": ("matrix", "first-turn ttadak/stack/chok paid 3 chips"),
    "m.jokers": ("matrix", "Bonus cards on/off and their values (001 jokers: one/two/three junk, double-payment joker, bright protection)"),
    "m.x2x3": ("matrix", "worth 2 and 3 junk; no month, never matched"),
    "m.bright4": ("matrix", "4 (000 silent: from 001)"),
    "m.bright5": ("matrix", "15 (000 silent: from 001)"),
    "m.family_balance": ("matrix", "Balance = own total + bonuses received - bonuses paid - target; balances sum to zero."),
    "m.family_points": ("matrix", "Card points: bright 20, ribbon 5 (all ten), animal 10 (all nine), junk 0."),
    "m.mong_bak_std": ("matrix", "winner 7+ animals: x2"),
    "m.casual_players": ("matrix", "7 / 6, all four play"),
    "m.casual_bonus_flip": ("matrix", "banked, flip again"),
    "m.std_bonus_flip": ("matrix", "banked with the turn's captures (stays with a ppeok stack)"),
    "m.bonus_field": ("matrix", "to the dealer, field topped up"),
    "m.flip_only": ("matrix", "up to 2 flip-only turns the player may choose to use"),
    "m.shake_std": ("matrix", "any time before playing one of them; each doubles"),
    "m.std_no_chongtong": ("matrix", "wins the hand"),
    "m.match": ("matrix", "yes: winner deals next, nagari doubles"),
    "m.twelve_r": ("matrix", "12R in the ribbon count"),
}


def q(key: str):
    """(source, quote) for :func:`add`'s two quote arguments."""
    return Q[key]


# ---------------------------------------------------------------- building
def build(template: dict) -> dict:
    """Play a template on the reference, check its wants, check the core agrees;
    return the vector to write."""
    vid = template["id"]
    source, text = template["seed_line"]["source"], template["seed_line"]["quote"]
    label = SOURCE_LABEL[source]
    if SOURCES[label] is not None and " ".join(text.split()) not in SOURCES[label]:
        raise VectorError(f"{vid}: the quote is not {label} text: {text!r}")
    vector = {k: template[k] for k in ("id", "rule", "seed_line", "note")}
    vector["preset"] = template["preset"]
    if template["match"]:
        vector["match"] = template["match"]
        vector["hands"] = template["hands"]
        vector["position"] = None
        vector["moves"] = []
    elif template["deal"]:
        vector["deal"] = template["deal"]
        d = template["deal"]
        r = ReferenceGame(rules_from_token(d["rules"]), d["players"], d["seed"],
                          d.get("dealer", 0), d.get("stake", 0))
        vector["position"] = format_position(rules_from_token(d["rules"]), r.to_fields())
        vector["moves"] = template["moves"]
    else:
        vector["position"] = template["position"]
        vector["moves"] = template["moves"]
    if not template["match"]:
        vector["moves"] = resolve_moves(vector)
    try:
        ref = observe_reference(vector)
    except Exception as exc:  # a template error: say which
        raise VectorError(f"{vid}: the reference cannot play it: {exc!r}") from exc
    for check in template["want"]:
        verdict = check(ref)
        if verdict is not True:
            raise VectorError(f"{vid}: the scenario misses its point: {verdict}")
    try:
        core = observe_core(vector)
    except Exception as exc:
        raise VectorError(f"{vid}: the core cannot play it: {exc!r}") from exc
    diff = differences(ref, core)
    if diff:
        raise VectorError(f"{vid}: THE ENGINES DISAGREE (reference, then core):\n" + "\n".join(diff))
    vector["expect"] = ref
    return vector


def resolve_moves(vector: dict) -> list[str]:
    """Replace each ``@first`` of a template's moves by the first legal move (in sorted
    order) at that point, as the reference engine lists them."""
    if "@first" not in vector["moves"]:
        return vector["moves"]
    d = vector.get("deal")
    if d:
        r = ReferenceGame(rules_from_token(d["rules"]), d["players"], d["seed"],
                          d.get("dealer", 0), d.get("stake", 0))
    else:
        rules, fields = parse_position(vector["position"])
        r = ReferenceGame.from_fields(rules, fields)
    out = []
    for move in vector["moves"]:
        if move == "@first":
            move = sorted(r.legal_moves())[0]
        r.push(move)
        out.append(move)
    return out


def write(vectors: list[dict]) -> None:
    for old in HERE.glob("*/*.json"):
        old.unlink()
    for v in vectors:
        preset, rule, name = v["id"].split("/")
        folder = HERE / preset
        folder.mkdir(exist_ok=True)
        with open(folder / f"{rule}__{name}.json", "w", encoding="utf-8") as fh:
            fh.write(format_vector(v))


def _dump(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _lines(name: str, rows: list, indent: str, last: bool) -> list[str]:
    """A list written one row per line."""
    if not rows:
        return [f"{indent}{_dump(name)}: []" + ("" if last else ",")]
    out = [f"{indent}{_dump(name)}: ["]
    out += [f"{indent} {_dump(r)}" + ("," if i < len(rows) - 1 else "") for i, r in enumerate(rows)]
    out.append(f"{indent}]" + ("" if last else ","))
    return out


def format_vector(v: dict) -> str:
    """JSON with one event (one match hand, one move list) per line, for reading diffs."""
    out = ["{"]
    keys = list(v)
    for i, key in enumerate(keys):
        last = i == len(keys) - 1
        value = v[key]
        if key == "hands":
            out += _lines(key, value, " ", last)
        elif key == "expect":
            out.append(' "expect": {')
            ekeys = list(value)
            for j, ekey in enumerate(ekeys):
                elast = j == len(ekeys) - 1
                evalue = value[ekey]
                if ekey == "events" and not evalue:
                    out.append('  "events": []' + ("" if elast else ","))
                elif ekey == "events":
                    out.append('  "events": [')
                    for m, move in enumerate(evalue):
                        tail = "," if m < len(evalue) - 1 else ""
                        inner = ",\n    ".join(_dump(e) for e in move)
                        out.append(f"   [{inner}]{tail}")
                    out.append("  ]" + ("" if elast else ","))
                elif ekey in ("deal_events", "hands"):
                    out += _lines(ekey, evalue, "  ", elast)
                else:
                    out.append(f"  {_dump(ekey)}: {_dump(evalue)}" + ("" if elast else ","))
            out.append(" }" + ("" if last else ","))
        else:
            out.append(f" {_dump(key)}: {_dump(value)}" + ("" if last else ","))
    out.append("}")
    text = "\n".join(out) + "\n"
    assert json.loads(text) == v
    return text


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="build and compare, write nothing")
    args = parser.parse_args(argv)
    templates()
    ids = Counter(t["id"] for t in VECTORS)
    twice = [i for i, n in ids.items() if n > 1]
    if twice:
        raise VectorError(f"ids used twice: {twice}")
    built, errors = [], []
    for t in VECTORS:
        try:
            built.append(build(t))
        except VectorError as exc:
            errors.append(str(exc))
    if errors:
        print(f"{len(errors)} of {len(VECTORS)} templates failed; nothing written:", file=sys.stderr)
        for e in errors:
            print(e, file=sys.stderr)
        return 1
    if not args.check:
        write(built)
    by_preset = Counter(v["preset"] for v in built)
    by_rule = Counter((v["preset"], v["rule"]) for v in built)
    print(f"{len(built)} vectors: " + ", ".join(f"{p} {n}" for p, n in sorted(by_preset.items())))
    for (p, r), n in sorted(by_rule.items()):
        print(f"  {p:12s} {r:40s} {n}")
    return 0


# ================================================================ the templates
# (appended below, one function per group of rule rows)

TEMPLATE_SECTIONS: list = []


def section(fn):
    TEMPLATE_SECTIONS.append(fn)
    return fn


def templates() -> None:
    for fn in TEMPLATE_SECTIONS:
        fn()


# ---------------------------------------------------------------- a turn: captures
PRESETS = ("casual", "traditional", "standard", "family")
#: harmless hands for the seats that do not move in a one-move scenario
FILLERS = ("10J2 10R", "4R 9R", "12A 6R")
SRC_CAPTURE = {"casual": "000.capture", "traditional": "001.place", "standard": "002.flip",
               "family": "004.flip"}


def others(players: int, seat: int, cards=FILLERS) -> list[str]:
    """Hands for the seats other than ``seat``: harmless cards so that play goes on."""
    hands = []
    k = 0
    for p in range(players):
        if p == seat:
            hands.append(None)
        else:
            hands.append(cards[k])
            k += 1
    return hands


def hands_with(players: int, seat: int, mine: str, cards=FILLERS):
    h = others(players, seat, cards)
    h[seat] = mine
    return h


@section
def capture_rows():
    # played card matches one field card: casual captures at once, the others wait
    for players, seat in ((2, 0), (2, 1), (3, 2), (4, 3)):
        add("casual", "played card matches one field card", f"capture-now-{players}p-seat{seat}",
            *q("000.capture"),
            f"{players} players, seat {seat} plays 3B onto 3R: the pair is captured at once, "
            "before the flip (11J1 matches nothing and stays)",
            position=pos("casual", players, field="3R 5J1", hands=hands_with(players, seat, "3B 7A"),
                         stock="11J1", turn=seat, dealer=seat),
            moves=["3B"], want=[captured(seat, "3B 3R"), on_field("11J1 5J1")])
    for preset in ("traditional", "standard", "family"):
        for players, seat in ((2, 0), (3, 1)):
            add(preset, "played card matches one field card", f"pair-waits-{players}p-seat{seat}",
                *q("001.pair_waits"),
                f"{preset}, {players} players: 3B is placed on 3R and waits; the flip 11J1 "
                "matches nothing, so the pair is captured at the end of the turn",
                position=pos(preset, players, field="3R 5J1",
                             hands=hands_with(players, seat, "3B 7A"), stock="11J1", turn=seat),
                moves=["3B"], want=[captured(seat, "3B 3R"), on_field("11J1")])
        add(preset, "played card matches one field card", "pair-waits-flip-takes-another",
            *q("001.two_pairs"),
            f"{preset}: 3B waits on 3R, the flip 5J2 takes 5J1; both pairs are captured",
            position=pos(preset, 2, field="3R 5J1 6J1", hands=["3B 7A", "1J1 2J1"],
                         stock="5J2 11J1"),
            moves=["3B"], want=[captured(0, "3B 3R 5J1 5J2")])

    # the played card matches two field cards: the player chooses
    for preset in PRESETS:
        src = {"casual": "000.choose", "traditional": "001.choose", "standard": "002.choose",
               "family": "004.choose"}[preset]
        for take, leave in (("3R", "3J1"), ("3J1", "3R")):
            add(preset, "matches two", f"take-{take}", *q(src),
                f"{preset}: 3B matches 3R and 3J1 on the field; the move 3B/{take} takes {take} "
                f"and leaves {leave}",
                position=pos(preset, 2, field="3R 3J1 5J1", hands=["3B 7A", "1J1 2J1"],
                             stock="11J1 12D"),
                moves=[f"3B/{take}"], want=[captured(0, f"3B {take}"), on_field(leave)])
        add(preset, "matches two", "choice-offered", *q(src),
            f"{preset}: holding 3B with 3R and 3J1 on the field, the plays are 3B/3R and 3B/3J1 "
            "(a bare 3B is no move)",
            position=pos(preset, 2, field="3R 3J1 5J1", hands=["3B 7A", "1J1 2J1"], stock="11J1"),
            moves=[], want=[legal("3B/3R", "3B/3J1", "7A", exact=True)])
    add("traditional", "matches two", "take-3J1-3p-seat2", *q("001.choose"),
        "traditional, 3 players: seat 2 lays 3R on 3J1 of the two March cards",
        position=pos("traditional", 3, field="3B 3J1 5J1", hands=hands_with(3, 2, "3R 7A"),
                     stock="11J1", turn=2),
        moves=["3R/3J1"], want=[captured(2, "3R 3J1"), on_field("3B")])

    # casual: three of a month on the field are three cards, a match chooses one
    for players, take in ((2, "3R"), (2, "3J2"), (3, "3J1")):
        add("casual", "three of a month on the field", f"choose-{take}-{players}p", *q("m.three_casual"),
            f"casual has no stacks: 3B meets 3R 3J1 3J2 and takes only {take}",
            position=pos("casual", players, field="3R 3J1 3J2 5J1",
                         hands=hands_with(players, 0, "3B 7A"), stock="11J1"),
            moves=[f"3B/{take}"], want=[captured(0, f"3B {take}"), lacks("stack")])
    add("casual", "three of a month on the field", "three-choices-offered", *q("000.choose"),
        "casual: 3B with three March cards on the field offers three plays",
        position=pos("casual", 2, field="3R 3J1 3J2", hands=["3B", "1J1 2J1"], stock="11J1"),
        moves=[], want=[legal("3B/3R", "3B/3J1", "3B/3J2", exact=True)])

    # the flip: one match, two (a decision), a stack
    for preset in PRESETS:
        src = {"casual": "000.flip", "traditional": "001.flip_one", "standard": "002.flip",
               "family": "004.flip"}[preset]
        add(preset, "flip matches one / two / a stack", "flip-one", *q(src),
            f"{preset}: 3B matches nothing and stays; the flip 5J2 takes 5J1",
            position=pos(preset, 2, field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="5J2 11J1"),
            moves=["3B"], want=[captured(0, "5J1 5J2"), on_field("3B")])
        src2 = {"casual": "000.flip", "traditional": "001.flip_two", "standard": "002.choose",
                "family": "004.choose"}[preset]
        add(preset, "flip matches one / two / a stack", "flip-two-asks", *q(src2),
            f"{preset}: the flip 5J2 finds 5R and 5J1: the player must choose (phase flip)",
            position=pos(preset, 2, field="5R 5J1 6J1", hands=["3B 7A", "1J1 2J1"],
                         stock="5J2 11J1"),
            moves=["3B"], want=[phase("flip"), legal("flip/5R", "flip/5J1", exact=True)])
        for take in ("5R", "5J1"):
            add(preset, "flip matches one / two / a stack", f"flip-two-take-{take}", *q(src2),
                f"{preset}: the flip 5J2 finds 5R and 5J1; flip/{take} takes {take}",
                position=pos(preset, 2, field="5R 5J1 6J1", hands=["3B 7A", "1J1 2J1"],
                             stock="5J2 11J1"),
                moves=["3B", f"flip/{take}"], want=[captured(0, f"5J2 {take}"), phase("play")])
    add("casual", "flip matches one / two / a stack", "flip-three-choose", *q("m.three_casual"),
        "casual: the flip 5J2 finds three May cards (no stack) and takes the one chosen",
        position=pos("casual", 2, field="5A 5R 5J1 6J1", hands=["3B 7A", "1J1 2J1"],
                     stock="5J2 11J1"),
        moves=["3B", "flip/5A"], want=[captured(0, "5J2 5A"), lacks("stack")])
    for preset, steals in (("traditional", True), ("standard", True), ("family", False)):
        src = {"traditional": "001.flip_stack", "standard": "002.stack", "family": "004.stack"}[preset]
        add(preset, "flip matches one / two / a stack", "flip-takes-stack", *q(src),
            f"{preset}: the flip 5J2 meets the stack 5A 5R 5J1 and takes all four"
            + (", and a junk from the opponent" if steals else " (no steal in family)"),
            position=pos(preset, 2, field="5A 5R 5J1 6J1", hands=["3B 7A", "1J1 2J1"],
                         captured=["-", "8J1 11D" if steals else "8J1 8J2 11D 11J2"],
                         stock="5J2 11J1"),
            moves=["3B"], want=[has("stack"), captured(0, "5A 5R 5J1 5J2"),
                                stolen(("8J1", 1)) if steals else no_steal])
    add("traditional", "flip matches one / two / a stack", "pair-and-stack", *q("001.flip_stack"),
        "traditional: 3B waits on 3R while the flip 5J2 takes the stack of May; "
        "both are captured and the stack steals",
        position=pos("traditional", 2, field="3R 5A 5R 5J1", hands=["3B 7A", "1J1 2J1"],
                     captured=["-", "8J1"], stock="5J2 11J1"),
        moves=["3B"], want=[captured(0, "3B 3R 5A 5R 5J1 5J2 8J1")])

    # the played card meets a stack of three
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.stack_play", "standard": "002.stack"}[preset]
        for players, seat, victims, steals in (
                (2, 0, ["-", "1J1 11D"], [("1J1", 1)]),
                (2, 1, ["2J2 12D", "-"], [("2J2", 0)]),
                (2, 0, ["-", "12D 11D"], [("11D", 1)]),
                (3, 0, ["-", "6J2", "-"], [("6J2", 1)]),
                (3, 1, ["7J2 4J2", "-", "1B 9A"], [("4J2", 0)])):
            add(preset, "matches a stack of three", f"stack-steal-{players}p-seat{seat}-{steals[0][0]}",
                *q(src),
                f"{preset}, {players} players: seat {seat} plays 3B onto the stack 3R 3J1 3J2, "
                f"takes all four and one junk from each opponent that has one",
                position=pos(preset, players, field="3R 3J1 3J2 5J1",
                             hands=hands_with(players, seat, "3B 7A"), captured=victims,
                             stock="11J1", turn=seat),
                moves=["3B"], want=[has("stack"), captured(seat, "3B 3R 3J1 3J2"), stolen(*steals)])
        add(preset, "matches a stack of three", "no-choice-offered", *q("001.stack"),
            f"{preset}: with a stack of March on the field 3B is one move (no 3B/3R)",
            position=pos(preset, 2, field="3R 3J1 3J2", hands=["3B 7A", "1J1"], stock="11J1"),
            moves=[], want=[legal("3B", "7A", exact=True)])
    for players in (2, 4):
        add("family", "matches a stack of three", f"stack-no-steal-{players}p", *q("004.stack"),
            f"family, {players} players: 3B takes the stack of March whole and steals nothing",
            position=pos("family", players, field="3R 3J1 3J2 5J1",
                         hands=hands_with(players, 0, "3B 7A"),
                         captured=["-"] + ["8J1 8J2 11D 11J2"] + ["-"] * (players - 2),
                         stock="11J1"),
            moves=["3B"], want=[has("stack"), captured(0, "3B 3R 3J1 3J2"), no_steal])
    add("standard", "matches a stack of three", "stack-takes-its-bonus", *q("002.bonus_ppeok"),
        "standard: X2 lies with the ppeok stack of March (stackbonus=X2:3); 3B takes the "
        "stack, X2 with it, and steals",
        position=pos("standard", 2, field="3R 3J1 3J2 X2 5J1", hands=["3B 7A", "1J1 2J1"],
                     captured=["-", "4J1"], stock="11J1", tokens="stackbonus=X2:3"),
        moves=["3B"], want=[captured(0, "3B 3R 3J1 3J2 X2 4J1"), no_token("stackbonus")])
    add("traditional", "three of a month on the field", "dealt-stack-taken", *q("001.stack"),
        "traditional: three of March on the field are one stack; the fourth takes it whole",
        position=pos("traditional", 2, field="3B 3R 3J1 7J1", hands=["3J2 7A", "1J1"],
                     captured=["-", "2J1"], stock="11J1"),
        moves=["3J2"], want=[has("stack"), captured(0, "3B 3R 3J1 3J2")])
    add("standard", "three of a month on the field", "dealt-stack-taken-by-flip", *q("004.stack"),
        "standard: a stack of August on the field is taken whole by the flipped 8J2",
        position=pos("standard", 2, field="8B 8A 8J1 7J1", hands=["3J2 7A", "1J1"],
                     captured=["-", "2J1"], stock="8J2 11J1"),
        moves=["3J2"], want=[has("stack"), captured(0, "8B 8A 8J1 8J2 2J1")])
    add("family", "three of a month on the field", "dealt-stack-taken", *q("004.stack"),
        "family: three of August on the field are one stack; 8J2 takes it whole",
        position=pos("family", 3, field="8B 8A 8J1 7J1", hands=["8J2 7A", "1J1", "2J1"],
                     stock="11J1"),
        moves=["8J2"], want=[has("stack"), captured(0, "8B 8A 8J1 8J2")])


# ---------------------------------------------------------------- a turn: special events
def chip_event(o, reason_name: str) -> bool | str:
    got = [e for e in all_events(o) if e[0] == "chips" and e[2] == reason_name]
    return bool(got) or f"a chips event for {reason_name} expected"


def chips_for(reason_name: str):
    return lambda o: chip_event(o, reason_name)


def no_chips(o):
    got = [e for e in all_events(o) if e[0] == "chips"]
    return not got or f"no chips expected: {got}"


@section
def ppeok_rows():
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.ppeok", "standard": "002.ppeok"}[preset]
        for players, seat in ((2, 0), (3, 2)):
            add(preset, "ppeok", f"stack-stays-{players}p-seat{seat}", *q(src),
                f"{preset}, {players} players: 3B waits on 3R and the flip 3J1 matches the pair: "
                "all three stay on the field as a stack and nothing is captured",
                position=pos(preset, players, field="3R 5J1",
                             hands=hands_with(players, seat, "3B 7A"), stock="3J1 11J1", turn=seat),
                moves=["3B"], want=[has("ppeok"), on_field("3B 3R 3J1"),
                                    lambda o, s=seat: o["captured"][str(s)] == [] or "no capture"])
        add(preset, "ppeok", "stack-stays-other-pair-taken", *q(src),
            f"{preset}: a ppeok of March while the same flip takes nothing else; the next "
            "turn's flip 5J2 still captures for the opponent",
            position=pos(preset, 2, field="3R 5J1", hands=["3B 7A", "6J1 10R"],
                         stock="3J1 5J2 11J1"),
            moves=["3B", "6J1"], want=[has("ppeok"), captured(1, "5J1 5J2"), on_field("3B 3R 3J1")])
        add(preset, "ppeok", "stack-taken-by-the-fourth", *q("001.stack_steal"),
            f"{preset}: seat 0 makes a ppeok of March, seat 1 plays 3J2 and takes the stack "
            "of three, stealing a junk from seat 0",
            position=pos(preset, 2, field="3R 5J1", hands=["3B 7A", "3J2 10R"],
                         captured=["2J2", "-"], stock="3J1 11J1 12D"),
            moves=["3B", "3J2"], want=[has("ppeok", "stack"), captured(1, "3B 3R 3J1 3J2 2J2"),
                                       stolen(("2J2", 0))])
    add("standard", "ppeok", "flipped-bonus-stays-with-stack", *q("002.bonus_ppeok"),
        "standard: the flip turns X2 (it waits for the turn's captures) and then 3J1, a ppeok: "
        "X2 stays on the field with the March stack",
        position=pos("standard", 2, field="3R 5J1", hands=["3B 7A", "10J2 10R"],
                     stock="X2 3J1 11J1"),
        moves=["3B"], want=[has("ppeok"), token("stackbonus=X2:3"), on_field("X2 3B 3R 3J1")])
    add("standard", "ppeok", "option-bonus-banked", *q("002.bonus_flip"),
        "standard with ppeok_keeps_bonus=0: the flipped X2 of a ppeok turn is banked at the end "
        "of the turn instead of staying with the stack",
        position=pos("standard+ppeok_keeps_bonus=0", 2, field="3R 5J1", hands=["3B 7A", "10J2 10R"],
                     stock="X2 3J1 11J1"),
        moves=["3B"], want=[has("ppeok"), captured(0, "X2"), no_token("stackbonus")])
    for players in (2, 3, 4):
        add("family", "ppeok", f"pair-taken-flip-stays-{players}p", *q("004.ppeok"),
            f"family, {players} players: the flip 3J1 matches the pair 3B/3R just made: the pair "
            "is captured and 3J1 stays on the field",
            position=pos("family", players, field="3R 5J1", hands=hands_with(players, 0, "3B 7A"),
                         stock="3J1 11J1"),
            moves=["3B"], want=[has("ppeok"), captured(0, "3B 3R"), on_field("3J1"),
                                not_captured(0, "3J1")])
    for players in (2, 3):
        add("casual", "ppeok", f"impossible-{players}p", *q("m.ppeok_casual"),
            f"casual, {players} players: 3B takes 3R at once, so the flipped 3J1 finds no pair "
            "and stays on the field",
            position=pos("casual", players, field="3R 5J1", hands=hands_with(players, 0, "3B 7A"),
                         stock="3J1 11J1"),
            moves=["3B"], want=[lacks("ppeok"), captured(0, "3B 3R"), on_field("3J1")])
    add("casual", "ppeok", "option-pair-waits", *q("001.ppeok"),
        "casual with capture_at_play=0 and ppeok=1: the pair waits and the flip 3J1 makes a ppeok",
        position=pos("casual+capture_at_play=0,ppeok=1", 2, field="3R 5J1",
                     hands=["3B 7A", "10J2 10R"], stock="3J1 11J1"),
        moves=["3B"], want=[has("ppeok"), on_field("3B 3R 3J1")])

    # first-turn ppeok and the third ppeok
    for players, seat in ((2, 0), (2, 1), (3, 0), (3, 2)):
        played = ",".join("0" if p == seat else "1" for p in range(players))
        add("traditional", "first-turn ppeok", f"pays-3-{players}p-seat{seat}", *q("001.first_ppeok"),
            f"traditional, {players} players: seat {seat} makes a ppeok on its first turn: each "
            "opponent pays 3 chips at once and play continues",
            position=pos("traditional", players, first=True, tokens=f"played={played}",
                         field="3R 5J1", hands=hands_with(players, seat, "3B 7A"),
                         stock="3J1 11J1", turn=seat),
            moves=["3B"], want=[has("ppeok"), chips_for("first_turn_ppeok"), phase("play"),
                                lambda o, s=seat, n=players: o["chips"][s] == 3 * (n - 1) or "3 each"])
    add("traditional", "first-turn ppeok", "not-on-second-turn", *q("001.first_ppeok"),
        "traditional: the same ppeok on the player's second turn pays nothing",
        position=pos("traditional", 2, field="3R 5J1", hands=["3B 7A", "10J2 10R"],
                     stock="3J1 11J1"),
        moves=["3B"], want=[has("ppeok"), no_chips, chips(0, 0)])
    for preset in ("standard", "family"):
        add(preset, "first-turn ppeok", "no-chips",
            *q("002.ppeok" if preset == "standard" else "004.ppeok"),
            f"{preset}: a ppeok on the first turn pays no chips (first_turn_ppeok_chips=0)",
            position=pos(preset, 2, first=True, field="3R 5J1", hands=["3B 7A", "10J2 10R"],
                         stock="3J1 11J1"),
            moves=["3B"], want=[has("ppeok"), no_chips])
    for players in (2, 3):
        zeros = ",".join(["0"] * (players - 1))
        add("traditional", "third ppeok", f"ends-hand-{players}p", *q("001.three_ppeok"),
            f"traditional, {players} players: seat 0 has made two ppeoks; a third ends the hand and "
            "each opponent pays 5 chips",
            position=pos("traditional", players, tokens=f"ppeoks=2,{zeros}", field="3R 5J1",
                         hands=hands_with(players, 0, "3B 7A"), stock="3J1 11J1"),
            moves=["3B"], want=[has("ppeok", "three_ppeok"), reason("three_ppeok"),
                                lambda o, n=players: o["chips"][0] == 5 * (n - 1) or "5 each"])
    add("traditional", "third ppeok", "option-3-chips", *q("001.three_ppeok"),
        "traditional with three_ppeok_chips=3: the third ppeok ends the hand for 3 chips each",
        position=pos("traditional+three_ppeok_chips=3", 2, tokens="ppeoks=2,0", field="3R 5J1",
                     hands=["3B 7A", "10J2 10R"], stock="3J1 11J1"),
        moves=["3B"], want=[reason("three_ppeok"), chips(3, -3)])
    add("traditional", "third ppeok", "second-goes-on", *q("001.three_ppeok"),
        "traditional: a second ppeok only counts (ppeoks=2); play goes on",
        position=pos("traditional", 2, tokens="ppeoks=1,0", field="3R 5J1",
                     hands=["3B 7A", "10J2 10R"], stock="3J1 11J1"),
        moves=["3B"], want=[has("ppeok"), phase("play"), token("ppeoks=2,0")])
    add("traditional", "third ppeok", "first-turn-and-third", *q("001.three_ppeok"),
        "traditional: a third ppeok made on the player's first turn (an odd position) pays the "
        "3 first-turn chips and then ends the hand with 5",
        position=pos("traditional", 2, first=True, tokens="ppeoks=2,0", field="3R 5J1",
                     hands=["3B 7A", "10J2 10R"], stock="3J1 11J1"),
        moves=["3B"], want=[chips_for("first_turn_ppeok"), reason("three_ppeok"), chips(8, -8)])
    add("standard", "third ppeok", "no-end", *q("002.ppeok"),
        "standard: no third-ppeok rule; the third ppeok is an ordinary one",
        position=pos("standard", 2, tokens="ppeoks=2,0", field="3R 5J1",
                     hands=["3B 7A", "10J2 10R"], stock="3J1 11J1"),
        moves=["3B"], want=[has("ppeok"), phase("play"), lacks("three_ppeok")])


@section
def jjok_ttadak_sseul_rows():
    # jjok / chok
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.chok", "standard": "002.jjok"}[preset]
        add(preset, "jjok / chok", "steal-single-2p", *q(src),
            f"{preset}: 3B matches nothing, the flip 3R takes it back: jjok, and the opponent "
            "gives its single junk 2J2 (not the double 11D)",
            position=pos(preset, 2, field="5J1 6J1", hands=["3B 7A", "10J2 10R"],
                         captured=["-", "2J2 11D"], stock="3R 11J1"),
            moves=["3B"], want=[has("jjok"), captured(0, "3B 3R 2J2"), stolen(("2J2", 1))])
        add(preset, "jjok / chok", "steal-3p-seat1", *q(src),
            f"{preset}, 3 players: seat 1's jjok takes 12D from seat 0 (its only junk) and "
            "nothing from seat 2, which has none",
            position=pos(preset, 3, field="5J1 6J1", hands=hands_with(3, 1, "3B 7A"),
                         captured=["12D 1B", "-", "2A"], stock="3R 11J1", turn=1),
            moves=["3B"], want=[has("jjok"), stolen(("12D", 0))])
    add("traditional", "jjok / chok", "steal-from-both-3p", *q("001.surrender"),
        "traditional, 3 players: a jjok by seat 2 takes one junk from each opponent",
        position=pos("traditional", 3, field="5J1 6J1", hands=hands_with(3, 2, "3B 7A"),
                     captured=["4J2 6J2", "11D", "-"], stock="3R 11J1", turn=2),
        moves=["3B"], want=[stolen(("4J2", 0), ("11D", 1))])
    for victim, steals, name in (("X2 X3", [("X2", 1)], "bonus-x2-first"),
                                 ("X3 9A", [("X3", 1)], "bonus-x3"),
                                 ("9A", [], "sake-cup-kept")):
        add("standard", "jjok / chok", f"steal-{name}", *q("m.steal"),
            f"standard: the opponent holds {victim}: the jjok steal takes "
            + (steals[0][0] if steals else "nothing (9A is never given)"),
            position=pos("standard", 2, field="5J1 6J1", hands=["3B 7A", "10J2 10R"],
                         captured=["-", victim], stock="3R 11J1"),
            moves=["3B"], want=[has("jjok"), stolen(*steals)])
    for players in (2, 3):
        add("family", "jjok / chok", f"no-steal-{players}p", *q("004.jjok"),
            f"family, {players} players: the flip takes back the card just played; no steal",
            position=pos("family", players, field="5J1 6J1", hands=hands_with(players, 0, "3B 7A"),
                         captured=["-", "2J1 2J2", "4J1 4J2"][:players], stock="3R 11J1"),
            moves=["3B"], want=[captured(0, "3B 3R"), no_steal])
    add("casual", "jjok / chok", "plain-capture", *q("m.jjok_casual"),
        "casual: the flip 3R takes the 3B just played; a plain capture, no steal",
        position=pos("casual", 2, field="5J1 6J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "2J2 11D"], stock="3R 11J1"),
        moves=["3B"], want=[captured(0, "3B 3R"), no_steal])
    add("casual", "jjok / chok", "plain-capture-3p", *q("000.only_bomb"),
        "casual, 3 players: seat 1's flip takes its own played card; nobody gives a junk",
        position=pos("casual", 3, field="5J1", hands=hands_with(3, 1, "8J1 7A"),
                     captured=["2J2", "-", "4J2"], stock="8B 11J1", turn=1),
        moves=["8J1"], want=[captured(1, "8J1 8B"), no_steal])

    # ttadak
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.ttadak", "standard": "002.ttadak"}[preset]
        for take in ("3J1", "3R"):
            add(preset, "ttadak", f"steal-onto-{take}", *q(src),
                f"{preset}: 3B is laid on {take} of the two March cards and the flip is 3J2, the "
                "fourth: all four are captured and the opponent gives a junk",
                position=pos(preset, 2, field="3R 3J1 6J1", hands=["3B 7A", "10J2 10R"],
                             captured=["-", "2J2 12D"], stock="3J2 11J1"),
                moves=[f"3B/{take}"], want=[has("ttadak"), captured(0, "3B 3R 3J1 3J2 2J2"),
                                            stolen(("2J2", 1))])
        add(preset, "ttadak", "steal-3p-seat2", *q(src),
            f"{preset}, 3 players: seat 2's ttadak of August takes a junk from seat 0 and the "
            "double junk from seat 1, which has no single one",
            position=pos(preset, 3, field="8B 8J1 6J1", hands=hands_with(3, 2, "8A 7A"),
                         captured=["1J1", "11D 9A", "-"], stock="8J2 11J1", turn=2),
            moves=["8A/8B"], want=[has("ttadak"), stolen(("1J1", 0), ("11D", 1))])
    add("family", "ttadak", "no-steal", *q("004.ttadak"),
        "family: ttadak takes all four of March but steals nothing",
        position=pos("family", 2, field="3R 3J1 6J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "2J1 2J2"], stock="3J2 11J1"),
        moves=["3B/3J1"], want=[captured(0, "3B 3R 3J1 3J2"), no_steal])
    add("family", "ttadak", "no-steal-4p", *q("004.no_ppeok"),
        "family, 4 players: seat 3 takes all four of February; nobody gives anything",
        position=pos("family", 4, field="2A 2J1 6J1", hands=hands_with(4, 3, "2R 7A"),
                     captured=["1J1 1J2", "3J1 3J2", "4J1 4J2", "-"], stock="2J2 11J1", turn=3),
        moves=["2R/2A"], want=[captured(3, "2A 2R 2J1 2J2"), no_steal])
    add("casual", "ttadak", "impossible", *q("m.ttadak_casual"),
        "casual: 3B takes 3R at once; the flip 3J2 then takes the 3J1 left behind: two "
        "captures, no ttadak and no steal",
        position=pos("casual", 2, field="3R 3J1 6J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "2J2"], stock="3J2 11J1"),
        moves=["3B/3R"], want=[lacks("ttadak"), captured(0, "3B 3R 3J1 3J2"), no_steal])

    # sseul
    add("traditional", "sseul", "field-emptied-2p", *q("001.sseul"),
        "traditional: the field holds 3R and 5J1; 3B waits on 3R, the flip 5J2 takes 5J1: the "
        "field is empty (sseul) and the opponent gives a junk",
        position=pos("traditional", 2, field="3R 5J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "2J2"], stock="5J2 11J1"),
        moves=["3B"], want=[has("sseul"), stolen(("2J2", 1))])
    add("traditional", "sseul", "field-emptied-3p-seat1", *q("001.sseul"),
        "traditional, 3 players: seat 1 sweeps the field and takes a junk from both opponents",
        position=pos("traditional", 3, field="3R 5J1", hands=hands_with(3, 1, "3B 7A"),
                     captured=["6J2", "-", "12D 7J2"], stock="5J2 11J1", turn=1),
        moves=["3B"], want=[has("sseul"), stolen(("6J2", 0), ("7J2", 2))])
    add("traditional", "sseul", "flip-stays-no-sseul", *q("001.sseul"),
        "traditional: 3B takes 3R, the only field card, but the flip 7J1 stays: the field is "
        "not empty, no sseul",
        position=pos("traditional", 2, field="3R", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "2J2"], stock="7J1 11J1"),
        moves=["3B"], want=[lacks("sseul"), no_steal])
    add("traditional", "sseul", "jjok-on-empty-field-no-sseul", *q("001.sseul"),
        "traditional: on an empty field 3B stays and the flip 3R takes it back: a jjok that "
        "leaves the field empty is no sseul (the field did not hold two cards): one steal",
        position=pos("traditional", 2, field="-", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "2J2 4J2"], stock="3R 11J1"),
        moves=["3B"], want=[has("jjok"), lacks("sseul"), stolen(("2J2", 1))])
    add("traditional", "sseul", "ttadak-one-month-no-sseul", *q("001.sseul"),
        "traditional: a ttadak on two cards of one month empties the field but is no sseul "
        "(the two cards were not of different months): the ttadak's one steal",
        position=pos("traditional", 2, field="3R 3J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "12D 2J2"], stock="3J2 11J1"),
        moves=["3B/3R"], want=[has("ttadak"), lacks("sseul"), stolen(("2J2", 1))])
    add("traditional", "sseul", "bomb-and-flip-sweep", *q("001.sseul"),
        "traditional: the field holds 3J2 and 5J1; the bomb of March takes 3J2, the flip 5J2 "
        "takes 5J1: a sseul, with the bomb's steal and the sseul's",
        position=pos("traditional", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R"],
                     captured=["-", "2J2 4J2"], stock="5J2 11J1"),
        moves=["bomb3"], want=[has("bomb", "sseul"), stolen(("2J2", 1), ("4J2", 1))])
    add("traditional", "sseul", "option-off", *q("001.sseul"),
        "traditional with sseul_steal=0: sweeping the field steals nothing",
        position=pos("traditional+sseul_steal=0", 2, field="3R 5J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "2J2"], stock="5J2 11J1"),
        moves=["3B"], want=[lacks("sseul"), no_steal])
    for preset, src in (("standard", "m.no_sseul"), ("family", "004.flip"), ("casual", "000.not_included")):
        add(preset, "sseul", "no-steal", *q(src),
            f"{preset}: capturing the last field cards steals nothing",
            position=pos(preset, 2, field="3R 5J1", hands=["3B 7A", "10J2 10R"],
                         captured=["-", "2J1 2J2" if preset == "family" else "2J2"],
                         stock="5J2 11J1"),
            moves=["3B"], want=[lacks("sseul"), no_steal, captured(0, "3B 3R 5J1 5J2")])


@section
def last_turn_rows():
    cases = (
        ("jjok", "5J1", "3B", "3R", "3B", False),
        ("ttadak", "3R 3J1 5J1", "3B", "3J2", "3B/3R", False),
        ("sseul", "3R 5J1", "3B", "5J2", "3B", False),
        ("stack", "3R 3J1 3J2", "3B", "5J1", "3B", True),
    )
    for preset in ("traditional", "standard"):
        for kind, field, hand, stock, move, steals in cases:
            if kind == "sseul" and preset == "standard":
                continue
            src = "001.last_stack" if steals else "001.last_turn"
            add(preset, "the last turn", f"{kind}-{'steals' if steals else 'no-steal'}", *q(src),
                f"{preset}: seat 1 plays the last card of the hand; a {kind} "
                + ("still steals" if steals else "steals nothing on the last turn")
                + "; then the hand is played out",
                position=pos(preset, 2, field=field, hands=["-", hand], turn=1,
                             captured=["1J1 2J1", "-"], stock=stock),
                moves=[move], want=[has(kind), stolen(("1J1", 0)) if steals else no_steal,
                                    reason("draw")])
    add("traditional", "the last turn", "jjok-3p-no-steal", *q("m.last_turn"),
        "traditional, 3 players: seat 2 plays the very last card; its jjok steals nothing",
        position=pos("traditional", 3, field="5J1", hands=["-", "-", "3B"], turn=2,
                     captured=["1J1", "2J1", "-"], stock="3R"),
        moves=["3B"], want=[has("jjok"), no_steal, reason("draw")])
    add("traditional", "the last turn", "not-last-jjok-steals", *q("001.chok"),
        "traditional: seat 0 still holds a card, so seat 1's jjok is no last turn: it steals",
        position=pos("traditional", 2, field="5J1", hands=["7A", "3B"], turn=1,
                     captured=["1J1", "-"], stock="3R 11J1"),
        moves=["3B"], want=[has("jjok"), stolen(("1J1", 0)), phase("play")])
    add("traditional", "the last turn", "option-steals", *q("001.chok"),
        "traditional with last_turn_no_steal=0: the jjok on the last turn steals",
        position=pos("traditional+last_turn_no_steal=0", 2, field="5J1", hands=["-", "3B"], turn=1,
                     captured=["1J1", "-"], stock="3R"),
        moves=["3B"], want=[has("jjok"), stolen(("1J1", 0))])
    add("family", "the last turn", "nothing-special", *q("004.run_out"),
        "family: the last card's ttadak steals nothing (family never steals); the hand is scored",
        position=family_end(2, ["1J1 1J2", "-"], seat=1, hand="3B", field="3R 3J1", stock="3J2",
                            fill=1),
        moves=["3B/3R"], want=[no_steal, reason("family")])


@section
def first_turn_capture_rows():
    opt = "traditional+first_turn_capture_chips=3"
    cases = (
        ("ttadak", "3R 3J1 6J1", "3B", "3J2 11J1", "3B/3R"),
        ("stack", "3R 3J1 3J2 6J1", "3B", "11J1", "3B"),
        ("jjok", "5J1 6J1", "3B", "3R 11J1", "3B"),
    )
    for kind, field, hand, stock, move in cases:
        for players in (2, 3):
            add("traditional", "first-turn ttadak / stack / chok", f"option-{kind}-{players}p",
                *q("001.first_capture"),
                f"traditional with first_turn_capture_chips=3, {players} players: a {kind} on the "
                "player's first turn brings 3 chips from each opponent (and its steal)",
                position=pos(opt, players, first=True, field=field,
                             hands=hands_with(players, 0, hand + " 7A"), stock=stock,
                             captured=["-", "2J2", "4J2"][:players]),
                moves=[move], want=[has(kind), chips_for("first_turn_capture"),
                                    lambda o, n=players: o["chips"][0] == 3 * (n - 1) or "3 each"])
    add("traditional", "first-turn ttadak / stack / chok", "option-not-second-turn",
        *q("m.first_turn_opt"),
        "traditional with the option: the same ttadak on a later turn pays no chips",
        position=pos(opt, 2, field="3R 3J1 6J1", hands=["3B 7A", "10J2 10R"], stock="3J2 11J1"),
        moves=["3B/3R"], want=[has("ttadak"), no_chips])
    add("traditional", "first-turn ttadak / stack / chok", "default-no-chips", *q("001.ttadak"),
        "traditional as preset (first_turn_capture_chips=0): a first-turn ttadak only steals",
        position=pos("traditional", 2, first=True, field="3R 3J1 6J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "2J2"], stock="3J2 11J1"),
        moves=["3B/3R"], want=[has("ttadak"), no_chips, stolen(("2J2", 1))])
    add("standard", "first-turn ttadak / stack / chok", "no-chips", *q("002.ttadak"),
        "standard: a first-turn ttadak only steals",
        position=pos("standard", 2, first=True, field="3R 3J1 6J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "2J2"], stock="3J2 11J1"),
        moves=["3B/3R"], want=[has("ttadak"), no_chips])


# ---------------------------------------------------------------- bombs, steals, shakes, bonus cards
BOMB_HAND = "3B 3R 3J1 7A"


@section
def bomb_and_steal_rows():
    # the steal: which junk an opponent gives (casual bombs steal)
    cases = (
        ("1J1 2J2 11D", [("1J1", 1)], "lowest-single"),
        ("5J2 4J1 12D", [("4J1", 1)], "single-by-card-order"),
        ("12D 11D", [("11D", 1)], "double-11D-first"),
        ("12D 9A", [("12D", 1)], "double-not-sake-cup"),
        ("X3 X2 12A", [("X2", 1)], "bonus-x2-before-x3"),
        ("X3 1B", [("X3", 1)], "bonus-x3-last"),
        ("9A", [], "sake-cup-never-given"),
        ("-", [], "empty-pile"),
        ("1B 2A 4R", [], "no-junk"),
        ("X2 11D 6J2", [("6J2", 1)], "single-before-bonus"),
    )
    for victim, steals, name in cases:
        add("casual", "steal", name, *q("m.steal"),
            f"casual: a bomb of March steals from an opponent holding {victim}: "
            + (f"it gives {steals[0][0]}" if steals else "it gives nothing"),
            position=pos("casual", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R"],
                         captured=["-", victim], stock="11J1 12B"),
            moves=["bomb3"], want=[has("bomb"), stolen(*steals)])
    add("casual", "steal", "every-opponent-4p", *q("000.bomb"),
        "casual, 4 players: seat 1's bomb takes one junk from every opponent that has one",
        position=pos("casual", 4, field="3J2 5J1", hands=hands_with(4, 1, BOMB_HAND),
                     captured=["2J2 11D", "-", "9A", "12D"], stock="11J1", turn=1),
        moves=["bomb3"], want=[stolen(("2J2", 0), ("12D", 3))])
    add("traditional", "steal", "valuable-junk", *q("001.valuable"),
        "traditional: a stack capture steals; the opponent has only double junk and gives 11D",
        position=pos("traditional", 2, field="3R 3J1 3J2", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "12D 11D 9A"], stock="11J1"),
        moves=["3B"], want=[stolen(("11D", 1))])
    add("traditional", "steal", "no-junk-nothing", *q("001.no_junk"),
        "traditional: a jjok against an opponent with no junk takes nothing",
        position=pos("traditional", 2, field="5J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "1B 2A 2R"], stock="3R 11J1"),
        moves=["3B"], want=[has("jjok"), no_steal])
    add("traditional", "steal", "sake-cup-single-junk-kept", *q("m.steal"),
        "traditional (9A counts as single junk when it scores): 9A is still never given",
        position=pos("traditional", 2, field="5J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "9A"], stock="3R 11J1"),
        moves=["3B"], want=[has("jjok"), no_steal])
    add("standard", "steal", "bridge-kept", *q("m.steal"),
        "standard: 5A may count as double junk for scoring but is an animal card: the steal "
        "takes the double junk 12D",
        position=pos("standard", 2, field="8J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "5A 12D"], stock="3R 11J1"),
        moves=["3B"], want=[stolen(("12D", 1))])

    # the bomb
    for players, seat in ((2, 0), (2, 1), (3, 1), (4, 2)):
        victims = [(j if p != seat else "-") for p, j in enumerate(("2J2", "4J2", "6J2", "7J2")[:players])]
        victims = [v if i != (seat + 1) % players else "11D" for i, v in enumerate(victims)]
        add("casual", "bomb", f"takes-four-{players}p-seat{seat}", *q("000.bomb"),
            f"casual, {players} players: seat {seat} drops a bomb of March: all four cards, one "
            "junk from every opponent, and two flip-only turns owed",
            position=pos("casual", players, field="3J2 5J1", hands=hands_with(players, seat, BOMB_HAND),
                         captured=victims, stock="11J1", turn=seat),
            moves=["bomb3"], want=[has("bomb"), captured(seat, "3B 3R 3J1 3J2"),
                                   lambda o, n=players: sum(1 for e in all_events(o) if e[0] == "stolen") == n - 1
                                   or "a junk from every opponent"])
    add("casual", "bomb", "never-forced", *q("000.never_forced"),
        "casual: with a bomb possible the three March cards may still be played one by one",
        position=pos("casual", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R"], stock="11J1"),
        moves=[], want=[legal("bomb3", "3B", "3R", "3J1", "7A", exact=True)])
    add("casual", "bomb", "single-play-instead", *q("000.never_forced"),
        "casual: playing 3B onto 3J2 instead of the bomb is a plain capture with no steal",
        position=pos("casual", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R"],
                     captured=["-", "2J2"], stock="11J1"),
        moves=["3B"], want=[lacks("bomb"), no_steal, captured(0, "3B 3J2")])
    add("casual", "bomb", "flip-captures-too", *q("000.bomb"),
        "casual: after the bomb the flip 5J2 takes 5J1 as in any turn",
        position=pos("casual", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R"],
                     captured=["-", "2J2"], stock="5J2 11J1"),
        moves=["bomb3"], want=[captured(0, "3B 3R 3J1 3J2 5J1 5J2 2J2")])
    add("casual", "bomb", "no-fourth-no-bomb", *q("000.bomb"),
        "casual: three of March in hand but none on the field: no bomb is offered",
        position=pos("casual", 2, field="5J1", hands=[BOMB_HAND, "10J2 10R"], stock="3J2 11J1"),
        moves=[], want=[not_legal("bomb3")])
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.stack_steal", "standard": "002.bomb"}[preset]
        add(preset, "bomb", "takes-four-and-steals", *q("002.bomb"),
            f"{preset}: the bomb of March takes all four and a junk from the opponent; it is "
            "counted (bombs=1) and two optional flip-only turns are owed",
            position=pos(preset, 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R"],
                         captured=["-", "2J2"], stock="11J1"),
            moves=["bomb3"], want=[has("bomb"), stolen(("2J2", 1)), token("bombs=1,0"),
                                   token("fliponly=2,0")])
        add(preset, "bomb", "three-players", *q(src) if preset == "traditional" else q("002.bomb"),
            f"{preset}, 3 players: seat 2's bomb of August steals from both opponents",
            position=pos(preset, 3, field="8J2 5J1", hands=hands_with(3, 2, "8B 8A 8J1 7A"),
                         captured=["1J1", "2J1", "-"], stock="11J1", turn=2),
            moves=["bomb8"], want=[stolen(("1J1", 0), ("2J1", 1))])
    add("standard", "bomb", "shake-then-bomb", *q("002.shake_bomb"),
        "standard: seat 0 shakes March first (the same turn goes on) and then drops the bomb",
        position=pos("standard", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R"],
                     captured=["-", "2J2"], stock="11J1"),
        moves=["shake3", "bomb3"], want=[has("shake", "bomb"), token("shaken=3|-")])
    add("family", "bomb", "no-bomb", *q("m.family_bomb"),
        "family: three of March in hand and the fourth on the field, yet no bomb is offered",
        position=pos("family", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R"], stock="11J1"),
        moves=[], want=[not_legal("bomb3"), legal("3B", "3R", "3J1", "7A", exact=True)])

    # flip-only turns after a bomb
    add("casual", "flip-only turns after a bomb", "forced-first", *q("000.flip_only"),
        "casual: after seat 0's bomb and seat 1's play, seat 0's turn is a forced flip-only "
        "turn, played at once; seat 1 moves again",
        position=pos("casual", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R 12A"],
                     stock="11J1 6J1 8J1"),
        moves=["bomb3", "10J2"], want=[has("flip_only"), token("fliponly=1,0"),
                                       lambda o: o["turn"] == 1 or "seat 1 again"])
    add("casual", "flip-only turns after a bomb", "forced-both", *q("000.flip_only"),
        "casual: both owed flip-only turns pass by themselves; then seat 0 plays from its hand",
        position=pos("casual", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R 12A"],
                     stock="11J1 6J1 8J1 9J1 2J1"),
        moves=["bomb3", "10J2", "10R", "12A"],
        want=[token("fliponly=0,0"), legal("7A", exact=True),
              lambda o: kinds(o).count("flip_only") == 2 or "two flip-only turns"])
    add("casual", "flip-only turns after a bomb", "forced-flip-captures", *q("000.flip_only"),
        "casual: a forced flip-only turn captures what the flip matches",
        position=pos("casual", 2, field="3J2 5J1", hands=[BOMB_HAND, "10J2 10R 12A"],
                     stock="11J1 6J1 5J2"),
        moves=["bomb3", "10J2"], want=[has("flip_only"), captured(0, "5J1 5J2")])
    add("casual", "flip-only turns after a bomb", "taken-on-empty-stock", *q("000.level"),
        "casual: with the stock empty the two owed flip-only turns still come, flipping "
        "nothing; then the hands are level and seat 0 plays from hand again",
        position=pos("casual", 2, field="5J1", hands=["7A", "10J2 10R 12A"], stock="-",
                     fliponly=[2, 0], turn=1, fill="captured0", go=[1, 0], lastgo=[1000, 0]),
        moves=["10J2", "10R", "12A"],
        want=[lambda o: kinds(o).count("flip_only") == 2 or "two flip-only turns",
              lacks("flipped"), token("fliponly=0,0"), legal("7A", exact=True)])
    add("casual", "flip-only turns after a bomb", "late-bomb-4p", *q("000.level"),
        "casual, 4 players: seat 0 bombs with one stock card left; its two owed turns come "
        "after each round of the others, flipping nothing; then every hand holds one card",
        position=pos("casual", 4, field="3J2 5J1",
                     hands=[BOMB_HAND, "1J1 2J1 4J1", "6J1 8J1 10J1", "1J2 2J2 4J2"],
                     stock="11J1", fill="captured1", go=[0, 1, 0, 0], lastgo=[0, 1000, 0, 0]),
        moves=["bomb3", "1J1", "6J1", "1J2", "2J1", "8J1", "2J2"],
        want=[lambda o: kinds(o).count("flip_only") == 2 or "two flip-only turns",
              lambda o: kinds(o).count("flipped") == 1 or "only the bomb's flip",
              token("fliponly=0,0,0,0"), token("hands=7A|4J1|10J1|4J2"),
              lambda o: o["turn"] == 1 or "seat 1 to play"])
    add("casual", "flip-only turns after a bomb", "bonus-waits", *q("000.flip_only"),
        "casual: seat 0 owes a flip-only turn and holds X2: the forced flip comes first, the "
        "bonus card waits for a normal turn",
        position=pos("casual", 2, field="5J1", hands=["X2 7A", "10J2 10R"], stock="11J1 6J1",
                     fliponly=[1, 0], turn=1),
        moves=["10J2", "10R"], want=[has("flip_only"), not_captured(0, "X2"),
                                     legal("X2", "7A", exact=True)])
    for preset in ("traditional", "standard"):
        src = {"traditional": "m.flip_only", "standard": "002.flip_only"}[preset]
        add(preset, "flip-only turns after a bomb", "optional-offered", *q(src),
            f"{preset}: seat 0 owes two flip-only turns: it may use one (fliponly) or play",
            position=pos(preset, 2, field="5J1", hands=["7A 8J1", "10J2 10R"], stock="11J1 6J1",
                         fliponly=[2, 0]),
            moves=[], want=[legal("fliponly", "7A", "8J1", exact=True)])
        add(preset, "flip-only turns after a bomb", "optional-used", *q(src),
            f"{preset}: fliponly skips the play: only the stock card is turned (5J2 takes 5J1)",
            position=pos(preset, 2, field="5J1", hands=["7A 8J1", "10J2 10R"], stock="5J2 6J1",
                         fliponly=[2, 0]),
            moves=["fliponly"], want=[has("flip_only"), captured(0, "5J1 5J2"),
                                      token("fliponly=1,0")])
        add(preset, "flip-only turns after a bomb", "optional-kept", *q(src),
            f"{preset}: playing a card instead keeps both flip-only turns owed",
            position=pos(preset, 2, field="5J1", hands=["7A 8J1", "10J2 10R"], stock="11J1 6J1",
                         fliponly=[2, 0]),
            moves=["7A"], want=[lacks("flip_only"), token("fliponly=2,0")])
    add("standard", "flip-only turns after a bomb", "forced-with-empty-hand", *q("002.flip_only"),
        "standard: a seat with an empty hand that still owes a flip-only turn has it forced",
        position=pos("standard", 2, field="5J1", hands=["-", "10J2 10R"], stock="11J1 6J1 5J2",
                     fliponly=[1, 0], turn=1),
        moves=["10J2"], want=[has("flip_only"), token("fliponly=0,0"),
                              lambda o: o["turn"] == 1 or "seat 1 again"])
    add("traditional", "flip-only turns after a bomb", "lapse-on-empty-stock", *q("m.flip_only"),
        "traditional: with the stock empty an owed flip-only turn is no move",
        position=pos("traditional", 2, field="5J1", hands=["7A 8J1", "10J2 10R"], stock="-",
                     fliponly=[2, 0], fill="captured1"),
        moves=[], want=[legal("7A", "8J1", exact=True)])


@section
def shaking_rows():
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.heundeum", "standard": "002.shake"}[preset]
        # traditional shakes only before the player's first play (shake_timing=1)
        first = preset == "traditional"
        add(preset, "shaking", "offered", *q(src),
            f"{preset}: holding three of September, the player may shake9 before playing one",
            position=pos(preset, 2, first=first, field="5J1", hands=["9A 9R 9J1 7A", "10J2 10R"],
                         stock="11J1"),
            moves=[], want=[legal("shake9", "9A", "9R", "9J1", "7A", exact=True)])
        add(preset, "shaking", "shown-then-play", *q(src),
            f"{preset}: shake9 shows the three cards; the same player then plays",
            position=pos(preset, 2, first=first, field="5J1", hands=["9A 9R 9J1 7A", "10J2 10R"],
                         stock="11J1"),
            moves=["shake9"], want=[has("shake"), token("shaken=9|-"), phase("play"),
                                    lambda o: o["turn"] == 0 or "still seat 0",
                                    not_legal("shake9")])
        add(preset, "shaking", "shown-and-played", *q(src),
            f"{preset}: shake9 then 7A: the turn ends normally; September stays shaken",
            position=pos(preset, 2, first=first, field="5J1", hands=["9A 9R 9J1 7A", "10J2 10R"],
                         stock="11J1"),
            moves=["shake9", "7A"], want=[token("shaken=9|-"), lambda o: o["turn"] == 1 or "seat 1"])
        add(preset, "shaking", "two-months-3p", *q("001.two_shakes"),
            f"{preset}, 3 players: seat 1 shakes two months in one turn",
            position=pos(preset, 3, first=first, field="5J1",
                         hands=hands_with(3, 1, "8B 8A 8J1 2A 2R 2J1"), stock="11J1", turn=1),
            moves=["shake2", "shake8"],
            want=[lambda o: kinds(o).count("shake") == 2 or "two shakes", not_legal("shake2", "shake8")])
    add("traditional", "shaking", "not-after-first-play", *q("001.before_play"),
        "traditional: a player that has played a turn already may no longer shake",
        position=pos("traditional", 2, field="5J1", hands=["9A 9R 9J1 7A", "10J2 10R"],
                     stock="11J1"),
        moves=[], want=[legal("9A", "9R", "9J1", "7A", exact=True)])
    add("traditional", "shaking", "second-seat-first-turn", *q("001.before_play"),
        "traditional: seat 1 has not played yet when its first turn comes: it may shake",
        position=pos("traditional", 2, first=True, field="5J1",
                     hands=["6A 8J1", "9A 9R 9J1 7A"], stock="11J1 12D"),
        moves=["6A"], want=[legal("shake9", "9A", "9R", "9J1", "7A", exact=True)])
    add("traditional", "shaking", "any-turn-option", *q("m.shake_std"),
        "traditional with shake_timing=0: a shake at a later turn, as the standard preset plays",
        position=pos("traditional+shake_timing=0", 2, field="5J1",
                     hands=["9A 9R 9J1 7A", "10J2 10R"], stock="11J1"),
        moves=["shake9"], want=[has("shake"), token("shaken=9|-")])
    add("standard", "shaking", "later-turn", *q("m.shake_std"),
        "standard: a shake on a later turn, still before playing one of the three",
        position=pos("standard", 2, tokens="", field="5J1", hands=["9A 9R 9J1", "10J2 10R"],
                     stock="11J1"),
        moves=["shake9", "9A"], want=[has("shake"), token("shaken=9|-")])
    add("standard", "shaking", "four-of-a-month", *q("002.shake"),
        "standard: four of a month in hand (met after the deal) may be shaken too",
        position=pos("standard", 2, field="5J1", hands=["9A 9R 9J1 9J2", "10J2 10R"], stock="11J1"),
        moves=["shake9"], want=[has("shake")])
    for preset in ("casual", "family"):
        src = {"casual": "000.no_shake", "family": "004.no_ppeok"}[preset]
        add(preset, "shaking", "not-offered", *q(src),
            f"{preset}: no shaking: three of September in hand offer only the plays",
            position=pos(preset, 2, field="5J1", hands=["9A 9R 9J1 7A", "10J2 10R"], stock="11J1"),
            moves=[], want=[not_legal("shake9")])
    add("casual", "not in casual", "no-shake-no-ppeok", *q("000.not_included"),
        "casual leaves out shaking, ppeok and jjok: no shake is offered and the later flip of "
        "a played month is a plain capture",
        position=pos("casual", 2, field="5J1", hands=["9A 9R 9J1 3B", "10J2 10R"],
                     captured=["-", "2J2"], stock="3R 11J1"),
        moves=["3B"], want=[not_legal("shake9"), no_steal, lacks("ppeok")])
    add("casual", "shaking", "option-on", *q("001.heundeum"),
        "casual with shaking=1: the shake is offered and recorded",
        position=pos("casual+shaking=1", 2, field="5J1", hands=["9A 9R 9J1 7A", "10J2 10R"],
                     stock="11J1"),
        moves=["shake9"], want=[has("shake"), token("shaken=9|-")])


@section
def bonus_card_rows():
    # bonus card in hand
    add("casual", "bonus card in hand", "x2-free-then-play", *q("000.bonus_hand"),
        "casual: X2 is banked, 11J1 drawn in its place, and the same player still plays",
        position=pos("casual", 2, field="5J1 6J1", hands=["X2 3B 7A", "10J2 10R"],
                     stock="11J1 12D 8J1"),
        moves=["X2"], want=[has("bonus", "drawn"), captured(0, "X2"), phase("play"),
                            lambda o: o["turn"] == 0 or "seat 0 still plays"])
    add("casual", "bonus card in hand", "x2-then-play-card", *q("000.bonus_hand"),
        "casual: X2 banked, then 3B played and the stock flipped, all in one turn",
        position=pos("casual", 2, field="5J1 6J1", hands=["X2 3B 7A", "10J2 10R"],
                     stock="11J1 5J2 8J1"),
        moves=["X2", "3B"], want=[captured(0, "X2 5J1 5J2"), lambda o: o["turn"] == 1 or "seat 1"])
    add("casual", "bonus card in hand", "x3-3p-seat2", *q("000.bonus_value"),
        "casual, 3 players: seat 2 banks X3 (three junk) and draws",
        position=pos("casual", 3, field="5J1", hands=hands_with(3, 2, "X3 7A"), stock="11J1",
                     turn=2),
        moves=["X3"], want=[captured(2, "X3"), has("drawn")])
    add("casual", "bonus card in hand", "both-then-play", *q("000.bonus_hand"),
        "casual: X2 and X3 banked one after the other, each with a replacement, then a play",
        position=pos("casual", 2, field="5J1", hands=["X2 X3 7A", "10J2 10R"],
                     stock="11J1 12D 8J1"),
        moves=["X2", "X3", "7A"], want=[captured(0, "X2 X3"), scores(0, 0)])
    add("casual", "bonus card in hand", "replacement-is-bonus", *q("000.bonus_hand"),
        "casual: the replacement drawn for X2 is X3, which may be banked in turn",
        position=pos("casual", 2, field="5J1", hands=["X2 7A", "10J2 10R"], stock="X3 11J1"),
        moves=["X2"], want=[legal("X3", "7A", exact=True)])
    add("casual", "bonus card in hand", "empty-stock-is-the-turn", *q("000.bonus_empty"),
        "casual: with the stock empty, banking X2 is the whole turn (no draw, no flip)",
        position=pos("casual", 2, field="5J1", hands=["X2 7A", "10J2 10R"], stock="-",
                     fill="captured1"),
        moves=["X2"], want=[lacks("drawn", "flipped"), has("turn_end"),
                            lambda o: o["turn"] == 1 or "seat 1"])
    add("standard", "bonus card in hand", "bank-at-start", *q("002.bonus_hand"),
        "standard: X3 is banked at the start of the turn with a replacement draw",
        position=pos("standard", 2, field="5J1", hands=["X3 3B 7A", "10J2 10R"],
                     stock="11J1 12D"),
        moves=["X3"], want=[captured(0, "X3"), has("drawn"), not_legal("X3"),
                            lambda o: o["turn"] == 0 or "seat 0 still plays"])
    add("standard", "bonus card in hand", "kept-for-later", *q("002.bonus_hand"),
        "standard: the bonus card may wait: seat 0 plays first and banks X2 on its next turn",
        position=pos("standard", 2, field="5J1", hands=["X2 3B 7A", "10J2 10R"],
                     stock="11J1 12D 6J1 8J1"),
        moves=["3B", "10J2", "X2"], want=[captured(0, "X2"), phase("play")])
    add("standard", "bonus card in hand", "empty-stock", *q("002.bonus_hand"),
        "standard: with the stock empty the banking is the turn",
        position=pos("standard", 2, field="5J1", hands=["X2 7A", "10J2 10R"], stock="-",
                     fill="captured1"),
        moves=["X2"], want=[lacks("drawn"), lambda o: o["turn"] == 1 or "seat 1"])
    add("traditional", "bonus card in hand", "option-jokers-in-play", *q("001.joker_play"),
        "traditional with jokers (bonus_cards=1, bonus_in_hand=1): X2 is banked and replaced",
        position=pos("traditional+bonus_cards=1,bonus_in_hand=1", 2, field="5J1",
                     hands=["X2 7A", "10J2 10R"], stock="11J1"),
        moves=["X2"], want=[captured(0, "X2"), has("drawn")])

    # bonus card flipped
    add("casual", "bonus card flipped", "banked-flip-again", *q("000.bonus_flip"),
        "casual: the flip turns X2: it is banked at once and 5J2 is turned behind it",
        position=pos("casual", 2, field="5J1 6J1", hands=["3B 7A", "10J2 10R"],
                     stock="X2 5J2 11J1"),
        moves=["3B"], want=[captured(0, "X2 5J1 5J2")])
    add("casual", "bonus card flipped", "two-in-a-row", *q("000.bonus_flip"),
        "casual: X3 then X2 are turned and banked, then 11J1 stays on the field",
        position=pos("casual", 2, field="5J1 6J1", hands=["3B 7A", "10J2 10R"],
                     stock="X3 X2 11J1"),
        moves=["3B"], want=[captured(0, "X2 X3"), on_field("11J1")])
    add("casual", "bonus card flipped", "3p-seat1", *q("m.casual_bonus_flip"),
        "casual, 3 players: seat 1 flips X3, banks it and flips 6J2 onto 6J1",
        position=pos("casual", 3, field="5J1 6J1", hands=hands_with(3, 1, "3B 7A"),
                     stock="X3 6J2 11J1", turn=1),
        moves=["3B"], want=[captured(1, "X3 6J1 6J2")])
    add("casual", "bonus card flipped", "last-stock-card", *q("000.bonus_flip"),
        "casual: X2 is the last stock card: banked, and there is nothing more to turn",
        position=pos("casual", 2, field="5J1", hands=["3B 7A", "10J2 10R"], stock="X2",
                     fill="captured1"),
        moves=["3B"], want=[captured(0, "X2"), on_field("3B")])
    add("standard", "bonus card flipped", "with-the-captures", *q("002.bonus_flip"),
        "standard: X2 is turned, then 5J2 takes 5J1; X2 is banked with the turn's captures",
        position=pos("standard", 2, field="5J1 6J1", hands=["3B 7A", "10J2 10R"],
                     stock="X2 5J2 11J1"),
        moves=["3B"], want=[captured(0, "X2 5J1 5J2"),
                            lambda o: kinds(o).index("captured") < kinds(o).index("bonus")
                            or "the bonus after the captures"])
    add("standard", "bonus card flipped", "banked-without-capture", *q("m.std_bonus_flip"),
        "standard: X3 is turned, then 11J1 matches nothing; X3 is banked all the same",
        position=pos("standard", 2, field="5J1 6J1", hands=["3B 7A", "10J2 10R"],
                     stock="X3 11J1"),
        moves=["3B"], want=[captured(0, "X3"), on_field("3B 11J1")])
    add("standard", "bonus card flipped", "with-a-waiting-pair", *q("002.bonus_flip"),
        "standard, 3 players: seat 2's 3B waits on 3R, X2 and then 11J1 are turned: X2 and the "
        "pair are captured at the end of the turn",
        position=pos("standard", 3, field="3R 5J1", hands=hands_with(3, 2, "3B 7A"),
                     stock="X2 11J1", turn=2),
        moves=["3B"], want=[captured(2, "3B 3R X2")])
    add("standard", "bonus card flipped", "option-banked-at-once", *q("000.bonus_flip"),
        "standard with flipped_bonus=0: X2 is banked the moment it is turned",
        position=pos("standard+flipped_bonus=0", 2, field="5J1 6J1", hands=["3B 7A", "10J2 10R"],
                     stock="X2 5J2 11J1"),
        moves=["3B"], want=[captured(0, "X2 5J1 5J2"),
                            lambda o: kinds(o).index("bonus") < kinds(o).index("captured")
                            or "the bonus first"])


# ---------------------------------------------------------------- Go, Stop and payment
W8 = "2A 4A 8A 1R 2R 3R"          # godori 5 + hongdan 3: 8 points, no bright or junk score
JUNK10 = "1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 5J2"
SAFE_LOSER = ("11B 6J1 6J2 7J1 7J2 9J1 9J2", "12B 10J1 10J2 11J1 11J2 12D 8J1")


def stop_pos(rules: str, players: int, piles, *, winner: int = 0, go=None, lastgo=None,
             tokens: str = "", first: bool = False) -> str:
    """The Go/Stop decision of ``winner`` with these captured piles."""
    return pos(rules, players, phase="gostop", turn=winner, captured=piles, go=go,
               lastgo=lastgo, tokens=tokens, first=first, hands=free_hands(piles))


def free_hands(piles) -> list[str]:
    """Two cards for each hand that none of ``piles`` names (from the end of the pack)."""
    used = {c for pile in piles for c in pile.split() if c != "-"}
    free = [c for c in reversed(CARD_CODES[:48]) if c not in used]
    return [" ".join(free[2 * p:2 * p + 2]) for p in range(len(piles))]


def piles_for(players: int, winner: int, pile: str, losers=SAFE_LOSER) -> list[str]:
    out = []
    k = 0
    for p in range(players):
        if p == winner:
            out.append(pile)
        else:
            out.append(losers[k])
            k += 1
    return out


@section
def go_stop_rows():
    reach = dict(field="3R 5J1", stock="11J1 12A")
    for preset in ("casual", "traditional", "standard"):
        src = {"casual": "000.gostop", "traditional": "001.first_time", "standard": "002.threshold"}[preset]
        for players, seat in ((2, 0), (3, 1)):
            piles = [("2A 4A 8A 1R 2R" if p == seat else "-") for p in range(players)]
            add(preset, "Go/Stop played", f"reach-asks-{players}p-seat{seat}", *q(src),
                f"{preset}, {players} players: capturing 3R completes hongdan (8 points): the "
                "player must choose Go or Stop",
                position=pos(preset, players, captured=piles, turn=seat,
                             hands=hands_with(players, seat, "3J1 7A"), **reach),
                moves=["3J1"], want=[phase("gostop"), legal("go", "stop", exact=True)])
    add("family", "Go/Stop played", "never-asked", *q("004.run_out"),
        "family: no Go/Stop; completing hongdan changes nothing and play goes on",
        position=pos("family", 2, captured=["2A 2R 4A 4J1 8A 8J1 1R 1J1", "-"],
                     hands=["3J1 7A", "10J2 10R"], **reach),
        moves=["3J1"], want=[phase("play")])
    add("casual", "Go/Stop", "stop-wins", *q("000.stop"),
        "casual: the player stops at 8 points and wins the hand",
        position=pos("casual", 2, captured=["2A 4A 8A 1R 2R", "-"], hands=["3J1 7A", "10J2 10R"],
                     **reach),
        moves=["3J1", "stop"], want=[reason("stop"), points(8)])
    add("casual", "Go/Stop", "go-plays-on", *q("000.go"),
        "casual: the player says Go at 8 points; the turn passes",
        position=pos("casual", 2, captured=["2A 4A 8A 1R 2R", "-"], hands=["3J1 7A", "10J2 10R"],
                     **reach),
        moves=["3J1", "go"], want=[has("go"), phase("play"), token("go=1,0"), token("lastgo=8,0")])

    # the threshold
    for preset, players, seat, pile, field, hand, asked in (
            ("casual", 2, 0, "2A 4A 8A 6A", "7J1", "7A", False),    # 6 points
            ("casual", 2, 1, "2A 4A 8A 6A 10A", "7J1", "7A", True),  # 7 points
            ("casual", 3, 2, "1B 8B", "3J1", "3B", True),             # 3 brights: 3
            ("casual", 4, 3, "1B 8B", "3J1", "3B", True),
            ("casual", 2, 0, "1B 8B", "3J1", "3B", False),
            ("traditional", 2, 0, "1B 3B 2A 4A 6A", "8B", "8A", True),  # 3 + 5
            ("traditional", 3, 1, "1B 8B", "3J1", "3B", True),
            ("traditional", 2, 1, "2A 4A 6A", "8J1", "8A", False),    # godori 5 < 7
            ("standard", 2, 0, "2A 4A 6A 7A 10A", "8J1", "8A", True),  # godori 5 + 6 animals 2
            ("standard", 3, 2, "1B 8B", "3J1", "3B", True),
            ("standard", 2, 1, "1B 8B", "3J1", "3B", False)):
        name = f"{'asks' if asked else 'not-yet'}-{players}p-seat{seat}-{hand}"
        src = {"casual": "m.threshold", "traditional": "001.target", "standard": "002.threshold"}[preset]
        piles = [(pile if p == seat else "-") for p in range(players)]
        add(preset, "threshold", name, *q(src),
            f"{preset}, {players} players: the capture brings seat {seat} to its score; the "
            f"threshold is {7 if players == 2 else 3}: " + ("Go/Stop is asked" if asked else "not yet"),
            position=pos(preset, players, captured=piles, turn=seat, field=field,
                         hands=hands_with(players, seat, f"{hand} 12R"), stock="11J1"),
            moves=[hand], want=[phase("gostop" if asked else "play")])
    add("traditional", "threshold", "option-5-points", *q("001.target"),
        "traditional with threshold_2p=5: godori alone (5 points) is enough",
        position=pos("traditional+threshold_2p=5", 2, captured=["2A 4A", "-"], field="8J1",
                     hands=["8A 12R", "10J2 10R"], stock="11J1"),
        moves=["8A"], want=[phase("gostop")])

    # asked again after a Go
    for preset in ("casual", "traditional", "standard"):
        src = {"casual": "000.again", "traditional": "001.again", "standard": "002.again"}[preset]
        add(preset, "asked again after a Go", "score-rose", *q(src),
            f"{preset}: after a Go at 8 the player takes 10A, a fifth animal: 9 points, above "
            "the score of the last Go, so Go/Stop is asked again",
            position=pos(preset, 2, captured=[W8 + " 6A", "-"], go=[1, 0], lastgo=[8, 0],
                         field="10A", hands=["10J1 12R", "10J2 10R"], stock="11J1 12A"),
            moves=["10J1"], want=[phase("gostop"), scores(9, 0)])
        add(preset, "asked again after a Go", "score-same", *q(src),
            f"{preset}: after a Go at 8 the player captures two junk; the score stays 8: the turn "
            "passes without a question",
            position=pos(preset, 2, captured=[W8, "-"], go=[1, 0], lastgo=[8, 0],
                         field="7J1", hands=["7J2 12R", "10J2 10R"], stock="11J1 12A"),
            moves=["7J2"], want=[phase("play"), scores(8, 0)])
    add("standard", "asked again after a Go", "second-go", *q("002.again"),
        "standard: asked again at 9 after a Go at 8, the player says Go a second time",
        position=pos("standard", 2, captured=[W8 + " 6A", "-"], go=[1, 0], lastgo=[8, 0],
                     field="10A", hands=["10J1 12R", "10J2 10R"], stock="11J1 12A"),
        moves=["10J1", "go"], want=[token("go=2,0"), token("lastgo=9,0")])
    add("traditional", "asked again after a Go", "below-last-go", *q("001.again"),
        "traditional: the player said Go at 9 (lastgo=9); taking 7A brings it from 8 back to "
        "9 points, not above 9: not asked",
        position=pos("traditional", 2, captured=[W8 + " 6A", "-"], go=[1, 0], lastgo=[9, 0],
                     field="7J1", hands=["7A 12R", "10J2 10R"], stock="11J1 12A"),
        moves=["7A"], want=[phase("play")])

    # the last turn: the Stop is automatic
    for preset, players in (("casual", 2), ("casual", 3), ("traditional", 2), ("standard", 2),
                            ("standard", 3)):
        seat = players - 1
        hands = [("3J1" if p == seat else "-") for p in range(players)]
        piles = [("2A 4A 8A 1R 2R" if p == seat else ("1J1", "1J2", "2J2")[p]) for p in range(players)]
        rule = "the last turn" if preset == "casual" else "last-turn stop"
        add(preset, rule, f"automatic-{players}p", *q("000.wins" if preset == "casual" else "001.first_time"),
            f"{preset}, {players} players: the last card of the hand completes hongdan: the "
            "Stop is automatic (a Go could only lead to a drawn hand)",
            position=pos(preset, players, captured=piles, turn=seat, hands=hands, field="3R",
                         stock="11J1"),
            moves=["3J1"], want=[reason("last_turn_stop"), points(8)])
    add("traditional", "last-turn stop", "after-goes", *q("001.go1"),
        "traditional: a player with one Go rises to 9 on the last turn: automatic Stop, "
        "9 + 1 for the Go",
        position=pos("traditional", 2, captured=["1J1", W8 + " 7A"], go=[0, 1], lastgo=[0, 8],
                     turn=1, hands=["-", "6J1"], field="6A", stock="11J1"),
        moves=["6J1"], want=[reason("last_turn_stop"), points(10)])
    add("traditional", "last-turn stop", "after-go-no-rise", *q("001.nagari"),
        "traditional: after a Go at 8 the last card adds no point: no Stop, the hand is nagari",
        position=pos("traditional", 2, captured=["1J1", W8], go=[0, 1], lastgo=[0, 8], turn=1,
                     hands=["-", "6J1"], field="6A", stock="11J1"),
        moves=["6J1"], want=[reason("draw")])
    add("casual", "the last turn", "below-threshold-draw", *q("000.draw"),
        "casual: the last card scores nothing: the hand is drawn",
        position=pos("casual", 2, captured=["1J1", "2A"], turn=1, hands=["-", "3J1"], field="3R",
                     stock="11J1"),
        moves=["3J1"], want=[reason("draw"), points(0)])

    # Go value
    schemes = (("casual", range(0, 6), "000.go"), ("traditional", range(0, 5), None),
               ("standard", range(0, 6), None), ("traditional+go_scheme=3", range(1, 4), "001.go_variant"))
    for rules, counts, src in schemes:
        preset = rules.split("+")[0]
        for k in counts:
            if src is None:
                key = {("traditional", 0): "001.paid", ("traditional", 1): "001.go1",
                       ("traditional", 2): "001.go2", ("traditional", 3): "001.go3",
                       ("traditional", 4): "001.go4", ("standard", 0): "002.threshold",
                       ("standard", 1): "002.go12", ("standard", 2): "002.go12",
                       ("standard", 3): "002.go3", ("standard", 4): "002.go4",
                       ("standard", 5): "002.go4"}[(preset, k)]
            else:
                key = src
            name = f"{k}-go" + ("-scheme3" if "go_scheme" in rules else "")
            add(preset, "Go value", name, *q(key),
                f"{rules}: a winner of 8 points who said Go {k} time(s) stops",
                position=stop_pos(rules, 2, [W8, SAFE_LOSER[0]], go=[k, 0],
                                  lastgo=[7 if k else 0, 0]),
                moves=["stop"], want=[reason("stop")])
    add("standard", "Go value", "3-go-3p", *q("004.go3"),
        "standard, 3 players: a winner of 6 points (3 brights, 12 junk) with three Goes is "
        "paid (6 + 3) x 2 = 18 by each",
        position=stop_pos("standard", 3, ["1B 3B 8B 1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 5J2 6J1 7J1",
                                          "11B 6J2 7J2 8J1 9J1 9J2 10J1", "12B 10J2 11J1 11J2 12D 8J2"],
                          go=[3, 0, 0], lastgo=[3, 0, 0]),
        moves=["stop"], want=[points(18), pays(0, 18, 18)])

    # payment
    add("casual", "payment", "score-once-2p", *q("m.casual_payment"),
        "casual: the winner's score is booked once; nobody pays",
        position=stop_pos("casual", 2, [W8, "-"]), moves=["stop"], want=[chips(8, 0)])
    add("casual", "payment", "score-once-4p-go", *q("000.stop"),
        "casual, 4 players: seat 2 stops with 3 brights and one Go: 4 booked, nobody pays",
        position=stop_pos("casual", 4, ["-", "-", "1B 3B 8B 12R", "-"], winner=2, go=[0, 0, 1, 0],
                          lastgo=[0, 0, 3, 0]),
        moves=["stop"], want=[chips(0, 0, 4, 0)])
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.paid", "standard": "002.go_bak"}[preset]
        for players, winner in ((2, 1), (3, 0), (3, 2)):
            piles = piles_for(players, winner, W8)
            add(preset, "payment", f"each-pays-{players}p-seat{winner}", *q("001.paid"),
                f"{preset}, {players} players: seat {winner} stops with 8 points: each opponent "
                "pays 8 (they hold brights and junk: no bak)",
                position=stop_pos(preset, players, piles, winner=winner),
                moves=["stop"],
                want=[lambda o, w=winner, n=players: o["chips"][w] == 8 * (n - 1) or "8 each"])
    add("traditional", "payment", "opponent-score-ignored", *q("001.paid"),
        "traditional: the opponent holds more points (it said Go at 9); the stopper with 8 is "
        "paid its own 8, doubled for the loser's Go (go-bak)",
        position=stop_pos("traditional", 2, [W8, "1B 3B 8B 11B 6J1 6J2 7J1 7J2 9J1 9J2 9A 6A"],
                          go=[0, 1], lastgo=[0, 9]),
        moves=["stop"], want=[pays(0, 16)])

    # nagari
    for preset in ("casual", "traditional", "standard"):
        src = {"casual": "000.draw", "traditional": "001.nagari", "standard": "002.nagari"}[preset]
        rule = "end of the hand" if preset == "casual" else "nagari"
        add(preset, rule, "played-out-draw", *q(src),
            f"{preset}: the last card is played and nobody reached the threshold: a drawn hand, "
            "no payment",
            position=pos(preset, 2, captured=["1B 2A", "3R"], turn=1, hands=["-", "5J1"],
                         field="6J1", stock="11J1"),
            moves=["5J1"], want=[reason("draw"), chips(0, 0)])
    add("traditional", "nagari", "go-without-rise-3p", *q("001.nagari"),
        "traditional, 3 players: seat 0 said Go and never rose again; the hand runs out: nagari",
        position=pos("traditional", 3, captured=["1B 3B 8B", "-", "-"], go=[1, 0, 0],
                     lastgo=[3, 0, 0], turn=2, hands=["-", "-", "5J1"], field="6J1", stock="11J1"),
        moves=["5J1"], want=[reason("draw")])
    for preset, stake in (("traditional", 1), ("traditional", 2), ("standard", 1), ("standard", 3)):
        src = "001.nagari_double" if preset == "traditional" else "002.nagari_double"
        add(preset, "nagari", f"stake-{stake}", *q(src),
            f"{preset}: {stake} drawn hand(s) before this one: the payment of 8 is doubled "
            f"{stake} time(s)",
            position=stop_pos(preset, 2, [W8, SAFE_LOSER[0]], tokens=f"stake={stake}"),
            moves=["stop"], want=[pays(0, 8 * 2 ** stake)])
    add("casual", "end of the hand", "stop-wins", *q("000.wins"),
        "casual: a Stop ends the hand with the stopper as winner",
        position=stop_pos("casual", 3, ["-", "1B 3B 8B", "-"], winner=1),
        moves=["stop"], want=[reason("stop"), lambda o: o["outcome"]["winner"] == 1 or "seat 1"])


# ---------------------------------------------------------------- the multipliers of a payment
BRIGHT_WIN = "1B 3B 8B 2A 4A 8A"      # 3 brights + godori: 8 points, a bright score
JUNK_WIN = W8 + " " + JUNK10          # 9 points with a junk score, no bright score
NO_BRIGHT_LOSER = "6J1 6J2 7J1 7J2 9J1 9J2"     # six junk, no bright


def junk_loser(n: int, extra: str = "11B") -> str:
    """A losing pile with a bright and ``n`` single junk."""
    junk = "6J1 6J2 7J1 7J2 9J1 9J2 10J1 10J2".split()[:n]
    return " ".join([extra] + junk)


@section
def multiplier_rows():
    # gwang-bak
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.kwang_bak", "standard": "002.gwang_bak"}[preset]
        add(preset, "gwang-bak", "no-bright-pays-double", *q(src),
            f"{preset}: the winner scores 3 brights; the loser has no bright: 8 x 2",
            position=stop_pos(preset, 2, [BRIGHT_WIN, NO_BRIGHT_LOSER]),
            moves=["stop"], want=[pays(0, 16)])
        add(preset, "gwang-bak", "one-bright-safe", *q(src),
            f"{preset}: the loser holds 12B, one bright: no gwang-bak",
            position=stop_pos(preset, 2, [BRIGHT_WIN, NO_BRIGHT_LOSER + " 12B"]),
            moves=["stop"], want=[pays(0, 8)])
        add(preset, "gwang-bak", "no-bright-score", *q(src),
            f"{preset}: the winner holds two brights, no bright score: no gwang-bak",
            position=stop_pos(preset, 2, ["1B 3B " + W8, NO_BRIGHT_LOSER]),
            moves=["stop"], want=[multiplier(1, 1)])
        add(preset, "gwang-bak", "3p-one-of-two", *q(src),
            f"{preset}, 3 players: seat 2 wins with brights; seat 0 has none and pays double, "
            "seat 1 holds 11B and pays single",
            position=stop_pos(preset, 3, [NO_BRIGHT_LOSER, "11B 10J1 10J2 11J1 11J2 12D",
                                          BRIGHT_WIN], winner=2),
            moves=["stop"], want=[pays(16, 8, 0)])
    add("traditional", "gwang-bak", "five-brights", *q("001.kwang_bak"),
        "traditional: the winner holds all five brights (15): the loser cannot have one: x2",
        position=stop_pos("traditional", 2, ["1B 3B 8B 11B 12B", NO_BRIGHT_LOSER]),
        moves=["stop"], want=[pays(0, 30)])
    for preset in ("traditional", "standard"):
        add(preset, "gwang-bak", "option-plus-2", *q("001.kwang_bak2"),
            f"{preset} with gwang_bak=2: the loser without brights pays 2 chips more instead of "
            "double: 8 + 2",
            position=stop_pos(f"{preset}+gwang_bak=2", 2, [BRIGHT_WIN, NO_BRIGHT_LOSER]),
            moves=["stop"], want=[pays(0, 10)])
    add("standard", "gwang-bak", "option-plus-2-3p", *q("m.gwang_bak2"),
        "standard with gwang_bak=2, 3 players: +2 for the loser without brights only",
        position=stop_pos("standard+gwang_bak=2", 3, [BRIGHT_WIN, NO_BRIGHT_LOSER,
                                                      "11B 10J1 10J2 11J1 11J2 12D"]),
        moves=["stop"], want=[pays(0, 10, 8)])

    # pi-bak
    for preset, safe, short in (("traditional", 5, 4), ("standard", 6, 5)):
        src = {"traditional": "001.pi_bak", "standard": "002.pi_bak"}[preset]
        add(preset, "pi-bak", f"{short}-junk-pays-double", *q(src),
            f"{preset}: the winner scores junk; the loser has {short} junk, fewer than {safe}: x2",
            position=stop_pos(preset, 2, [JUNK_WIN, junk_loser(short)]),
            moves=["stop"], want=[pays(0, 18)])
        add(preset, "pi-bak", f"{safe}-junk-safe", *q(src),
            f"{preset}: the loser has {safe} junk: no pi-bak",
            position=stop_pos(preset, 2, [JUNK_WIN, junk_loser(safe)]),
            moves=["stop"], want=[pays(0, 9)])
        add(preset, "pi-bak", "no-junk-score", *q(src),
            f"{preset}: the winner has no junk score: a loser with no junk pays single",
            position=stop_pos(preset, 2, [W8, "11B"]),
            moves=["stop"], want=[pays(0, 8)])
        add(preset, "pi-bak", "zero-junk", *q(src),
            f"{preset}: a loser with no junk at all is not exempt: x2",
            position=stop_pos(preset, 2, [JUNK_WIN, "11B 12A"]),
            moves=["stop"], want=[pays(0, 18)])
        add(preset, "pi-bak", "3p-one-of-two", *q(src),
            f"{preset}, 3 players: seat 1 wins with junk; seat 2 is short of junk and pays "
            "double, seat 0 pays single",
            position=stop_pos(preset, 3, [junk_loser(safe), JUNK_WIN, "12B 11J1"], winner=1),
            moves=["stop"], want=[pays(9, 0, 18)])
    add("traditional", "pi-bak", "double-junk-counts", *q("001.pi_bak"),
        "traditional: the loser's 12D counts two: 3 single + 12D = 5 junk: safe",
        position=stop_pos("traditional", 2, [JUNK_WIN, junk_loser(3) + " 12D"]),
        moves=["stop"], want=[pays(0, 9)])
    add("traditional", "pi-bak", "sake-cup-saves", *q("m.flexible"),
        "traditional: the loser counts its 9A as one junk to reach 5 and escape pi-bak",
        position=stop_pos("traditional", 2, [JUNK_WIN, junk_loser(4) + " 9A"]),
        moves=["stop"], want=[pays(0, 9)])
    add("standard", "pi-bak", "sake-cup-saves", *q("m.flexible"),
        "standard: the loser counts its 9A as double junk: 4 + 2 = 6, no pi-bak",
        position=stop_pos("standard", 2, [JUNK_WIN, junk_loser(4) + " 9A"]),
        moves=["stop"], want=[pays(0, 9)])
    add("standard", "pi-bak", "bridge-saves", *q("002.bridge"),
        "standard: the loser counts its 5A (the bridge) as double junk: 4 + 2 = 6, no pi-bak",
        position=stop_pos("standard", 2, [JUNK_WIN.replace("5J1 5J2", "11J1 11J2"),
                                          junk_loser(4) + " 5A"]),
        moves=["stop"], want=[pays(0, 9)])
    add("standard", "pi-bak", "bonus-cards-count", *q("000.bonus_value"),
        "standard: the loser's 3 junk and X3 make 6: no pi-bak",
        position=stop_pos("standard", 2, [JUNK_WIN, junk_loser(3) + " X3"]),
        moves=["stop"], want=[pays(0, 9)])
    add("standard", "pi-bak", "x2-not-enough", *q("m.pi_bak_std"),
        "standard: the loser's 3 junk and X2 make 5, fewer than 6: x2",
        position=stop_pos("standard", 2, [JUNK_WIN, junk_loser(3) + " X2"]),
        moves=["stop"], want=[pays(0, 18)])
    add("traditional", "pi-bak", "option-7-two-players", *q("001.pi_bak7"),
        "traditional with pi_bak_threshold_2p=7: with two players 6 junk is not enough: x2",
        position=stop_pos("traditional+pi_bak_threshold_2p=7", 2, [JUNK_WIN, junk_loser(6)]),
        moves=["stop"], want=[pays(0, 18)])
    add("traditional", "pi-bak", "option-7-not-three-players", *q("001.pi_bak7"),
        "traditional with pi_bak_threshold_2p=7, 3 players: the 3-player threshold 5 applies",
        position=stop_pos("traditional+pi_bak_threshold_2p=7", 3,
                          [JUNK_WIN, junk_loser(6), "12B 11J1 11J2 12D 8J1"]),
        moves=["stop"], want=[pays(0, 9, 9)])
    add("standard", "pi-bak", "option-threshold-5", *q("m.pi_bak_opts"),
        "standard with pi-bak thresholds of 5: 5 junk is safe",
        position=stop_pos("standard+pi_bak_threshold=5,pi_bak_threshold_2p=5", 2,
                          [JUNK_WIN, junk_loser(5)]),
        moves=["stop"], want=[pays(0, 9)])

    # mong-bak
    big_zoo = "2A 4A 5A 6A 7A 8A 10A 12A 1R 2R 3R"      # 8 animals: 4 + godori 5 + hongdan 3
    six_zoo = "2A 4A 6A 7A 8A 10A 1R 2R 3R"              # 6 animals: 2 + 5 + 3
    add("traditional", "mong-bak", "eight-animals", *q("001.mong_bak"),
        "traditional: the winner holds 8 animals: each opponent pays double",
        position=stop_pos("traditional", 2, [big_zoo, junk_loser(6)]),
        moves=["stop"], want=[pays(0, 24)])
    add("traditional", "mong-bak", "six-animals", *q("001.mong_bak"),
        "traditional: 6 animals are not enough for mong-bak",
        position=stop_pos("traditional", 2, [six_zoo, junk_loser(6)]),
        moves=["stop"], want=[pays(0, 10)])
    add("traditional", "mong-bak", "seven-animals-3p", *q("m.mong_bak_std"),
        "traditional, 3 players: 7 animals: both opponents pay double",
        position=stop_pos("traditional", 3, [junk_loser(6), six_zoo + " 12A",
                                             "12B 11J1 11J2 12D 8J1"], winner=1),
        moves=["stop"], want=[multiplier(2, 1, 2)])
    add("standard", "mong-bak", "none", *q("002.animals7"),
        "standard has no mong-bak: 8 animals pay single",
        position=stop_pos("standard", 2, [big_zoo, junk_loser(6)]),
        moves=["stop"], want=[pays(0, 12)])
    add("standard", "mong-bak", "option-six", *q("001.mong_bak"),
        "standard with mong_bak_animals=6: 6 animals double the payment",
        position=stop_pos("standard+mong_bak_animals=6", 2, [six_zoo, junk_loser(6)]),
        moves=["stop"], want=[pays(0, 20)])

    # go-bak
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.go_bak", "standard": "002.go_bak"}[preset]
        add(preset, "go-bak", "2p-caller-pays-double", *q(src),
            f"{preset}: the loser said Go once and lost: it pays double",
            position=stop_pos(preset, 2, [W8, SAFE_LOSER[0]], go=[0, 1], lastgo=[0, 7]),
            moves=["stop"], want=[pays(0, 16)])
        add(preset, "go-bak", "two-callers-3p", *q(src),
            f"{preset}, 3 players: both losers said Go: each pays its own share doubled",
            position=stop_pos(preset, 3, [W8, SAFE_LOSER[0], SAFE_LOSER[1]], go=[0, 1, 2],
                              lastgo=[0, 3, 4]),
            moves=["stop"], want=[pays(0, 16, 16)])
    add("traditional", "go-bak", "pays-the-third-share", *q("001.go_bak3"),
        "traditional, 3 players: seat 1 said Go and seat 2 stops: seat 1 pays its doubled share "
        "and seat 0's share; seat 0 pays nothing",
        position=stop_pos("traditional", 3, [SAFE_LOSER[0], SAFE_LOSER[1] + " 1J1", W8], winner=2,
                          go=[0, 1, 0], lastgo=[0, 3, 0]),
        moves=["stop"], want=[pays(0, 24, 0)])
    add("traditional", "go-bak", "pays-the-third-share-with-bak", *q("001.go_bak3"),
        "traditional, 3 players: the third player owed gwang-bak (16); the Go caller pays it "
        "with its own doubled, gwang-bak share (32)",
        position=stop_pos("traditional", 3, [BRIGHT_WIN, NO_BRIGHT_LOSER,
                                             "10J1 10J2 11J1 11J2 12D 8J1"], go=[0, 1, 0],
                          lastgo=[0, 3, 0]),
        moves=["stop"], want=[pays(0, 48, 0)])
    add("standard", "go-bak", "third-pays-own-3p", *q("m.go_bak_std"),
        "standard, 3 players: the Go caller pays double; the third player pays its own share",
        position=stop_pos("standard", 3, [SAFE_LOSER[0], SAFE_LOSER[1] + " 1J1", W8], winner=2,
                          go=[0, 1, 0], lastgo=[0, 3, 0]),
        moves=["stop"], want=[pays(8, 16, 0)])
    add("standard", "go-bak", "with-gwang-bak-and-pi-bak", *q("002.times8"),
        "standard: the loser called Go, has no bright and 5 junk; the winner scores brights and "
        "junk: go-bak, gwang-bak and pi-bak: x8",
        position=stop_pos("standard", 2, ["1B 3B 8B 11D 12D " + JUNK10, "6J1 6J2 7J1 7J2 9J1 2A"],
                          go=[0, 1], lastgo=[0, 7]),
        moves=["stop"], want=[multiplier(1, 8)])

    # shakes and bombs
    for preset in ("traditional", "standard"):
        src = {"traditional": "001.shake", "standard": "002.shake"}[preset]
        add(preset, "shakes and bombs", "one-shake", *q(src),
            f"{preset}: the winner shook once: x2",
            position=stop_pos(preset, 2, [W8, SAFE_LOSER[0]], tokens="shaken=9|-"),
            moves=["stop"], want=[pays(0, 16)])
        add(preset, "shakes and bombs", "two-shakes", *q("001.two_shakes"),
            f"{preset}: the winner shook two months: x4",
            position=stop_pos(preset, 2, [W8, SAFE_LOSER[0]], tokens="shaken=5,9|-"),
            moves=["stop"], want=[pays(0, 32)])
        add(preset, "shakes and bombs", "loser-shook", *q("002.shake"),
            f"{preset}: only the winner's shakes count; the loser's shake changes nothing",
            position=stop_pos(preset, 2, [W8, SAFE_LOSER[0]], tokens="shaken=-|9"),
            moves=["stop"], want=[pays(0, 8)])
        add(preset, "shakes and bombs", "shake-3p", *q(src),
            f"{preset}, 3 players: the winner's shake doubles what each opponent pays",
            position=stop_pos(preset, 3, [SAFE_LOSER[0], W8, SAFE_LOSER[1]], winner=1,
                              tokens="shaken=-|3|-"),
            moves=["stop"], want=[pays(16, 0, 16)])
    add("traditional", "bomb counts as a shake", "bomb-doubles", *q("m.bomb_shake"),
        "traditional: the winner dropped a bomb of September this hand (the engine lists "
        "the month among the months shown): it doubles like a shake",
        position=stop_pos("traditional", 2, [W8, SAFE_LOSER[0]], tokens="bombs=1,0 shaken=9|-"),
        moves=["stop"], want=[pays(0, 16)])
    add("traditional", "bomb counts as a shake", "bomb-and-shake", *q("001.two_shakes"),
        "traditional: a shake of April and a bomb of September: two sets shown, two doubles, x4",
        position=stop_pos("traditional", 2, [W8, SAFE_LOSER[0]], tokens="bombs=1,0 shaken=4,9|-"),
        moves=["stop"], want=[pays(0, 32)])
    for name, moves, note in (
            ("shaken-then-bombed", ["shake9", "bomb9", "stop"],
             "seat 0 shakes September before its first play, then bombs September: one set "
             "shown, one double (9 points x 2), not two"),
            ("bombed-alone", ["bomb9", "stop"],
             "seat 0 bombs September: the bomb shows the set, one double (9 points x 2)")):
        add("traditional", "bomb counts as a shake", name, *q("001.shake"),
            "traditional: " + note,
            position=pos("traditional", 2, first=True, field="9J2 5J1",
                         hands=["9A 9R 9J1 7A", "1J1 2J1"],
                         captured=["1R 2R 3R 4R 5R 7R", "1B 2J2"], stock="11J1 12D"),
            moves=moves, want=[token("shaken=9|-"), token("bombs=1,0"), pays(0, 18),
                               multiplier(1, 2)])
    add("standard", "bomb counts as a shake", "bomb-alone-single", *q("002.shake_bomb"),
        "standard: a bomb alone does not double the payment",
        position=stop_pos("standard", 2, [W8, SAFE_LOSER[0]], tokens="bombs=1,0"),
        moves=["stop"], want=[pays(0, 8)])
    add("standard", "bomb counts as a shake", "option-on", *q("m.bomb_shake"),
        "standard with bomb_counts_as_shake=1: seat 0 bombs September and stops with 9 "
        "points: the bomb doubles (18)",
        position=pos("standard+bomb_counts_as_shake=1", 2, first=True, field="9J2 5J1",
                     hands=["9A 9R 9J1 7A", "1J1 2J1"],
                     captured=["1R 2R 3R 4R 5R 7R", "1B 2J2"], stock="11J1 12D"),
        moves=["bomb9", "stop"], want=[token("shaken=9|-"), pays(0, 18)])
    add("traditional", "bomb counts as a shake", "loser-bomb", *q("m.bomb_shake"),
        "traditional: the loser's bomb does not double anything",
        position=stop_pos("traditional", 2, [W8, SAFE_LOSER[0]], tokens="shaken=-|9 bombs=0,1"),
        moves=["stop"], want=[pays(0, 8)])

    # the order of multipliers
    add("traditional", "order of multipliers", "worked-example-28", *q("001.worked"),
        "001's example: 7 animals (no godori) and 11 junk = 5 points, two Goes +2 = 7, the "
        "loser has 4 junk: 7 x 2 (mong-bak) x 2 (pi-bak) = 28",
        position=stop_pos("traditional", 2, ["2A 4A 5A 6A 7A 10A 12A " + JUNK10 + " 6J1",
                                             "11B 7J1 7J2 8J1 8J2"], go=[2, 0], lastgo=[6, 0]),
        moves=["stop"], want=[pays(0, 28)])
    add("traditional", "order of multipliers", "go-chip-before-double", *q("001.order"),
        "traditional: one Go adds a chip before gwang-bak doubles: (8 + 1) x 2 = 18",
        position=stop_pos("traditional", 2, [BRIGHT_WIN, NO_BRIGHT_LOSER], go=[1, 0], lastgo=[8, 0]),
        moves=["stop"], want=[pays(0, 18)])
    add("traditional", "order of multipliers", "plus-2-after-doubles", *q("m.gwang_bak2"),
        "traditional with gwang_bak=2: the loser pays (score x pi-bak double) + 2",
        position=stop_pos("traditional+gwang_bak=2", 2, ["1B 3B 8B " + JUNK10 + " 11D 12D",
                                                         "6J1 6J2 7J1 2A"]),
        moves=["stop"], want=[pays(0, 18)])
    add("traditional", "order of multipliers", "sake-cup-for-most-chips", *q("001.sake"),
        "traditional: the winner's 9A as an animal makes 7 animals (mong-bak, x2); as junk it "
        "would make 10 junk for the same points: the engine counts it as an animal",
        position=stop_pos("traditional", 2, ["2A 4A 5A 6A 7A 9A 10A 1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1",
                                             junk_loser(6)]),
        moves=["stop"], want=[pays(0, 6), lambda o: o["settlement"]["sake_cup_as_junk"] is False
                              or "9A as an animal"])
    add("standard", "order of multipliers", "sake-cup-as-junk", *q("m.sake"),
        "standard: the winner's 9A as double junk makes a junk score (and pi-bak on a loser "
        "with 5 junk)",
        position=stop_pos("standard", 2, ["1B 3B 8B 9A 1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2",
                                          "11B 6J1 6J2 7J1 7J2 9J1"]),
        moves=["stop"], want=[lambda o: o["settlement"]["sake_cup_as_junk"] is True or "as junk"])
    add("standard", "order of multipliers", "all-doubles-3p", *q("002.times8"),
        "standard, 3 players: shake, gwang-bak and pi-bak and a nagari stake multiply together",
        position=stop_pos("standard", 3, ["1B 3B 8B 11D 12D " + JUNK10, "6J1 6J2 7J1 2A",
                                          "11B 7J2 8J1 8J2 9J1 9J2 10J1"],
                          tokens="shaken=9|-|- stake=1"),
        moves=["stop"], want=[multiplier(1, 16, 4)])

    # jokers
    add("standard", "jokers' effects", "double-payment-x2", *q("001.joker_double"),
        "standard with bonus_x2_effect=1: the winner holds the double-payment joker X2: x2",
        position=stop_pos("standard+bonus_x2_effect=1", 2, [W8 + " X2", SAFE_LOSER[0]]),
        moves=["stop"], want=[pays(0, 16)])
    add("standard", "jokers' effects", "two-double-jokers", *q("001.joker_double"),
        "standard with both jokers double-payment: the winner holds both: x4",
        position=stop_pos("standard+bonus_x2_effect=1,bonus_x3_effect=1", 2,
                          [W8 + " X2 X3", SAFE_LOSER[0]]),
        moves=["stop"], want=[pays(0, 32)])
    add("standard", "jokers' effects", "double-joker-with-loser", *q("001.joker_double"),
        "standard with bonus_x3_effect=1: the loser's double-payment joker does nothing",
        position=stop_pos("standard+bonus_x3_effect=1", 2, [W8, SAFE_LOSER[0] + " X3"]),
        moves=["stop"], want=[pays(0, 8)])
    add("standard", "jokers' effects", "bright-protection", *q("001.joker_bright"),
        "standard with bonus_x2_effect=2: the loser without brights holds the bright-protection "
        "joker: no gwang-bak; the other loser pays double",
        position=stop_pos("standard+bonus_x2_effect=2", 3,
                          [BRIGHT_WIN, NO_BRIGHT_LOSER + " X2", "10J1 10J2 11J1 11J2 12D 8J1"]),
        moves=["stop"], want=[pays(0, 8, 16)])
    add("standard", "jokers' effects", "joker-no-junk", *q("m.jokers"),
        "standard with bonus_x2_effect=2: X2 is a joker and counts no junk: 9 junk + X2 "
        "score nothing (with X3 as plain junk 9 + 3 = 12 junk score 3)",
        position=pos("standard+bonus_x2_effect=2", 2,
                      captured=["1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 X2",
                                "6J1 6J2 7J1 7J2 8J1 8J2 9J1 9J2 10J1 X3"],
                      hands=["10J2 10R", "4R 9R"]),
        moves=[], want=[scores(0, 3)])
    add("standard", "jokers' effects", "joker-never-stolen", *q("m.steal"),
        "standard with bonus_x2_effect=1: the opponent's only 'junk' is the joker X2: the jjok "
        "steals nothing",
        position=pos("standard+bonus_x2_effect=1", 2, field="5J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "X2 9A"], stock="3R 11J1"),
        moves=["3B"], want=[has("jjok"), no_steal])
    add("standard", "jokers' effects", "plain-joker-stolen", *q("m.steal"),
        "standard with bonus_x2_effect=1: X3 is still plain junk and is given, X2 is kept",
        position=pos("standard+bonus_x2_effect=1", 2, field="5J1", hands=["3B 7A", "10J2 10R"],
                     captured=["-", "X2 X3"], stock="3R 11J1"),
        moves=["3B"], want=[stolen(("X3", 1))])
    add("traditional", "jokers' effects", "option-double-joker", *q("001.joker_double"),
        "traditional with jokers and bonus_x2_effect=1: the winner's X2 doubles",
        position=stop_pos("traditional+bonus_cards=1,bonus_in_hand=1,bonus_x2_effect=1", 2, [W8 + " X2", SAFE_LOSER[0]]),
        moves=["stop"], want=[pays(0, 16)])
    add("traditional", "bonus cards in the pack", "option-one-junk-joker", *q("m.jokers"),
        "traditional with jokers worth one junk (bonus_x2_junk=1): 9 junk + X2 = 10 junk, 1 point",
        position=pos("traditional+bonus_cards=1,bonus_in_hand=1,bonus_x2_junk=1", 2,
                     captured=["1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 X2", "-"],
                     hands=["10J2 10R", "4R 9R"]),
        moves=[], want=[scores(1, 0)])
    add("traditional", "bonus cards in the pack", "none-by-default", *q("001.jokers_off"),
        "traditional is played without bonus cards: a 48-card position",
        position=pos("traditional", 2, captured=[JUNK10, "-"], hands=["10J2 10R", "4R 9R"]),
        moves=[], want=[lambda o: "X2" not in o["position"] or "no X2"])
    for preset in ("casual", "standard"):
        add(preset, "bonus cards in the pack", "x2-x3-values", *q("000.bonus_value"),
            f"{preset}: X2 is worth two junk and X3 three: 5 junk + X2 + X3 = 10, 1 point",
            position=pos(preset, 2, captured=["1J1 1J2 2J1 2J2 3J1 X2 X3", "-"],
                         hands=["10J2 10R", "4R 9R"]),
            moves=[], want=[scores(1, 0)])
        add(preset, "bonus cards in the pack", "x3-completes-junk", *q("m.x2x3"),
            f"{preset}: 9 junk and the captured X3 make 12 junk: 3 points",
            position=pos(preset, 2, captured=["1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1", "-"],
                         hands=["X3 10R", "4R 9R"], field="6J1"),
            moves=["X3"], want=[captured(0, "X3"), scores(3, 0)])


# ---------------------------------------------------------------- the deal (seeded deals)
def find_seed(rules: str, players: int, predicate, *, dealer: int = 0, start: int = 0,
              limit: int = 200_000) -> int:
    """The first seed from ``start`` whose deal (on the core) satisfies ``predicate``."""
    r = rules_from_token(rules)
    for seed in range(start, start + limit):
        if predicate(Game(r, players, seed, dealer)):
            return seed
    raise VectorError(f"no seed for {rules} {players}p in {start}..{start + limit}")


def months_of(cards) -> Counter:
    out = Counter()
    for c in cards.codes():
        if c.startswith("X"):
            continue
        digits = ""
        for ch in c:
            if not ch.isdigit():
                break
            digits += ch
        out[int(digits)] += 1
    return out


def has_quad(cards) -> bool:
    return any(n == 4 for n in months_of(cards).values())


def deal_kinds(g) -> list[str]:
    return [e.kind for e in g.deal_events()]


def sizes(o, hand: int, field: int, players: int):
    text = o["start"]
    tok = dict(t.split("=", 1) for t in text.split()[1:])
    hands = [h.split(",") if h != "-" else [] for h in tok["hands"].split("|")]
    fld = tok["field"].split(",") if tok["field"] != "-" else []
    ok = [len(h) for h in hands] == [hand] * players and len(fld) == field
    return ok or f"hands {[len(h) for h in hands]} field {len(fld)}, expected {hand}/{field}"


@section
def deal_rows():
    table = (("casual", 2, 10, 8, "000.dealer"), ("casual", 3, 7, 6, "m.casual_players"),
             ("casual", 4, 7, 6, "000.four_players"),
             ("traditional", 2, 10, 8, "001.deal2"), ("traditional", 3, 7, 6, "001.deal3"),
             ("standard", 2, 10, 8, "001.deal2"), ("standard", 3, 7, 6, "001.deal3"),
             ("family", 2, 10, 8, "004.deal2"), ("family", 3, 7, 6, "004.deal3"),
             ("family", 4, 5, 8, "004.deal4"))
    for preset, players, hand, field, src in table:
        for start, dealer in ((1, 0), (500, players - 1)):
            seed = find_seed(preset, players,
                             lambda g: not g.is_over() and not g.deal_events(), dealer=dealer,
                             start=start)
            add(preset, "hand / field", f"{players}p-seed{seed}-dealer{dealer}", *q(src),
                f"{preset}, {players} players, seed {seed}: {hand} cards to each hand and {field} "
                f"face up; dealer {dealer} plays first",
                deal=dict(rules=preset, players=players, seed=seed, dealer=dealer),
                moves=[], want=[lambda o, h=hand, f=field, n=players: sizes(o, h, f, n),
                                lambda o, d=dealer: o["turn"] == d or "the dealer plays first"])
    for preset, players, src in (("casual", 4, "000.four_players"), ("traditional", 3, "001.players"),
                                 ("standard", 3, "003.four_players"), ("family", 4, "004.setup")):
        seed = find_seed(preset, players, lambda g: not g.is_over() and not g.deal_events(), start=77)
        add(preset, "players", f"{players}p-first-moves", *q(src),
            f"{preset}: {players} players are dealt in; the dealer, seat 1, plays its first legal "
            "move",
            deal=dict(rules=preset, players=players, seed=seed, dealer=1),
            moves=["@first"], want=[lambda o: o["events"][0][0][1] == 1 or "the dealer moves"])
    for dealer in (1, 2):
        seed = find_seed("casual", 3, lambda g: not g.deal_events(), dealer=dealer, start=40)
        add("casual", "dealer", f"dealer{dealer}-plays-first", *q("000.dealer"),
            f"casual, 3 players, dealer {dealer}: the dealer moves first; play goes round by seat",
            deal=dict(rules="casual", players=3, seed=seed, dealer=dealer),
            moves=["@first"], want=[lambda o, d=dealer: o["events"][0][0][1] == d or "the dealer moves"])
    for seed in (0, 1):
        add("casual", "deal order", f"seed{seed}", *q("000.single_hand"),
            f"casual, seed {seed}: the seeded shuffle deals hands seat by seat, then the field, "
            "then the stock: the same deal on every machine",
            deal=dict(rules="casual", players=2, seed=seed, dealer=0), moves=[], want=[])
    seed = find_seed("casual", 4, lambda g: True, start=3)
    add("casual", "players, deal", "4p-stock", *q("000.four_players"),
        "casual, 4 players: 7 cards each and 6 on the field leave 16 cards (with X2 and X3) in "
        "the stock",
        deal=dict(rules="casual", players=4, seed=seed, dealer=0), moves=[],
        want=[lambda o: len(o["start"].split(" stock=")[1].split()[0].split(",")) == 16
              or "16 in the stock"])

    # a bonus card dealt to the field
    for preset, players, src in (("casual", 2, "000.bonus_field"), ("casual", 3, "m.bonus_field"),
                                 ("standard", 2, "002.bonus_field"), ("standard", 3, "004.bonus_field")):
        seed = find_seed(preset, players, lambda g: "dealt_bonus" in deal_kinds(g) and not g.is_over(),
                         dealer=1)
        add(preset, "bonus card dealt to the field", f"to-dealer-{players}p", *q(src),
            f"{preset}, {players} players, dealer 1: a bonus card dealt face up goes to the dealer's "
            "pile and the field is topped up from the stock",
            deal=dict(rules=preset, players=players, seed=seed, dealer=1), moves=[],
            want=[has("dealt_bonus"), lambda o: len(o["captured"]["1"]) >= 1 or "in the dealer's pile"])
    seed = find_seed("casual", 2, lambda g: deal_kinds(g).count("dealt_bonus") == 2)
    add("casual", "bonus card dealt to the field", "both-to-dealer", *q("000.bonus_field"),
        "casual: both bonus cards dealt face up go to the dealer, the field topped up twice",
        deal=dict(rules="casual", players=2, seed=seed, dealer=0), moves=[],
        want=[captured(0, "X2 X3")])
    seed = find_seed("casual", 2, lambda g: "dealt_bonus" in deal_kinds(g), start=1000)
    add("casual", "bonus card dealt to the field", "then-play", *q("000.bonus_field"),
        "casual: after a bonus card went to the dealer, the dealer plays its first move",
        deal=dict(rules="casual", players=2, seed=seed, dealer=0), moves=["@first"],
        want=[has("dealt_bonus", "played")])
    opt = "traditional+bonus_cards=1,bonus_in_hand=1"
    seed = find_seed(opt, 2, lambda g: bool(g.field & CardSet("X2 X3")))
    add("traditional", "bonus card dealt to the field", "option-stays-on-field", *q("001.jokers_off"),
        "traditional with jokers but bonus_to_dealer=0: a bonus card dealt face up stays on the "
        "field, where nothing matches it",
        deal=dict(rules=opt, players=2, seed=seed, dealer=0), moves=[], want=[lacks("dealt_bonus")])

    # four of a month on the field
    for preset, players, src in (("traditional", 2, "001.redeal"), ("traditional", 3, "001.redeal"),
                                 ("standard", 2, "002.redeal"), ("family", 3, "004.setup"),
                                 ("family", 4, "004.setup")):
        seed = find_seed(preset, players, lambda g: "redeal" in deal_kinds(g), dealer=players - 1)
        add(preset, "four of a month on the field", f"redeal-{players}p", *q(src),
            f"{preset}, {players} players: four of a month were dealt to the field: the deal is "
            "void and the same dealer deals again (the shuffle goes on with the same stream)",
            deal=dict(rules=preset, players=players, seed=seed, dealer=players - 1), moves=[],
            want=[has("redeal"), lambda o, d=players - 1: o["turn"] == d or "same dealer"])
    seed = find_seed("casual", 2, lambda g: has_quad(g.field))
    add("casual", "four of a month on the field", "no-special-rule", *q("m.four_casual"),
        "casual: four of a month on the field stay there; the deal stands",
        deal=dict(rules="casual", players=2, seed=seed, dealer=0), moves=[], want=[lacks("redeal")])
    add("casual", "four of a month on the field", "play-takes-one", *q("000.choose"),
        "casual: with all four of a month on the field, the dealer's first move is played",
        deal=dict(rules="casual", players=2, seed=seed, dealer=0), moves=["@first"], want=[])

    # chongtong
    def quads(g) -> list[int]:
        return [p for p in range(g.players) if has_quad(g.hand(p))]

    for preset, players, src, chips_each in (("traditional", 2, "001.chongtong", 5),
                                             ("traditional", 3, "001.chongtong", 5),
                                             ("standard", 2, "002.four_wins", 7),
                                             ("standard", 3, "m.std_no_chongtong", 3)):
        for holder in range(2):
            seed = find_seed(preset, players, lambda g, h=holder: quads(g) == [h])
            add(preset, "chongtong (four in a hand)", f"{players}p-seat{holder}", *q(src),
                f"{preset}, {players} players: seat {holder} is dealt four of a month and wins at "
                f"once: {chips_each} chips from each opponent",
                deal=dict(rules=preset, players=players, seed=seed, dealer=0), moves=[],
                want=[reason("chongtong"),
                      lambda o, h=holder, c=chips_each, n=players: o["chips"][h] == c * (n - 1)
                      or "paid by each"])
    seed = find_seed("traditional", 3, lambda g: len(quads(g)) == 2)
    add("traditional", "chongtong (four in a hand)", "two-holders-3p", *q("001.chongtong2"),
        "traditional, 3 players: two players hold quads: each collects 5 from the third",
        deal=dict(rules="traditional", players=3, seed=seed, dealer=0), moves=[],
        want=[reason("chongtong"), lambda o: sorted(o["chips"]) == [-10, 5, 5] or "5 + 5 from one"])
    seed = find_seed("standard+chongtong_chips=5", 2, lambda g: len(quads(g)) == 1)
    add("standard", "chongtong (four in a hand)", "option-5-chips", *q("001.chongtong"),
        "standard with chongtong_chips=5: the holder collects 5 chips",
        deal=dict(rules="standard+chongtong_chips=5", players=2, seed=seed, dealer=0), moves=[],
        want=[reason("chongtong"), lambda o: sorted(o["chips"]) == [-5, 5] or "5 chips"])
    for preset, src in (("casual", "m.four_casual"), ("family", "004.setup")):
        seed = find_seed(preset, 2, lambda g: len(quads(g)) == 1)
        add(preset, "chongtong (four in a hand)", "no-chongtong", *q(src),
            f"{preset}: four of a month in a dealt hand end nothing; the dealer plays",
            deal=dict(rules=preset, players=2, seed=seed, dealer=0), moves=["@first"],
            want=[lacks("chongtong")])
    seed = find_seed("casual+chongtong=1", 3, lambda g: len(quads(g)) == 1)
    add("casual", "chongtong (four in a hand)", "option-on", *q("002.four_wins"),
        "casual with chongtong=1: the holder wins at once, paid the 3-player threshold (3) by "
        "each opponent",
        deal=dict(rules="casual+chongtong=1", players=3, seed=seed, dealer=0), moves=[],
        want=[reason("chongtong")])


# ---------------------------------------------------------------- gwangpalli and showdown
@section
def gwangpalli_rows():
    for preset, dealer, price, src in (("traditional", 0, 1, "000.gwangpalli"),
                                       ("standard", 2, 1, "m.gwangpalli"),
                                       ("casual", 1, 1, "000.gwangpalli"),
                                       ("traditional", 3, 2, "000.gwangpalli"),
                                       ("standard", 0, 3, "m.gwangpalli")):
        rules = f"{preset}+allow_4p=1,gwangpalli=1" + (f",gwangpalli_chips={price}" if price != 1 else "")
        sitter = (dealer + 3) % 4
        for brights in (1, 2):
            seed = find_seed(rules, 4, lambda g, b=brights: len(g.hand(g.sitter) & BRIGHTS) == b
                             and not g.is_over(), dealer=dealer)
            add(preset, "gwangpalli", f"dealer{dealer}-{brights}-bright-{price}-chip", *q(src),
                f"{rules}: dealer {dealer}, so seat {sitter} sits out holding {brights} bright(s): "
                f"each playing seat pays it {price * brights} chip(s); the dealer plays",
                deal=dict(rules=rules, players=4, seed=seed, dealer=dealer), moves=["@first"],
                want=[chips_for("gwangpalli"),
                      lambda o, s=sitter, x=3 * price * brights: o["chips"][s] == x or "sitter paid"])
    rules = "traditional+allow_4p=1,gwangpalli=1"
    seed = find_seed(rules, 4, lambda g: not (g.hand(g.sitter) & BRIGHTS) and not g.is_over())
    add("traditional", "gwangpalli", "no-bright-no-payment", *q("000.gwangpalli"),
        "gwangpalli: the seat sitting out holds no bright: nobody pays",
        deal=dict(rules=rules, players=4, seed=seed, dealer=0), moves=[], want=[no_chips])
    # position-based: the three playing seats
    add("casual", "gwangpalli", "bomb-skips-sitter", *q("m.gwangpalli"),
        "casual gwangpalli, seat 3 sits out: seat 0's bomb steals from seats 1 and 2 only",
        position=pos("casual+allow_4p=1,gwangpalli=1", 4, tokens="sitter=3", field="3J2 5J1",
                     hands=[BOMB_HAND, "10J2 10R", "4R 9R", "12A 6R"],
                     captured=["-", "1J1", "2J1", "-"], stock="11J1"),
        moves=["bomb3"], want=[stolen(("1J1", 1), ("2J1", 2))])
    add("traditional", "gwangpalli", "turn-skips-sitter", *q("000.gwangpalli"),
        "traditional gwangpalli, dealer 1 so seat 0 sits out: after seat 3 the turn goes to "
        "seat 1",
        position=pos("traditional+allow_4p=1,gwangpalli=1", 4, tokens="sitter=0", dealer=1, turn=3,
                     field="5J1", hands=["1B 3B", "10J2 10R", "4R 9R", "12A 6R"], stock="11J1"),
        moves=["12A"], want=[lambda o: o["turn"] == 1 or "seat 1 next"])
    add("standard", "gwangpalli", "three-player-threshold", *q("m.gwangpalli"),
        "standard gwangpalli: three seats play, so 3 points reach the threshold",
        position=pos("standard+allow_4p=1,gwangpalli=1", 4, tokens="sitter=3",
                     captured=["1B 8B", "-", "-", "-"], field="3J1",
                     hands=["3B 7A", "10J2 10R", "4R 9R", "12A 6R"], stock="11J1"),
        moves=["3B"], want=[phase("gostop")])
    add("standard", "gwangpalli", "pi-bak-three-players", *q("m.gwangpalli"),
        "standard gwangpalli: the two losers pay; the seat sitting out pays nothing",
        position=stop_pos("standard+allow_4p=1,gwangpalli=1", 4,
                          [JUNK_WIN, junk_loser(6), "12B 11J1 11J2", "-"], tokens="sitter=3"),
        moves=["stop"], want=[pays(0, 9, 18, 0)])


@section
def showdown_rows():
    # seat 1 holds 2A 4A 8A 1R 2R (5 points): 3R would give it hongdan, 8 points: a win-card
    for preset in ("casual", "traditional", "standard"):
        rules = f"{preset}+showdown=1"
        base = dict(field="5J1", captured=["-", "2A 4A 8A 1R 2R"], stock="11J1 12D")
        add(preset, "showdown", "offered", *q("003.showdown"),
            f"{rules}: seat 0 holds 3R, seat 1's win-card: it may ask for a showdown",
            position=pos(rules, 2, hands=["3R 7A", "10J2 10R"], **base),
            moves=[], want=[legal("showdown/3R")])
        add(preset, "showdown", "accepted-nagari", *q("003.showdown_yes"),
            f"{rules}: seat 0 asks, seat 1 receives: the hand is a nagari",
            position=pos(rules, 2, hands=["3R 7A", "10J2 10R"], **base),
            moves=["showdown/3R", "accept"], want=[has("showdown", "showdown_answer"),
                                                   reason("draw")])
        add(preset, "showdown", "refused-lays-it-down", *q("003.showdown_no"),
            f"{rules}: seat 1 refuses: seat 0 must lay 3R down as its play",
            position=pos(rules, 2, hands=["3R 7A", "10J2 10R"], **base),
            moves=["showdown/3R", "refuse"], want=[legal("3R", exact=True)])
        add(preset, "showdown", "refused-then-played", *q("003.showdown_no"),
            f"{rules}: after the refusal seat 0 plays 3R; it stays on the field for seat 1",
            position=pos(rules, 2, hands=["3R 7A", "10J2 10R"], **base),
            moves=["showdown/3R", "refuse", "3R"], want=[on_field("3R")])
    rules = "standard+showdown=1"
    three = dict(field="5J1", captured=["-", "2A 4A 8A", "1B 8B"], stock="11J1 12D")
    add("standard", "showdown", "3p-one-refuses", *q("003.showdown_no"),
        "standard showdown, 3 players: seat 0 holds 3B (seat 2's win-card); seat 1 receives, "
        "seat 2 refuses: 3B must be played",
        position=pos(rules, 3, hands=["3B 7A", "10J2 10R", "4R 9R"], **three),
        moves=["showdown/3B", "accept", "refuse"], want=[legal("3B", exact=True)])
    add("standard", "showdown", "3p-all-receive", *q("003.showdown_yes"),
        "standard showdown, 3 players: both others receive: nagari",
        position=pos(rules, 3, hands=["3B 7A", "10J2 10R", "4R 9R"], **three),
        moves=["showdown/3B", "accept", "accept"], want=[reason("draw")])
    add("standard", "showdown", "not-a-win-card-after-go", *q("003.showdown"),
        "standard showdown: seat 1 said Go at 9 and holds 6 points; 3R would bring it "
        "only to 9 again: no win-card, no showdown",
        position=pos(rules, 2, hands=["3R 12R", "10J2 10R"], field="5J1",
                     captured=["-", "2A 4A 8A 1R 2R 6A 7A"], go=[0, 1], lastgo=[0, 9],
                     stock="11J1"),
        moves=[], want=[not_legal("showdown/3R")])
    add("family", "showdown", "no-win-cards", *q("m.showdown"),
        "family with showdown=1: nobody may stop, so no card is a win-card",
        position=pos("family+showdown=1", 2, hands=["3R 7A", "10J2 10R"], field="5J1",
                     captured=["-", "2A 2R 4A 4J1 8A 8J1 1R 1J1"], stock="11J1"),
        moves=[], want=[not_legal("showdown/3R")])
    add("casual", "showdown", "option-off", *q("m.showdown"),
        "casual as preset (showdown=0): holding the win-card offers no showdown",
        position=pos("casual", 2, hands=["3R 7A", "10J2 10R"], field="5J1",
                     captured=["-", "2A 4A 8A 1R 2R"], stock="11J1"),
        moves=[], want=[not_legal("showdown/3R")])


# ---------------------------------------------------------------- family scoring
def family_end(players: int, piles, *, seat: int, hand: str, field: str, stock: str,
               fill: int, rules: str = "family") -> str:
    """The last turn of a family hand: ``seat`` holds ``hand`` (one card), every other
    hand is empty, the stock holds ``stock``; the rest of the pack is in seat ``fill``'s
    pile.  As in a real family hand every pile holds each month two or four at a time
    and the last turn leaves the field empty (docs/notation.md, "months")."""
    hands = [hand if p == seat else "-" for p in range(players)]
    return pos(rules, players, turn=seat, hands=hands, captured=piles, field=field, stock=stock,
               fill=f"captured{fill}")


def balance_sum_zero(o):
    chips_ = o["outcome"]["chips"]
    return sum(chips_) == 0 or f"balances {chips_} do not sum to 0"


#: 5 brights and 2 ribbons (110 family points), each month with a junk partner (a pile
#: holds months in pairs), and one card of every set, so that no other pile makes one
TARGET_PILE = "1B 1R 3B 3J1 8B 8J1 11B 11J1 12B 12D 6R 6J1 5J1 5J2 10J1 10J2"


@section
def family_rows():
    # card points
    for players, piles, src in (
            (2, ["1B 1R 3B 3J1 2A 2J1", "9A 9J1 5A 5J1 11D 11J1 1J1 1J2"], "004.bright"),
            (3, ["6R 6J1 9R 9J1 10R 10J1 4R 4J1", "2A 2J1 4A 4J2 8A 8J1", "12B 12A 12R 12D"],
             "004.ribbon"),
            (4, ["1B 1R", "2A 2J1 1J1 1J2", "5A 5J1 9A 9J1", "11D 11J1 3J1 3J2"], "004.animal")):
        add("family", "family points", f"card-points-{players}p", *q(src),
            f"family, {players} players: brights 20, ribbons 5, animals 10 (5A and 9A too), junk 0",
            position=pos("family", players, captured=piles, hands=free_hands(piles)),
            moves=[], want=[lambda o: o["scores"][0] > 0 or "points"])
    add("family", "family points", "junk-worth-nothing", *q("004.junk"),
        "family: a pile of junk and double junk is worth nothing",
        position=pos("family", 2, captured=["11D 11J1 " + JUNK10, "-"], hands=["10J2 10R", "4R 9R"]),
        moves=[], want=[scores(0, 0)])
    add("family", "family points", "capture-adds-points", *q("004.bright"),
        "family: taking 8B with 8A adds 20 + 10 points",
        position=pos("family", 2, captured=["1R 1J1", "-"], field="8B 5J1", hands=["8A 7J1", "10J2 10R"],
                     stock="11J1"),
        moves=["8A"], want=[scores(35, 0)])
    add("family", "family points", "rain-ribbon-counts", *q("m.family_points"),
        "family: all ten ribbons count, 12R too: 5 points each",
        position=pos("family", 2, captured=["12R 12D 4R 4J1", "-"], hands=["10J2 10R", "9R 6R"]),
        moves=[], want=[scores(10, 0)])

    # set bonuses and balances, scored when the last card is played
    sets = (
        (2, ["1R 1J1 2R 2J1 3R 3J1", "-"], 1, "004.ribbon_set", "hongdan-2p", 0),
        (2, ["11B 11D 11J1 11J2", "-"], 1, "004.november", "november-2p", 0),
        (3, ["5A 5R 5J1 5J2", "-", "6R 6J1 9R 9J1 10R 10J1"], 1, "004.may", "may-and-cheongdan-3p", 2),
        (3, ["-", "10A 10R 10J1 10J2 12B 12A 12R 12D", "1B 1J1"], 0, "004.october",
         "october-december-3p", 1),
        (4, ["12B 12A 12R 12D", "11B 11D 11J1 11J2", "1R 1J1 2R 2J1 3R 3J1", "-"], 3, "004.december",
         "four-sets-4p", 3),
        (4, ["6R 6J1 9R 9J1 10R 10J1 1R 1J1 2R 2J1 3R 3J1", "-", "-", "-"], 1, "004.ribbon_set",
         "two-ribbon-sets-4p", 2),
    )
    for players, piles, fill, src, name, seat in sets:
        add("family", "family set bonuses", name, *q(src),
            f"family, {players} players: the last card is played; set bonuses are paid by every "
            "other player and the balances against 240 / players sum to zero",
            position=family_end(players, piles, seat=seat, hand="7J2", field="7J1 4J1",
                                stock="4J2", fill=fill),
            moves=["7J2"], want=[reason("family"), balance_sum_zero])
    for players, src in ((2, "004.target"), (3, "004.zero"), (4, "m.family_balance")):
        piles = [(TARGET_PILE if p == 0 else "-") for p in range(players)]
        add("family", "family balance", f"target-{players}p", *q(src),
            f"family, {players} players: seat 0 holds 5 brights and 2 ribbons (110 points) and "
            f"one card of every set, so it pays no bonus; the break-even is {240 // players}",
            position=family_end(players, piles, seat=players - 1, hand="7J2",
                                field="7J1 4J1", stock="4J2", fill=1),
            moves=["7J2"], want=[reason("family"), balance_sum_zero,
                                 lambda o, n=players: o["outcome"]["chips"][0] == 110 - 240 // n
                                 or "110 - target"])
    add("family", "family balance", "tie-no-winner", *q("004.break_even"),
        "family, 2 players: both hold 120 points and no set: both balances are 0, no winner",
        position=family_end(2, [TARGET_PILE + " 2A 2J1", "-"], seat=1, hand="7J2",
                            field="7J1 4J1", stock="4J2", fill=1),
        moves=["7J2"], want=[reason("family"), lambda o: o["outcome"]["winner"] is None
                             or "no winner", chips(0, 0)])
    add("family", "family balance", "highest-wins-3p", *q("004.zero"),
        "family, 3 players: the highest balance is the outcome's winner",
        position=family_end(3, ["1B 1J1 3B 3J1 8B 8J1",
                                "2A 2R 4A 4R 8A 8J2 5A 5J1 6A 6R 7A 7R 9A 9R 10A 10R 12A 12D "
                                "1R 1J2 3R 3J2", "-"], seat=2,
                            hand="7J2", field="7J1 4J1", stock="4J2", fill=2),
        moves=["7J2"], want=[balance_sum_zero, lambda o: o["outcome"]["winner"] == 1 or "seat 1"])
    add("family", "family balance", "played-out-no-go-stop", *q("004.run_out"),
        "family: a hand is played until the cards run out; the last turn's ttadak is scored",
        position=family_end(2, ["1B 1J1 8B 8J1", "-"], seat=0, hand="3R", field="3J1 3J2",
                            stock="3B", fill=1),
        moves=["3R/3J1"], want=[reason("family"), captured(0, "3B 3R 3J1 3J2")])
    add("family", "family balance", "option-7-card-4p-deal", *q("004.setup"),
        "family with hand_4p=7, field_4p=6 (the casual four-handed deal): balances still sum to 0",
        position=family_end(4, ["1B 1J1 2A 2J1", "3B 3J1", "6R 6J1 9R 9J1 10R 10J1", "-"], seat=3,
                            hand="7J2", field="7J1 4J1", stock="4J2", fill=0,
                            rules="family+hand_4p=7,field_4p=6"),
        moves=["7J2"], want=[balance_sum_zero])


# ---------------------------------------------------------------- scoring
@section
def scoring_rows():
    def add_pile(preset, name, src, note, piles, expect, rules=None):
        add(preset, "scoring", name, *q(src), f"{rules or preset}: {note}",
            position=pos(rules or preset, len(piles), captured=piles, hands=free_hands(piles)),
            moves=[], want=[scores(*expect)])

    C = "casual"
    add_pile(C, "three-brights", "000.bright3", "3 brights without 12B score 3",
             ["1B 3B 8B", "1R 11B 12B 2J1"], (3, 0))
    add_pile(C, "three-brights-rain", "000.bright3", "3 brights with the rain bright score 2",
             ["1B 11B 12B", "3B 8B"], (2, 0))
    add_pile(C, "four-brights", "m.bright4", "4 brights score 4, with or without 12B",
             ["1B 3B 8B 11B", "-"], (4, 0))
    add_pile(C, "four-brights-rain", "m.bright4", "4 brights with 12B score 4",
             ["1B 3B 8B 12B", "-"], (4, 0))
    add_pile(C, "five-brights", "m.bright5", "5 brights score 15",
             ["1B 3B 8B 11B 12B", "-"], (15, 0))
    add_pile(C, "five-ribbons-with-12R", "000.ribbons", "5 ribbons (12R among them) score 1",
             ["1R 4R 6R 7R 12R", "-"], (1, 0))
    add_pile(C, "seven-ribbons-and-cheongdan", "000.ribbon_set",
             "7 ribbons score 3 and cheongdan 3 more", ["1R 4R 6R 9R 10R 7R 12R", "-"], (6, 0))
    add_pile(C, "hongdan", "000.ribbon_set", "hongdan scores 3", ["1R 2R 3R", "-"], (3, 0))
    add_pile(C, "chodan", "000.ribbon_set", "chodan scores 3", ["4R 5R 7R", "-"], (3, 0))
    add_pile(C, "rain-ribbon-no-set", "000.rain_ribbon", "4R 5R 12R is no chodan: 12R is in no set",
             ["4R 5R 12R", "-"], (0, 0))
    add_pile(C, "five-animals", "000.animals", "5 animals score 1",
             ["2A 4A 5A 6A 7A", "-"], (1, 0))
    add_pile(C, "godori-six-animals", "002.animals7", "godori 5 and 6 animals 2: 7",
             ["2A 4A 8A 5A 6A 7A", "-"], (7, 0))
    add_pile(C, "godori", "000.godori", "the three birds score 5", ["2A 4A 8A", "-"], (5, 0))
    add_pile(C, "rain-animal-no-godori", "000.godori", "12A is no godori bird",
             ["2A 4A 12A", "-"], (0, 0))
    add_pile(C, "ten-junk", "000.junk", "10 junk score 1", [JUNK10, "-"], (1, 0))
    add_pile(C, "double-junk", "000.double", "6 junk and two double junk make 10: 1",
             ["1J1 1J2 2J1 2J2 3J1 3J2 11D 12D", "-"], (1, 0))
    add_pile(C, "twelve-junk", "000.junk", "12 junk score 3",
             [JUNK10 + " 6J1 6J2", "-"], (3, 0))
    add_pile(C, "sake-cup-as-junk", "000.sake", "9A counted as double junk: 8 junk + 2 = 10",
             ["1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 9A", "-"], (1, 0))
    add_pile(C, "sake-cup-as-animal", "000.sake", "9A counted as an animal: 5 animals = 1",
             ["2A 4A 6A 7A 9A 1J1 1J2", "-"], (1, 0))
    add_pile(C, "sake-cup-best-way", "m.sake",
             "9A as junk makes 11 junk (2) and 5 animals (1): 3, more than as an animal (2)",
             ["2A 4A 6A 7A 9A 10A 1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1", "-"], (3, 0))
    add_pile(C, "combined", "000.objective", "brights, hongdan, godori and junk add up",
             ["1B 3B 8B 1R 2R 3R 2A 4A 8A 11D 12D 1J1 1J2 2J1 2J2 3J1 3J2", "-"], (3 + 3 + 5 + 1, 0))
    add_pile("traditional", "sake-cup-single-junk", "m.sake_trad",
             "traditional: 9A counts one junk at most: 9 junk + 9A = 10: 1", [
                 "1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 9A", "-"], (1, 0))
    add_pile("traditional", "sake-cup-not-double", "m.sake_trad",
             "traditional: 8 junk + 9A = 9 junk: no point", [
                 "1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 9A", "-"], (0, 0))
    add_pile("traditional", "option-sake-cup-double", "001.sake_two",
             "traditional with sake_cup_junk=2: 8 junk + 9A = 10: 1",
             ["1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 9A", "-"], (1, 0),
             rules="traditional+sake_cup_junk=2")
    add_pile("traditional", "option-four-brights-rain-3", "001.bright4_rain",
             "4 brights with 12B score 3 (bright4_rain=3)",
             ["1B 3B 8B 12B", "11B"], (3, 0), rules="traditional+bright4_rain=3")
    add_pile("traditional", "option-godori-3", "001.godori3", "traditional with godori=3",
             ["2A 4A 8A", "-"], (3, 0), rules="traditional+godori=3")
    add_pile("traditional", "rain-ribbon-counts", "001.ribbons",
             "traditional: 12R counts toward the five ribbons", ["1R 4R 6R 7R 12R", "-"], (1, 0))
    add_pile("traditional", "five-brights", "001.bright5", "5 brights score 15",
             ["1B 3B 8B 11B 12B", "-"], (15, 0))
    add_pile("traditional", "four-brights", "001.bright4", "4 brights score 4",
             ["1B 3B 8B 12B", "-"], (4, 0))
    add_pile("traditional", "godori", "001.godori", "godori 5", ["2A 4A 8A", "-"], (5, 0))
    add_pile("traditional", "animals-and-junk", "001.animals", "5 animals 1 and 10 junk 1",
             ["2A 4A 6A 7A 10A " + JUNK10, "-"], (2, 0))
    add_pile("standard", "rain-ribbon-excluded", "002.rain_ribbon",
             "standard: 12R does not count: 4 ribbons", ["1R 4R 6R 7R 12R", "-"], (0, 0))
    add_pile("standard", "option-rain-ribbon-counts", "m.twelve_r",
             "standard with rain_ribbon_counts=1: 5 ribbons", ["1R 4R 6R 7R 12R", "-"], (1, 0),
             rules="standard+rain_ribbon_counts=1")
    add_pile("standard", "bridge-as-junk", "002.bridge", "standard: 5A as double junk: 8 + 2 = 10",
             ["1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5A", "-"], (1, 0))
    add_pile("standard", "bridge-and-sake-cup", "m.bridge",
             "standard: 5A and 9A both as double junk: 6 + 4 = 10", [
                 "1J1 1J2 2J1 2J2 3J1 3J2 5A 9A", "-"], (1, 0))
    add_pile("standard", "bridge-as-animal", "m.bridge",
             "standard keeps 5A as an animal when that scores more: 5 animals", [
                 "2A 4A 5A 6A 7A", "-"], (1, 0))
    add_pile("standard", "wet-three-brights", "002.wet", "three brights with the rain bright: 2",
             ["1B 3B 12B", "-"], (2, 0))
    add_pile("standard", "four-brights-rain", "002.four_brights", "4 brights with 12B: 4",
             ["1B 3B 8B 12B", "-"], (4, 0))
    add_pile("standard", "option-five-brights-50", "002.five_brights",
             "standard with bright5=50", ["1B 3B 8B 11B 12B", "-"], (50, 0),
             rules="standard+bright5=50")
    add_pile("standard", "eight-ribbon-points", "002.ribbons8",
             "hongdan 3 + cheongdan 3 + six ribbons 2 = 8", ["1R 2R 3R 6R 9R 10R", "-"], (8, 0))
    add_pile("standard", "double-junk", "002.double_junk", "11D and 12D count two each",
             ["11D 12D 1J1 1J2 2J1 2J2 3J1 3J2", "-"], (1, 0))
    # a capture that completes a combination
    for preset, src in (("casual", "000.bright3"), ("traditional", "001.bright4"),
                        ("standard", "002.four_brights")):
        add(preset, "scoring", "capture-completes-brights", *q(src),
            f"{preset}: holding 1B 3B, the capture of 8B makes 3 brights",
            position=pos(preset, 2, captured=["1B 3B", "-"], field="8B 5J1",
                         hands=["8J1 7A", "10J2 10R"], stock="11J1"),
            moves=["8J1"], want=[scores(3, 0)])


# ---------------------------------------------------------------- matches
def play_match(rules: str, players: int, seed: int, policies, *, dealer=None,
               daytime: bool = False) -> tuple[list[list[str]], object]:
    """Play a match on the core, one hand per policy: ``"stop"`` stops whenever it may,
    ``"go"`` never stops; otherwise the first legal move in sorted order."""
    from gostop_core.match import Match
    m = Match(rules_from_token(rules), players, seed, dealer=dealer, daytime=daytime)
    hands = []
    for policy in policies:
        g = m.new_hand()
        moves = []
        while not g.is_over():
            legal_ = sorted(str(x) for x in g.legal_moves)
            if g.phase == "gostop":
                move = "stop" if policy == "stop" else "go"
            else:
                move = legal_[0]
            g.push(move)
            moves.append(move)
        m.record(g)
        hands.append(moves)
    return hands, m


def match_seed(rules: str, players: int, policies, predicate, *, daytime: bool = False,
               dealer=None, start: int = 0, limit: int = 400) -> tuple[int, list]:
    for seed in range(start, start + limit):
        hands, m = play_match(rules, players, seed, policies, dealer=dealer, daytime=daytime)
        if predicate(m):
            return seed, hands
    raise VectorError(f"no match seed for {rules}")


def add_match(preset, rule, name, src, note, rules, players, policies, predicate, *,
              daytime=False, dealer=None, start=0, want=()):
    seed, hands = match_seed(rules, players, policies, predicate, daytime=daytime, dealer=dealer,
                             start=start)
    spec = dict(rules=rules, players=players, seed=seed)
    if dealer is not None:
        spec["dealer"] = dealer
    if daytime:
        spec["daytime"] = True
    add(preset, rule, name, *q(src), note + f" (match seed {seed})", match=spec, hands=hands,
        want=want)


def winners(m) -> list:
    return [h.outcome.winner for h in m.hands]


@section
def match_rows():
    add_match("traditional", "dealer", "draw-highest-month-2p", "001.dealer_draw",
              "traditional: the first dealer is drawn (highest month deals); the winner of each "
              "hand deals the next", "traditional", 2, ["stop"] * 3,
              lambda m: m.hands[0].dealer != 0 and m.hands[0].outcome.winner is not None)
    add_match("traditional", "dealer", "draw-3p", "001.dealer_draw",
              "traditional, 3 players: the drawn cards decide the first dealer", "traditional", 3,
              ["stop"] * 2, lambda m: m.hands[0].dealer == 2)
    add_match("standard", "dealer", "night-earliest-month", "003.night",
              "standard at night: the earliest month drawn deals", "standard", 2, ["stop"] * 2,
              lambda m: m.hands[0].dealer == 1)
    add_match("standard", "dealer", "day-latest-month", "003.night",
              "standard by day: the latest month drawn deals", "standard", 3, ["stop"] * 2,
              lambda m: m.hands[0].dealer == 2, daytime=True)
    add_match("casual", "dealer", "fixed-seat-0", "000.single_hand",
              "casual: the dealer is fixed (seat 0) and stays after any winner", "casual", 2,
              ["stop"] * 3, lambda m: 1 in winners(m))
    add_match("traditional", "matches", "winner-deals-next", "001.winner_deals",
              "traditional: seat 1 wins a hand and deals the next", "traditional", 2,
              ["stop"] * 3, lambda m: len(set(h.dealer for h in m.hands)) == 2, dealer=0)
    add_match("standard", "matches", "ledger-3p", "m.match",
              "standard, 3 players: chips of every hand add up in the ledger", "standard", 3,
              ["stop"] * 3, lambda m: all(w is not None for w in winners(m)), dealer=0)
    add_match("traditional", "nagari", "match-stake-doubles", "001.nagari_double",
              "traditional match: a drawn hand, then the next payment is doubled and the same "
              "dealer deals", "traditional", 2, ["go", "stop"],
              lambda m: m.hands[0].outcome.reason == "draw" and m.hands[1].outcome.winner is not None,
              dealer=0)
    add_match("standard", "nagari", "match-two-draws", "003.nagari",
              "standard match: two drawn hands in a row: the stake doubles twice", "standard", 2,
              ["go", "go", "stop"],
              lambda m: [h.outcome.reason for h in m.hands][:2] == ["draw", "draw"], dealer=1)
    add_match("casual", "matches", "no-stake", "m.casual_draw",
              "casual: a drawn hand carries no stake into the next", "casual", 2, ["go", "stop"],
              lambda m: m.hands[0].outcome.reason == "draw", dealer=0)
    add_match("family", "matches", "balances-ledger", "004.zero",
              "family: hand after hand the balances add up in the ledger, the dealer fixed",
              "family", 3, ["stop"] * 2, lambda m: True, dealer=2)



if __name__ == "__main__":
    sys.exit(main())
