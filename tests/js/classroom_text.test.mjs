// bleu_teach/classroom/static/text.js: what the classroom's pages say and draw, from the server's data alone
// (the dashboard's bars, summary, exercise lines and roster marks; a homework's tries and verdicts; a phone's
// closed poll). Every expected value is worked out by hand from the inputs.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  barWidth, closedText, exerciseLine, lateText, rosterEntryText, rosterMark, rosterSummaryText, summaryText, triesText,
  verdictText,
} from "../../bleu_teach/classroom/static/text.js";

describe("barWidth", () => {
  test("count's share of total, in per cent", () => {
    assert.equal(barWidth(3, 4), "75%");
    assert.equal(barWidth(2, 8), "25%");
    assert.equal(barWidth(2, 2), "100%");
    assert.equal(barWidth(0, 5), "0%");
  });

  test("no total (nobody answered, nobody voted): an empty bar, not NaN", () => {
    assert.equal(barWidth(0, 0), "0%");
  });
});

describe("summaryText", () => {
  const exercises = (...answered) => answered.map((n) => ({ answered: n }));

  test("the answers of every exercise added up", () => {
    assert.equal(summaryText({ students: 3, exercises: exercises(2, 3), open: true }),
                 "3 joined; 5 answers counted (each student's last answer to each exercise).");
  });

  test("one answer is singular; a closed session says so", () => {
    assert.equal(summaryText({ students: 1, exercises: exercises(1), open: false }),
                 "1 joined; 1 answer counted (each student's last answer to each exercise); the session is closed.");
  });

  test("no exercise yet: no answers", () => {
    assert.equal(summaryText({ students: 0, exercises: [], open: true }),
                 "0 joined; 0 answers counted (each student's last answer to each exercise).");
  });
});

describe("exerciseLine", () => {
  test("how many answered; late ones only when there are", () => {
    assert.equal(exerciseLine({ answered: 4, late: 0 }, undefined), "4 answered");
    assert.equal(exerciseLine({ answered: 4, late: 1 }, undefined), "4 answered, 1 late");
  });

  test("a homework's tries sent, of those allowed, even when none were sent", () => {
    assert.equal(exerciseLine({ answered: 4, late: 1, tries: 9 }, 3),
                 "4 answered, 1 late (9 tries sent in all; 3 allowed per student)");
    assert.equal(exerciseLine({ answered: 0, late: 0, tries: 0 }, 3),
                 "0 answered (0 tries sent in all; 3 allowed per student)");
  });
});

describe("rosterMark", () => {
  test("the server's letters (counts.py LETTER) in words; a dash for no answer", () => {
    assert.deepEqual(["r", "m", "w", "-"].map(rosterMark), ["right", "mistake", "wrong", "–"]);
  });

  test("a letter past the end of a short row is no answer either", () => {
    assert.equal(rosterMark("rw"[2]), "–");
  });
});

describe("triesText", () => {
  test("nothing said when the server does not say", () => {
    assert.equal(triesText(undefined), "");
  });

  test("one try, two tries, none", () => {
    assert.equal(triesText(1), " 1 try left (an answer in the wrong form uses none).");
    assert.equal(triesText(2), " 2 tries left (an answer in the wrong form uses none).");
    assert.equal(triesText(0), " No tries left: your last answer stands.");
  });
});

describe("lateText", () => {
  test("each late policy in the student's words", () => {
    assert.equal(lateText("accept", true), "An answer after your due time still counts, marked late.");
    assert.equal(lateText("refuse", true), "After your due time, no answer is taken.");
    assert.equal(lateText("penalty:20", true), "A right answer after your due time earns 80% of its point.");
    assert.equal(lateText("penalty:100", true), "A right answer after your due time earns 0% of its point.");
  });

  test("closed for this student: that, whatever the policy; an older server's page: as accept", () => {
    assert.equal(lateText("refuse", false), "This homework is closed: no answer is taken now.");
    assert.equal(lateText(undefined, true), "An answer after your due time still counts, marked late.");
  });
});

describe("verdictText", () => {
  test("right, and right but late", () => {
    assert.equal(verdictText({ verdict: "correct" }), "Right.");
    assert.equal(verdictText({ verdict: "correct", late: true }), "Right. (after the due time: marked late)");
  });

  test("a named mistake is named", () => {
    assert.equal(verdictText({ verdict: "misconception", mistake: "clipping forgotten" }),
                 "Not yet: this looks like clipping forgotten.");
  });

  test("an answer in the wrong form says so", () => {
    assert.equal(verdictText({ verdict: "wrong", mistake: "not an answer" }),
                 "Not yet: that is not an answer in the form asked.");
  });

  test("any other wrong answer: not yet (late said too)", () => {
    assert.equal(verdictText({ verdict: "wrong", mistake: null }), "Not yet.");
    assert.equal(verdictText({ verdict: "wrong", late: true }), "Not yet. (after the due time: marked late)");
  });
});

describe("closedText", () => {
  test("a student who voted is told the vote counted", () => {
    assert.equal(closedText("Your vote: B. You can change it until the question closes."),
                 "The question is closed. Your vote: B is counted.");
  });

  test("anyone else is told it closed", () => {
    assert.equal(closedText(""), "The question is closed.");
    assert.equal(closedText("Choose one of the options first."), "The question is closed.");
  });
});

describe("rosterEntryText and rosterSummaryText", () => {
  test("a name joined, one whose student the teacher removed, one no one has joined as", () => {
    assert.equal(rosterEntryText({ name: "Zoë Ng", joined: true, removed: false }), "Zoë Ng: joined");
    assert.equal(rosterEntryText({ name: "Li Lei", joined: false, removed: true }), "Li Lei: removed");
    assert.equal(rosterEntryText({ name: "Ada", joined: false, removed: false }), "Ada: not yet");
    assert.equal(rosterEntryText({ name: "Bo", joined: false }), "Bo: not yet");  // a server before removed was sent
  });

  test("the count of those joined, and of those removed when there are any", () => {
    const roster = [
      { name: "Zoë Ng", joined: true, removed: false },
      { name: "Li Lei", joined: false, removed: true },
      { name: "Ada", joined: false, removed: false },
    ];
    assert.equal(rosterSummaryText(roster),
                 "1 of 3 on the roster have joined; 1 removed (no one has joined as that name since).");
    assert.equal(rosterSummaryText(roster.slice(0, 1)), "1 of 1 on the roster have joined.");
    assert.equal(rosterSummaryText([roster[1], { ...roster[1], name: "Bo" }]),
                 "0 of 2 on the roster have joined; 2 removed (no one has joined as those names since).");
  });
});
