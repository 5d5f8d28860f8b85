"""アジアンデリバリー for people: the city with every warehouse, the market's requests with
their costs and points, each decision as a prompt and each action as a sentence, and a log
that says where points came from.

Only the order of the request deck is hidden, so the views show everything else.
"""

from __future__ import annotations

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery.actions import (
    A_AT,
    A_COMPANY,
    A_DAILY,
    A_DONE,
    A_FROM,
    A_GROW,
    A_KEEP,
    A_KIND,
    A_MARKER,
    A_MARKET,
    A_PASS,
    A_PLACE_WORKER,
    A_PUT,
    A_PUT_REST,
    A_SKIP,
    A_TO,
    A_UPGRADE,
    ACTION_CARDS,
)
from meeplezoo.envs.asian_delivery.board import AREA_NAMES, CELLS, NUM_AREAS, PORT, PORT_CELLS
from meeplezoo.envs.asian_delivery.data import (
    COLOUR_THEMES,
    COLOURS,
    COMPANIES,
    DAILIES_PER_PLAYER,
    DISTRICTS,
    KINDS,
    MARKET_SIZE,
    REQUESTS,
    ROUNDS,
    SLOT_ACTIONS,
    SLOT_GAIN,
    SLOTS,
    TRACKS,
)
from meeplezoo.envs.asian_delivery.state import NK, AsianDeliveryState
from meeplezoo.envs.core.present import LogLine, Piece, Presenter, Section

KIND_LETTERS = "bruyg"  # base, red, blue (u), yellow, green: as the text render writes them
PROMPTS = {
    "choose_company": "Choose your company: its growth tracks shape your game",
    "main": "Place a worker on an action card (the leftmost free slot)",
    "choose_request": "Fulfil: choose a request to deliver, or skip",
    "transport_from": "Transport: choose the area your goods leave from, or skip",
    "upgrade": "Upgrade: turn 1 base in your port warehouse into 1 advanced resource",
    "grow_track": "Company growth: take an interest marker off a track (that track grows)",
    "grow_marker": "Put the interest marker on a district connected to the port",
}
RULES = [
    "6 rounds. On your turn put a worker on Fulfil, Transport or Upgrade: slot 1 gives "
    "1 action + 2 base, slot 2 gives 2 actions + 1 base, slot 3 gives 3 actions.",
    "Gained base goes into your warehouses first: any number at the port, 1 into a district "
    "where you already hold goods (2 with a terminal *).",
    "Fulfil a request in a district of its colour (a daily anywhere): its VP + 1 per step "
    "from the port + 1 per own interest marker there.",
    "Round end: companies grow (a track rises, an interest marker goes on the city). "
    "Majorities of completed colours score after rounds 3 and 6; district markers at the end.",
]


def goods(counts: list[int]) -> str:
    """``2 base, 1 red`` (or ``nothing``)."""
    return ", ".join(f"{n} {KINDS[k]}" for k, n in enumerate(counts) if n) or "nothing"


def request_text(colour: int, base: int, advanced: int, vp: int) -> str:
    cost = f"{base} base" + (f" + {advanced} {COLOURS[colour]}" if advanced else "")
    return f"{cost} → {vp} VP"


