"""The classroom's store, on SQLite and on PostgreSQL: the same tests against both.

What is checked: join codes and secrets (kept as digests, compared in constant
time), bounded input with messages that name the field, answers stored once per
id whatever is sent again, late answers marked, a deleted session leaving
nothing, concurrent writers, and a writer killed with SIGKILL losing no answer
it had acknowledged.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

sqlalchemy = pytest.importorskip("sqlalchemy")

from bleu_teach.classroom.schema import CODE_ALPHABET, CODE_LENGTH, answers, sessions, students  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from tests.postgres import fresh_database  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1]


def _rows(store: Store, table: sqlalchemy.Table) -> list[dict]:
    with store.engine.connect() as connection:
        return [dict(row) for row in connection.execute(table.select()).mappings()]


def test_a_session_has_a_join_code_and_a_teacher_secret_kept_only_as_a_digest(store: Store) -> None:
    session, secret = store.create_session("MT course, week 3")
    assert len(session.code) == CODE_LENGTH and set(session.code) <= set(CODE_ALPHABET)
    assert store.is_teacher(session.id, secret)
    assert not store.is_teacher(session.id, secret[:-1] + ("A" if secret[-1] != "A" else "B"))
    assert not store.is_teacher(session.id + 1, secret)
    assert secret not in json.dumps(_rows(store, sessions), default=str)
    assert store.session_by_code(f" {session.code.lower()} ") == session  # as a phone keyboard types it
    assert store.session_by_code("ZZZZZZ" if session.code != "ZZZZZZ" else "YYYYYY") is None
    codes = {store.create_session(f"class {k}")[0].code for k in range(30)}
    assert len(codes) == 30


def test_what_people_type_is_bounded_with_a_message_that_names_it(store: Store) -> None:
    with pytest.raises(ValueError, match="title: at most 120"):
        store.create_session("x" * 121)
    with pytest.raises(ValueError, match="kind"):
        store.create_session("ok", kind="exam")
    with pytest.raises(ValueError, match="due: give a time with its time zone"):
        store.create_session("ok", due=datetime(2026, 12, 1, 9))
    session, _ = store.create_session("ok")
    with pytest.raises(ValueError, match="nickname: at most 40"):
        store.join(session, "n" * 41)
    with pytest.raises(ValueError, match="nickname: it is empty"):
        store.join(session, "   ")
    with pytest.raises(ValueError, match="nickname: it holds U\\+001B, a control character"):
        store.join(session, "Ann\x1b[31m")
    with pytest.raises(TypeError, match="nickname: give text"):
        store.join(session, 7)  # type: ignore[arg-type]
    student, _ = store.join(session, "Zoë 李")
    for same in ("Zoë 李", "zoë  李", "Zoe\u0308 李"):  # case, spaces, and a decomposed accent look the same
        with pytest.raises(ValueError, match="already called"):
            store.join(session, same)
    with pytest.raises(ValueError, match="nickname: it holds U\\+200B ZERO WIDTH SPACE at character 3, an invisible"):
        store.join(session, "Zo\u200bë 李")
    with pytest.raises(ValueError, match="answer: at most 200"):
        store.record_answer(student, str(uuid.uuid4()), "03.1", "9" * 201, "wrong")
    with pytest.raises(ValueError, match="verdict"):
        store.record_answer(student, str(uuid.uuid4()), "03.1", "0.5", "maybe")
    store.close_session(session.id)
    with pytest.raises(ValueError, match="closed"):
        store.join(store.session(session.id), "Late Lee")


def test_a_token_opens_only_its_own_student_in_its_own_session(store: Store) -> None:
    first, _ = store.create_session("A")
    second, _ = store.create_session("B")
    ann, token = store.join(first, "Ann")
    assert store.student(first.id, token) == ann
    assert store.student(second.id, token) is None
    assert store.student(first.id, token + "x") is None
    assert token not in json.dumps(_rows(store, students), default=str)


def test_an_answer_sent_again_is_stored_once_and_acknowledged_as_the_first(store: Store) -> None:
    session, _ = store.create_session("live")
    ann, _ = store.join(session, "Ann")
    bob, _ = store.join(session, "Bob")
    answer_id = str(uuid.uuid4())
    first, stored = store.record_answer(ann, answer_id, "03.1", "0.607", "correct")
    again, stored_again = store.record_answer(ann, answer_id, "03.1", "0.999", "wrong")  # a resend: same id
    assert stored and not stored_again and again == first and again.answer == "0.607"
    _, bob_stored = store.record_answer(bob, answer_id, "03.1", "0.5", "misconception", "the shortest reference")
    assert bob_stored  # ids are per student
    assert store.answer_count(session.id) == 2
    store.record_answer(ann, str(uuid.uuid4()), "03.1", "0.5", "misconception", "the shortest reference")
    latest = {(a.student_id, a.exercise): a.verdict for a in store.latest(session.id)}
    assert latest == {(ann.id, "03.1"): "misconception", (bob.id, "03.1"): "misconception"}


def test_answers_after_the_due_time_are_marked_late(store: Store) -> None:
    due = datetime.now(timezone.utc) + timedelta(hours=1)
    session, _ = store.create_session("homework", kind="homework", due=due)
    ann, _ = store.join(session, "Ann")
    on_time, _ = store.record_answer(ann, str(uuid.uuid4()), "04.1", "0.7", "correct")
    late, _ = store.record_answer(ann, str(uuid.uuid4()), "04.1", "0.7", "correct", at=due + timedelta(seconds=1))
    assert not on_time.late and late.late
    assert store.session(session.id).due == due


def test_a_homework_keeps_its_late_policy_and_a_policy_it_does_not_know_is_refused(store: Store) -> None:
    due = datetime(2026, 12, 1, 8, tzinfo=timezone.utc)
    for late, kept in (
        ("accept", "accept"),
        (" Refuse", "refuse"),
        ("penalty:20", "penalty:20"),
        ("PENALTY:5%", "penalty:5"),
    ):
        session, _ = store.create_session("week 4", "homework", due, late=late)
        assert store.session(session.id).late == kept
    assert store.create_session("week 3")[0].late == "accept"  # a live session: never late
    for late in ("penalty:101", "penalty:-5", "penalty:2.5", "late", ""):
        with pytest.raises(ValueError, match=f"late: accept, refuse or penalty:N .*, not '{late}'"):
            store.create_session("week 4", "homework", due, late=late)


def test_a_homework_that_refuses_late_answers_takes_none_after_a_students_due_time_but_their_extension(
    store: Store,
) -> None:
    from bleu_teach.classroom.store import PastDue

    due = datetime(2026, 12, 1, 8, tzinfo=timezone.utc)
    session, _ = store.create_session("week 4", "homework", due, late="refuse")
    ann, _ = store.join(session, "Ann")
    bob, _ = store.join(session, "Bob")
    sent_early = str(uuid.uuid4())
    store.record_answer(ann, sent_early, "03.1", "0.5", "wrong", at=due - timedelta(minutes=1))
    with pytest.raises(PastDue, match="closed for you at 2026-12-01 08:00 UTC"):
        store.record_answer(ann, str(uuid.uuid4()), "03.1", "0.6", "correct", at=due + timedelta(seconds=1))
    again, stored = store.record_answer(ann, sent_early, "03.1", "0.5", "wrong", at=due + timedelta(minutes=5))
    assert not stored and again.answer == "0.5" and not again.late  # sent again after the due time: the first
    assert store.extend(session.id, "BOB", due + timedelta(days=2)) == "Bob"  # no roster: a joined nickname
    kept, stored = store.record_answer(bob, str(uuid.uuid4()), "03.1", "0.6", "correct", at=due + timedelta(days=1))
    assert stored and not kept.late
    with pytest.raises(PastDue, match="closed for you at 2026-12-03 08:00 UTC"):
        store.record_answer(bob, str(uuid.uuid4()), "03.1", "0.7", "correct", at=due + timedelta(days=2, seconds=1))
    assert [a.answer for a in store.answers(session.id)] == ["0.5", "0.6"]
    with pytest.raises(ValueError, match="'Cy' is not the name of a student who joined homework"):
        store.extend(session.id, "Cy", due + timedelta(days=2))
    live, _ = store.create_session("week 3")
    with pytest.raises(ValueError, match=f"session {live.id} is not a homework"):
        store.extend(live.id, "Ann", due + timedelta(days=2))


def test_an_extension_marks_a_students_answers_again_and_their_points_lose_the_penalty(store: Store) -> None:
    from fractions import Fraction

    from bleu_teach.classroom.homework import Homework, draw

    due = datetime(2026, 12, 1, 8, tzinfo=timezone.utc)
    session, _ = store.create_session("week 4", "homework", due, late="penalty:30")
    Homework(store).save(session, draw(["01.1", "03.1"], count=1, seed=3))
    ann, _ = store.join(session, "Ann")
    store.record_answer(ann, str(uuid.uuid4()), "01.1", "2/7", "correct", at=due - timedelta(hours=1))
    store.record_answer(ann, str(uuid.uuid4()), "03.1", "0.5", "correct", at=due + timedelta(hours=1))
    marked = store.mark_of(store.session(session.id), ann.id)
    assert (marked.points, marked.maximum, marked.late) == (Fraction(17, 10), 2, True)  # 1 + 0.7
    store.extend(session.id, "Ann", due + timedelta(hours=2))
    assert [a.late for a in store.answers(session.id)] == [False, False]
    marked = store.mark_of(store.session(session.id), ann.id)
    assert (marked.points, marked.late) == (Fraction(2), False)
    store.extend(session.id, "Ann", due + timedelta(minutes=30))  # replaced: shorter again, the answer late again
    assert [a.late for a in store.answers(session.id)] == [False, True]
    assert list(store.extensions(session.id)) == ["ann"]
    store.delete_session(session.id)
    assert store.extensions(session.id) == {}


def test_an_ended_extension_is_given_once_for_its_final_score(store: Store) -> None:
    due = datetime.now(timezone.utc) - timedelta(days=2)
    session, _ = store.create_session("week 4", "homework", due)
    store.set_roster(session.id, [("Ann Lee", "{}"), ("Bo Li", "{}"), ("Cy Ng", "{}")])
    ann, _ = store.join(session, "Ann Lee")
    bo, _ = store.join(session, "Bo Li")
    store.extend(session.id, "Ann Lee", due + timedelta(days=1))  # ended yesterday
    store.extend(session.id, "Bo Li", due + timedelta(days=3))  # ends tomorrow
    store.extend(session.id, "Cy Ng", due + timedelta(days=1))  # ended, but Cy never joined: no score to send
    assert store.extensions_due() == [(session.id, ann.id)]
    assert store.extensions_due() == []  # once
    assert store.queue_scores(session.id, None, True) == 0  # no platform link: nothing to send, on both databases


def test_a_deleted_session_leaves_nothing(store: Store) -> None:
    kept, _ = store.create_session("kept")
    gone, _ = store.create_session("gone")
    for session in (kept, gone):
        student, _ = store.join(session, "Ann")
        store.record_answer(student, str(uuid.uuid4()), "01.1", "2/7", "correct")
    store.delete_session(gone.id)
    assert [row["session_id"] for row in _rows(store, answers)] == [kept.id]
    assert [row["session_id"] for row in _rows(store, students)] == [kept.id]
    assert [session.id for session in store.sessions()] == [kept.id]


def test_a_deleted_sessions_number_is_never_given_again(store: Store) -> None:
    """class delete 3, class delete 2, class new: Session 4, not 2 again (the archives, the notes, class term and
    the platforms' links name sessions by their number); a deleted poll's and a removed platform's number alike."""
    numbers = [store.create_session(f"week {k}")[0].id for k in (5, 6, 7)]
    assert numbers == [1, 2, 3]  # a new database
    polls = [store.open_poll(number, "Which?", (("A", "one"), ("B", "two"))) for number in numbers]
    for number in reversed(numbers[1:]):
        store.delete_session(number)
    assert store.create_session("No roster")[0].id == 4
    assert store.open_poll(4, "Which?", (("A", "one"),)) == polls[-1] + 1
    lms = "https://lms.example.edu"

    def platform(issuer: str) -> int:
        return store.add_platform(issuer, "tool", f"{lms}/auth", f"{lms}/token", f"{lms}/jwks", ["d"]).id

    first, second = platform(f"{lms}/1"), platform(f"{lms}/2")
    store.remove_platform(second)  # class lti remove: its number was the newest
    assert platform(f"{lms}/3") == second + 1 > first


def test_concurrent_writers_store_every_answer_once(store: Store) -> None:
    session, _ = store.create_session("busy")
    class_ = [store.join(session, f"student {k}")[0] for k in range(8)]
    ids = {student.id: [str(uuid.uuid4()) for _ in range(40)] for student in class_}
    errors: list[BaseException] = []

    def answer_all(student) -> None:  # noqa: ANN001
        try:
            for answer_id in ids[student.id] + ids[student.id][::5]:  # every fifth sent twice
                store.record_answer(student, answer_id, "02.1", "3/7", "correct")
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=answer_all, args=(student,)) for student in class_]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    stored = {(row["student_id"], row["answer_id"]) for row in _rows(store, answers)}
    assert stored == {(student_id, answer_id) for student_id, answer_ids in ids.items() for answer_id in answer_ids}


