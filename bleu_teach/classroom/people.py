"""Who is the same student across sessions: each session has students of its own, and a term is read per person.

Two students of different sessions are one person when, in this order of trust, they are the same user of the
learning platform (an LTI launch: the platform's own user id), else they joined under the same roster name (as
listed, then by its matching key, :func:`~bleu_teach.classroom.name_keys.name_key`, the rule a join uses: Zoë
Lefèvre and Lefevre Zoe are one name), else under the same nickname (:func:`~bleu_teach.classroom.schema.fold`:
case and spaces aside). A nickname is also taken as a roster name by the join page's rule, its key: 李雷, Siobhan
O'Neill and jean luc dupont, typed in a live session without a roster, are the homework roster's 雷 李, Siobhán
O’Neill and Jean-Luc Dupont. Two nicknames with no roster name between them are one person only when they fold
the same.

What is never one person: two students of one session, two platform users, two roster names with different keys.
A name that would join any of these is taken as two people's and joins nobody by that rule (all or nothing, so that
the answer never depends on which session is read first). A key that two names of one roster share
(:func:`~bleu_teach.classroom.name_keys.alike_names`) is not used at all: those names are matched only as written,
as the join page takes them. :attr:`Matching.apart` says what was left apart, and why.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from bleu_teach.classroom.name_keys import alike_names, name_key
from bleu_teach.classroom.schema import fold
from bleu_teach.classroom.store_term import TermStudent

#: The rules, most trusted first, by the words the term's view says them in.
PLATFORM, ROSTER, NICKNAME = "platform user", "roster name", "nickname"
RULES = (PLATFORM, ROSTER, NICKNAME)
#: What a person seen in one session only was matched by: nothing.
ALONE = "one session only"
#: Why a name was left apart: what it would have made one person.
SAME_SESSION = "two students of one session have it"
TWO_USERS = "two platform users have it"
TWO_NAMES = "it goes with two different roster names"
ALIKE = "one roster lists two of these names, written alike but two people's, so these were matched only as written"


@dataclass(frozen=True)
class Person:
    """One student across sessions: their students, one per session at most, in the sessions' order; their name as
    the latest roster gives it (else their latest nickname); and the rules that joined two of their students, most
    trusted first (none for one student)."""

    name: str
    students: tuple[TermStudent, ...]
    rules: tuple[str, ...]

    @property
    def matched_by(self) -> str:
        """The rules that matched them, as the view says them ("roster name, nickname"); :data:`ALONE` for none."""
        return ", ".join(self.rules) if self.rules else ALONE


@dataclass(frozen=True)
class Apart:
    """Names left apart: the rule that did not use them, the names as the students or the roster wrote them, and
    why (:data:`SAME_SESSION`, :data:`TWO_USERS`, :data:`TWO_NAMES` or :data:`ALIKE`). Their students may still be
    matched by a rule more trusted than ``rule`` (two Dana Lees, each a platform user, stay two people: their name
    is left apart, not their launches)."""

    rule: str
    names: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Matching:
    """The people, in the order of their names, and the names left apart."""

    people: tuple[Person, ...]
    apart: tuple[Apart, ...]


def _listed_key(keys: frozenset[str]) -> Callable[[TermStudent], Hashable | None]:
    def found_by(s: TermStudent) -> Hashable | None:
        key = name_key(s.roster_name) if s.roster_name else None
        return None if key in keys else key

    return found_by


def _typed_key(keys: frozenset[str]) -> Callable[[TermStudent], Hashable | None]:
    def found_by(s: TermStudent) -> Hashable | None:
        key = name_key(s.roster_name or s.nickname)
        return None if key in keys else key

    return found_by


def _steps(alike: frozenset[str]) -> tuple[tuple[str, Callable[[TermStudent], Hashable | None], bool], ...]:
    """Each step: the rule it counts as, what a student is found by under it (None: nothing), and whether a group
    needs a roster name in it (a nickname is taken by its key only as a roster name)."""
    return (
        (PLATFORM, lambda s: s.platform_user, False),
        (ROSTER, lambda s: fold(s.roster_name) if s.roster_name else None, False),  # as listed first, as a join does
        (ROSTER, _listed_key(alike), False),
        (NICKNAME, lambda s: fold(s.nickname), False),
        (NICKNAME, _typed_key(alike), True),  # the join page's rule: a nickname found as a roster name
    )


def _written(s: TermStudent) -> str:
    return s.roster_name or s.nickname


def _clash(members: Sequence[TermStudent]) -> str | None:
    """Why ``members`` cannot be one person (two of one session, two platform users or two roster names), or None."""
    if len({s.session_id for s in members}) < len(members):
        return SAME_SESSION
    if len({s.platform_user for s in members if s.platform_user is not None}) > 1:
        return TWO_USERS
    if len({name_key(s.roster_name) for s in members if s.roster_name}) > 1:
        return TWO_NAMES
    return None


def _once(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` once each, as first written (two that fold the same are one)."""
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(fold(name), name)
    return tuple(seen.values())


