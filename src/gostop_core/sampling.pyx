"""Sampling the hidden cards of a player's view: the public state of a view
(:c:func:`fill_public`, :c:func:`view_base`) and a random deal of the unseen
cards to the other hands and the stock (:c:func:`determinize`).  Every search
and the public C interface (:mod:`gostop_core.core`) deal their worlds here:
each deal consistent with the view is equally likely, and a card whose place is
public goes to its owner."""
from libc.stdint cimport uint64_t, uint8_t
from libc.string cimport memset

from gostop_core.cards cimport GS_BIT, GS_NO_CARD, gs_lowest
from gostop_core.rules cimport Rules
from gostop_core.movegen cimport GameStateC, PHASE_OVER, seen_by


cdef void fill_public(GameStateC* st, dict f, int seat):
    """The public part of a search state from parse_view fields."""
    cdef int p, n = f["nplayers"]
    memset(st, 0, sizeof(GameStateC))
    st.nplayers = n
    st.dealer = f["dealer"]
    st.to_move = f["to_move"]
    st.phase = f["phase"]
    st.flip_card = GS_NO_CARD if f["flip_card"] is None else f["flip_card"]
    st.winner = -1 if f.get("winner") is None else f["winner"]
    st.points = f.get("points", 0)
    st.turns = f["turns"]
    st.field = f["field"]
    for p in range(n):
        st.hand[p] = f["hand"] if p == seat else 0
        st.captured[p] = f["captured"][p]
        st.go_count[p] = f["go_counts"][p]
        st.last_go_score[p] = f["last_go_scores"][p]
        st.flip_only[p] = f["flip_only"][p]
        st.shaken[p] = f["shaken"][p]
        st.bombs[p] = f["bombs"][p]
        st.ppeoks[p] = f["ppeoks"][p]
        st.turns_played[p] = f["turns_played"][p]
        st.chips[p] = f["chips"][p]
    st.played_card = GS_NO_CARD if f["played_card"] is None else f["played_card"]
    st.played_target = GS_NO_CARD if f["played_target"] is None else f["played_target"]
    st.turn_bonus = f["turn_bonus"]
    st.turn_flags = f["turn_flags"]
    st.stack_bonus_month[0] = f["stack_bonus"][0]
    st.stack_bonus_month[1] = f["stack_bonus"][1]
    st.end_reason = f.get("end_reason", 0)
    st.sitter = -1 if f.get("sitter") is None else f["sitter"]
    st.showdown_caller = -1 if f.get("showdown_caller") is None else f["showdown_caller"]
    st.showdown_card = GS_NO_CARD if f.get("showdown_card") is None else f["showdown_card"]
    st.forced_card = GS_NO_CARD if f.get("forced_card") is None else f["forced_card"]
    st.stake_doublings = f.get("stake_doublings", 0)
    st.stock_len = f["stock_count"]
    st.stock_pos = 0


cdef void determinize(const GameStateC* base, GameStateC* out, const uint8_t* pool, int npool,
                      const int* need, int seat, uint64_t* rng) noexcept nogil:
    """Deal the unseen ``pool`` at random: ``need[q]`` cards to each other hand,
    the rest to the stock."""
    cdef uint8_t cards[50]
    cdef int i, q, k = 0
    out[0] = base[0]
    for i in range(npool):
        cards[i] = pool[i]
    shuffle_cards(cards, npool, rng)
    for q in range(base.nplayers):
        if q == seat:
            continue
        for i in range(need[q]):
            out.hand[q] |= GS_BIT(cards[k])
            k += 1
    for i in range(base.stock_len):
        out.stock[i] = cards[k]
        k += 1


cdef int check_hidden(const GameStateC* base, const int* need, int npool, int seat) except -1:
    """The hidden places of a view (the other hands, the stock) hold exactly the
    unseen cards, each place a count in range: else ``determinize`` would deal
    bytes that are no cards."""
    cdef int q, total = base.stock_len
    if base.stock_len < 0 or base.stock_len > 50:
        raise ValueError(f"stock of {base.stock_len} cards")
    for q in range(base.nplayers):
        if q == seat:
            continue
        if need[q] < 0 or need[q] > 50:
            raise ValueError(f"seat {q} holds a card shown as its own (a showdown or forced "
                             "card) but no card is counted in its hand")
        total += need[q]
    if total != npool:
        raise ValueError(f"{npool} cards are unseen but the other hands and the stock hold {total}")
    return 0


cdef int view_base(Rules rules, dict fields, GameStateC* base, uint8_t* pool, int* need) except -1:
    """The search's start from a view (``parse_view`` fields; the seat must be
    the one to move): ``base`` the public state with the seat's own hand,
    ``pool`` the cards the seat cannot see (returns how many), ``need`` how
    many of them each other hand holds (the rest is the stock).  A card whose
    place is public (a refused showdown's forced card, a showdown card) is put
    in its owner's hand instead of the pool.  ``determinize`` deals a sample."""
    cdef int q, n, card, owner, npool = 0, seat = fields["seat"]
    cdef uint64_t unseen, visible
    if fields["phase"] == PHASE_OVER:
        raise ValueError("the hand is over: nothing to search")
    if fields["to_move"] != seat:
        raise ValueError(f"seat {seat} is not the one to move (seat {fields['to_move']} is)")
    fill_public(base, fields, seat)
    n = base.nplayers
    visible = seen_by(base, seat)
    unseen = ((<uint64_t>1 << (50 if rules.c.bonus_cards else 48)) - 1) & ~visible
    for q in range(n):
        need[q] = 0 if q == seat else fields["hand_counts"][q]
    # cards whose place is public: they go to their owner
    for card, owner in ((base.forced_card, base.to_move), (base.showdown_card, base.showdown_caller)):
        if card != GS_NO_CARD and owner >= 0 and owner != seat and unseen & GS_BIT(card):
            unseen &= ~GS_BIT(card)
            base.hand[owner] |= GS_BIT(card)
            need[owner] -= 1
    while unseen:
        pool[npool] = gs_lowest(unseen)
        npool += 1
        unseen &= unseen - 1
    check_hidden(base, need, npool, seat)
    return npool