def _in_one_group(store: Store, writes: list[tuple[str, Callable[[], object]]]) -> list[tuple[str, object]]:
    """Run each write in a thread of its own while a write is committing (the store's writer held): they all queue
    and go in one group commit. (key, what the write returned or the name of what it raised), as they finished."""
    finished: list[tuple[str, object]] = []

    def send(key: str, write: Callable[[], object]) -> None:
        try:
            finished.append((key, write()))
        except Exception as problem:  # noqa: BLE001
            finished.append((key, type(problem).__name__))

    store.writing.acquire()
    threads = [threading.Thread(target=send, args=each) for each in writes]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 10
    while len(store.waiting) < len(threads) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(store.waiting) == len(threads)
    store.writing.release()
    for thread in threads:
        thread.join()
    return finished


def test_writes_arriving_together_are_committed_together_and_one_that_fails_fails_alone(tmp_path: Path) -> None:
    from sqlalchemy import event

    store = Store.open(tmp_path / "grouped.sqlite")
    session, _ = store.create_session("grouped")
    ann = store.join(session, "Ann")[0]
    commits: list[str] = []

    @event.listens_for(store.engine, "commit")
    def counted(_connection: object) -> None:
        commits.append("commit")

    def send(answer_id: str, tries: int | None) -> Callable[[], object]:
        return lambda: store.record_answer(ann, answer_id, "03.1", "0.5", "wrong", max_tries=tries)[1]

    store.record_answer(ann, "first", "03.1", "0.5", "wrong")
    commits.clear()
    writes = [(f"a{k}", send(f"a{k}", None)) for k in range(6)]
    writes.append(("over", send("over", 1)))  # one try allowed, one used: refused
    outcomes = dict(_in_one_group(store, writes))
    assert outcomes == {**{f"a{k}": True for k in range(6)}, "over": "TriesUsed"}
    assert len(commits) == 1  # seven writes, one commit (one wait for the disk)
    assert sorted(a.answer_id for a in store.answers(session.id)) == sorted(["first", *(f"a{k}" for k in range(6))])
    store.close()


