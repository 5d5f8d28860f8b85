"""A text view of the table: public information for everyone, and one viewer's hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.hegemony import board
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import MC, NUM_SEATS, SEAT_NAMES, WC, WORKER_KINDS
from meeplezoo.envs.hegemony.state import NO_WORKER

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState


def _worker(w: int, committed: int) -> str:
    if w == NO_WORKER:
        return "--"
    text = f"{'WC' if w < 6 else 'MC'}:{WORKER_KINDS[w % 6]}"
    return text + ("*" if committed else "")


def render(st: HegemonyState, viewer: int | None = None) -> str:
    """The public table; with ``viewer`` set, that class's hand too."""
    pol = " ".join(f"p{p + 1}{D.SECTIONS[s]}" for p, s in enumerate(st.policies))
    bills = ", ".join(f"p{p + 1}->{D.SECTIONS[b % 3]} by {D.CLASSES[b // 3]}"
                      for p, b in enumerate(st.bills) if b >= 0) or "none"
    lines = [
        f"Hegemony — round {st.round}, turn pass {st.turn_pass + 1}/5, "
        f"decision: {st.decision_name()}",
        f"policies: {pol}   tax multiplier {D.tax_multiplier(*st.policies[2:5])}",
        f"bills: {bills}",
    ]
    for cls, name in enumerate(D.CLASSES):
        money = f"{st.money[cls]}" + (f" (+{st.capital} capital)" if cls == 2 else "")
        lines.append(f"{name}: {st.vp[cls]} VP, ₳{money}, loans {st.loans[cls]}, "
                     f"influence {st.influence[cls]}, hand {len(st.hands[cls])}")
    for cls, name in ((WC, "WC"), (MC, "MC")):
        unemployed = ", ".join(f"{WORKER_KINDS[k]}×{n}" for k, n in
                               enumerate(st.unemployed[cls]) if n) or "none"
        lines.append(f"  {name}: population {board.population(st, cls)}, prosperity "
                     f"{st.prosperity[cls]}, unemployed {unemployed}, goods {st.goods[cls]}")
    lines.append(f"  MC storage {st.mc_storage}; CC storage {st.cc_storage}, FTZ {st.ftz}, "
                 f"wealth {st.wealth}")
    lines.append(f"  State: legitimacy WC/MC/CC {st.legitimacy}, public services "
                 f"{st.public_services}, goods {st.state_goods}")
    lines.append(f"bag WC/MC/CC {st.bag}; unions "
                 f"{[D.INDUSTRIES[i] for i in range(5) if st.unions[i]]}; "
                 f"demonstration {'yes' if st.demonstration else 'no'}")
    lines.append("companies (* committed, [S] strike, [M] machinery):")
    for seat in range(NUM_SEATS):
        company = board.card(st, seat)
        if company is None or not st.seat_face_up[seat]:
            continue
        level = st.seat_wage[seat]
        wage = f" L{level + 1}" if level >= 0 else ""
        workers = " ".join(_worker(st.seat_workers[seat][k], st.seat_committed[seat][k])
                           for k in range(len(company.slots)))
        flags = ("[S]" if st.seat_strike[seat] else "") + ("[M]" if st.seat_machinery[seat] else "")
        lines.append(f"  {SEAT_NAMES[seat]:>13} {company.name}{wage} {flags} {workers}".rstrip())
    lines.append("CC market: " + ", ".join(D.COMPANIES[c].name for c in st.cc_market))
    lines.append("MC market: " + ", ".join(D.COMPANIES[c].name for c in st.mc_market))
    lines.append("events: " + ", ".join(C.EVENTS[e].title for e in st.events))
    if viewer is not None:
        designs = C.ACTION_CARDS[D.CLASSES[viewer]]
        lines.append(f"{D.CLASSES[viewer]} hand: "
                     + ", ".join(designs[d].title for d in st.hands[viewer]))
    return "\n".join(lines)
