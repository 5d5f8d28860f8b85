"""Text render: the city as its diamond (warehouses and markers in each
district), the port, the action cards, the market and every player.

Resource counts are written as letters: b = base, r/u/y/g = advanced red,
blue (u), yellow, green; ``0:b2r1`` = player 0 holds 2 base and 1 red.
``*`` marks a terminal icon, ``d2`` the distance from the port.
"""

from __future__ import annotations

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery.actions import ACTION_CARDS, DECISIONS, MARKET_SIZE
from meeplezoo.envs.asian_delivery.board import AREA_NAMES, CELLS, NUM_DISTRICTS, PORT, PORT_CELLS
from meeplezoo.envs.asian_delivery.data import (
    COLOURS,
    COMPANIES,
    DAILIES_PER_PLAYER,
    DISTRICTS,
    REQUESTS,
)
from meeplezoo.envs.asian_delivery.state import NK, AsianDeliveryState

KIND_LETTERS = "bruyg"
CELL = 30
HALF = 16


def _stock(s: AsianDeliveryState, p: int, area: int) -> str:
    start = L.seat(p) + L.S_WH + area * NK
    return "".join(f"{KIND_LETTERS[k]}{s.v[start + k]}" for k in range(NK) if s.v[start + k])


def _wrap(parts: list[str], width: int) -> list[str]:
    lines, line = [], ""
    for part in parts:
        if line and len(line) + 1 + len(part) > width:
            lines.append(line)
            line = part
        else:
            line = f"{line} {part}" if line else part
    if line:
        lines.append(line)
    return lines


def _cell(s: AsianDeliveryState, area: int) -> list[str]:
    v = s.v
    if area == PORT:
        lines = [f"[PORT] pos {v[L.I_PORT_POS] + 1} (no cap)"]
    else:
        d = DISTRICTS[v[L.I_DISTRICT_AT + area]]
        short = d.name.split(" ")[1] if " " in d.name else d.key
        mark = "*" if d.terminal else ""
        lines = [f"{AREA_NAMES[area]} {short} {COLOURS[d.colour]}{mark} d{s.dist[area]}"]
        if s.coins:
            lines[0] += f" c{v[L.G_POS_COINS + area]}"
    stocks = [f"{p}:{_stock(s, p, area)}" for p in range(s.n) if _stock(s, p, area)]
    lines += _wrap(stocks, CELL)
    if area != PORT:
        marks = [
            f"{p}x{v[L.seat(p) + L.S_MARKERS + area]}"
            for p in range(s.n)
            if v[L.seat(p) + L.S_MARKERS + area]
        ]
        if marks:
            lines += _wrap(["m", *marks], CELL)
    return [line[:CELL] for line in lines]


def render_city(s: AsianDeliveryState) -> list[str]:
    cells = {CELLS[a]: a for a in range(NUM_DISTRICTS)}
    cells[PORT_CELLS[s.v[L.I_PORT_POS]]] = PORT
    left = min(x for _, x in cells)
    out = []
    for row in range(5):
        placed = [(x, area) for (r, x), area in cells.items() if r == row]
        blocks = {x: _cell(s, area) for x, area in placed}
        height = max(len(b) for b in blocks.values())
        for i in range(height):
            line = ""
            for x in sorted(blocks):
                col = (x - left) * HALF
                text = blocks[x][i] if i < len(blocks[x]) else ""
                line = line.ljust(col) + text
            out.append(line.rstrip())
        out.append("")
    return out


def render_text(s: AsianDeliveryState) -> str:
    v = s.v
    out = []
    status = "game over" if s.is_terminal() else (
        f"player {v[L.I_CUR]} to decide '{DECISIONS[v[L.I_DECISION]]}'"
    )
    out.append(
        f"Asian Delivery - round {v[L.I_ROUND] + 1}/6, start player {v[L.I_START]}, {status}"
    )
    if v[L.G_ACTIONS_LEFT]:
        out.append(
            f"  resolving {ACTION_CARDS[v[L.I_CARD]]}: {v[L.G_ACTIONS_LEFT]} action(s) left"
        )
    out.append("")
    out += render_city(s)
    cards = []
    for c, name in enumerate(ACTION_CARDS):
        slots = "".join(
            f"[P{v[L.I_SLOT_OWNER + c * 3 + k]}]" if v[L.I_SLOT_OWNER + c * 3 + k] >= 0 else "[  ]"
            for k in range(3)
        )
        cards.append(f"{name} {slots}")
    out.append("Action cards: " + "  ".join(cards))
    out.append(f"Market (deck {len(s.deck)}, discard {len(s.discard)}):")
    for k in range(MARKET_SIZE):
        cid = v[L.I_MARKET + k]
        if cid < 0:
            out.append(f"  {k}: (empty)")
            continue
        r = REQUESTS[cid]
        adv = f" + {r.advanced} {COLOURS[r.colour]}" if r.advanced else ""
        out.append(f"  {k}: {r.name} [{COLOURS[r.colour]}] {r.base} base{adv} -> {r.vp} VP")
    out.append("Players:")
    for p in range(s.n):
        base = L.seat(p)
        company = v[L.I_COMPANY_OF + p]
        cname = COMPANIES[company].key if company >= 0 else "-"
        tracks = "/".join(str(v[base + L.S_TRACK + t]) for t in range(4))
        done = ",".join(str(v[base + L.S_COMPLETED + c]) for c in range(4))
        dailies = " ".join(
            f"{s.daily_cards[v[L.I_DAILY_ID + p * DAILIES_PER_PLAYER + k]].base}b"
            f"{'' if v[base + L.S_DAILY_UP + k] else '(down)'}"
            for k in range(DAILIES_PER_PLAYER)
        )
        flags = ("start " if v[L.I_START] == p else "") + ("passed" if v[base + L.S_PASSED] else "")
        out.append(
            f"  P{p} {cname:13} VP {v[base + L.S_VP]:3}  workers {v[base + L.S_WORKERS]}  "
            f"reserve {v[base + L.S_RESERVE]}  port {_stock(s, p, PORT) or '-'}  "
            f"tracks(wh/tr/st/wk) {tracks}  completed(r,b,y,g) {done}  "
            f"dailies {dailies}  markers left {v[base + L.S_MARKERS_ON_BOARD]} {flags}".rstrip()
        )
    return "\n".join(out)