def test_a_group_with_a_write_that_fails_is_written_again_write_by_write(store: Store) -> None:
    # A group runs its writes one after the other without savepoints; one that fails (a nickname taken within the
    # same group) undoes the group, which runs again with a savepoint each: the others are stored, once, and the
    # one that failed raises in its own caller.
    session, _ = store.create_session("grouped again")
    ann = store.join(session, "Ann")[0]

    def answer(answer_id: str) -> Callable[[], object]:
        return lambda: store.record_answer(ann, answer_id, "03.1", "0.5", "wrong")[1]

    writes = [(f"a{k}", answer(f"a{k}")) for k in range(4)]
    writes.append(("bob", lambda: store.join(session, "Bob")[0].nickname))
    writes.append(("bob again", lambda: store.join(session, "bob")[0].nickname))  # the same name, folded
    outcomes = dict(_in_one_group(store, writes))
    bobs = sorted(str(outcomes.pop(key)) for key in ("bob", "bob again"))
    assert bobs == ["Bob", "ValueError"] or bobs == ["ValueError", "bob"]
    assert outcomes == {f"a{k}": True for k in range(4)}
    assert sorted(a.answer_id for a in store.answers(session.id)) == ["a0", "a1", "a2", "a3"]
    assert sorted(s.nickname.lower() for s in store.roster(session.id)) == ["ann", "bob"]