def alike_keys(students: Sequence[TermStudent], rosters: Iterable[tuple[int, str]] = ()) -> dict[str, list[str]]:
    """The keys two names of one roster share, each with those names: from each session's roster (``rosters``,
    (session, name), every name listed whether it joined or not) and the roster names its students joined as.

    >>> alike_keys([TermStudent(1, 10, "Anna Smith", "Anna Smith", None)], [(10, "Smith Anna"), (11, "Zoë Li")])
    {'anna smith': ['Anna Smith', 'Smith Anna']}
    """
    listed: dict[int, list[str]] = {}
    for s in students:
        if s.roster_name:
            listed.setdefault(s.session_id, []).append(s.roster_name)
    for session_id, name in rosters:
        listed.setdefault(session_id, []).append(name)
    keys: dict[str, list[str]] = {}
    for names in listed.values():
        for group in alike_names(_once(names)):
            kept = keys.setdefault(name_key(group[0]), [])
            kept += [name for name in group if fold(name) not in set(map(fold, kept))]
    return keys


def match_people(
    students: Sequence[TermStudent], order: Sequence[int], rosters: Iterable[tuple[int, str]] = ()
) -> Matching:
    """The people ``students`` are, their sessions in ``order`` (the sessions' numbers, oldest first); ``rosters``
    is every name of the sessions' rosters, (session, name), joined or not, to know which keys two names share.

    >>> rows = [TermStudent(1, 10, "anna smith", "", None), TermStudent(2, 11, "Smith Anna", "Smith Anna", None),
    ...         TermStudent(3, 12, "Anna Smith", "Anna Smith", None), TermStudent(4, 12, "Kit", "", None)]
    >>> [(p.name, len(p.students), p.matched_by) for p in match_people(rows, [10, 11, 12]).people]
    [('Anna Smith', 3, 'roster name, nickname'), ('Kit', 1, 'one session only')]
    """
    place = {number: k for k, number in enumerate(order)}
    group = {s.id: s.id for s in students}  # each student's group, by one of its students' number
    members = {s.id: [s] for s in students}
    rules: dict[int, set[str]] = {s.id: set() for s in students}
    alike = alike_keys(students, rosters)
    apart: list[Apart] = []

    def root(student_id: int) -> int:
        while group[student_id] != student_id:
            group[student_id] = group[group[student_id]]
            student_id = group[student_id]
        return student_id

    for key, names in sorted(alike.items()):  # a key set aside is said if it would have found a name written otherwise
        written = {fold(name) for name in names}
        found = [_written(s) for s in students if name_key(_written(s)) == key and fold(_written(s)) not in written]
        if found:
            apart.append(Apart(ROSTER, _once([*names, *found]), ALIKE))
    for rule, found_by, needs_roster in _steps(frozenset(alike)):
        named: dict[Hashable, list[TermStudent]] = {}
        for s in students:
            value = found_by(s)
            if value is not None:
                named.setdefault(value, []).append(s)
        for same in named.values():
            if needs_roster and not any(s.roster_name for s in same):
                continue  # nicknames alone: one person only as they fold (the step before)
            roots = list(dict.fromkeys(root(s.id) for s in same))
            if len(roots) < 2:
                continue
            why = _clash([m for r in roots for m in members[r]])
            if why is not None:
                seen = sorted(same, key=lambda s: (place[s.session_id], s.id))
                texts = [s.roster_name if rule == ROSTER else _written(s) for s in seen]
                apart.append(Apart(rule, _once(texts), why))
                continue
            first = roots[0]
            for other in roots[1:]:
                group[other] = first
                members[first] += members.pop(other)
                rules[first] |= rules.pop(other)
            rules[first].add(rule)
    people = []
    for r, together in members.items():
        ordered = tuple(sorted(together, key=lambda s: place[s.session_id]))
        listed = [s.roster_name for s in ordered if s.roster_name]
        name = listed[-1] if listed else ordered[-1].nickname
        people.append(Person(name, ordered, tuple(rule for rule in RULES if rule in rules[r])))
    people.sort(key=lambda p: (fold(p.name), place[p.students[0].session_id], p.students[0].id))
    return Matching(tuple(people), tuple(dict.fromkeys(apart)))


def matched_counts(matching: Matching) -> dict[str, int]:
    """How many people each rule matched (a person matched by two rules counts under both), and how many were seen
    in one session only, in :data:`RULES`' order then :data:`ALONE`."""
    counts = {rule: sum(rule in p.rules for p in matching.people) for rule in RULES}
    return counts | {ALONE: sum(not p.rules for p in matching.people)}
