"""London Necropolis Railway for people: the row's cards with their trains, ability and
discs; the bonus spaces with their effects; each player's London, railway, train and
Necropolis; every decision as a prompt and every action as a sentence; a log of money,
prestige, the train's trips and the burials.

Only the deck's order is hidden (the top card's back is public), so the views show the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.present import LogLine, Piece, Presenter, Section
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import STAFF, VOLUNTEER
from meeplezoo.envs.necropolis_railway.scoring import SCORE_LINES, score_lines

if TYPE_CHECKING:
    from meeplezoo.envs.necropolis_railway.board import Player
    from meeplezoo.envs.necropolis_railway.state import NecropolisState

ABILITY_TEXT = dict(D.RAW["railway_card_abilities"])
BONUS_TEXT = {k: v for k, v in D.RAW["bonus_spaces"].items() if k != "reset"}
PERK_TEXT = dict(D.RAW["railway"]["perks"])
PROMPTS = {
    "take": "Take a card from the row, with the discs under it",
    "turn": "Your turn: take the card's actions (each paid with a disc of its colour or "
            "orange), a bonus space, a prestige step, a tucked card — or end the turn",
    "pay": "Which disc pays?",
    "london_upgrade": "London action: choose a slot to upgrade (printed → A → B)",
    "necropolis": "Necropolis action: hire a staff and/or build a mortuary, then skip",
    "railway": "Railway action: add or flip a car, tuck this card, or sell a car",
    "bonus_hire": "Bonus space: where does the cheap staff go?",
    "perk": "A completed pair of cars earns a perk: choose one",
    "volunteer": "Place a volunteer",
    "free_mortuary": "Prestige bonus: where does the free mortuary go?",
    "income_disc": "London income: choose the colour of your disc",
    "load": "Loading: not all coffins fit; choose the next one to load",
    "bury": "Necropolis stop: choose the next coffin and its staffed column",
    "dismiss": "Upkeep: you cannot pay every staff; choose one to dismiss",
    "discard": "You hold more than 6 discs: give one back",
    "century": "Turn of the Century: one free action (no money, no discs)",
    "final_purchase": "Final purchase: hire one staff or build one mortuary, or skip",
}
RULES = [
    "12 rounds, one turn each: take a row card with its discs, then use its London, "
    "Necropolis and Railway actions (each paid with a disc of its colour or orange).",
    "The train moves by the trains of the actions taken; in London it earns income, loads "
    "coffins and mourners and pays upkeep; at the Necropolis it buries coffins in staffed "
    "columns.",
    "Score: prestige × London staff, London pairs, completed columns, each column's most "
    "common colour × its mortuary, overflow coffins, money.",
]
TEMPLATES = {  # the rest of the catalogue by its verb; {thing} and {where} from the name
    "pay": "Pay with one {thing} disc",
    "hire": f"Hire a staff ({D.HIRE_COST} money) for {{where}}",
    "build": "Build a {thing} mortuary in {where}",
    "volunteer": "Place a volunteer in {where}",
    "gain": "Take one {thing} disc",
    "load": "Load one {thing} coffin",
    "bury": "Bury one {thing} coffin in {where}",
    "dismiss": "Dismiss the staff in {where}",
    "discard": "Give back one {thing} disc",
    "rail": "Railway: {thing}",
}
WORKERS = {STAFF: "staff", VOLUNTEER: "volunteer"}
COLUMN_WORDS = {f"column_{c + 1}": f"column {c + 1}" for c in range(D.COLUMNS)}


def discs(counts: list[int]) -> str:
    return ", ".join(f"{n} {D.DISC_COLOURS[c]}" for c, n in enumerate(counts) if n) or "none"


def coffins(counts: list[int]) -> str:
    return ", ".join(f"{n} {D.COFFIN_COLOURS[c]}" for c, n in enumerate(counts) if n) or "none"


def card_text(card: int) -> str:
    trains = D.CARD_TRAINS[card]
    ability = D.ABILITIES[D.CARD_ABILITY[card]]
    return (f"card #{D.CARD_IDS[card]}: trains London {trains[0]}, Necropolis {trains[1]}, "
            f"Railway {trains[2]}; tucked: {ability.lower()} ({ABILITY_TEXT[ability]})")


def words(name: str) -> str:
    """``hire@column_3`` -> ``hire at column 3``: an action name as plain words."""
    for key, text in COLUMN_WORDS.items():
        name = name.replace(key, text)
    return name.replace("@", " at ").replace(":", " ").replace("_", " ")


def station(pos: int) -> str:
    if pos == D.LONDON:
        return "London"
    return "the Necropolis" if pos == D.NECROPOLIS else f"track space {pos}"


class NecropolisPresenter(Presenter):
    rules = RULES

    def seat_name(self, game, seat: int) -> str:
        return f"Player {seat}"

    def status(self, st: NecropolisState) -> str:
        if st.is_terminal():
            return "The game is over."
        return (f"Round {min(st.round + 1, D.ROUNDS)}/{D.ROUNDS} · deck {len(st.deck)} · "
                f"Player {st.current_player()} to move")

    def prompt(self, st: NecropolisState) -> str:
        kind = st.decision_name()
        text = PROMPTS.get(kind, super().prompt(st))
        if kind == "turn" and st.t_card >= 0:
            text += f" (this turn's {card_text(st.t_card).split(';')[0]}; movement {st.t_move})"
        return text

    def label(self, st: NecropolisState, action: int) -> str:
        name = A.NAMES[action]
        p = st.players[st.current_player()]
        if A.TAKE <= action < A.ACTION:
            k = action - A.TAKE
            return f"Take row {k + 1}: {card_text(st.row[k])}; discs {discs(st.row_discs[k])}"
        if A.UPGRADE <= action < A.HIRE:
            slot = action - A.UPGRADE
            level = p.london[slot]
            cost = D.SLOT_COST[slot][level] if level < 2 else 0
            slot_name = D.SLOT_NAMES[slot].replace("_", " ")
            return f"Upgrade {slot_name} to tile {'AB'[level]} for {cost}"
        if A.BONUS <= action < A.PRESTIGE:
            space = D.BONUS_SPACES[action - A.BONUS]
            return f"Bonus space {space.replace('_', ' ')}: {BONUS_TEXT[space]}"
        if action == A.PRESTIGE:
            cost = D.PRESTIGE_COST[min(p.prestige + 1, D.PRESTIGE_MAX)]
            return f"Prestige step {p.prestige} → {p.prestige + 1} for {cost} disc(s)"
        if A.PERK <= action < A.VOLUNTEER:
            perk = D.PERKS[action - A.PERK]
            return f"Perk {perk.replace('_', ' ')}: {PERK_TEXT[perk]}"
        if A.USE_TUCKED <= action < A.GAIN:
            card = p.tucked[action - A.USE_TUCKED]
            ability = D.ABILITIES[D.CARD_ABILITY[card]]
            return f"Use tucked {ability.lower()}: {ABILITY_TEXT[ability]}"
        if action == A.END_TURN:
            if st.phase == G.P_ROUNDS:
                return "End the turn (the train moves)"
            return "Take the station's actions"
        if action == A.SKIP:
            return "Skip"
        if A.ACTION <= action < A.PAY:
            act = action - A.ACTION
            trains = D.CARD_TRAINS[st.t_card][act] if st.t_card >= 0 else 0
            return (f"{D.ACTIONS[act].capitalize()} action (pay one "
                    f"{D.DISC_COLOURS[D.ACTION_COLOUR[act]]} or orange disc; train +{trains})")
        verb, _, rest = name.partition(":")
        thing, _, where = (rest or verb).partition("@")
        place = COLUMN_WORDS.get(where, where)
        return TEMPLATES.get(verb.split("@")[0], "{name}").format(
            name=words(name).capitalize(), thing=thing.replace("_", " "), where=place)

    def group(self, st: NecropolisState, action: int) -> str:
        return st.decision_name().replace("_", " ").capitalize()

    def target(self, st: NecropolisState, action: int) -> str | None:
        if A.TAKE <= action < A.ACTION:
            return f"row:{action - A.TAKE}"
        if A.BONUS <= action < A.PRESTIGE:
            return f"bonus:{action - A.BONUS}"
        where = self.name(st, action).rpartition("@column_")[2]
        if where.isdigit():  # hire, build, volunteer, bury, dismiss in a column
            return f"p{st.current_player()}:col{int(where) - 1}"
        return None

    # -- the table ------------------------------------------------------------------
    def sections(self, st: NecropolisState, viewers: frozenset[int]) -> list[Section]:
        row = [Piece(f"row:{k}", f"Row {k + 1}: #{D.CARD_IDS[card]}" if card >= 0 else "(empty)",
                     ([f"London {D.CARD_TRAINS[card][0]} · Necropolis {D.CARD_TRAINS[card][1]}"
                       f" · Railway {D.CARD_TRAINS[card][2]}",
                       f"tucked: {D.ABILITIES[D.CARD_ABILITY[card]].lower()}"]
                      if card >= 0 else []),
                     card_text(card) if card >= 0 else "",
                     [D.DISC_COLOURS[c] for c, n in enumerate(st.row_discs[k]) for _ in range(n)])
               for k, card in enumerate(st.row)]
        top = ", ".join(D.DISC_COLOURS[c] for c in D.CARD_BACK[st.deck[-1]]) if st.deck else "-"
        out = [Section("row", "The row", row, note=f"deck {len(st.deck)}, next back: {top}",
                       terminal=True)]
        out.append(Section("bonus", "Bonus spaces (one per turn, each once a round)", [
            Piece(f"bonus:{i}", b.replace("_", " "), [BONUS_TEXT[b]],
                  tags=["taken"] if st.bonus_spaces[i] >= 0 else [D.DISC_COLOURS[
                      D.BONUS_COLOUR[i]]])
            for i, b in enumerate(D.BONUS_SPACES)]))
        for seat, p in enumerate(st.players):
            out.append(Section(f"player{seat}", f"Player {seat}", self.boards(seat, p), "row"))
        return out

    @staticmethod
    def boards(seat: int, p: Player) -> list[Piece]:
        slots = [f"{D.SLOT_NAMES[s].replace('_', ' ')} {('printed', 'A', 'B')[p.london[s]]}"
                 for s in range(D.NUM_SLOTS)]
        cars = [" ".join("AB"[side - 1] for side in p.cars[k]) or "-" for k in range(2)]
        tucked = ", ".join(D.ABILITIES[D.CARD_ABILITY[c]].lower() for c in p.tucked) or "none"
        perks = ", ".join(D.PERKS[i] for i in range(len(D.PERKS)) if p.perks[i]) or "none"
        columns = []
        for c in range(D.COLUMNS):
            buried = " ".join(D.COFFIN_COLOURS[p.plots[c * D.ROWS + r]]
                              for r in range(p.fill[c]))
            plots = " ".join(D.COFFIN_COLOURS[k] for k in D.PLOT_COLOUR[c])
            mortuary = ("no mortuary", "bronze mortuary", "silver mortuary",
                        "gold mortuary")[p.mortuary[c]]
            columns.append(Piece(f"p{seat}:col{c}", f"Column {c + 1}",
                                 [f"{WORKERS.get(p.col_worker[c], 'no worker')}, {mortuary}",
                                  f"buried: {buried or 'none'}"],
                                 f"Plots bottom to top: {plots}; a coffin on a plot of its "
                                 f"colour earns {D.MATCH_MONEY} money.",
                                 tags=["column"]))
        return [
            Piece(f"p{seat}:money", "Money and discs", [f"{p.money} money · prestige {p.prestige}",
                                                        f"discs: {discs(p.discs)}"]),
            Piece(f"p{seat}:london", "London",
                  [", ".join(slots), f"staff {p.london_staff}, volunteers {p.london_vol}",
                   f"waiting: {coffins(p.waiting)}; {p.waiting_mourners} mourners"]),
            Piece(f"p{seat}:railway", "Railway", [f"coffin cars {cars[0]} · mourner cars {cars[1]}",
                                                  f"tucked: {tucked}", f"perks: {perks}"]),
            Piece(f"p{seat}:train", f"Train at {station(p.pos)}",
                  [f"coffins {coffins(p.train)} (room {p.coffin_capacity()})",
                   f"mourners {p.train_mourners}/{p.mourner_capacity()}"]),
            Piece(f"p{seat}:necropolis", "Necropolis",
                  [f"mourners {p.necro_mourners}", f"overflow {coffins(p.overflow)}"]),
            *columns,
        ]

    def summary(self, st: NecropolisState, seat: int) -> list[str]:
        p = st.players[seat]
        return [f"{p.money} money, prestige {p.prestige}", f"train at {station(p.pos)}"]

    # -- the log ----------------------------------------------------------------------
    def narrate(self, before: NecropolisState, action: int,
                after: NecropolisState) -> list[LogLine]:
        lines = super().narrate(before, action, after)
        for seat, (b, a) in enumerate(zip(before.players, after.players)):
            changes = []
            if a.pos != b.pos:
                changes.append(f"train {station(b.pos)} → {station(a.pos)}")
            if a.money != b.money:
                changes.append(f"money {b.money} → {a.money}")
            if a.prestige != b.prestige:
                changes.append(f"prestige {b.prestige} → {a.prestige}")
            if sum(a.fill) > sum(b.fill):
                changes.append(f"{sum(a.fill) - sum(b.fill)} coffin(s) buried")
            if sum(a.overflow) > sum(b.overflow):
                changes.append(f"{sum(a.overflow) - sum(b.overflow)} coffin(s) to the overflow")
            gained = [a.discs[c] - b.discs[c] for c in range(len(a.discs))]
            if any(n > 0 for n in gained):
                changes.append("discs +" + discs([max(n, 0) for n in gained]))
            if changes:
                lines.append(LogLine(f"  Player {seat}: {'; '.join(changes)}"))
        if after.round > before.round and not after.is_terminal():
            lines.append(LogLine(f"Round {after.round + 1} begins"))
        if after.is_terminal():
            lines.append(LogLine("The game is over: " + "; ".join(
                f"Player {s} {int(t)} ("
                + ", ".join(f"{k.replace('_', ' ')} {v}"
                            for k, v in zip(SCORE_LINES, score_lines(after.players[s])))
                + ")" for s, t in enumerate(after.scores()))))
        return lines


PRESENTER = NecropolisPresenter()