def test_a_groups_answers_go_in_one_statement_and_each_is_stored_once(store: Store) -> None:
    # A live session's answers in one group are one INSERT. The same answer sent twice within the group is stored
    # once (the first sender is told it stored it, the other that it was there), one stored before is answered with
    # the first one, and one of a student who does not exist makes the group run again write by write: it fails in
    # its own caller and the others are stored.
    from sqlalchemy import event

    from bleu_teach.classroom.schema import Student

    session, _ = store.create_session("one statement")
    ann = store.join(session, "Ann")[0]
    bob = store.join(session, "Bob")[0]
    store.record_answer(ann, "before", "03.1", "0.5", "wrong")
    inserts: list[str] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def seen(_c: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO ANSWERS"):
            inserts.append(statement)

    def group(sent: list[tuple[str, Student, str, str]]) -> dict[str, list[object]]:
        def send(student: Student, answer_id: str, answer: str) -> Callable[[], object]:
            def write() -> object:
                kept, stored = store.record_answer(student, answer_id, "03.1", answer, "wrong")
                return kept.answer, stored

            return write

        outcomes: dict[str, list[object]] = {}
        for key, found in _in_one_group(
            store, [(key, send(student, answer_id, answer)) for key, student, answer_id, answer in sent]
        ):
            outcomes.setdefault(key, []).append(found)
        return outcomes

    outcomes = group(
        [
            ("a", ann, "a", "0.1"),
            ("b", bob, "a", "0.2"),  # another student's answer with the same id: a row of its own
            ("twice", ann, "twice", "0.3"),
            ("twice", ann, "twice", "0.3"),
            ("before", ann, "before", "0.9"),  # sent again: the first one is answered
        ]
    )
    assert len(inserts) == 1
    assert outcomes.pop("twice") in ([("0.3", True), ("0.3", False)], [("0.3", False), ("0.3", True)])
    assert outcomes == {"a": [("0.1", True)], "b": [("0.2", True)], "before": [("0.5", False)]}
    kept = sorted((a.student_id, a.answer_id, a.answer) for a in store.answers(session.id))
    assert kept == sorted(
        [(ann.id, "before", "0.5"), (ann.id, "a", "0.1"), (bob.id, "a", "0.2"), (ann.id, "twice", "0.3")]
    )

    nobody = Student(bob.id + 1000, session.id, "Nobody")
    outcomes = group([("c", ann, "c", "0.4"), ("nobody", nobody, "x", "0.4"), ("d", bob, "d", "0.6")])
    assert outcomes["c"] == [("0.4", True)] and outcomes["d"] == [("0.6", True)]
    assert outcomes["nobody"] == ["IntegrityError"]
    assert sorted(a.answer_id for a in store.answers(session.id)) == ["a", "a", "before", "c", "d", "twice"]


#: Writers (threads: their writes are committed in groups on SQLite) that print each answer id once the store has
#: acknowledged it, as fast as they can, until killed.
WRITER = """
import sys, threading, uuid
from bleu_teach.classroom.store import Store
store = Store.open(sys.argv[1])
session = store.session(int(sys.argv[2]))
student = store.student(session.id, sys.argv[3])
said = threading.Lock()
def write():
    while True:
        answer_id = str(uuid.uuid4())
        store.record_answer(student, answer_id, "03.1", "0.607", "correct")
        with said:
            print(answer_id, flush=True)
print("ready", flush=True)
for _ in range(WRITERS):
    threading.Thread(target=write, daemon=True).start()
threading.Event().wait()
"""
WRITERS = 4


def test_a_writer_killed_mid_class_loses_no_acknowledged_answer(where: str) -> None:
    store = Store.open(where)
    session, _ = store.create_session("killed")
    student, token = store.join(session, "Ann")
    store.close()
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER.replace("WRITERS", str(WRITERS)), where, str(session.id), token],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ | {"PYTHONPATH": str(PROJECT)},
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "ready"
    acknowledged: list[str] = []
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        acknowledged.append(writer.stdout.readline().strip())
    writer.send_signal(signal.SIGKILL)  # mid-write, as a power cut or an out-of-memory kill would
    writer.wait(timeout=30)
    acknowledged += [line.strip() for line in writer.stdout.read().splitlines() if line.strip()]
    writer.stdout.close()
    reopened = Store.open(where)
    stored = {answer.answer_id for answer in reopened.answers(session.id)}
    lost = [answer_id for answer_id in acknowledged if answer_id not in stored]
    print(
        f"kill test ({where.split(':')[0] if '://' in where else 'sqlite'}): {len(acknowledged)} acknowledged, "
        f"{len(stored)} stored, {len(lost)} lost"
    )
    assert len(acknowledged) > 10 and lost == []
    # at most a write per writer committed as it was killed, not yet said
    assert 0 <= len(stored) - len(acknowledged) <= WRITERS
    reopened.close()


