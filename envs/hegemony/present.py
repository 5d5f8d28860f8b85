"""Hegemony for people: every decision as a prompt in words ("Your sealed bid for the
Taxation bill (p3 → C)"), every action with a label (card titles and effects, company
names, policies by name, buying with its prices, an Event's options with their effects), the
table as cards and companies with their text and every class's goods, storage and Public
Services with their prices, and a log that reports votes, bids, points, money and policy
changes.  A prompt offers Done only where Done is legal.

Hidden information (``hidden.py``): the other classes' hands, every deck's order and the
sealed bids of the others until they are revealed.  A class's hand and its own bid are shown
only to viewers holding that class; a bid is logged as "places a sealed bid" for the others.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from meeplezoo.envs.core.present import LogLine, Piece, Presenter, Section
from meeplezoo.envs.hegemony import board, effects_basic, storage
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    CC,
    MC,
    NUM_SEATS,
    SEAT_NAMES,
    WC,
    WORKER_KINDS,
    blocks,
    card_designs,
    catalogue,
)
from meeplezoo.envs.hegemony.economy_trade import (
    SRC_FOREIGN,
    SRC_STRIDE,
    UNLIMITED,
    source_terms,
)
from meeplezoo.envs.hegemony.economy_trade import _buyable_sources as buyable_sources
from meeplezoo.envs.hegemony.effects_state import _unit_offers as provide_offers
from meeplezoo.envs.hegemony.politics import BIDS_IN, DRAWN, PARTICIPANTS, SECRET_BIDS, SIDE_FOR
from meeplezoo.envs.hegemony.present_text import (
    BASIC_TEXT,
    CLASS_NAMES,
    FREE_TEXT,
    GOOD_NAMES,
    INDUSTRY_NAMES,
    POLICY_DETAILS,
    POLICY_NAMES,
    agenda_text,
    card_options,
    card_text,
    card_title,
    company_text,
    event_options,
    event_text,
    event_title,
    export_text,
    policy_text,
)
from meeplezoo.envs.hegemony.production import food_offers
from meeplezoo.envs.hegemony.state import NO_WORKER, VP_SOURCES

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

SHORT = ("WC", "MC", "CC", "ST")
BID_OF = {seat: key for key, seat in SECRET_BIDS.items()}
SECRET_DECISIONS = ("sealed_bid", "effects_event_peek", "sell_foreign_card")
PROMPTS = {
    "setup_skilled_worker": "Set-up: choose the industry of your skilled worker",
    "turn": "Your turn: play a card, or discard one for a basic action; one free action "
            "before or after it; then end your turn",
    "discard_card": "Choose the card you discard to pay for the basic action",
    "market_discard": "Discard any cards of your company market (they are replaced), then Done",
    "prep_skilled_worker": "Choose the industry of your new skilled worker",
    "staff_company": "Choose the workers that staff the new company",
    "assign_destination": "Assign Workers: choose a company or union to fill, or Done",
    "assign_source": "Choose the worker who fills this slot",
    "build_card": "Choose a company to build",
    "build_wage": "Choose the wage level of your new company",
    "build_employee": "Hire an optional Working Class employee for it?",
    "build_staff_class": "Which class staffs your new company (or nobody for now)?",
    "education_worker": "Use Education: choose the worker to train",
    "education_industry": "Choose the trained worker's new skill",
    "swap_slot": "Swap Workers: choose a worker to swap out, or Done",
    "swap_incoming": "Choose the unemployed worker who comes in",
    "adjust_wages": "Adjust Wages: choose a company whose wage changes, or Done",
    "adjust_prices": "Adjust Prices: choose a new price, or Done",
    "adjust_wages_level": "Choose the new wage level",
    "buy_resource": "Buy Goods & Services: which goods?",
    "buy_source": "Buy from whom? (or Done)",
    "buy_quantity": "How many units?",
    "strike": "Strike: choose a company to strike, or Done",
    "sell_company": "Choose the company to sell",
    "sell_foreign": "Sell to the Foreign Market: choose an offer of the Export card, or Done",
    "extra_shift": "Extra Shift: choose the company that produces again",
    "business_deal": "Choose a trade deal",
    "business_deal_split": "How many units go to regular storage (the rest to the Free Trade "
                           "Zone)?",
    "give_bonus": "Give a Bonus: choose the struck company",
    "buy_storage": "Buy a storage tile for which goods?",
    "sell_foreign_card": "Choose the Export card this sale uses",
    "propose_bill": "Propose a bill: choose a policy and the section it should move to",
    "meet_mps": "Meet with MPs: which class gets 2 influence?",
    "extra_tax_legitimacy": "Extra Tax: which class loses 1 legitimacy?",
    "campaign": "Campaign: how much Media Influence do you take?",
    "p1_reveal_company": "Fiscal Policy changed: choose a public company to open",
    "p1_wage": "Choose the wage of the opened public company",
    "p1_staff_company": "Choose a public company to staff",
    "p1_staff_class": "Which class staffs it?",
    "p1_close_company": "Fiscal Policy changed: choose a public company to close",
    "demonstration_losses": "Demonstration: choose the class that loses the next point",
    "cover_needs_buy": "Your people need Food: choose where the next unit comes from",
    "event_penalty_pair": "An Event was left alone: choose a class that loses legitimacy",
    "effects_optional": "Your card: use its optional effect?",
    "effects_company": "Your card: choose a company",
    "effects_class": "Your card: choose a class",
    "effects_quantity": "Your card: how many?",
    "effects_new_worker_industry": "Choose the industry of the new skilled worker",
    "effects_remove_unemployed": "Choose an unemployed worker to remove, or Done",
    "effects_upgrade_worker": "Choose the worker to upgrade",
    "effects_upgrade_industry": "Choose the worker's new skill",
    "effects_storage_tile": "Choose the goods of the storage tile",
    "effects_bag_purge": "Choose a drawn cube to send back to its supply, or Done",
    "effects_shift_policy": "Your card: choose a policy and its new section",
    "effects_event_peek": "Choose one of the Events you are looking at (1 = the top one)",
    "effects_event_swap": "Choose the face-up Event it replaces",
    "event_action_event": "Event Action: choose a face-up Event to resolve",
    "event_action_option": "Choose who the Event goes to",
    "effects_provide_source": "The State lacks goods to provide: where does the next unit "
                              "come from?",
    "effects_machinery": "Choose the company that takes the machinery token",
}
# how a prompt offers Done; said only while Done is legal (``HegemonyPresenter.prompt``)
OR_DONE = re.compile(r",? (?:or|then) Done\b| \(or Done\)")
SOURCES = ("cc", "mc", "state", "foreign")
GOODS4 = ("Food", "Luxury", "Health", "Education")
CONTROL = {"end_turn": "End your turn", "done": "Done", "yes": "Yes", "no": "No",
           "pass": "Pass (discard a card for nothing)"}
RULES = [
    "5 rounds. In each of 5 passes every class plays a card or discards one for a basic "
    "action, with one free action before or after it.",
    "Bills move policies one section; at the elections the bag's cubes and sealed influence "
    "bids decide each bill.",
    "Then companies produce, classes pay and buy what their people need, taxes are paid and "
    "points are scored. Most points after round 5 wins.",
]


def worker_text(w: int) -> str:
    kind = WORKER_KINDS[w % 6]
    skill = "unskilled" if kind == "unskilled" else INDUSTRY_NAMES[kind]
    return f"{SHORT[w // 6]} {skill}"


def policy_name(policy: int) -> str:
    return f"{POLICY_NAMES[policy]} (p{policy + 1})"


def vote_report(b: HegemonyState, a: HegemonyState) -> str:
    """How an election went, from the declarations, the drawn cubes and the bids (the
    influence each participant spent, revealed together when the vote is counted)."""
    part, side = b.ctx[PARTICIPANTS], b.ctx.get(SIDE_FOR, 0)
    if b.decision_name() != "sealed_bid":  # decided as the declarations ended
        return "the vote: every participant is For (no bids)" if side | (
            1 << b.current_player()) == part else ""
    drawn = [b.ctx.get(key, 0) for key in DRAWN]
    sides: dict[bool, list[str]] = {True: [], False: []}
    totals = {True: 0, False: 0}
    for seat in range(4):
        if part >> seat & 1:
            bid = b.influence[seat] - a.influence[seat]
            cubes = drawn[seat] if seat < len(drawn) else 0
            sides[bool(side >> seat & 1)].append(f"{SHORT[seat]} {cubes} cube(s) + bid {bid}")
            totals[bool(side >> seat & 1)] += cubes + bid
    return (f"the vote: For {totals[True]} ({', '.join(sides[True])}); Against "
            f"{totals[False]} ({', '.join(sides[False]) or 'nobody'}); ties pass")


class HegemonyPresenter(Presenter):
    rules = RULES

    def seat_name(self, game, seat: int) -> str:
        return CLASS_NAMES[seat]

    def status(self, st: HegemonyState) -> str:
        if st.is_terminal():
            return "The game is over."
        return (f"Round {st.round}/{D.ROUNDS} · pass {st.turn_pass + 1}/5 · "
                f"{CLASS_NAMES[st.current_player()]} to move")

    def bill(self, st: HegemonyState, policy: int) -> str:
        """``the Taxation bill (p3 B → C, proposed by the Working Class)``."""
        proposal = st.bills[policy]
        now = D.SECTIONS[st.policies[policy]]
        if proposal < 0:
            return f"the {POLICY_NAMES[policy]} policy (p{policy + 1}, now {now})"
        return (f"the {POLICY_NAMES[policy]} bill (p{policy + 1} {now} → "
                f"{D.SECTIONS[proposal % 3]}, proposed by the {CLASS_NAMES[proposal // 3]})")

    # -- prompts ------------------------------------------------------------------
    def prompt(self, st: HegemonyState) -> str:
        kind = st.decision_name()
        seat, arg = st.top()[1], st.top()[2]
        if kind == "sealed_bid":
            return (f"Your sealed bid of influence for {self.bill(st, arg)}: you hold "
                    f"{st.influence[seat]}; bids are revealed together")
        if kind == "declare":
            return f"The vote on {self.bill(st, arg)}: declare For or Against"
        if kind == "immediate_vote":
            return f"Call the vote on {self.bill(st, arg & 7)} now, before the elections?"
        if kind == "turn":
            return PROMPTS[kind]
        text = PROMPTS.get(kind, super().prompt(st))
        if blocks(seat).DONE not in st.legal_actions():  # a Done button or no word of it
            text = OR_DONE.sub("", text)
        if kind in ("buy_source", "buy_quantity"):  # the goods (and the seller) being bought
            good = GOOD_NAMES[D.RESOURCES[st.ctx["economy_buy_res"]]]
            text += f" — {good}" + (f" {self.value_text('source', SOURCES[arg % SRC_STRIDE])}"
                                   if kind == "buy_quantity" else "")
        source = self.source(st) if kind.startswith("effects_") else ""
        return f"{text} — {source}" if source else text

    @staticmethod
    def source(st: HegemonyState) -> str:
        """What a card or Event decision belongs to, from the agenda below it: the Event an
        Event Action resolves, the card whose legitimacy symbols wait for its effect, or
        else the mover's last played card ("" if none)."""
        for code, seat, arg in reversed(st.agenda):
            name = st.agenda_rules.name(code)
            if name == "event_action_end" and arg < len(st.events):
                return f"the Event {event_title(st.events[arg])}"
            if name == "effects_legitimacy_symbols":
                card = card_designs(seat)[arg]
                return f"{card_title(card)}: {card_text(card)}"
        card = HegemonyPresenter.resolving_card(st)
        return f"{card_title(card)}: {card_text(card)}" if card else ""

    @staticmethod
    def resolving_card(st: HegemonyState) -> str | None:
        """The card whose effect asks: the legitimacy step's card, else the mover's last
        played card; None for an Event's decision or without a card."""
        for code, seat, arg in reversed(st.agenda):
            name = st.agenda_rules.name(code)
            if name == "event_action_end":
                return None
            if name == "effects_legitimacy_symbols":
                return card_designs(seat)[arg]
        seat = st.current_player()
        if seat < 0 or not st.action_discard[seat]:
            return None
        return card_designs(seat)[st.action_discard[seat][-1]]

    # -- actions ------------------------------------------------------------------
    def label(self, st: HegemonyState, action: int) -> str:
        seat = st.current_player()
        name = catalogue(st.game.seat_role(seat)).names[action]
        block, _, value = name.partition(":")
        if block in CONTROL and not value:
            return CONTROL[block]
        if block == "play":
            return f"Play {card_title(value)}: {card_text(value)}"
        if block == "discard":
            return f"Discard the card {card_title(value)} (to pay for the basic action)"
        if block == "basic":
            return "Basic action — " + BASIC_TEXT.get(value, value)
        if block == "free":
            return "Free action — " + FREE_TEXT.get(value, value)
        if block == "company":
            return self.seat_text(st, SEAT_NAMES.index(value))
        if block == "from":
            return self.source_text(st, value)
        if block == "market":
            market = st.cc_market if seat == CC else st.mc_market
            k = int(value) - 1
            return company_text(D.COMPANIES[market[k]]) if k < len(market) else name
        if block == "deck_card":
            return company_text(D.COMPANY_BY_ID[value])
        if block == "bill":
            policy, section = int(value[1]) - 1, value[-1]
            return (f"{POLICY_NAMES[policy]} (p{policy + 1}): {D.SECTIONS[st.policies[policy]]}"
                    f" → {section}")
        if block == "class":
            return CLASS_NAMES[SHORT.index(value)]
        if block in ("industry", "union"):
            return ("Union of " if block == "union" else "") + INDUSTRY_NAMES[value]
        if block == "resource":
            return self.resource_text(st, value)
        if block == "source":
            return self.offer_text(st, SOURCES.index(value))
        if block == "qty" and st.decision_name() == "buy_quantity":
            return self.quantity_text(st, int(value))
        if block == "event":
            k = int(value) - 1
            return event_title(st.events[k]) if k < len(st.events) else name
        if block == "option":
            return self.option_text(st, int(value) - 1)
        if block == "bid":
            return f"Bid {value} influence"
        if block == "vote":
            return "Vote For" if value == "for" else "Vote Against"
        return self.value_text(block, value) or name.replace("_", " ")

    @staticmethod
    def value_text(block: str, value: str) -> str:
        """The plain blocks: sources, quantities, wages, prices, offers, deals."""
        if block == "source":
            return {"cc": "from the Capitalist Class", "mc": "from the Middle Class",
                    "state": "from the State", "foreign": "from the Foreign Market"}[value]
        if block == "qty":
            return value
        if block == "wage":
            return f"Wage level {value}"
        if block == "price":
            good, step = value.rsplit("_", 1)
            return f"{GOOD_NAMES[good]} price {step}"
        if block == "offer":
            good, size = value.rsplit("_", 1)
            return f"Sell {GOOD_NAMES[good]}: the {size} offer"
        if block == "deal":
            return f"Trade deal {value}"
        return ""

    # -- prices: what a buyer reads before choosing ------------------------------------
    def resource_text(self, st: HegemonyState, value: str) -> str:
        """``Food (from ₳9 a unit)``: a resource to buy, with its cheapest unit price among
        the sources that can sell it to the buyer now (those a card allows)."""
        name = GOOD_NAMES.get(value, value.replace("_", " "))
        if st.decision_name() != "buy_resource":
            return name
        buyer, res = st.current_player(), D.RESOURCES.index(value)
        units = [source_terms(st, buyer, res, src)[1]
                 for src in buyable_sources(st, buyer, res)]
        return f"{name} (from ₳{min(units)} a unit)" if units else name

    def offer_text(self, st: HegemonyState, src: int) -> str:
        """A source with its unit price (and what it holds), for the three decisions that
        choose one: buying goods, a class's missing Food, the State providing an Event's
        goods.  What the buyer pays under a card's price modifiers is in the quantities'
        labels (``quantity_text``)."""
        where = self.value_text("source", SOURCES[src])
        kind, seat, arg = st.decision_name(), st.current_player(), st.top()[2]
        if kind == "buy_source":
            held, unit = source_terms(st, seat, st.ctx["economy_buy_res"], src)
        elif kind == "cover_needs_buy":
            unit = dict(food_offers(st, seat)).get(src, 0)
            held = UNLIMITED if src == SRC_FOREIGN else (
                st.cc_storage, st.mc_storage, st.state_goods)[src][0]
        elif kind == "effects_provide_source":
            offers = {source: (units, price) for source, price, units in provide_offers(st, arg)}
            held, unit = offers.get(src, (0, 0))
        else:
            return where
        stock = "any number" if held >= UNLIMITED else f"{held} there"
        return f"{where}: ₳{unit} a unit ({stock})"

    def quantity_text(self, st: HegemonyState, qty: int) -> str:
        """``3 units for ₳36``: what the buyer pays for them, card modifiers included."""
        if not qty:
            return "No more"
        seat, src = st.current_player(), st.top()[2] % SRC_STRIDE
        unit = source_terms(st, seat, st.ctx["economy_buy_res"], src)[1]
        paid = effects_basic.purchase_price(st, unit * qty)
        return f"{qty} unit{'s' if qty > 1 else ''} for ₳{paid}"

    def option_text(self, st: HegemonyState, k: int) -> str:
        kind = st.decision_name()
        if kind == "event_action_option" and st.top()[2] < len(st.events):
            event = st.events[st.top()[2]]
            options = event_options(event)
            effect = f" — {options[k]}" if k < len(options) else ""
            return f"Option {k + 1} of {event_title(event)}{effect}"
        card = self.resolving_card(st)
        options = card_options(card) if card else []
        return f"Option {k + 1}: {options[k]}" if k < len(options) else f"Option {k + 1}"

    def seat_text(self, st: HegemonyState, seat: int) -> str:
        company = board.card(st, seat)
        if company is None:
            return f"empty company space {SEAT_NAMES[seat]}"
        workers = [worker_text(w) for w in st.seat_workers[seat] if w != NO_WORKER]
        return f"{company.name} ({SEAT_NAMES[seat]}; {', '.join(workers) or 'no workers'})"

    def source_text(self, st: HegemonyState, value: str) -> str:
        if value.startswith("unemployed_"):
            kind = value[len("unemployed_"):]
            skill = "unskilled" if kind == "unskilled" else INDUSTRY_NAMES[kind] + "-skilled"
            return f"An unemployed {skill} worker"
        place, _, slot = value.partition("/")
        seat = SEAT_NAMES.index(place)
        w = st.seat_workers[seat][int(slot) - 1]
        company = board.card(st, seat)
        who = worker_text(w) if w != NO_WORKER else "empty"
        return f"The {who} worker in {company.name if company else place} (slot {slot})"

    def group(self, st: HegemonyState, action: int) -> str:
        seat = st.current_player()
        block = catalogue(st.game.seat_role(seat)).names[action].split(":")[0]
        return {"play": "Play a card", "discard": "Discard a card", "basic": "Basic actions",
                "free": "Free actions"}.get(block, "Choose")

    def target(self, st: HegemonyState, action: int) -> str | None:
        seat = st.current_player()
        block, _, value = catalogue(st.game.seat_role(seat)).names[action].partition(":")
        if block in ("play", "discard"):
            return f"hand:{value}"
        if block == "company":
            return f"seat:{SEAT_NAMES.index(value)}"
        if block == "from" and not value.startswith("unemployed_"):
            return f"seat:{SEAT_NAMES.index(value.partition('/')[0])}"
        if block == "bill":
            return f"policy:{int(value[1]) - 1}"
        if block == "class":
            return f"class:{SHORT.index(value)}"
        if block == "market":
            return f"{'cc' if seat == CC else 'mc'}market:{int(value) - 1}"
        if block == "event":
            return f"event:{int(value) - 1}"
        return None

    def secret(self, st: HegemonyState, action: int) -> bool:
        return st.decision_name() in SECRET_DECISIONS

    def hidden_move(self, st: HegemonyState, action: int) -> str:
        if st.decision_name() == "sealed_bid":
            return f"places a sealed bid on {self.bill(st, st.top()[2])}"
        return "chooses among cards only it can see"

    # -- the table ------------------------------------------------------------------
    def sections(self, st: HegemonyState, viewers: frozenset[int]) -> list[Section]:
        out = [self.policies(st), self.classes(st, viewers), self.goods(st)]
        for cls in sorted(viewers):
            designs = card_designs(cls)
            seen: set[str] = set()
            cards = []
            for d in st.hands[cls]:
                card = designs[d]
                pid = f"hand:{card}" if card not in seen else f"hand:{card}#{len(cards)}"
                seen.add(card)
                cards.append(Piece(pid, card_title(card), [card_text(card)], card_text(card),
                                   tags=["card", SHORT[cls]]))
            out.append(Section(f"hand{cls}", f"Your hand ({CLASS_NAMES[cls]})", cards,
                               terminal=True))
        sectors = (("cc", "Capitalist Class companies", range(0, 12)),
                   ("mc", "Middle Class companies", range(12, 20)),
                   ("public", "Public companies (the State)", range(20, 29)),
                   ("coop", "Cooperative Farms (Working Class)", range(29, NUM_SEATS)))
        for key, title, seats in sectors:
            pieces = [self.company(st, s) for s in seats if st.seat_card[s] >= 0]
            out.append(Section(f"companies_{key}", title, pieces))
        out.append(Section("markets", "Company markets", [
            *(Piece(f"ccmarket:{k}", D.COMPANIES[c].name, ["CC market"],
                    company_text(D.COMPANIES[c]), tags=["market"])
              for k, c in enumerate(st.cc_market)),
            *(Piece(f"mcmarket:{k}", D.COMPANIES[c].name, ["MC market"],
                    company_text(D.COMPANIES[c]), tags=["market"])
              for k, c in enumerate(st.mc_market))]))
        out.append(Section("events", "Events, Agenda, Export card and deals", self.table(st),
                           terminal=True))
        return out

    def policies(self, st: HegemonyState) -> Section:
        pieces = []
        for p in range(D.POLICIES):
            now = st.policies[p]
            lines = [f"{D.SECTIONS[now]}: {POLICY_DETAILS[p][now]}"]
            if st.bills[p] >= 0:
                to = st.bills[p] % 3
                lines.append(f"bill by {SHORT[st.bills[p] // 3]} → {D.SECTIONS[to]}: "
                             f"{POLICY_DETAILS[p][to]}")
            pieces.append(Piece(f"policy:{p}", f"p{p + 1} {POLICY_NAMES[p]}", lines,
                                policy_text(p), tags=["bill"] if st.bills[p] >= 0 else []))
        tax = D.tax_multiplier(*st.policies[2:5])
        return Section("policies", "Policies", pieces, note=f"tax multiplier {tax}",
                       terminal=True, details=False)

    def classes(self, st: HegemonyState, viewers: frozenset[int]) -> Section:
        pieces = []
        for cls in range(4):
            money = f"₳{st.money[cls]}" + (f" (+{st.capital} capital)" if cls == CC else "")
            lines = [f"{st.vp[cls]} VP · {money} · loans {st.loans[cls]}",
                     f"influence {st.influence[cls]} · hand {len(st.hands[cls])} card(s)"]
            if cls in (WC, MC):
                unemployed = sum(st.unemployed[cls])
                lines.append(f"population {board.population(st, cls)} · prosperity "
                             f"{st.prosperity[cls]} · {unemployed} unemployed")
            if cls == CC:
                lines.append(f"wealth {st.wealth}")
            if cls == 3:
                lines.append("legitimacy WC/MC/CC " + "/".join(map(str, st.legitimacy)))
            bid = self.bid_line(st, cls, viewers)
            if bid:
                lines.append(bid)
            pieces.append(Piece(f"class:{cls}", CLASS_NAMES[cls], lines, tags=[SHORT[cls]]))
        bag = ", ".join(f"{SHORT[c]} {n}" for c, n in enumerate(st.bag))
        unions = ", ".join(INDUSTRY_NAMES[D.INDUSTRIES[i]] for i in range(5) if st.unions[i])
        return Section("classes", "Classes", pieces,
                       note=f"voting bag: {bag}; unions: {unions or 'none'}"
                            + ("; a Demonstration is on" if st.demonstration else ""))

    @staticmethod
    def goods(st: HegemonyState) -> Section:
        """What every class holds, as terminal play prints it too: the Working and Middle
        Classes' goods (Food, Luxury, Health, Education), the Middle and Capitalist Classes'
        storage (held/room) and prices, the Free Trade Zone, the State's goods and Public
        Services with its prices, and the Foreign Market's: what a buyer needs to read to
        decide "Buy from whom?"."""
        def amounts(held: list[int], names: tuple[str, ...] = GOODS4,
                    room: list[int] | None = None) -> str:
            return " · ".join(f"{name} {n}" + (f"/{room[g]}" if room else "")
                              for g, (name, n) in enumerate(zip(names, held)))

        def prices(cls: int) -> str:
            return " · ".join(f"{name} ₳{board.price(st, cls, g)}"
                              for g, name in enumerate(GOODS4))

        def room(cls: int) -> list[int]:
            return [storage.capacity(st, cls, g) for g in range(len(GOODS4))]

        services = [D.PUBLIC_SERVICE_PRICE[st.policies[3]], D.PUBLIC_SERVICE_PRICE[st.policies[4]]]
        tariff = D.FOREIGN_TARIFF[st.policies[5]]
        pieces = [
            Piece("goods:0", CLASS_NAMES[WC], [f"goods: {amounts(st.goods[WC])}"],
                  tags=[SHORT[WC]]),
            Piece("goods:1", CLASS_NAMES[MC], [f"goods: {amounts(st.goods[MC])}",
                                               f"storage: {amounts(st.mc_storage, room=room(MC))}",
                                               f"prices: {prices(MC)}"], tags=[SHORT[MC]]),
            Piece("goods:2", CLASS_NAMES[CC], [
                f"storage: {amounts(st.cc_storage, room=room(CC))}",
                f"Free Trade Zone: {amounts(st.ftz, GOODS4[:2], list(D.FTZ_CAP))}",
                f"prices: {prices(CC)}"], tags=[SHORT[CC]]),
            Piece("goods:3", CLASS_NAMES[3], [
                f"goods: {amounts(st.state_goods, GOODS4[:2])}",
                f"Public Services: {amounts(st.public_services, (*GOODS4[2:], 'Influence'))}",
                "prices: " + " · ".join(f"{name} ₳{n}" for name, n in zip(
                    (*GOODS4, "Influence"), (*D.STATE_GOODS_PRICE, *services,
                                             D.MEDIA_INFLUENCE_PRICE)))], tags=[SHORT[3]]),
            Piece("goods:foreign", "Foreign Market", [
                "prices: " + " · ".join(f"{name} ₳{base + tax}" for name, base, tax in zip(
                    GOODS4[:2], D.FOREIGN_BASE, tariff)),
                f"tariff (p6) included: Food ₳{tariff[0]} · Luxury ₳{tariff[1]}"],
                tags=["grey"]),
        ]
        return Section("goods", "Goods, storage and Public Services", pieces,
                       note="storage and the Free Trade Zone as held/room", terminal=True,
                       details=False)

    @staticmethod
    def bid_line(st: HegemonyState, cls: int, viewers: frozenset[int]) -> str:
        """Whether ``cls`` has sealed its bid, and how much only for its own viewer."""
        if cls not in BID_OF or not st.ctx.get(BIDS_IN, 0) >> cls & 1:
            return ""
        if cls in viewers:
            return f"your sealed bid: {st.ctx[BID_OF[cls]]}"
        return "has sealed a bid"

    def company(self, st: HegemonyState, seat: int) -> Piece:
        company = board.card(st, seat)
        slots = []
        for k in range(len(company.slots)):
            w = st.seat_workers[seat][k]
            mark = "*" if st.seat_committed[seat][k] else ""
            slots.append(worker_text(w) + mark if w != NO_WORKER else "empty")
        lines = [", ".join(slots) or "automated"]
        if st.seat_wage[seat] >= 0:
            lines.append(f"wage {D.WAGE_LEVELS[st.seat_wage[seat]]}")
        tags = [D.INDUSTRIES[company.industry]]
        if st.seat_strike[seat]:
            lines.append("on strike")
        if st.seat_machinery[seat]:
            lines.append("machinery")
        if not st.seat_face_up[seat]:
            lines.append("closed")
            tags.append("taken")
        return Piece(f"seat:{seat}", company.name, lines,
                     company_text(company) + " (* committed this round)", tags=tags)

    def table(self, st: HegemonyState) -> list[Piece]:
        pieces = [Piece(f"event:{k}", event_title(e), ["Event"], event_text(e), tags=["event"])
                  for k, e in enumerate(st.events)]
        if st.agenda_card >= 0:
            pieces.append(Piece("agenda", "Political Agenda", [agenda_text(st.agenda_card)]))
        if st.export >= 0:
            pieces.append(Piece("export", "Export card", [export_text(st.export)]))
        for k, deal in enumerate(st.deals):
            d = D.DEALS[deal]
            goods = ", ".join(f"{n} {g}" for g, n in (("Food", d.food), ("Luxury", d.lux)) if n)
            pieces.append(Piece(f"deal:{k}", f"Trade deal {k + 1}", [f"{goods} for {d.cost}"]))
        return pieces

    def summary(self, st: HegemonyState, seat: int) -> list[str]:
        return [f"₳{st.money[seat]}, influence {st.influence[seat]}",
                f"{len(st.hands[seat])} card(s) in hand"]

    # -- the log ----------------------------------------------------------------------
    def narrate(self, before: HegemonyState, action: int,
                after: HegemonyState) -> list[LogLine]:
        lines = super().narrate(before, action, after)
        lines += [LogLine(f"  {text}") for text in self.changes(before, after)]
        if after.round > before.round and not after.is_terminal():
            lines.append(LogLine(f"Round {after.round} begins: Events "
                                 + ", ".join(event_title(e) for e in after.events)))
        if after.is_terminal():
            lines.append(LogLine("The game is over: " + ", ".join(
                f"{CLASS_NAMES[c]} {int(v)}" for c, v in enumerate(after.scores()))))
        return lines

    def changes(self, b: HegemonyState, a: HegemonyState) -> list[str]:
        """The public consequences of one step: bills, votes, policies, points, money,
        influence, legitimacy and companies."""
        out = []
        for p in range(D.POLICIES):
            if a.bills[p] >= 0 and b.bills[p] != a.bills[p]:
                out.append(f"the {CLASS_NAMES[a.bills[p] // 3]} proposes {self.bill(a, p)}")
            if a.policies[p] != b.policies[p]:
                how = "the bill passes: " if b.bills[p] >= 0 and a.bills[p] < 0 else ""
                out.append(f"{how}{policy_name(p)} moves {D.SECTIONS[b.policies[p]]} → "
                           f"{D.SECTIONS[a.policies[p]]}")
            elif b.bills[p] >= 0 and a.bills[p] < 0:
                out.append(f"the bill on {policy_name(p)} fails: it stays "
                           f"{D.SECTIONS[a.policies[p]]}")
            if b.bills[p] >= 0 and a.bills[p] < 0 and b.ctx.get(PARTICIPANTS, 0):
                out.append(vote_report(b, a) or "the vote is counted")
        for cls in range(4):
            gained = [f"{n - m:+d} {source}" for source, n, m in
                      zip(VP_SOURCES, a.vp_sources[cls], b.vp_sources[cls]) if n != m]
            if gained:
                out.append(f"{CLASS_NAMES[cls]} {a.vp[cls] - b.vp[cls]:+d} VP ("
                           f"{', '.join(gained)}), now {a.vp[cls]}")
        money = [f"{SHORT[c]} {b.money[c]}→{a.money[c]}" for c in range(4)
                 if a.money[c] != b.money[c]]
        if money:
            out.append("money: " + ", ".join(money))
        influence = [f"{SHORT[c]} {b.influence[c]}→{a.influence[c]}" for c in range(4)
                     if a.influence[c] != b.influence[c]]
        if influence:
            out.append("influence: " + ", ".join(influence))
        if a.legitimacy != b.legitimacy:
            out.append("legitimacy WC/MC/CC: " + "/".join(map(str, b.legitimacy)) + " → "
                       + "/".join(map(str, a.legitimacy)))
        for seat in range(NUM_SEATS):
            if a.seat_card[seat] != b.seat_card[seat]:
                if a.seat_card[seat] >= 0:
                    out.append(f"{D.COMPANIES[a.seat_card[seat]].name} opens at "
                               f"{SEAT_NAMES[seat]}")
                else:
                    out.append(f"{D.COMPANIES[b.seat_card[seat]].name} leaves "
                               f"{SEAT_NAMES[seat]}")
        return out


PRESENTER = HegemonyPresenter()
