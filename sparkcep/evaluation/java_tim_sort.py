"""Java's ``java.util.Arrays.sort(Object[], Comparator)``: TimSort, with its exact sequence of
comparator calls, which Spark's ``array_sort(arr, (l, r) -> ...)`` runs (``ArraySort`` sorts the
array's elements, as Java objects, with the lambda as the comparator). A comparator written by a
user may be inconsistent (its order then depends on which pairs are compared, and in which
order) or raise an error at some call (the error is the one Spark raises only when that call is
made), so sparkcep reproduces the calls themselves, not only the order of a consistent sort.

Written from Tim Peters' description of the algorithm (``listsort.txt`` in CPython) and Java's
documented adaptation of it (``java.util.TimSort``'s published behaviour), and checked call for
call against Java itself (``tests/evaluation/TimSortCalls.java``, ``test_java_tim_sort.py``):

* an array of fewer than two elements is not compared at all;
* fewer than ``MIN_MERGE`` (32) elements: the leading run (see below) is counted, the rest is
  inserted into it by binary insertion sort, no merging;
* otherwise runs are found left to right: the longest non-descending prefix (``a[i+1] >= a[i]``
  by the comparator) or strictly descending one (``a[i+1] < a[i]``, then reversed in place, so
  the sort stays stable); a run shorter than ``minRun`` (between 16 and 32, from the length's
  top five bits plus one if any lower bit is set) is extended to ``minRun`` elements (or the rest
  of the array) by binary insertion sort; each run is pushed on a stack and merged while the
  stack's invariants (``|Z| > |Y| + |X|``, ``|Y| > |X|``, checked also one run deeper: the
  version repaired after de Gouw et al., "OpenJDK's java.utils.Collection.sort() is broken")
  do not hold, the smaller neighbour of the middle run merged first; at the end every run is
  merged, from the top of the stack;
* a merge of runs A (left) and B (right) first gallops to find where B's first element goes in
  A and where A's last goes in B (the elements outside those are already in place), then merges
  the shorter side into the longer one from that side's end (``merge_lo`` from the left,
  ``merge_hi`` from the right): one element at a time until one run has won ``min_gallop``
  times in a row, then galloping (exponential search from the start, then a binary search)
  while either side wins at least ``MIN_GALLOP`` (7) elements at once; ``min_gallop`` starts at
  7, drops by one for each galloping round, rises by 2 on leaving galloping, and is kept by the
  sort from one merge to the next;
* a merge that finds its shorter run exhausted where the comparator's answers said it could not
  be is Java's ``IllegalArgumentException("Comparison method violates its general
  contract!")`` (``ComparisonContractViolation`` here); other inconsistent answers give
  whatever order the calls lead to, as in Java.

``sort(values, compare)`` sorts a copy of ``values`` and returns it; ``compare(x, y)`` returns a
Python int, compared with 0 exactly as Java compares the comparator's int.
"""

from __future__ import annotations

from typing import Any, Callable

MIN_MERGE = 32
MIN_GALLOP = 7
CONTRACT_MESSAGE = "Comparison method violates its general contract!"

Compare = Callable[[Any, Any], int]


class ComparisonContractViolation(Exception):
    """Java's ``IllegalArgumentException`` raised by TimSort for an inconsistent comparator."""

    def __init__(self) -> None:
        super().__init__(CONTRACT_MESSAGE)


def min_run_length(n: int) -> int:
    """The run length below which a run is extended by insertion: ``n``'s top five bits, plus
    one if any bit shifted off was set."""
    extra = 0
    while n >= MIN_MERGE:
        extra |= n & 1
        n >>= 1
    return n + extra


def sort(values: list, compare: Compare) -> list:
    a = list(values)
    if len(a) < 2:
        return a
    _TimSort(a, compare).run()
    return a