def test_the_dashboards_reading_follows_new_answers_without_rereading_old_ones(store: Store) -> None:
    from bleu_teach.classroom.counts import Latest

    session, _ = store.create_session("live")
    ann, token = store.join(session, "Ann")
    assert store.student_and_session(session.id, token) == (ann, session)
    assert store.student_and_session(session.id, token + "x") is None
    now = datetime.now(timezone.utc)
    store.record_answer(ann, "a1", "03.1", "0.5", "wrong", at=now)
    latest = Latest(session.id)
    assert latest.update(store) and not latest.update(store)  # nothing new the second time
    store.record_answer(ann, "a2", "03.1", "0.882", "correct", at=now + timedelta(seconds=2))
    assert latest.update(store) and latest.latest[(ann.id, "03.1")].answer_id == "a2"
    # Stored a little out of order (another worker, a clock behind): read, but not taken for the last answer.
    store.record_answer(ann, "a0", "03.1", "0.1", "wrong", at=now + timedelta(seconds=1))
    assert latest.update(store) and latest.latest[(ann.id, "03.1")].answer_id == "a2"
    assert len(latest.seen) == 3


def test_a_dashboard_reads_in_full_only_the_answers_it_has_not_seen(store: Store) -> None:
    from bleu_teach.classroom import store_answers

    session, _ = store.create_session("live")
    ann = store.join(session, "Ann")[0]
    bo = store.join(session, "Bo")[0]
    now = datetime.now(timezone.utc)
    for k, (student, moment) in enumerate([(ann, 0), (bo, 1), (ann, 2), (bo, 3)]):
        store.record_answer(student, f"a{k}", "03.1", "0.5", "wrong", at=now + timedelta(seconds=moment))
    since = now + timedelta(seconds=1)
    assert [a.answer_id for a in store.answers_unseen(session.id, since, set())] == ["a1", "a2", "a3"]
    assert [a.answer_id for a in store.answers_unseen(session.id, since, {(bo.id, "a1"), (ann.id, "a2")})] == ["a3"]
    assert store.answers_unseen(session.id, since, {(bo.id, "a1"), (ann.id, "a2"), (bo.id, "a3")}) == []
    assert store.answers_unseen(session.id, since, {(ann.id, "a1")}) != []  # a1 is Bo's, not Ann's: not seen
    store_answers.UNSEEN_BY_KEY, before = 1, store_answers.UNSEEN_BY_KEY  # more new than that: read by time alone
    try:
        assert [a.answer_id for a in store.answers_unseen(session.id, since, {(bo.id, "a3")})] == ["a1", "a2"]
    finally:
        store_answers.UNSEEN_BY_KEY = before


# ---------------------------------------------------------------------------
# Data that survives time zones, copies, deletes and damaged files
# ---------------------------------------------------------------------------


def test_a_due_time_keeps_its_zone_and_an_answer_after_it_is_late(store: Store) -> None:
    # The README's own example: 09:00 at UTC+1 is 08:00 UTC. It used to be stored as 09:00 and read as 09:00 UTC,
    # so an answer at 08:30 UTC (half an hour after the real due time) was on time.
    due = datetime.fromisoformat("2026-12-01T09:00+01:00")
    session, _ = store.create_session("week 4", "homework", due)
    kept = store.session(session.id).due
    assert kept == datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc) and kept.utcoffset() == timedelta(0)
    student, _ = store.join(session, "Ann")
    early, _ = store.record_answer(
        student, str(uuid.uuid4()), "03.1", "0.5", "wrong", at=datetime(2026, 12, 1, 7, 59, tzinfo=timezone.utc)
    )
    late, _ = store.record_answer(
        student, str(uuid.uuid4()), "03.1", "0.5", "wrong", at=datetime(2026, 12, 1, 8, 30, tzinfo=timezone.utc)
    )
    assert (early.late, late.late) == (False, True)
    with pytest.raises(ValueError, match="time zone"):
        store.create_session("no zone", "homework", datetime(2026, 12, 1, 9, 0))