class AsianDeliveryPresenter(Presenter):
    rules = RULES

    def seat_name(self, game, seat: int) -> str:
        return f"Player {seat}"

    def status(self, s: AsianDeliveryState) -> str:
        if s.is_terminal():
            return "The game is over."
        v = s.v
        return (f"Round {v[L.I_ROUND] + 1}/{ROUNDS} · start player {v[L.I_START]} · "
                f"deck {len(s.deck)} · Player {v[L.I_CUR]} to move")

    # -- reading the state -------------------------------------------------------------
    @staticmethod
    def stock(s: AsianDeliveryState, p: int, area: int) -> list[int]:
        start = L.seat(p) + L.S_WH + area * NK
        return list(s.v[start:start + NK])

    @staticmethod
    def area_name(s: AsianDeliveryState, area: int) -> str:
        if area == PORT:
            return "Hotan Port"
        d = DISTRICTS[s.v[L.I_DISTRICT_AT + area]]
        terminal = ", terminal" if d.terminal else ""
        return (f"{AREA_NAMES[area]} {d.name.split(' (')[0]} ({COLOURS[d.colour]}{terminal}, "
                f"{s.dist[area]} step(s))")

    @staticmethod
    def company_text(c: int) -> str:
        company = COMPANIES[c]
        tracks = "; ".join(f"{t} {'-'.join(map(str, company.tracks[i]))}"
                           for i, t in enumerate(TRACKS))
        return f"{company.name} ({company.lean}): {tracks}"

    def request(self, s: AsianDeliveryState, p: int, k: int) -> str:
        colour, base, adv, vp = s.request_of(p, k)
        if k < MARKET_SIZE:
            card = REQUESTS[s.v[L.I_MARKET + k]]
            return f"{card.name} [{COLOURS[colour]}]: {request_text(colour, base, adv, vp)}"
        return f"daily {k - MARKET_SIZE + 1}: {request_text(colour, base, adv, vp)}, any area"

    # -- prompts ------------------------------------------------------------------
    def prompt(self, s: AsianDeliveryState) -> str:
        v = s.v
        kind = s.decision_name()
        p = v[L.I_CUR]
        if kind == "place_base":
            due = v[L.I_GAIN_TO_PLACE]
            return (f"Put base from your reserve ({v[L.seat(p) + L.S_RESERVE]} left"
                    + (f", {due} gained that must be placed" if due else "")
                    + "): any number at the port, 1 into a district where you hold goods "
                      "(2 with a terminal)")
        if kind == "fulfil_area":
            return f"Deliver {self.request(s, p, v[L.I_REQUEST])}: pay in which area?"
        if kind == "transport_to":
            return f"Transport from {self.area_name(s, v[L.I_FROM])}: choose the next-door area"
        if kind == "transport_kind":
            level = v[L.seat(p) + L.S_TRACK + 1]
            return (f"Move which resource from {AREA_NAMES[v[L.I_FROM]]} to "
                    f"{AREA_NAMES[v[L.I_TO]]}? ({v[L.G_MOVED]} of up to {level} moved)")
        if kind == "main" and v[L.G_ACTIONS_LEFT]:
            return PROMPTS[kind]
        text = PROMPTS.get(kind, super().prompt(s))
        if v[L.G_ACTIONS_LEFT] and kind in ("choose_request", "transport_from", "upgrade"):
            text += f" ({v[L.G_ACTIONS_LEFT]} action(s) left)"
        return text

    # -- actions ------------------------------------------------------------------
    def label(self, s: AsianDeliveryState, action: int) -> str:
        v = s.v
        p = v[L.I_CUR]
        if A_COMPANY <= action < A_PASS:
            return "Choose " + self.company_text(action - A_COMPANY)
        if A_PLACE_WORKER <= action < A_PUT:
            card = action - A_PLACE_WORKER
            slot = v[L.G_OCCUPANCY + card]
            gain = f" + {SLOT_GAIN[slot]} base" if SLOT_GAIN[slot] else ""
            return (f"Worker on {ACTION_CARDS[card].capitalize()} (slot {slot + 1}: "
                    f"{SLOT_ACTIONS[slot]} action(s){gain})")
        if A_PUT <= action < A_PUT_REST:
            return f"Put 1 base in {self.area_name(s, action - A_PUT)}"
        if action == A_PUT_REST:
            return f"Put all {v[L.seat(p) + L.S_RESERVE]} reserve base at the port"
        if action == A_KEEP:
            return "Keep the rest in your reserve"
        if A_MARKET <= action < A_AT:
            return "Fulfil " + self.request(s, p, action - A_MARKET)
        if A_AT <= action < A_FROM:
            area = action - A_AT
            markers = v[L.seat(p) + L.S_MARKERS + area] if area != PORT else 0
            bonus = "a coin (3 VP) if any is left" if s.coins else f"+{s.dist[area]} steps"
            return (f"Pay in {self.area_name(s, area)}: {bonus}"
                    + (f", +{markers} for your markers" if markers else ""))
        if A_FROM <= action < A_TO:
            area = action - A_FROM
            return f"Move goods out of {AREA_NAMES[area]} ({goods(self.stock(s, p, area))})"
        if A_TO <= action < A_KIND:
            return f"Move them to {self.area_name(s, action - A_TO)}"
        if A_KIND <= action < A_DONE:
            return f"Move 1 {KINDS[action - A_KIND]}"
        if action == A_DONE:
            return "Stop moving"
        if A_UPGRADE <= action < A_SKIP:
            colour = action - A_UPGRADE
            return f"Upgrade 1 base to 1 {COLOURS[colour]} ({COLOUR_THEMES[colour]})"
        if action == A_SKIP:
            return "Skip the rest of this card's actions"
        if A_GROW <= action < A_MARKER:
            t = action - A_GROW
            base = L.seat(p)
            return (f"Grow {TRACKS[t]}: {v[base + L.S_TRACK + t]} → "
                    f"{v[base + L.S_TRACK_NEXT + t]}")
        if action >= A_MARKER:
            return f"Interest marker on {self.area_name(s, action - A_MARKER)}"
        return super().label(s, action)

    def group(self, s: AsianDeliveryState, action: int) -> str:
        return s.decision_name().replace("_", " ").capitalize()

    def target(self, s: AsianDeliveryState, action: int) -> str | None:
        p = s.v[L.I_CUR]
        for start, end in ((A_PUT, A_PUT_REST), (A_AT, A_FROM), (A_FROM, A_TO), (A_TO, A_KIND),
                           (A_MARKER, A_MARKER + PORT)):
            if start <= action < end:
                return f"area:{action - start}"
        if A_PLACE_WORKER <= action < A_PUT:
            return f"card:{action - A_PLACE_WORKER}"
        if A_MARKET <= action < A_DAILY:
            return f"market:{action - A_MARKET}"
        if A_DAILY <= action < A_AT:
            return f"daily:{p}:{action - A_DAILY}"
        if A_COMPANY <= action < A_PASS:
            return f"company:{action - A_COMPANY}"
        return None

    # -- the table ------------------------------------------------------------------
    def sections(self, s: AsianDeliveryState, viewers: frozenset[int]) -> list[Section]:
        v = s.v
        out = [self.city(s)]
        out.append(Section("cards", "Action cards", [
            Piece(f"card:{c}", name.capitalize(),
                  [" ".join(f"[P{v[L.I_SLOT_OWNER + c * SLOTS + k]}]"
                            if v[L.I_SLOT_OWNER + c * SLOTS + k] >= 0 else "[  ]"
                            for k in range(SLOTS))],
                  "Slots from the left: 1 action + 2 base, 2 actions + 1 base, 3 actions. "
                  "A full card sends its workers to the stock.")
            for c, name in enumerate(ACTION_CARDS)]))
        market = []
        for k in range(MARKET_SIZE):
            cid = v[L.I_MARKET + k]
            if cid < 0:
                market.append(Piece(f"market:{k}", "(empty)", tags=["empty"]))
                continue
            card = REQUESTS[cid]
            market.append(Piece(f"market:{k}", card.name,
                                [request_text(card.colour, card.base, card.advanced, card.vp)],
                                f"Deliver in a {COLOURS[card.colour]} district "
                                f"({COLOUR_THEMES[card.colour]}).", [COLOURS[card.colour]],
                                [COLOURS[card.colour]]))
        out.append(Section("market", "Requests", market, terminal=False,
                           note=f"deck {len(s.deck)}"))
        if v[L.I_DECISION] == 0:  # choose_company
            taken = {v[L.I_COMPANY_OF + p] for p in range(s.n)}
            out.append(Section("companies", "Companies", [
                Piece(f"company:{c}", company.name, [company.lean],
                      self.company_text(c), tags=["taken"] if c in taken else [])
                for c, company in enumerate(COMPANIES)]))
        out.append(Section("players", "Players", [self.player(s, p) for p in range(s.n)]))
        dailies = [Piece(f"daily:{p}:{k}", f"P{p} daily {k + 1}",
                         [self.request(s, p, MARKET_SIZE + k).split(": ", 1)[1]],
                         tags=[] if v[L.seat(p) + L.S_DAILY_UP + k] else ["taken"])
                   for p in range(s.n) for k in range(DAILIES_PER_PLAYER)
                   if v[L.seat(p) + L.S_DAILY_PRESENT + k]]
        out.append(Section("dailies", "Daily cards (face down until the round end once used)",
                           dailies))
        return out

    def city(self, s: AsianDeliveryState) -> Section:
        v = s.v
        pieces = []
        for area in range(NUM_AREAS):
            row, x = PORT_CELLS[v[L.I_PORT_POS]] if area == PORT else CELLS[area]
            stocks = [f"P{p}: " + "".join(f"{KIND_LETTERS[k]}{n}"
                                          for k, n in enumerate(self.stock(s, p, area)) if n)
                      for p in range(s.n) if any(self.stock(s, p, area))]
            if area == PORT:
                piece = Piece(f"area:{area}", "Hotan Port", ["no capacity limit", *stocks],
                              "Goods start here; every step away from it adds 1 VP to a "
                              "delivery.", tags=["port"])
            else:
                d = DISTRICTS[v[L.I_DISTRICT_AT + area]]
                markers = [f"P{p}×{v[L.seat(p) + L.S_MARKERS + area]}" for p in range(s.n)
                           if v[L.seat(p) + L.S_MARKERS + area]]
                head = (f"{COLOURS[d.colour]}{' · terminal' if d.terminal else ''} · "
                        f"{s.dist[area]} step(s)"
                        + (f" · coins {v[L.G_POS_COINS + area]}" if s.coins else ""))
                piece = Piece(f"area:{area}", f"{AREA_NAMES[area]} {d.name.split(' (')[0]}",
                              [head, *stocks] + (["markers " + " ".join(markers)]
                                                 if markers else []),
                              f"{d.name}: {COLOUR_THEMES[d.colour]} district. {d.note}",
                              tags=[COLOURS[d.colour]])
            piece.x, piece.y, piece.w = x + 4, row, 2
            pieces.append(piece)
        return Section("city", "The city of Hotan (b base, r red, u blue, y yellow, g green)",
                       pieces, "grid")

    def player(self, s: AsianDeliveryState, p: int) -> Piece:
        v = s.v
        base = L.seat(p)
        company = v[L.I_COMPANY_OF + p]
        tracks = ", ".join(f"{t} {v[base + L.S_TRACK + i]}" for i, t in enumerate(TRACKS))
        done = ", ".join(f"{COLOURS[c]} {v[base + L.S_COMPLETED + c]}" for c in range(4))
        flags = (" · start" if v[L.I_START] == p else "") + (
            " · passed" if v[base + L.S_PASSED] else "")
        return Piece(f"player:{p}", f"Player {p}{flags}",
                     [COMPANIES[company].name if company >= 0 else "no company yet",
                      f"{v[base + L.S_VP]} VP banked · {v[base + L.S_WORKERS]} worker(s) · "
                      f"reserve {v[base + L.S_RESERVE]} base",
                      tracks, f"completed: {done}",
                      f"{v[base + L.S_MARKERS_ON_BOARD]} interest markers on the company"],
                     self.company_text(company) if company >= 0 else "")

    def summary(self, s: AsianDeliveryState, seat: int) -> list[str]:
        v = s.v
        company = v[L.I_COMPANY_OF + seat]
        return [COMPANIES[company].name if company >= 0 else "no company yet",
                f"{v[L.seat(seat) + L.S_WORKERS]} worker(s) left"]

    # -- the log ----------------------------------------------------------------------
    def narrate(self, before: AsianDeliveryState, action: int,
                after: AsianDeliveryState) -> list[LogLine]:
        lines = super().narrate(before, action, after)
        b, a = before.v, after.v
        for p in range(before.n):
            gains = [f"+{a[L.I_BREAKDOWN + p * L.NB + i] - b[L.I_BREAKDOWN + p * L.NB + i]} "
                     f"{name.replace('_', ' ')}" for i, name in enumerate(L.BREAKDOWN)
                     if a[L.I_BREAKDOWN + p * L.NB + i] != b[L.I_BREAKDOWN + p * L.NB + i]]
            if gains:
                lines.append(LogLine(f"  Player {p}: {', '.join(gains)} VP "
                                     f"(now {a[L.seat(p) + L.S_VP]})"))
        if a[L.I_ROUND] > b[L.I_ROUND]:
            lines.append(LogLine(f"Round {b[L.I_ROUND] + 1} is over: workers come back, "
                                 f"ports refill; round {a[L.I_ROUND] + 1} starts with "
                                 f"Player {a[L.I_START]}"))
        if after.is_terminal():
            lines.append(LogLine("The game is over: " + ", ".join(
                f"Player {p} {int(t)}" for p, t in enumerate(after.scores()))))
        return lines


PRESENTER = AsianDeliveryPresenter()
