"""Each class's fixed action catalogue, built from small shared blocks (rules page §14).

Every compound choice is a chain of small named decisions, so no catalogue explodes:
a decision's legal actions are read as indexes of one or two blocks.  The blocks and
their names are the same for every class; the class-specific blocks (its cards, its
basic and free actions) hold only what that class may do.  Index = position, stable
for a given deck; ``catalogue(role).index("basic:strike")`` finds one by name.
"""

from __future__ import annotations

from functools import cache

from meeplezoo.envs.core.actions import ActionCatalogue
from meeplezoo.envs.hegemony.cards import ACTION_CARDS
from meeplezoo.envs.hegemony.data import CLASSES, COMPANIES, GOODS, INDUSTRIES, RESOURCES, SECTIONS

ROLE_NAMES = ("working_class", "middle_class", "capitalist_class", "state")
WC, MC, CC, ST = range(4)

# §3: the 16 basic actions, and which classes may take each.
BASIC_ACTIONS = (
    ("propose_bill", (WC, MC, CC, ST)),
    ("political_pressure", (WC, MC, CC)),
    ("assign_workers", (WC, MC)),
    ("buy", (WC, MC)),
    ("strike", (WC,)),
    ("demonstration", (WC,)),
    ("build_company", (MC, CC)),
    ("sell_company", (MC, CC)),
    ("sell_foreign", (MC, CC, ST)),
    ("extra_shift", (MC,)),
    ("business_deal", (CC,)),
    ("lobby", (CC,)),
    ("event_action", (ST,)),
    ("meet_mps", (ST,)),
    ("extra_tax", (ST,)),
    ("campaign", (ST,)),
)
# §4: the 10 free actions.
FREE_ACTIONS = (
    ("use_health", (WC, MC)),
    ("use_education", (WC, MC)),
    ("use_luxury", (WC, MC)),
    ("swap_workers", (WC, MC)),
    ("receive_benefits", (WC, MC, CC)),
    ("pay_off_loan", (WC, MC, CC, ST)),
    ("adjust_prices", (MC, CC)),
    ("adjust_wages", (MC, CC, ST)),
    ("give_bonus", (CC,)),
    ("buy_storage", (CC,)),
)

# Company seats (§1.1 company spaces; the Cooperative Farms sit beside the WC board).
CC_SEATS = range(0, 12)
MC_SEATS = range(12, 20)
PUBLIC_SEATS = range(20, 29)  # rows of three: 20-22 row 1, 23-25 row 2, 26-28 row 3
COOP_SEATS = range(29, 31)
NUM_SEATS = 31
MAX_SLOTS = 3
SEAT_NAMES = (
    [f"cc_{k + 1:02d}" for k in range(12)]
    + [f"mc_{k + 1:02d}" for k in range(8)]
    + [f"public_r{k // 3 + 1}_{k % 3 + 1}" for k in range(9)]
    + ["coop_1", "coop_2"]
)
# Worker kinds: 0 unskilled, 1 + industry for a skilled worker.
WORKER_KINDS = ("unskilled", *INDUSTRIES)
CONTROL = ("end_turn", "done", "yes", "no", "pass")
QUANTITIES = range(13)  # 0..12
MAX_BID = 35
PRICE_STEP_NAMES = ("low", "mid", "high")
OFFER_SIZES = ("small", "large")
MAX_FACE_UP_EVENTS = 4  # 2 revealed each round, plus Events a card places face up (event_peek)
MAX_EXTRA_OFFERS = 2    # a card's extra_offers for one sale
MAX_PEEKED_EXPORTS = 3  # peek_exports: the current Export card (0) or one of those under it


def _role_index(role: str) -> int:
    if role not in ROLE_NAMES:
        raise ValueError(f"unknown Hegemony role {role!r}; roles: {list(ROLE_NAMES)}")
    return ROLE_NAMES.index(role)


def basic_actions(cls: int) -> tuple[str, ...]:
    return tuple(name for name, who in BASIC_ACTIONS if cls in who)


def free_actions(cls: int) -> tuple[str, ...]:
    return tuple(name for name, who in FREE_ACTIONS if cls in who)