def test_texts_the_databases_refuse_are_refused_with_the_field_named(store: Store) -> None:
    session, _ = store.create_session("week 3")
    for nickname, said in (
        ("an\x00n", "U\\+0000, a control character"),
        ("an\ud800n", "U\\+D800, half of a surrogate pair"),
    ):
        with pytest.raises(ValueError, match=f"nickname: it holds {said}"):
            store.join(session, nickname)
    from bleu_teach.classroom.polls import Polls

    student, _ = store.join(session, "Ann")
    polls = Polls(store)
    poll = polls.open(session.id, "Which?", (("A", "one"), ("B", "two")))
    with pytest.raises(ValueError, match="vote id"):
        polls.vote(student, poll.id, "vote\x00id", "A")
    with pytest.raises(ValueError, match="poll"):
        polls.vote(student, 10**30, "vote-id", "A")
    assert polls.vote(student, poll.id, "vote-id", "A") is True


def _sqlite_files(folder: Path) -> bytes:
    return b"".join(path.read_bytes() for path in sorted(folder.iterdir()) if path.name.startswith("classroom"))


def test_a_stopped_sqlite_store_is_one_whole_file_readable_by_its_owner_alone(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "classroom.sqlite")
    session, _ = store.create_session("week 3")
    student, _ = store.join(session, "Ann")
    for k in range(50):
        store.record_answer(student, f"id-{k}", "03.1", f"0.{k}", "wrong")
    assert (tmp_path / "classroom.sqlite-wal").stat().st_size > 0  # the answers are in the log while it runs
    store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classroom.sqlite"]
    assert (tmp_path / "classroom.sqlite").stat().st_mode & 0o777 == 0o600
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "classroom.sqlite").write_bytes((tmp_path / "classroom.sqlite").read_bytes())  # the teacher's copy
    again = Store.open(copy / "classroom.sqlite")
    assert len(again.answers(session.id)) == 50
    again.close()


def test_a_deleted_session_leaves_nothing_readable_in_the_sqlite_files(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "classroom.sqlite")
    kept, _ = store.create_session("kept session")
    gone, _ = store.create_session("gone session")
    keeper, _ = store.join(kept, "Keeper")
    student, _ = store.join(gone, "Zebulon-Quaxley")
    store.record_answer(keeper, "k-1", "03.1", "0.5", "wrong")
    store.record_answer(student, "g-1", "03.1", "secret-answer-9147", "wrong")
    assert b"Zebulon-Quaxley" in _sqlite_files(tmp_path)
    store.delete_session(gone.id)
    assert b"Zebulon-Quaxley" not in _sqlite_files(tmp_path) and b"secret-answer-9147" not in _sqlite_files(tmp_path)
    assert b"Keeper" in _sqlite_files(tmp_path)  # while the store is open, and after
    store.close()
    assert b"Zebulon-Quaxley" not in _sqlite_files(tmp_path)


def test_an_empty_damaged_or_missing_database_is_named_in_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.raises(ValueError, match=r"empty\.sqlite' is an empty file, not a classroom database"):
        Store.open(empty)
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(os.urandom(8192))
    with pytest.raises(ValueError, match=r"damaged\.sqlite' cannot be used as the classroom's database") as caught:
        Store.open(damaged)
    assert "\n" not in str(caught.value)
    with pytest.raises(LookupError, match="no classroom database at"):
        Store.open(tmp_path / "missing.sqlite", create=False)
    assert not (tmp_path / "missing.sqlite").exists()


# ---------------------------------------------------------------------------
# Where the database is: one per user, said by every command, never made by one that only reads
# ---------------------------------------------------------------------------


