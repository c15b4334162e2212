# Included by search.pyx (one compilation unit): the table of the searching
# seat's information sets (``consistent``).

# ---------------------------------------------------------------- information sets
# With ``consistent``, the searching seat's own decisions below the root are made
# per information set: a node of the table below stands for what the seat has
# seen since the root (its own moves, the cards it saw turned from the stock or
# drew after banking a bonus card, the other seats' moves), so every sample that
# agrees on those shares the node.  The leaves' values are added, weighted by
# their chance, to the node they end in; info_resolve then takes, bottom up, the
# sum of the seen outcomes and the best of the seat's own moves, each move's
# total over every sample that reaches the node.  The same choice is thus made
# in every sample of an information set, from the seat's information then, not
# from the sample's hidden cards (strategy fusion).  A sample's values are kept
# aside until it completes (a sample cut short by the clock leaves no trace).

DEFAULT_INFO_LIMIT = 1 << 20

cdef inline uint64_t info_hash(int32_t parent, int32_t edge) noexcept nogil:
    cdef uint64_t x = ((<uint64_t><uint32_t>parent) << 32) | <uint32_t>edge
    x ^= x >> 33
    x *= <uint64_t>0xFF51AFD7ED558CCD
    x ^= x >> 33
    return x


cdef int info_init(InfoTrie* t, int32_t limit) noexcept nogil:
    """An empty table with its root node (index 0); -1 when out of memory."""
    memset(t, 0, sizeof(InfoTrie))
    t.capacity = 4096
    t.limit = limit
    t.nodes = <InfoNode*>malloc(t.capacity * sizeof(InfoNode))
    t.table = <int32_t*>malloc(2 * t.capacity * sizeof(int32_t))
    t.log_capacity = 4096
    t.log_node = <int32_t*>malloc(t.log_capacity * sizeof(int32_t))
    t.log_value = <double*>malloc(t.log_capacity * sizeof(double))
    if t.nodes == NULL or t.table == NULL or t.log_node == NULL or t.log_value == NULL:
        return -1
    memset(t.table, 0, 2 * t.capacity * sizeof(int32_t))
    t.table_mask = 2 * t.capacity - 1
    t.nodes[0].parent = -1
    t.nodes[0].edge = 0
    t.nodes[0].leaf = 0.0
    t.nodes[0].is_move = 0
    t.nodes[0].live = 0
    t.count = 1
    return 0


cdef void info_free(InfoTrie* t) noexcept nogil:
    free(t.nodes)
    free(t.table)
    free(t.log_node)
    free(t.log_value)
    free(t.val)
    t.nodes = NULL
    t.table = NULL
    t.log_node = NULL
    t.log_value = NULL
    t.val = NULL


cdef int info_grow(InfoTrie* t) noexcept nogil:
    """Twice the nodes (and the hash table, rehashed); -1 past the limit or out of memory."""
    cdef int32_t cap = 2 * t.capacity, k
    cdef InfoNode* nodes
    cdef int32_t* table
    cdef uint64_t mask, h
    if cap > t.limit:
        return -1
    nodes = <InfoNode*>realloc(t.nodes, cap * sizeof(InfoNode))
    if nodes == NULL:
        return -1
    t.nodes = nodes
    table = <int32_t*>malloc(2 * cap * sizeof(int32_t))
    if table == NULL:
        return -1
    memset(table, 0, 2 * cap * sizeof(int32_t))
    mask = 2 * cap - 1
    for k in range(1, t.count):
        h = info_hash(nodes[k].parent, nodes[k].edge) & mask
        while table[h] != 0:
            h = (h + 1) & mask
        table[h] = k + 1
    free(t.table)
    t.table = table
    t.table_mask = mask
    t.capacity = cap
    return 0