class _TimSort:
    def __init__(self, a: list, compare: Compare) -> None:
        self.a = a
        self.compare = compare
        self.min_gallop = MIN_GALLOP
        self.bases: list[int] = []  # the pending runs' starts and lengths, bottom first
        self.lengths: list[int] = []

    def run(self) -> None:
        a, n = self.a, len(self.a)
        if n < MIN_MERGE:
            self.insertion_sort(0, n, self.leading_run(0, n))
            return
        minimum = min_run_length(n)
        low, remaining = 0, n
        while remaining:
            length = self.leading_run(low, n)
            if length < minimum:
                forced = min(remaining, minimum)
                self.insertion_sort(low, low + forced, low + length)
                length = forced
            self.bases.append(low)
            self.lengths.append(length)
            self.collapse()
            low += length
            remaining -= length
        while len(self.lengths) > 1:  # the final merges, from the top of the stack
            i = len(self.lengths) - 2
            if i > 0 and self.lengths[i - 1] < self.lengths[i + 1]:
                i -= 1
            self.merge_at(i)
        assert a is self.a

    def leading_run(self, low: int, high: int) -> int:
        """The length of the run starting at ``low`` (a descending one reversed in place)."""
        a, compare = self.a, self.compare
        end = low + 1
        if end == high:
            return 1
        end += 1
        if compare(a[low + 1], a[low]) < 0:
            while end < high and compare(a[end], a[end - 1]) < 0:
                end += 1
            a[low:end] = a[low:end][::-1]
        else:
            while end < high and compare(a[end], a[end - 1]) >= 0:
                end += 1
        return end - low

    def insertion_sort(self, low: int, high: int, start: int) -> None:
        """``a[low:start]`` is sorted; insert each later element up to ``high`` by binary search
        (after the equal elements, so the sort stays stable)."""
        a, compare = self.a, self.compare
        if start == low:
            start += 1
        for i in range(start, high):
            pivot = a[i]
            left, right = low, i
            while left < right:
                middle = (left + right) >> 1
                if compare(pivot, a[middle]) < 0:
                    right = middle
                else:
                    left = middle + 1
            a[left + 1:i + 1] = a[left:i]
            a[left] = pivot

    def collapse(self) -> None:
        """Merge until the invariants hold for the top runs (also one run deeper)."""
        lengths = self.lengths
        while len(lengths) > 1:
            i = len(lengths) - 2
            if (i > 0 and lengths[i - 1] <= lengths[i] + lengths[i + 1]) or \
                    (i > 1 and lengths[i - 2] <= lengths[i] + lengths[i - 1]):
                if lengths[i - 1] < lengths[i + 1]:
                    i -= 1
            elif lengths[i] > lengths[i + 1]:
                break
            self.merge_at(i)

    def merge_at(self, i: int) -> None:
        """Merge the runs ``i`` and ``i + 1`` of the stack."""
        a = self.a
        base1, length1 = self.bases[i], self.lengths[i]
        base2, length2 = self.bases[i + 1], self.lengths[i + 1]
        self.lengths[i] = length1 + length2
        del self.bases[i + 1], self.lengths[i + 1]
        # B's first element goes after the elements of A not greater than it
        k = gallop_right(self.compare, a[base2], a, base1, length1, 0)
        base1 += k
        length1 -= k
        if length1 == 0:
            return
        # A's last element goes before the elements of B not less than it
        length2 = gallop_left(self.compare, a[base1 + length1 - 1], a, base2, length2, length2 - 1)
        if length2 == 0:
            return
        if length1 <= length2:
            self.merge_lo(base1, length1, base2, length2)
        else:
            self.merge_hi(base1, length1, base2, length2)

    def merge_lo(self, base1: int, len1: int, base2: int, len2: int) -> None:
        """Merge A = a[base1:+len1] (copied aside) and B = a[base2:+len2] from the left; A's first
        element belongs after B's first, and A's last after all of B."""
        a, compare = self.a, self.compare
        tmp = a[base1:base1 + len1]
        c1, c2, dest = 0, base2, base1
        a[dest] = a[c2]
        dest += 1
        c2 += 1
        len2 -= 1
        if len2 == 0:
            a[dest:dest + len1] = tmp[c1:c1 + len1]
            return
        if len1 == 1:
            a[dest:dest + len2] = a[c2:c2 + len2]
            a[dest + len2] = tmp[c1]
            return
        min_gallop = self.min_gallop
        done = False
        while not done:
            wins1 = wins2 = 0  # how many times in a row each run won
            while True:  # one element at a time
                if compare(a[c2], tmp[c1]) < 0:
                    a[dest] = a[c2]
                    dest += 1
                    c2 += 1
                    wins2 += 1
                    wins1 = 0
                    len2 -= 1
                    if len2 == 0:
                        done = True
                        break
                else:
                    a[dest] = tmp[c1]
                    dest += 1
                    c1 += 1
                    wins1 += 1
                    wins2 = 0
                    len1 -= 1
                    if len1 == 1:
                        done = True
                        break
                if (wins1 | wins2) >= min_gallop:
                    break
            if done:
                break
            while True:  # galloping
                wins1 = gallop_right(compare, a[c2], tmp, c1, len1, 0)
                if wins1:
                    a[dest:dest + wins1] = tmp[c1:c1 + wins1]
                    dest += wins1
                    c1 += wins1
                    len1 -= wins1
                    if len1 <= 1:
                        done = True
                        break
                a[dest] = a[c2]
                dest += 1
                c2 += 1
                len2 -= 1
                if len2 == 0:
                    done = True
                    break
                wins2 = gallop_left(compare, tmp[c1], a, c2, len2, 0)
                if wins2:
                    a[dest:dest + wins2] = a[c2:c2 + wins2]
                    dest += wins2
                    c2 += wins2
                    len2 -= wins2
                    if len2 == 0:
                        done = True
                        break
                a[dest] = tmp[c1]
                dest += 1
                c1 += 1
                len1 -= 1
                if len1 == 1:
                    done = True
                    break
                min_gallop -= 1
                if not (wins1 >= MIN_GALLOP or wins2 >= MIN_GALLOP):
                    break
            if done:
                break
            min_gallop = max(min_gallop, 0) + 2  # leaving galloping costs more to come back
        self.min_gallop = max(min_gallop, 1)
        if len1 == 1:
            a[dest:dest + len2] = a[c2:c2 + len2]
            a[dest + len2] = tmp[c1]
        elif len1 == 0:
            raise ComparisonContractViolation()
        else:
            a[dest:dest + len1] = tmp[c1:c1 + len1]

    def merge_hi(self, base1: int, len1: int, base2: int, len2: int) -> None:
        """Merge A = a[base1:+len1] and B = a[base2:+len2] (copied aside) from the right; B's last
        element belongs before A's last, and B's first before all of A."""
        a, compare = self.a, self.compare
        tmp = a[base2:base2 + len2]
        c1, c2, dest = base1 + len1 - 1, len2 - 1, base2 + len2 - 1
        a[dest] = a[c1]
        dest -= 1
        c1 -= 1
        len1 -= 1
        if len1 == 0:
            a[dest - len2 + 1:dest + 1] = tmp[:len2]
            return
        if len2 == 1:
            dest -= len1
            c1 -= len1
            a[dest + 1:dest + 1 + len1] = a[c1 + 1:c1 + 1 + len1]
            a[dest] = tmp[c2]
            return
        min_gallop = self.min_gallop
        done = False
        while not done:
            wins1 = wins2 = 0
            while True:  # one element at a time
                if compare(tmp[c2], a[c1]) < 0:
                    a[dest] = a[c1]
                    dest -= 1
                    c1 -= 1
                    wins1 += 1
                    wins2 = 0
                    len1 -= 1
                    if len1 == 0:
                        done = True
                        break
                else:
                    a[dest] = tmp[c2]
                    dest -= 1
                    c2 -= 1
                    wins2 += 1
                    wins1 = 0
                    len2 -= 1
                    if len2 == 1:
                        done = True
                        break
                if (wins1 | wins2) >= min_gallop:
                    break
            if done:
                break
            while True:  # galloping, from the right
                wins1 = len1 - gallop_right(compare, tmp[c2], a, base1, len1, len1 - 1)
                if wins1:
                    dest -= wins1
                    c1 -= wins1
                    len1 -= wins1
                    a[dest + 1:dest + 1 + wins1] = a[c1 + 1:c1 + 1 + wins1]
                    if len1 == 0:
                        done = True
                        break
                a[dest] = tmp[c2]
                dest -= 1
                c2 -= 1
                len2 -= 1
                if len2 == 1:
                    done = True
                    break
                wins2 = len2 - gallop_left(compare, a[c1], tmp, 0, len2, len2 - 1)
                if wins2:
                    dest -= wins2
                    c2 -= wins2
                    len2 -= wins2
                    a[dest + 1:dest + 1 + wins2] = tmp[c2 + 1:c2 + 1 + wins2]
                    if len2 <= 1:
                        done = True
                        break
                a[dest] = a[c1]
                dest -= 1
                c1 -= 1
                len1 -= 1
                if len1 == 0:
                    done = True
                    break
                min_gallop -= 1
                if not (wins1 >= MIN_GALLOP or wins2 >= MIN_GALLOP):
                    break
            if done:
                break
            min_gallop = max(min_gallop, 0) + 2
        self.min_gallop = max(min_gallop, 1)
        if len2 == 1:
            dest -= len1
            c1 -= len1
            a[dest + 1:dest + 1 + len1] = a[c1 + 1:c1 + 1 + len1]
            a[dest] = tmp[c2]
        elif len2 == 0:
            raise ComparisonContractViolation()
        else:
            a[dest - len2 + 1:dest + 1] = tmp[:len2]


