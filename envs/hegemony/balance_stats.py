"""Hegemony's columns in a class balance report (the ``balance_stats`` hook of
``envs.core.balance``): VP by source, the bills each class put forward and what became of
them, and where the policies ended.

Everything is read from states, before and after each decision, never from inside the
rules.  A bill (§3.1) is a marker on a policy in ``state.bills`` (owner * 3 + target
section).  When a marker leaves the board during one action, the bill was:

- **passed** if that action closed the election of its policy (a ``DECLARE`` / ``BID`` /
  ``RESOLVE`` item of that policy was on the agenda before it) and the policy now stands in
  the bill's section (§7.2 steps 4 and 6);
- **failed** if that election closed and the policy did not move;
- **discarded** otherwise: a stale bill (§12 #41) or the IMF's discard (§6.3), no vote.

A bill still on the board when the game ends is **pending** (§7 resolves every bill in its
round, so it stays 0 unless the game ends otherwise).  A marker that enters and leaves in one
action would be missed, but cannot happen: every election asks at least two real
declarations (§7.2 step 1: WC, MC and CC always take part).
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony import politics
from meeplezoo.envs.hegemony.actions import ROLE_NAMES
from meeplezoo.envs.hegemony.state import VP_SOURCES

CLASSES = ("WC", "MC", "CC", "ST")
ROLE_LABELS = dict(zip(ROLE_NAMES, CLASSES))
SCORE_LABEL = "mean VP"
POLICY_NAMES = ("p1 Fiscal", "p2 Labour", "p3 Taxation", "p4 Health", "p5 Education",
                "p6 Foreign Trade", "p7 Immigration")  # §10
OUTCOMES = ("passed", "failed", "discarded", "pending")
BILL_FIELDS = ("class", "policy", "section", "outcome", "round")  # a bill's record, as a list
_VOTE_CODES = (politics.DECLARE, politics.DRAW, politics.BID, politics.RESOLVE)


def watch(st: Any) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """(bills, policies, the policy whose election is open or -1, round)."""
    voting = next((item[2] for item in reversed(st.agenda) if item[0] in _VOTE_CODES), -1)
    return tuple(st.bills), tuple(st.policies), voting, st.round


def changes(before: tuple, after: tuple) -> list[list[Any]]:
    """The bills whose markers left the board between two snapshots, and how
    (``BILL_FIELDS``: class, policy and section indices, outcome, round)."""
    bills, _, voting, round_ = before
    events = []
    for policy, bill in enumerate(bills):
        if bill < 0 or after[0][policy] == bill:
            continue
        owner, section = divmod(bill, 3)
        if policy != voting:
            outcome = "discarded"
        else:
            outcome = "passed" if after[1][policy] == section else "failed"
        events.append([owner, policy, section, outcome, round_])
    return events


def game_record(st: Any, events: list[list[Any]]) -> dict[str, Any]:
    """VP by source per class, every bill with its outcome (``BILL_FIELDS``), the policies
    at the end."""
    pending = [[bill // 3, p, bill % 3, "pending", st.round]
               for p, bill in enumerate(st.bills) if bill >= 0]
    return {"sources": [[int(v) for v in row] for row in st.vp_sources],
            "bills": [*events, *pending], "policies": [int(s) for s in st.policies]}


def seat_summary(records: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    """The class's mean VP by source (``VP_SOURCES``) as its breakdown."""
    n = max(len(records), 1)
    totals = [sum(r["sources"][seat][k] for r in records) for k in range(len(VP_SOURCES))]
    return {"breakdown": {name: t / n for name, t in zip(VP_SOURCES, totals)}}


def lineup_summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts over the games: per class and policy, the bills by outcome and the sections
    passed bills moved the policy to; per policy, the games it ended in each section."""
    bills = {cls: {name: {**dict.fromkeys(OUTCOMES, 0), "to": dict.fromkeys(D.SECTIONS, 0)}
                   for name in POLICY_NAMES} for cls in CLASSES}
    final = {name: dict.fromkeys(D.SECTIONS, 0) for name in POLICY_NAMES}
    for r in records:
        for cls, policy, section, outcome, _ in r["bills"]:
            cell = bills[CLASSES[cls]][POLICY_NAMES[policy]]
            cell[outcome] += 1
            if outcome == "passed":
                cell["to"][D.SECTIONS[section]] += 1
        for policy, section in enumerate(r["policies"]):
            final[POLICY_NAMES[policy]][D.SECTIONS[section]] += 1
    return {"games": len(records), "bills": bills, "final_policies": final}


def _put_forward(cell: dict[str, Any]) -> int:
    return sum(cell[o] for o in OUTCOMES)


def markdown(summary: dict[str, Any]) -> list[str]:
    """Three tables: bills passed / put forward per class and policy; the sections the
    passed bills moved each policy to; the policies' sections at the end.  The bills
    tables put the class's total (``all``) first, so a terminal cut to its width keeps it
    (``training.evaluation.markdown_fit``)."""
    n = max(summary["games"], 1)
    bills, final = summary["bills"], summary["final_policies"]
    head = "| class | all | " + " | ".join(POLICY_NAMES) + " |"
    rule = "|" + "---|" * (len(POLICY_NAMES) + 2)
    lines = ["#### Bills per game: passed / put forward (by the class that proposed them)", "",
             head, rule]
    for cls in CLASSES:
        row = bills[cls]
        cells = [f"{row[p]['passed'] / n:.2f} / {_put_forward(row[p]) / n:.2f}"
                 for p in POLICY_NAMES]
        passed = sum(row[p]["passed"] for p in POLICY_NAMES)
        total = sum(_put_forward(row[p]) for p in POLICY_NAMES)
        lines.append(f"| {cls} | {passed / n:.2f} / {total / n:.2f} | " + " | ".join(cells)
                     + " |")
    lines += ["", "#### Where the class's passed bills moved each policy (per game, by section)",
              "", head, rule]
    for cls in CLASSES:
        cells = []
        for p in POLICY_NAMES:
            to = bills[cls][p]["to"]
            cells.append(" · ".join(f"{s} {v / n:.2f}" for s, v in to.items() if v) or "-")
        total = {s: sum(bills[cls][p]["to"][s] for p in POLICY_NAMES) for s in D.SECTIONS}
        cells.insert(0, " · ".join(f"{s} {v / n:.2f}" for s, v in total.items() if v) or "-")
        lines.append(f"| {cls} | " + " | ".join(cells) + " |")
    lines += ["", "#### Policy sections at game end (share of games)", "",
              "| policy | " + " | ".join(D.SECTIONS) + " |", "|" + "---|" * 4]
    for p in POLICY_NAMES:
        lines.append(f"| {p} | " + " | ".join(f"{final[p][s] / n:.0%}" for s in D.SECTIONS)
                     + " |")
    return [*lines, ""]


def charts(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Stacked bars: passed bills per game by target section, per class; the policies'
    sections at the end, per policy."""
    n = max(summary["games"], 1)
    bills, final = summary["bills"], summary["final_policies"]
    moved = {s: [sum(bills[c][p]["to"][s] for p in POLICY_NAMES) / n for c in CLASSES]
             for s in D.SECTIONS}
    ended = {s: [final[p][s] / n for p in POLICY_NAMES] for s in D.SECTIONS}
    return [
        {"name": "bills_passed", "title": "Passed bills per game, by the section they moved to",
         "ylabel": "bills per game", "categories": list(CLASSES), "series": moved},
        {"name": "final_policies", "title": "Policy sections at game end",
         "ylabel": "share of games", "categories": list(POLICY_NAMES), "series": ended},
    ]
