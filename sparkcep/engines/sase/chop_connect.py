"""Several aggregate sequence queries sharing a sub-pattern: A-Seq's Chop-Connect.

A-Seq (Qi, WPI 2013, Chapter 4) counts the SKIP TILL ANY MATCH matches of sequence queries
``(E1, ..., En) WITHIN w`` -- each Ei one event type, distinct within a query -- with one prefix
counter per unexpired start event (``sparkcep.engines.sase.aggregation`` generalises it). When k
queries end with the same sub-pattern X = ``(X1, ..., Xl)``, *Chop-Connect* chops each query into
its own prefix P_i and the shared X, counts X once for all of them and *connects* the counts:

* each prefix P_i keeps its own counters (one vector per start event of P_i);
* X keeps one counter per X1 event (the *connect* event, CNET), updated once per X event for
  all k queries -- instead of once per query and per live start of that query;
* when an X1 event arrives, it takes a *snapshot*, per query, of the prefix matches completed so
  far: per live start event of P_i, its key and its number of complete P_i matches (a P_i match
  connects to every X match that starts after it: A-Seq's Lemma 3);
* when an Xl event completes X matches of a counter, each query i adds, per snapshot row still
  in the window (its start key within ``w`` of the current row), row count x new X matches.

Sharing saves the k - 1 repeated updates of X's states, but costs a snapshot per CNET event and
a sum over snapshot rows per completed X match: it wins when X1 events are rare and loses when
they are frequent (the thesis's cost model, Section 4.3.2, and its Figure 5.4, where sharing
stops paying near 1.3% of X1 events in the stream).
``NonSharedCounts`` runs every query separately (A-Seq per query), as the baseline.

Scope: COUNT(*) of single-variable sequence queries, WITHIN, no negation, no Kleene closure --
A-Seq's query class for sharing. ``work`` counts the counter updates (the thesis's cost unit).
"""

from __future__ import annotations

from collections import deque

from sparkcep.errors import InternalError


class _Prefix:
    """A-Seq prefix counters of one sequence pattern: one vector of counts per live start event
    (``[start key, count of prefix 1, ..., count of prefix n]``)."""

    def __init__(self, pattern: tuple[int, ...], within) -> None:
        if len(set(pattern)) != len(pattern):
            raise InternalError("the event types of a sequence query must be distinct")
        self.pattern = pattern
        self.within = within
        self.position = {t: j for j, t in enumerate(pattern)}
        self.vectors: deque[list] = deque()
        self.work = 0

    def expire(self, key) -> None:
        while self.vectors and key - self.vectors[0][0] >= self.within:
            self.vectors.popleft()

    def feed(self, kind: int, key) -> int:
        """Apply one event (after ``expire``); return the number of full matches it completes."""
        j = self.position.get(kind)
        if j is None:
            return 0
        done = 0
        if j > 0:
            for vec in self.vectors:
                add = vec[j]  # count of prefix j (positions are 1-based in vec)
                if add:
                    vec[j + 1] += add
                    if j + 1 == len(self.pattern):
                        done += add
            self.work += len(self.vectors)
        else:
            self.vectors.append([key, 1] + [0] * (len(self.pattern) - 1))
            self.work += 1
            if len(self.pattern) == 1:
                done += 1
        return done


class NonSharedCounts:
    """Each query counted on its own (A-Seq per query)."""

    def __init__(self, queries: list[tuple[int, ...]], within) -> None:
        self.counters = [_Prefix(q, within) for q in queries]
        self.counts = [0] * len(queries)

    def feed(self, kinds, keys) -> None:
        for kind, key in zip(kinds, keys):
            for i, counter in enumerate(self.counters):
                counter.expire(key)
                self.counts[i] += counter.feed(kind, key)

    @property
    def work(self) -> int:
        return sum(c.work for c in self.counters)


class ChopConnectCounts:
    """The queries ``prefixes[i] + shared`` counted with ``shared`` computed once (module
    docstring)."""

    def __init__(self, prefixes: list[tuple[int, ...]], shared: tuple[int, ...], within) -> None:
        if len(shared) < 2:
            raise InternalError("the shared sub-pattern needs a connect and a trigger event")
        for prefix in prefixes:
            if set(prefix) & set(shared):
                raise InternalError("a query's event types must be distinct")
        self.prefixes = [_Prefix(p, within) for p in prefixes]
        self.shared = shared
        self.within = within
        self.position = {t: j for j, t in enumerate(shared)}
        # per CNET event: [key, counts of X prefixes 1..l, snapshot per query: [(start key, count)]]
        self.connects: deque[list] = deque()
        self.counts = [0] * len(prefixes)
        self.shared_work = 0

    def feed(self, kinds, keys) -> None:
        last = len(self.shared) - 1
        for kind, key in zip(kinds, keys):
            for prefix in self.prefixes:
                prefix.expire(key)
            while self.connects and key - self.connects[0][0] >= self.within:
                self.connects.popleft()
            j = self.position.get(kind)
            if j == 0:
                snapshot = [[(vec[0], vec[-1]) for vec in prefix.vectors if vec[-1]]
                            for prefix in self.prefixes]
                self.shared_work += 1 + sum(len(p.vectors) for p in self.prefixes)
                if any(snapshot):
                    self.connects.append([key, 1] + [0] * last + [snapshot])
            elif j is not None:
                for counter in self.connects:
                    add = counter[j]
                    if not add:
                        continue
                    counter[j + 1] += add
                    if j == last:
                        for i, rows in enumerate(counter[-1]):
                            live = sum(c for start, c in rows if key - start < self.within)
                            self.counts[i] += add * live
                            self.shared_work += len(rows)
                self.shared_work += len(self.connects)
            else:
                for prefix in self.prefixes:
                    prefix.feed(kind, key)

    @property
    def work(self) -> int:
        return self.shared_work + sum(p.work for p in self.prefixes)