def _class(folder: Path, data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_DATA_HOME": str(data), "PYTHONPATH": str(PROJECT)}
    env.pop("BLEU_TEACH_DATABASE", None)
    return subprocess.run(
        [sys.executable, "-m", "bleu_teach", "class", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_class_command_uses_one_database_per_user_whatever_folder_it_runs_in(tmp_path: Path) -> None:
    data, first, other = tmp_path / "data", tmp_path / "first", tmp_path / "homework-folder"
    for folder in (data, first, other):
        folder.mkdir()
    expected = data / "bleu-teach" / "class.sqlite"
    listed = _class(first, data, "list")  # reads only: makes nothing, and says where it looked
    assert listed.returncode != 0 and "no classroom database at" in listed.stderr and str(expected) in listed.stderr
    assert not expected.exists() and list(first.iterdir()) == []
    made = _class(first, data, "new", "Week 3")
    assert made.returncode == 0, made.stderr
    assert f"records: {expected}" in made.stderr and expected.stat().st_mode & 0o777 == 0o600
    listed = _class(other, data, "list")  # from another folder: the same database, the same session
    assert listed.returncode == 0 and "Week 3" in listed.stdout and f"records: {expected}" in listed.stderr
    assert list(other.iterdir()) == []
    (other / "bleu-teach-class.sqlite").write_bytes(expected.read_bytes())  # an earlier version's file here
    noted = _class(other, data, "list")
    assert "--database bleu-teach-class.sqlite" in noted.stderr


def test_class_list_shows_a_homeworks_due_time_tries_and_late_policy(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "bleu-teach").mkdir(parents=True)
    store = Store.open(data / "bleu-teach" / "class.sqlite")
    live, _ = store.create_session("Week 3")
    due = datetime(2026, 12, 1, 9, 0, tzinfo=timezone(timedelta(hours=1)))  # 08:00 UTC
    homework, _ = store.create_session("Homework 2", "homework", due, 3, "penalty:20")
    store.close()
    lines = _class(tmp_path, data, "list").stdout.splitlines()
    assert lines[0].split()[0] == str(live.id) and lines[0].endswith("UTC  Week 3")
    assert lines[1].split()[0] == str(homework.id) and lines[1].endswith("UTC  Homework 2")
    assert lines[2].strip() == (
        "homework: due 2026-12-01T08:00+00:00, 3 tries per question, a late answer's points less 20%"
    )
    assert len(lines) == 3  # a live session has no second line


def test_class_serve_refuses_a_database_inside_the_site_before_printing_any_link(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!DOCTYPE html><title>course</title>")
    served = _class(
        tmp_path, tmp_path, "serve", "--site", str(site), "--database", str(site / "class.sqlite"), "--port", "0"
    )
    assert served.returncode != 0 and "lies inside the site folder" in served.stderr
    assert "teacher page" not in served.stdout + served.stderr


def test_answers_sent_at_once_cannot_get_past_a_homeworks_tries(store: Store) -> None:
    from bleu_teach.classroom.store_answers import TriesUsed

    session, _ = store.create_session("week 4", "homework", datetime.now(timezone.utc) + timedelta(days=1), 3)
    student, _ = store.join(session, "Zoë")
    outcomes: list[str] = []

    def send(k: int) -> None:
        try:
            store.record_answer(student, f"try-{k}", "03.1", f"0.{k}", "wrong", session=session, max_tries=3)
            outcomes.append("stored")
        except TriesUsed:
            outcomes.append("refused")

    threads = [threading.Thread(target=send, args=(k,)) for k in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert outcomes.count("stored") == 3 and outcomes.count("refused") == 27
    assert store.tries(student, "03.1") == 3
    kept, stored = (
        store.record_answer(student, "try-0", "03.1", "0.0", "wrong", session=session, max_tries=3)
        if "try-0" in {a.answer_id for a in store.answers(session.id)}
        else (None, None)
    )
    assert stored in (False, None)  # a resend of a stored try is answered, not refused


def test_votes_sent_at_once_are_counted_once_each_without_a_server_error(store: Store) -> None:
    from bleu_teach.classroom.polls import Polls

    session, _ = store.create_session("week 3")
    polls = Polls(store)
    poll = polls.open(session.id, "Which?", (("A", "one"), ("B", "two")))
    voters = [store.join(session, f"student {k}")[0] for k in range(6)]
    problems: list[BaseException] = []

    def vote(student, vote_id: str, choice: str) -> None:  # noqa: ANN001
        try:
            polls.vote(student, poll.id, vote_id, choice)
        except BaseException as problem:  # noqa: BLE001
            problems.append(problem)

    threads = [
        threading.Thread(target=vote, args=(voters[k % 6], f"v{k % 6}-{k // 6 % 2}", "AB"[k % 2])) for k in range(36)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert problems == []
    assert sum(polls.counts(polls.poll(session.id, poll.id)).values()) == 6  # one vote per student


def test_a_removed_students_name_cannot_be_taken_to_block_the_removal(store: Store) -> None:
    session, _ = store.create_session("week 3")
    troll, _ = store.join(session, "Troll")
    with pytest.raises(ValueError, match="kept for students the teacher removed"):
        store.join(session, f"Troll (removed {troll.id})")
    assert store.remove_student(session.id, troll.id)
    assert [s.nickname for s in store.roster(session.id, removed=True)] == [f"Troll (removed {troll.id})"]
    assert store.join(session, "Troll")[0].nickname == "Troll"


def test_direction_marks_that_would_show_a_title_reversed_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="title: it holds U\\+202E RIGHT-TO-LEFT OVERRIDE, a direction control"):
        store.create_session("\u202eevil\u202c title")
    assert store.create_session("שיעור 3 · الدرس ٣")[0].title == "שיעור 3 · الدرس ٣"  # right-to-left text is welcome


def test_a_rosters_names_are_kept_as_long_as_the_worksheets_take_them_and_their_students_join(store: Store) -> None:
    """A roster name of 100 characters (the worksheets' limit; PostgreSQL held it to 40 before) with an "ß" that
    case folding doubles, a Persian name with a zero-width non-joiner, one that opens with a right-to-left mark."""
    from datetime import datetime, timedelta, timezone

    long_name = "Straße " + "de Souza Fernández-Villaverde y " * 3 + "Pereira Dias"
    long_name = long_name[:100]
    assert len(long_name) == 100
    names = [long_name, "مهسا رضایی\u200cپور", "\u200fנועה כהן"]
    session, _ = store.create_session("week 5", "homework", datetime.now(timezone.utc) + timedelta(days=1))
    store.set_roster(session.id, [(name, "{}") for name in names])
    assert [name for name, _, _ in store.roster_names(session.id)] == names
    assert store.join(session, long_name.lower())[0].nickname == long_name
    assert store.join(session, "נועה כהן")[0].nickname == names[2]  # typed without the leading mark
    with pytest.raises(ValueError, match="nickname: at most 40 characters"):  # a nickname of one's own: 40
        store.join(store.create_session("live")[0], long_name)


def test_two_workers_on_postgresql_share_their_rate_limits(postgres_base: str) -> None:
    """Two worker processes are two apps on one database (as ``class serve --workers 2`` makes each,
    ``from_environment``: shared limits): a student's answers are counted once across both, so ``--workers 2``
    does not double a limit (one process counts in itself)."""
    from dataclasses import replace

    from starlette.testclient import TestClient

    from bleu_teach.classroom.app import create_app
    from bleu_teach.classroom.settings import Limits

    opened = Store.open(fresh_database(postgres_base))
    try:
        limits = replace(Limits(), answers_per_student=3)
        workers = [
            TestClient(create_app(opened, "t" * 32, None, limits, shared_limits=True), base_url="http://class.test")
            for _ in "ab"
        ]
        write = {"X-Bleu-Teach": "1"}
        teacher = workers[0]
        assert teacher.get(f"/class/teach?token={'t' * 32}", follow_redirects=False).status_code == 303
        made = teacher.post("/class/api/sessions", json={"title": "shared"}, headers=write).json()
        phone = workers[0]
        assert phone.post("/class/api/join", json={"code": made["code"], "nickname": "Ann"}, headers=write).is_success
        for worker in workers:
            worker.cookies = phone.cookies  # the same phone, its requests shared out between the two workers
        sent = [
            workers[k % 2].post(
                "/class/api/answers", json={"id": f"a{k}", "exercise": "03.2", "answer": "E"}, headers=write
            )
            for k in range(5)
        ]
        assert [reply.status_code for reply in sent] == [200, 200, 200, 429, 429], [r.text for r in sent]
        assert sent[3].headers["Retry-After"] == "60"
        assert len(opened.answers(made["id"])) == 3
    finally:
        opened.close()


def test_a_pooled_connection_the_database_closed_is_replaced_unseen_once_it_has_waited(postgres_base: str) -> None:
    # Connections are not tried before every use (a round trip each), only after waiting a second in the pool: one
    # the database closed meanwhile (a restart, an administrator) is replaced, and the read that takes it works.
    # Reads run in autocommit: no transaction is left open between them.
    from sqlalchemy import create_engine, text

    from bleu_teach.classroom.store_base import PING_AFTER
    from tests.postgres import fresh_database

    where = fresh_database(postgres_base)
    store = Store.open(where)
    session, _ = store.create_session("replaced")
    with store.reading.connect() as connection:
        backend = connection.execute(text("SELECT pg_backend_pid()")).scalar()
    admin = create_engine(where, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        idle = connection.execute(text("SELECT state FROM pg_stat_activity WHERE pid = :pid"), {"pid": backend})
        assert idle.scalar() == "idle"  # not "idle in transaction": the read committed nothing and left nothing open
        assert connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": backend}).scalar()
    admin.dispose()
    time.sleep(PING_AFTER + 0.2)
    assert store.session(session.id).title == "replaced"
    with store.reading.connect() as connection:
        assert connection.execute(text("SELECT pg_backend_pid()")).scalar() != backend
    store.close()


def test_the_dashboards_roster_is_read_again_only_when_someone_joins_or_is_removed(store: Store) -> None:
    from bleu_teach.classroom.counts import Latest
    from bleu_teach.classroom.schema import Student

    session, _ = store.create_session("present")
    ann = store.join(session, "Ann")[0]
    reads: list[int] = []
    roster = store.roster

    def counted_roster(session_id: int, removed: bool = False) -> list[Student]:
        reads.append(session_id)
        return roster(session_id, removed)

    store.roster = counted_roster  # type: ignore[method-assign]
    latest = Latest(session.id)
    assert [s.nickname for s in latest.present(store)] == ["Ann"] and len(reads) == 1
    store.record_answer(ann, "a", "03.1", "0.5", "wrong")  # an answer changes nobody's place in the roster
    assert [s.nickname for s in latest.present(store)] == ["Ann"] and len(reads) == 1
    bob = store.join(session, "Bob")[0]
    assert [s.nickname for s in latest.present(store)] == ["Ann", "Bob"] and len(reads) == 2
    assert store.remove_student(session.id, ann.id)
    assert [s.nickname for s in latest.present(store)] == ["Bob"] and len(reads) == 3
    assert [s.id for s in latest.present(store)] == [bob.id] and len(reads) == 3
    assert store.roster_changes(session.id) == (2, 1)