def gallop_left(compare: Compare, key, a: list, base: int, length: int, hint: int) -> int:
    """Where ``key`` goes in the sorted ``a[base:base+length]``: before the elements equal to it
    (the leftmost place), searching out from ``hint`` by offsets 1, 3, 7, ..., then binary."""
    last, offset = 0, 1
    if compare(key, a[base + hint]) > 0:  # gallop right until a[hint+last] < key <= a[hint+offset]
        limit = length - hint
        while offset < limit and compare(key, a[base + hint + offset]) > 0:
            last = offset
            offset = (offset << 1) + 1
        offset = min(offset, limit)
        last += hint
        offset += hint
    else:  # gallop left until a[hint-offset] < key <= a[hint-last]
        limit = hint + 1
        while offset < limit and compare(key, a[base + hint - offset]) <= 0:
            last = offset
            offset = (offset << 1) + 1
        offset = min(offset, limit)
        last, offset = hint - offset, hint - last
    last += 1
    while last < offset:
        middle = last + ((offset - last) >> 1)
        if compare(key, a[base + middle]) > 0:
            last = middle + 1
        else:
            offset = middle
    return offset


def gallop_right(compare: Compare, key, a: list, base: int, length: int, hint: int) -> int:
    """As ``gallop_left``, but after the elements equal to ``key`` (the rightmost place)."""
    last, offset = 0, 1
    if compare(key, a[base + hint]) < 0:  # gallop left until a[hint-offset] <= key < a[hint-last]
        limit = hint + 1
        while offset < limit and compare(key, a[base + hint - offset]) < 0:
            last = offset
            offset = (offset << 1) + 1
        offset = min(offset, limit)
        last, offset = hint - offset, hint - last
    else:  # gallop right until a[hint+last] <= key < a[hint+offset]
        limit = length - hint
        while offset < limit and compare(key, a[base + hint + offset]) >= 0:
            last = offset
            offset = (offset << 1) + 1
        offset = min(offset, limit)
        last += hint
        offset += hint
    last += 1
    while last < offset:
        middle = last + ((offset - last) >> 1)
        if compare(key, a[base + middle]) < 0:
            offset = middle
        else:
            last = middle + 1
    return offset
