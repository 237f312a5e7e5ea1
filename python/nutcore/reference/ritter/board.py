"""Ritter's board: bushes, hiding places and the paths between them (docs/rules/ritter.md, "The board").

Node ids number the bushes first, in the order given, then the hiding places.
"""

from __future__ import annotations

import re

from .actions import MAX_NODES

_NAME = re.compile(r"[A-Za-z0-9_]{1,8}")

MIN_BUSHES, MAX_BUSHES = 2, 12
MAX_HIDING_PLACES = 4

DEFAULT_BOARD = {
    "bushes": ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"],
    "hiding_places": ["H1", "H2"],
    "edges": [
        ["B1", "B2"],
        ["B2", "B3"],
        ["B3", "B4"],
        ["B4", "B5"],
        ["B5", "B6"],
        ["B6", "B7"],
        ["B7", "B8"],
        ["B8", "B1"],
        ["B2", "B6"],
        ["B3", "B7"],
        ["H1", "B1"],
        ["H1", "B8"],
        ["H2", "B4"],
        ["H2", "B5"],
    ],
}


def _fail(message):
    raise ValueError("ritter: board: " + message)


def _names(value, what, lo, hi):
    if not isinstance(value, (list, tuple)):
        _fail("%s must be a list of names, not %r" % (what, value))
    if not lo <= len(value) <= hi:
        _fail("%s needs %d..%d names, not %d" % (what, lo, hi, len(value)))
    for name in value:
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            _fail("%s: %r is not a name (1..8 letters, digits or _)" % (what, name))
    return [str(name) for name in value]


class Board:
    """A validated board. `names[i]` is node i; nodes 0..num_bushes-1 are the bushes."""

    def __init__(self, spec):
        if not isinstance(spec, dict):
            _fail('must be an object {"bushes": [...], "hiding_places": [...], "edges": [...]}, not %r' % (spec,))
        keys = ("bushes", "hiding_places", "edges")
        missing = [k for k in keys if k not in spec]
        extra = sorted(str(k) for k in spec if k not in keys)
        if missing:
            _fail("lacks %s" % ", ".join(map(repr, missing)))
        if extra:
            _fail("has unknown %s" % ", ".join(map(repr, extra)))
        bushes = _names(spec["bushes"], "bushes", MIN_BUSHES, MAX_BUSHES)
        hiding = _names(spec["hiding_places"], "hiding_places", 0, MAX_HIDING_PLACES)
        names = bushes + hiding
        if len(names) > MAX_NODES:
            _fail("%d nodes; at most %d" % (len(names), MAX_NODES))
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            _fail("names must be distinct; %s appear twice" % ", ".join(dup))
        ids = {name: i for i, name in enumerate(names)}

        raw_edges = spec["edges"]
        if not isinstance(raw_edges, (list, tuple)):
            _fail("edges must be a list of pairs of names, not %r" % (raw_edges,))
        edges, pairs = [], set()
        neighbours = [[] for _ in names]
        for k, edge in enumerate(raw_edges):
            if not isinstance(edge, (list, tuple)) or len(edge) != 2:
                _fail("edges[%d] must be a pair [a, b] of names, not %r" % (k, edge))
            a, b = edge
            for end in (a, b):
                if not isinstance(end, str) or end not in ids:
                    _fail("edges[%d]: %r is not a node of the board" % (k, end))
            if a == b:
                _fail("edges[%d] joins %s to itself" % (k, a))
            pair = frozenset((a, b))
            if pair in pairs:
                _fail("edges[%d]: a second edge between %s and %s" % (k, a, b))
            pairs.add(pair)
            edges.append((ids[a], ids[b]))
            neighbours[ids[a]].append(ids[b])
            neighbours[ids[b]].append(ids[a])

        seen, todo = {0}, [0]
        while todo:
            for m in neighbours[todo.pop()]:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        if len(seen) != len(names):
            cut = [names[i] for i in range(len(names)) if i not in seen]
            _fail("the graph is not connected (%s cannot be reached from %s)" % (", ".join(cut), names[0]))

        self.names = tuple(names)
        self.num_bushes = len(bushes)
        self.num_nodes = len(names)
        self.edges = tuple(edges)
        self.neighbours = tuple(tuple(sorted(ns)) for ns in neighbours)
        self.ids = ids

    def is_bush(self, node):
        return node < self.num_bushes

    def spec(self):
        """The board as given: names, in the params' form."""
        return {
            "bushes": list(self.names[: self.num_bushes]),
            "hiding_places": list(self.names[self.num_bushes :]),
            "edges": [[self.names[a], self.names[b]] for a, b in self.edges],
        }

    def __eq__(self, other):
        return isinstance(other, Board) and self.spec() == other.spec()

    __hash__ = None