cdef int32_t info_child(SearchCtx* c, int32_t parent, int32_t edge, bint is_move) noexcept nogil:
    """The node reached from ``parent`` by ``edge``, added if new (not while
    following the table); -1 without a table, below a missing node or when full."""
    cdef InfoTrie* t = c.trie
    cdef uint64_t h
    cdef int32_t k
    if t == NULL or parent < 0:
        return -1
    h = info_hash(parent, edge) & t.table_mask
    while t.table[h] != 0:
        k = t.table[h] - 1
        if t.nodes[k].parent == parent and t.nodes[k].edge == edge:
            return k
        h = (h + 1) & t.table_mask
    if c.follow:
        return -1
    if t.count >= t.capacity:
        if info_grow(t) < 0:
            t.full = 1
            return -1
        h = info_hash(parent, edge) & t.table_mask
        while t.table[h] != 0:
            h = (h + 1) & t.table_mask
    k = t.count
    t.count += 1
    t.nodes[k].parent = parent
    t.nodes[k].edge = edge
    t.nodes[k].leaf = 0.0
    t.nodes[k].is_move = 1 if is_move else 0
    t.nodes[k].live = 0
    t.table[h] = k + 1
    return k


cdef void info_add(SearchCtx* c, int32_t node, double value) noexcept nogil:
    """Keep a weighted leaf value of the current sample for ``node``."""
    cdef InfoTrie* t = c.trie
    cdef int32_t cap
    cdef int32_t* ln
    cdef double* lv
    if t == NULL or c.follow:
        return
    if node < 0:
        t.full = 1  # a leaf with no node: the table cannot hold this search
        return
    if t.log_count >= t.log_capacity:
        cap = 2 * t.log_capacity
        ln = <int32_t*>realloc(t.log_node, cap * sizeof(int32_t))
        if ln == NULL:
            t.full = 1
            return
        t.log_node = ln
        lv = <double*>realloc(t.log_value, cap * sizeof(double))
        if lv == NULL:
            t.full = 1
            return
        t.log_value = lv
        t.log_capacity = cap
    t.log_node[t.log_count] = node
    t.log_value[t.log_count] = value
    t.log_count += 1


cdef void info_commit(InfoTrie* t) noexcept nogil:
    """Add the completed sample's leaf values; mark the nodes it reached."""
    cdef int32_t i, k
    for i in range(t.log_count):
        k = t.log_node[i]
        t.nodes[k].leaf += t.log_value[i]
        while k >= 0 and not t.nodes[k].live:
            t.nodes[k].live = 1
            k = t.nodes[k].parent
    t.log_count = 0


cdef int info_resolve(InfoTrie* t) noexcept nogil:
    """``t.val[k]``: the total value of node k over the committed samples, its own
    decisions below taken per node (the best total); -1 when out of memory.
    Children are always added after their parent, so one backward pass does."""
    cdef double* best
    cdef double* val
    cdef double v
    cdef int32_t k, p
    val = <double*>realloc(t.val, t.capacity * sizeof(double))
    if val == NULL:
        return -1
    t.val = val
    best = <double*>malloc(t.count * sizeof(double))
    if best == NULL:
        return -1
    for k in range(t.count):
        val[k] = t.nodes[k].leaf
        best[k] = -1e300
    for k in range(t.count - 1, 0, -1):
        if not t.nodes[k].live:
            continue
        v = val[k] + (best[k] if best[k] > -1e299 else 0.0)
        val[k] = v
        p = t.nodes[k].parent
        if t.nodes[k].is_move:
            if v > best[p]:
                best[p] = v
        else:
            val[p] += v
    free(best)
    return 0


cdef int info_choice(SearchCtx* c, int32_t tn, int seat, const uint16_t* moves, int n,
                     int32_t* node) noexcept nogil:
    """While following the table: the index of the move with the best resolved
    total at node ``tn`` (its node in ``node``), -1 when none is known."""
    cdef int i, best_i = -1
    cdef int32_t k
    cdef double best = -1e300
    for i in range(n):
        k = info_child(c, tn, pv_entry(seat, moves[i]), 1)
        if k >= 0 and c.trie.nodes[k].live and c.trie.val[k] > best:
            best = c.trie.val[k]
            best_i = i
            node[0] = k
    return best_i


cdef void info_totals(InfoTrie* t, const int32_t* root_node, const bint* alive, int n,
                      double* totals) noexcept nogil:
    """The consistent totals of the root moves still searched (else their old
    totals stay); when the table failed, nothing changes."""
    cdef int i
    if t.full or info_resolve(t) < 0:
        t.full = 1
        return
    for i in range(n):
        if alive[i] and root_node[i] >= 0:
            totals[i] = t.val[root_node[i]]
