"""Text render: the table (row, bonus spaces, supplies), then per player the London,
Railway and Necropolis boards and the train on its loop."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import STAFF, VOLUNTEER, Player
from meeplezoo.envs.necropolis_railway.scoring import score_lines

if TYPE_CHECKING:
    from meeplezoo.envs.necropolis_railway.state import NecropolisState

_DISC = "BGRO"  # blue green grey orange
_COFFIN = "KWRY"  # black white red yellow
_SIDE = {1: "A", 2: "B"}


def discs(counts: list[int]) -> str:
    return "".join(_DISC[c] * n for c, n in enumerate(counts)) or "-"


def coffins(counts: list[int]) -> str:
    return "".join(_COFFIN[c] * n for c, n in enumerate(counts)) or "-"


def counts(letters: str, values: list[int]) -> str:
    return " ".join(f"{ch}{n}" for ch, n in zip(letters, values))


def card_text(card: int) -> str:
    if card < 0:
        return "(none)"
    t = D.CARD_TRAINS[card]
    return (f"#{D.CARD_IDS[card]} L{t[0]} N{t[1]} R{t[2]} "
            f"{D.ABILITIES[D.CARD_ABILITY[card]].lower()}")


def track(p: Player) -> str:
    cells = []
    for i in range(D.TRACK_LENGTH):
        name = "Lon" if i == D.LONDON else "Nec" if i == D.NECROPOLIS else " . "
        cells.append(f"[{name}]" if i == p.pos else f" {name} ")
    return "".join(cells) + "  (one way ->)"


def player_text(st: NecropolisState, seat: int) -> list[str]:
    p = st.players[seat]
    lines = score_lines(p)
    out = [f"== Player {seat}: money {p.money}, prestige {p.prestige}, discs {discs(p.discs)}, "
           f"score {sum(lines)} ({', '.join(str(x) for x in lines)})"]
    slots = "  ".join(f"{D.SLOT_NAMES[s]}:{'-AB'[p.london[s]]}" for s in range(D.NUM_SLOTS))
    out.append(f"  London   {slots}")
    out.append(f"           staff {p.london_staff} volunteers {p.london_vol} | waiting coffins "
               f"{coffins(p.waiting)} mourners {p.waiting_mourners}")
    cars = " ".join(_SIDE[s] for s in p.cars[0]) or "-"
    mcars = " ".join(_SIDE[s] for s in p.cars[1]) or "-"
    tucked = ", ".join(D.ABILITIES[D.CARD_ABILITY[c]].lower() for c in p.tucked) or "-"
    perks = ", ".join(D.PERKS[i] for i in range(len(D.PERKS)) if p.perks[i]) or "-"
    out.append(f"  Railway  coffin cars {cars} | mourner cars {mcars} | tucked {tucked} | "
               f"perks {perks}")
    out.append(f"  Train    {track(p)} coffins {coffins(p.train)}/{p.coffin_capacity()} "
               f"mourners {p.train_mourners}/{p.mourner_capacity()}")
    out.append(f"  Necropolis mourners {p.necro_mourners}, overflow {coffins(p.overflow)}, "
               f"staff supply {p.staff_supply}")
    mort = "".join(f" {'-bsg'[m]:^5}" for m in p.mortuary)
    out.append(f"    mortuary{mort}")
    for r in reversed(range(D.ROWS)):
        row = ""
        for c in range(D.COLUMNS):
            k = p.plots[c * D.ROWS + r]
            plot = _COFFIN[D.PLOT_COLOUR[c][r]].lower()
            row += f" {plot}:{_COFFIN[k] if k >= 0 else '.'} "
        out.append(f"    row {r + 1}  {row}")
    workers = "".join(f" {'-SV'[w] if w in (0, STAFF, VOLUNTEER) else '?':^5}"
                      for w in p.col_worker)
    out.append(f"    worker {workers}")
    return out


def render(st: NecropolisState) -> str:
    lines = [f"London Necropolis Railway, {st.num_players} player(s): round "
             f"{min(st.round + 1, D.ROUNDS)}/{D.ROUNDS}, phase {G.PHASES[st.phase]}"]
    if st.agenda:
        lines.append(f"Pending: player {st.agenda[-1][1]} decides '{st.decision_name()}'; legal: "
                     + ", ".join(A.NAMES[a] for a in st._legal))
    if st.t_card >= 0:
        lines.append(f"Turn card: {card_text(st.t_card)}; movement so far {st.t_move}")
    for k in range(D.ROW_SIZE):
        lines.append(f"Row {k + 1}: {card_text(st.row[k])} discs {discs(st.row_discs[k])}")
    top = "".join(_DISC[c] for c in D.CARD_BACK[st.deck[-1]]) if st.deck else "-"
    lines.append(f"Deck {len(st.deck)} (top back {top}), discard {len(st.discard)}; "
                 f"bag {counts(_COFFIN, st.bag)}; disc supply {counts(_DISC, st.disc_supply)}")
    spaces = ", ".join(f"{b}{'*' if st.bonus_spaces[i] >= 0 else ''}"
                       for i, b in enumerate(D.BONUS_SPACES))
    lines.append(f"Bonus spaces (* taken): {spaces}; mortuaries b/s/g "
                 f"{'/'.join(str(x) for x in st.mortuary_supply)}; volunteers {st.vol_supply}")
    lines.append("Coffins: K black, W white, R red, Y yellow (plot colour:coffin); "
                 "discs: B blue, G green, R grey, O orange")
    for seat in range(st.num_players):
        lines.extend(player_text(st, seat))
    return "\n".join(lines)
