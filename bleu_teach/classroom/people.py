"""Who is the same student across sessions: each session has students of its own, and a term is read per person.

Two students of different sessions are one person when, in this order of
trust, they are the same user of the learning platform (an LTI launch: the
platform's own user id), else they joined under the same roster name (its
matching key, :func:`~bleu_teach.classroom.name_keys.name_key`, the rule a
join uses: Zoë Lefèvre and Lefevre Zoe are one name, first compared as
listed), else under the same nickname (:func:`~bleu_teach.classroom.schema.fold`:
case and spaces aside). A nickname alone still finds a roster name or a
platform user's name that folds the same: a student who typed their name in a
live session is found again in the homework that listed it.

What is never one person: two students of one session, two platform users,
two roster names with different keys. A name that would join any of these is
taken as two people's and joins nobody (all or nothing, so that the answer
never depends on which session is read first); :attr:`Matching.apart` names it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from bleu_teach.classroom.name_keys import name_key
from bleu_teach.classroom.schema import fold
from bleu_teach.classroom.store_term import TermStudent

#: The rules, most trusted first, by the words the term's view says them in.
PLATFORM, ROSTER, NICKNAME = "platform user", "roster name", "nickname"
RULES = (PLATFORM, ROSTER, NICKNAME)
#: What a person seen in one session only was matched by: nothing.
ALONE = "one session only"


@dataclass(frozen=True)
class Person:
    """One student across sessions: their students, one per session at most, in the sessions' order; their name as
    the latest roster gives it (else their latest nickname); and the least trusted rule that joined two of their
    students (:data:`ALONE` for one student)."""

    name: str
    students: tuple[TermStudent, ...]
    matched_by: str


@dataclass(frozen=True)
class Matching:
    """The people, in the order of their names, and the names left apart: (the rule, the name as a student wrote
    it), each a name two people share."""

    people: tuple[Person, ...]
    apart: tuple[tuple[str, str], ...]


#: Each step: the rule it counts as, and what a student is found by under it (None: nothing).
_STEPS: tuple[tuple[str, Callable[[TermStudent], Hashable | None]], ...] = (
    (PLATFORM, lambda s: s.platform_user),
    (ROSTER, lambda s: fold(s.roster_name) if s.roster_name else None),  # as listed first, as a join does
    (ROSTER, lambda s: name_key(s.roster_name) if s.roster_name else None),
    (NICKNAME, lambda s: fold(s.nickname)),
)


def _clash(members: Sequence[TermStudent]) -> bool:
    """Whether ``members`` cannot be one person: two of one session, two platform users or two roster names."""
    users = {s.platform_user for s in members if s.platform_user is not None}
    keys = {name_key(s.roster_name) for s in members if s.roster_name}
    return len({s.session_id for s in members}) < len(members) or len(users) > 1 or len(keys) > 1


def match_people(students: Sequence[TermStudent], order: Sequence[int]) -> Matching:
    """The people ``students`` are, their sessions in ``order`` (the sessions' numbers, oldest first).

    >>> rows = [TermStudent(1, 10, "anna smith", "", None), TermStudent(2, 11, "Smith Anna", "Smith Anna", None),
    ...         TermStudent(3, 12, "Anna Smith", "Anna Smith", None), TermStudent(4, 12, "Kit", "", None)]
    >>> [(p.name, len(p.students), p.matched_by) for p in match_people(rows, [10, 11, 12]).people]
    [('Anna Smith', 3, 'nickname'), ('Kit', 1, 'one session only')]
    """
    place = {number: k for k, number in enumerate(order)}
    group = {s.id: s.id for s in students}  # each student's group, by one of its students' number
    members = {s.id: [s] for s in students}
    rules: dict[int, set[str]] = {s.id: set() for s in students}
    apart: list[tuple[str, str]] = []

    def root(student_id: int) -> int:
        while group[student_id] != student_id:
            group[student_id] = group[group[student_id]]
            student_id = group[student_id]
        return student_id

    for rule, found_by in _STEPS:
        named: dict[Hashable, list[TermStudent]] = {}
        for s in students:
            value = found_by(s)
            if value is not None:
                named.setdefault(value, []).append(s)
        for same in named.values():
            roots = list(dict.fromkeys(root(s.id) for s in same))
            if len(roots) < 2:
                continue
            if _clash([m for r in roots for m in members[r]]):
                apart.append((rule, same[0].roster_name if rule == ROSTER else same[0].nickname))
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
        weakest = max((RULES.index(rule) for rule in rules[r]), default=None)
        people.append(Person(name, ordered, ALONE if weakest is None else RULES[weakest]))
    people.sort(key=lambda p: (fold(p.name), place[p.students[0].session_id], p.students[0].id))
    return Matching(tuple(people), tuple(dict.fromkeys(apart)))


def matched_counts(matching: Matching) -> dict[str, int]:
    """How many people each rule matched (the least trusted rule that joined them), and how many were seen in one
    session only, in :data:`RULES`' order then :data:`ALONE`."""
    return {rule: sum(p.matched_by == rule for p in matching.people) for rule in (*RULES, ALONE)}
