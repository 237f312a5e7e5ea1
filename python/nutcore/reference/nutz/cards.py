"""Nutz!'s card set: validation, the canonical form and the scoring rules (docs/rules/nutz.md,
"The card set")."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from .actions import MAX_KINDS

DEFAULT_CARDS_PATH = Path(__file__).resolve().parents[2] / "data" / "nutz_cards.json"

_KIND_NAME = re.compile(r"[a-z0-9_]{1,16}")

MAX_SET_NAME = 80
MAX_GROUPS = 4
MAX_GROUP_COUNT = 60
MAX_MOONS = 3
MAX_SET_CARDS = 240
TARGETS = ("self", "others", "everyone")
DISCARDS = ("highest", "all")


def _fail(where, message):
    raise ValueError("nutz: cards: %s%s" % (where + ": " if where else "", message))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value, where, key, lo, hi):
    if not _is_int(value):
        _fail(where, "%r must be an int, not %r" % (key, value))
    if not lo <= value <= hi:
        _fail(where, "%r must be in %d..%d, not %d" % (key, lo, hi, value))
    return int(value)


def _object(value, where, required, optional=()):
    if not isinstance(value, dict):
        _fail(where, "must be an object, not %r" % (value,))
    for key in value:
        if not isinstance(key, str) or (key not in required and key not in optional):
            _fail(where, "unknown key %r" % (key,))
    for key in required:
        if key not in value:
            _fail(where, "lacks %r" % key)


def read_card_file(path):
    """The JSON object in the file at `path` (ValueError if it cannot be read or parsed)."""
    try:
        with open(os.fspath(path), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError("nutz: cards: cannot read the card file %s: %s" % (os.fspath(path), e)) from None


class Kind:
    """One kind of a card set: a food kind (`score`) or a predator (`predator`)."""

    def __init__(self, name, score, predator, groups):
        self.name = name
        self.score = score  # ("each", P) | ("set", [t...], B) | ("groups", G, P) | None
        self.predator = predator  # dict: discard, count, of (kind numbers), target | None
        self.groups = groups  # [(count, moons, three_plus)]

    @property
    def food(self):
        return self.score is not None

    def points(self, cards):
        """The points of `cards` cards of this (food) kind."""
        form = self.score[0]
        if form == "each":
            return self.score[1] * cards
        if form == "set":
            table, beyond = self.score[1], self.score[2]
            if cards == 0:
                return 0
            if cards <= len(table):
                return table[cards - 1]
            return table[-1] + beyond * (cards - len(table))
        return (cards // self.score[1]) * self.score[2]


class CardSet:
    """A validated card set; `spec()` is its canonical form."""

    def __init__(self, spec):
        _object(spec, "", ("kinds",), ("name",))
        name = spec.get("name", "unnamed")
        if not isinstance(name, str) or len(name) > MAX_SET_NAME:
            _fail("name", "must be a string of at most %d characters, not %r" % (MAX_SET_NAME, name))
        kinds = spec["kinds"]
        if not isinstance(kinds, list):
            _fail("kinds", "must be a list, not %r" % (kinds,))
        if not 1 <= len(kinds) <= MAX_KINDS:
            _fail("kinds", "needs 1..%d kinds, not %d" % (MAX_KINDS, len(kinds)))

        # First the names and what each kind is, so that predators may name any kind of the set.
        names, is_food = [], []
        for i, kind in enumerate(kinds):
            where = "kinds[%d]" % i
            if not isinstance(kind, dict):
                _fail(where, "must be an object, not %r" % (kind,))
            kname = kind.get("name")
            if not isinstance(kname, str) or not _KIND_NAME.fullmatch(kname):
                _fail(where, "'name' must be 1..16 lower-case letters, digits or _, not %r" % (kname,))
            if kname in names:
                _fail(where, "the name %r is used by kinds[%d] too" % (kname, names.index(kname)))
            where = "kinds[%d] (%s)" % (i, kname)
            has_score, has_predator = "score" in kind, "predator" in kind
            if has_score == has_predator:
                _fail(where, "needs exactly one of 'score' and 'predator'")
            _object(kind, where, ("name", "cards", "score" if has_score else "predator"))
            names.append(kname)
            is_food.append(has_score)

        self.name = name
        self.kinds = []
        total = 0
        for i, kind in enumerate(kinds):
            where = "kinds[%d] (%s)" % (i, names[i])
            score = self._score(kind["score"], where + ": score") if is_food[i] else None
            predator = None if is_food[i] else self._predator(kind["predator"], where + ": predator", names, is_food)
            groups = self._groups(kind["cards"], where + ": cards")
            total += sum(count for count, _, _ in groups)
            self.kinds.append(Kind(names[i], score, predator, groups))
        if total > MAX_SET_CARDS:
            _fail("kinds", "%d cards in the set, at most %d" % (total, MAX_SET_CARDS))
        for i, kind in enumerate(self.kinds):
            pred = kind.predator
            if pred is not None and pred["discard"] == "highest":
                for k in pred["of"]:
                    if self.kinds[k].score[0] != "each":
                        _fail(
                            "kinds[%d] (%s): predator" % (i, kind.name),
                            "'highest' needs kinds scored 'each', and %r is not" % self.kinds[k].name,
                        )

    @staticmethod
    def _score(score, where):
        if not isinstance(score, dict):
            _fail(where, "must be an object, not %r" % (score,))
        if "each" in score:
            _object(score, where, ("each",))
            return ("each", _int(score["each"], where, "each", 0, 20))
        if "set" in score:
            _object(score, where, ("set",), ("beyond",))
            table = score["set"]
            if not isinstance(table, list) or not 1 <= len(table) <= 10:
                _fail(where, "'set' must be a list of 1..10 ints, not %r" % (table,))
            table = [_int(x, where, "set[%d]" % j, 0, 100) for j, x in enumerate(table)]
            return ("set", table, _int(score.get("beyond", 0), where, "beyond", 0, 50))
        if "groups" in score:
            _object(score, where, ("groups", "points"))
            return (
                "groups",
                _int(score["groups"], where, "groups", 1, 10),
                _int(score["points"], where, "points", 0, 100),
            )
        _fail(where, "must be {'each': P}, {'set': [...], 'beyond': B} or {'groups': G, 'points': P}, not %r" % score)

    @staticmethod
    def _predator(pred, where, names, is_food):
        if not isinstance(pred, dict):
            _fail(where, "must be an object, not %r" % (pred,))
        discard = pred.get("discard")
        if not isinstance(discard, str) or discard not in DISCARDS:
            _fail(where, "'discard' must be 'highest' or 'all', not %r" % (discard,))
        if discard == "highest":
            _object(pred, where, ("discard", "count", "of", "target"))
            count = _int(pred["count"], where, "count", 1, 10)
        else:
            _object(pred, where, ("discard", "of", "target"))
            count = None
        of = pred["of"]
        if not isinstance(of, list) or not 1 <= len(of) <= 10:
            _fail(where, "'of' must be a list of 1..10 kind names, not %r" % (of,))
        kinds = []
        for x in of:
            if not isinstance(x, str) or x not in names or not is_food[names.index(x)]:
                _fail(where, "'of' names %r which is not a food kind" % (x,))
            k = names.index(x)
            if k in kinds:
                _fail(where, "'of' names %r twice" % x)
            kinds.append(k)
        target = pred["target"]
        if not isinstance(target, str) or target not in TARGETS:
            _fail(where, "'target' must be 'self', 'others' or 'everyone', not %r" % (target,))
        return {"discard": discard, "count": count, "of": kinds, "target": target}

    @staticmethod
    def _groups(groups, where):
        if not isinstance(groups, list) or not 1 <= len(groups) <= MAX_GROUPS:
            _fail(where, "must be a list of 1..%d groups, not %r" % (MAX_GROUPS, groups))
        out = []
        for j, group in enumerate(groups):
            w = "%s[%d]" % (where, j)
            _object(group, w, ("count",), ("moons", "three_plus"))
            count = _int(group["count"], w, "count", 1, MAX_GROUP_COUNT)
            moons = _int(group.get("moons", 0), w, "moons", 0, MAX_MOONS)
            three_plus = group.get("three_plus", False)
            if not isinstance(three_plus, bool):
                _fail(w, "'three_plus' must be true or false, not %r" % (three_plus,))
            out.append((count, moons, three_plus))
        return out

    def spec(self):
        """The canonical form: every key, in the doc's order."""
        kinds = []
        for kind in self.kinds:
            entry = {"name": kind.name}
            if kind.food:
                form = kind.score[0]
                if form == "each":
                    entry["score"] = {"each": kind.score[1]}
                elif form == "set":
                    entry["score"] = {"set": list(kind.score[1]), "beyond": kind.score[2]}
                else:
                    entry["score"] = {"groups": kind.score[1], "points": kind.score[2]}
            else:
                pred = kind.predator
                entry["predator"] = {"discard": pred["discard"]}
                if pred["discard"] == "highest":
                    entry["predator"]["count"] = pred["count"]
                entry["predator"]["of"] = [self.kinds[k].name for k in pred["of"]]
                entry["predator"]["target"] = pred["target"]
            entry["cards"] = [{"count": c, "moons": m, "three_plus": b} for c, m, b in kind.groups]
            kinds.append(entry)
        return {"name": self.name, "kinds": kinds}


def load_card_set(value):
    """A CardSet from an object or the path of a JSON file holding one."""
    if isinstance(value, (str, os.PathLike)):
        value = read_card_file(value)
    elif not isinstance(value, dict):
        raise ValueError("nutz: cards must be a card set (an object) or the path of a JSON file, not %r" % (value,))
    return CardSet(value)
