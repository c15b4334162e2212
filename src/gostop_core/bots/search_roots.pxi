# Included by search.pyx (one compilation unit): the root's scheduling, not
# hot: which root moves go on (halving), the clock, and the early stop.

cdef int keep_better_half(const double* values, bint* alive, int n, int nalive) noexcept nogil:
    """Drop the worse half of the moves still alive, keeping at least two; every
    alive move has the same samples, so their sums compare as their means.  A
    move stays if fewer than half of the others are better (ties: the earlier
    move in generation order is better).  Returns how many are left."""
    cdef int keep = nalive // 2, i, j, better, left = 0
    cdef bint drop[MAX_MOVES]
    if keep < 2:
        keep = 2
    if keep >= nalive:
        return nalive
    for i in range(n):
        drop[i] = False
        if not alive[i]:
            continue
        better = 0
        for j in range(n):
            if j != i and alive[j] and (values[j] > values[i] or (values[j] == values[i] and j < i)):
                better += 1
        drop[i] = better >= keep
    for i in range(n):
        if drop[i]:
            alive[i] = False
        if alive[i]:
            left += 1
    return left


cdef int halving_schedule(int n, int samples, int* ends) noexcept nogil:
    """Sequential halving of a budget of ``n * samples`` move-samples over ``n``
    root moves: ceil(log2 n) rounds with an equal share of the budget each;
    round r gives each of its moves (n, then half of them, at least 2) its share
    of new samples.  ``ends[r]``: the samples done when round r ends (at most
    SEARCH_MAX_SAMPLES).  Returns the number of rounds (at most 8)."""
    cdef int rounds = 0, alive = n, total = 0, step
    cdef long budget = <long>n * samples
    while (1 << rounds) < n and rounds < 8:
        rounds += 1
    if rounds == 0:
        rounds = 1
    for r in range(rounds):
        step = <int>(budget // (<long>alive * rounds))
        if step < 1:
            step = 1
        total += step
        if total > SEARCH_MAX_SAMPLES:
            total = SEARCH_MAX_SAMPLES
        ends[r] = total
        alive = alive // 2 if alive // 2 >= 2 else 2
    return rounds


def halving_plan(int n, int samples):
    """The samples done at the end of each round of ``halving=2`` for ``n`` root
    moves and a budget of ``samples`` each (for tests and docs)."""
    cdef int ends[8]
    cdef int k = halving_schedule(n, samples, ends)
    return [ends[i] for i in range(k)]


cdef double now_ms() noexcept nogil:
    """Milliseconds on the monotonic clock."""
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec * 1000.0 + t.tv_nsec / 1e6


cdef bint is_decided(const double* per, const bint* alive, const double* values, int n, int done,
                     double z, double tolerance, const double* totals=NULL) noexcept nogil:
    """Whether the best move so far is known well enough: for every other move
    still searched, the best one's lead (paired over the ``done`` samples, which
    every alive move shares) is above ``-tolerance`` by ``z`` standard errors.
    With ``totals`` (the consistent values' sums), the lead is theirs and only
    its spread comes from the per-sample values."""
    cdef int i, j, d, best = -1
    cdef double m, sq, diff, se, lead
    for i in range(n):
        if alive[i] and (best < 0 or values[i] > values[best]):
            best = i
    for j in range(n):
        if j == best or not alive[j]:
            continue
        m = 0.0
        sq = 0.0
        for d in range(done):
            diff = per[d * n + best] - per[d * n + j]
            m += diff
            sq += diff * diff
        m /= done
        se = sqrt(max(sq / done - m * m, 0.0) / (done - 1)) if done > 1 else 1e300
        lead = m if totals == NULL else (totals[best] - totals[j]) / done
        if lead - z * se <= -tolerance:
            return False
    return True



cdef void root_spreads(const double* per, const int* counts, int n, double* spreads,
                       double* relative) noexcept nogil:
    """Each root move's standard error over the samples its value averages:
    ``spreads`` of its value, ``relative`` of its value less the mean of the
    moves valued in the same sample (the part of the sampled deal every move
    shares cancels).  A halving drops moves after a prefix of the samples, so
    sample ``d`` valued move ``i`` when ``d < counts[i]``.  Nan for a move
    with fewer than two samples."""
    cdef double m[MAX_MOVES]
    cdef double sq[MAX_MOVES]
    cdef double r[MAX_MOVES]
    cdef double dev[MAX_MOVES]
    cdef int i, d, k, valued, most = 0
    cdef double mean, x
    for i in range(n):
        m[i] = sq[i] = r[i] = dev[i] = 0.0
        if counts[i] > most:
            most = counts[i]
    for d in range(most):
        mean = 0.0
        valued = 0
        for i in range(n):
            if d < counts[i]:
                mean += per[d * n + i]
                valued += 1
        mean /= valued  # most > d: at least one move
        for i in range(n):
            if d < counts[i]:
                x = per[d * n + i]
                m[i] += x
                sq[i] += x * x
                r[i] += x - mean
                dev[i] += (x - mean) * (x - mean)
    for i in range(n):
        k = counts[i]
        if k < 2:
            spreads[i] = NAN
            relative[i] = NAN
            continue
        # the sample variance (k - 1 in the denominator) over k, square-rooted
        spreads[i] = sqrt(max(sq[i] / k - (m[i] / k) ** 2, 0.0) / (k - 1))
        relative[i] = sqrt(max(dev[i] / k - (r[i] / k) ** 2, 0.0) / (k - 1))