def card_designs(cls: int) -> tuple[str, ...]:
    """The ids of the class's action-card designs, in deck-file order."""
    return tuple(card.id for card in ACTION_CARDS[CLASSES[cls]])


@cache
def catalogue(role: str) -> ActionCatalogue:
    """The role's catalogue (built once)."""
    cls = _role_index(role)
    cat = ActionCatalogue()
    cat.add("control", list(CONTROL))
    designs = card_designs(cls)
    cat.add("play", [f"play:{d}" for d in designs])
    cat.add("discard", [f"discard:{d}" for d in designs])
    cat.add("basic", [f"basic:{a}" for a in basic_actions(cls)])
    cat.add("free", [f"free:{a}" for a in free_actions(cls)])
    cat.add("company", [f"company:{s}" for s in SEAT_NAMES])
    cat.add("market", [f"market:{k + 1}" for k in range(4)])
    if cls in (WC, MC):
        cat.add("union", [f"union:{i}" for i in INDUSTRIES])
        cat.add("from_unemployed", [f"from:unemployed_{k}" for k in WORKER_KINDS])
        cat.add("from_slot", [f"from:{s}/{k + 1}" for s in SEAT_NAMES for k in range(MAX_SLOTS)])
    cat.add("resource", [f"resource:{r}" for r in RESOURCES])
    cat.add("source", ["source:cc", "source:mc", "source:state", "source:foreign"])
    cat.add("qty", [f"qty:{q}" for q in QUANTITIES])
    cat.add("wage", ["wage:L1", "wage:L2", "wage:L3"])
    cat.add("price", [f"price:{g}_{s}" for g in GOODS for s in PRICE_STEP_NAMES])
    cat.add("bill", [f"bill:p{p + 1}_{s}" for p in range(7) for s in SECTIONS])
    cat.add("class", [f"class:{c}" for c in CLASSES])
    cat.add("industry", [f"industry:{i}" for i in INDUSTRIES])
    cat.add("offer", [f"offer:{g}_{size}" for g in GOODS for size in OFFER_SIZES])
    cat.add("deal", ["deal:1", "deal:2"])
    cat.add("event", [f"event:{k + 1}" for k in range(MAX_FACE_UP_EVENTS)])
    cat.add("option", [f"option:{k + 1}" for k in range(4)])
    cat.add("bid", [f"bid:{b}" for b in range(MAX_BID + 1)])
    cat.add("vote", ["vote:for", "vote:against"])
    if cls in (MC, CC):  # card modifiers of Build Company and Sell to Foreign Market (§11.1)
        sector = "mc" if cls == MC else "cc"
        cat.add("deck_card", [f"deck_card:{c.id}" for c in COMPANIES if c.sector == sector])
    if cls in (MC, CC, ST):
        cat.add("extra_offer", [f"extra_offer:{k + 1}" for k in range(MAX_EXTRA_OFFERS)])
        cat.add("export_card", [f"export_card:{k}" for k in range(1 + MAX_PEEKED_EXPORTS)])
    return cat


class Blocks:
    """First indexes of every block of one role's catalogue, as attributes (fast in masks):
    ``B.company + seat``, ``B.qty + n``, ``B.basic_index["strike"]``."""

    def __init__(self, role: str) -> None:
        cat = catalogue(role)
        self.cls = _role_index(role)
        self.size = cat.size
        for name, span in cat.blocks().items():
            setattr(self, name, span.start)
        for name in CONTROL:
            setattr(self, name.upper(), cat.index(name))
        self.basic_index = {a: cat.index(f"basic:{a}") for a in basic_actions(self.cls)}
        self.free_index = {a: cat.index(f"free:{a}") for a in free_actions(self.cls)}
        self.basic_name = {i: a for a, i in self.basic_index.items()}
        self.free_name = {i: a for a, i in self.free_index.items()}
        self.designs = card_designs(self.cls)


@cache
def blocks(cls: int) -> Blocks:
    return Blocks(ROLE_NAMES[cls])


def slot_action(seat: int, slot: int) -> int:
    """Offset inside the ``from_slot`` block of a worker sitting in ``seat``'s ``slot``."""
    return seat * MAX_SLOTS + slot
