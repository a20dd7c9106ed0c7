"""A notebook in the class: ``bleu_teach.join(...)`` and then every ``check(...)`` reaches the teacher's dashboard.

Against the real server (``class serve``, SQLite): joined by address and
code, each check is sent and counted by the server's own checker; with the
server gone, the answer waits and goes with the next one once it is back,
counted once; and a hub's ``BLEU_TEACH_CLASS`` joins at the first check of a
fresh Python, with nothing sent before it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

import bleu_teach  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from bleu_teach.exercises import check  # noqa: E402
from tests.classroom_server import PROJECT, Server  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(str(tmp_path / "class.sqlite"), tmp_path)
    running.start()
    yield running
    running.stop()


def _session(server: Server) -> tuple[int, str]:
    store = Store.open(server.database)
    session, _ = store.create_session("Notebook class")
    store.close()
    return session.id, session.code


def _stored(server: Server, session_id: int) -> list[tuple[str, str, str]]:
    store = Store.open(server.database)
    found = [(answer.exercise, answer.answer, answer.verdict) for answer in store.answers(session_id)]
    store.close()
    return found


def test_a_joined_notebooks_checks_reach_the_session_and_wait_out_a_lost_connection(
    server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    number, code = _session(server)
    with pytest.raises(ValueError, match="no session has that code"):
        bleu_teach.join(server.url, "ZZZZZ2" if code != "ZZZZZ2" else "ZZZZZ3", nickname="Ann")
    with pytest.raises(ValueError, match="address: the classroom server's address"):
        bleu_teach.join("192.168.1.20:8000", code)
    link = bleu_teach.join(f"{server.url}/class?code={code.lower()}", nickname="Ann")
    assert "Joined 'Notebook class' as Ann" in capsys.readouterr().out
    try:
        _answer_through(server, number, capsys)
    finally:
        link.stop()  # type: ignore[attr-defined]  (this process's checks stop going to the class)
    check("03.2", "A")
    assert capsys.readouterr().out == ""  # nothing sent once it stopped


def _answer_through(server: Server, number: int, capsys: pytest.CaptureFixture[str]) -> None:
    check("03.2", "A")  # the longest reference
    assert "Sent to your class (Notebook class)." in capsys.readouterr().out
    assert _stored(server, number) == [("03.2", "A", "misconception")]

    server.kill()  # the connection is lost
    check("03.2", "E")
    assert "Not sent to your class yet (1 waiting)" in capsys.readouterr().out
    server.start()
    check("03.1", "0.5")
    assert "Sent to your class" in capsys.readouterr().out
    assert _stored(server, number) == [
        ("03.2", "A", "misconception"),
        ("03.2", "E", "correct"),
        ("03.1", "0.5", "wrong"),
    ]


def test_a_hubs_environment_variable_joins_at_the_first_check(server: Server) -> None:
    number, code = _session(server)
    script = "import bleu_teach; print('imported'); from bleu_teach.exercises import check; print(check('03.2', 'E'))"
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=120,
        env=os.environ
        | {
            "BLEU_TEACH_CLASS": f"{server.url}/class?code={code}",
            "BLEU_TEACH_NICKNAME": "hub-user-7",
            "PYTHONPATH": str(PROJECT),
        },
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "imported"  # nothing sent on import
    assert "Joined 'Notebook class' as hub-user-7" in lines[1] and "Sent to your class" in lines[2]
    assert _stored(server, number) == [("03.2", "E", "correct")]


def test_a_notebook_on_a_real_kernel_joins_and_its_check_reaches_the_session(server: Server) -> None:
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    number, code = _session(server)
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                f'import bleu_teach\nbleu_teach.join("{server.url}/class?code={code}", nickname="Kernel Kim")'
            ),
            nbformat.v4.new_code_cell('from bleu_teach.exercises import check\ncheck("03.2", "A")'),
        ]
    )
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(PROJECT)}}
    ).execute()
    printed = [
        "".join(output.get("text", ""))
        for cell in notebook.cells
        for output in cell.outputs
        if output.get("output_type") == "stream"
    ]
    assert any("Joined 'Notebook class' as Kernel Kim" in text for text in printed), printed
    assert any("Sent to your class (Notebook class)." in text for text in printed), printed
    assert _stored(server, number) == [("03.2", "A", "misconception")]
