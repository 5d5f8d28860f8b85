"""The closed effect vocabulary of Hegemony's authored decks, the one the engine's card
interpreter reads (our Hegemony rules page §11.1).

The vocabulary is data (``PRIMITIVES``, ``BASIC_ACTIONS``, ``BASIC_MODIFIERS``, ``FORMULA_TERMS``,
``REQUIREMENTS``, ``COMPANY_FILTER``, ``EVENT_TASKS``, ``EVENT_REWARDS``); this docstring is its
manual.  ``cards_check`` checks an effect tree against it and ``cards`` loads the decks with
those checks; this module is the bottom of the three and imports nothing of the package.
Names: classes WC MC CC, roles WC MC CC ST; resources are lower case like ``data.py``
(``money food lux health edu influence media_influence cubes``); industries
``agri lux health edu media``; sections ``"2B"`` (policy 2, section B); policies ``"p1".."p7"``.

Conventions for every effect
- A node is ``{"op": <name>, ...named parameters}``; a card's ``effects`` run in order.
- "Acting class" = the role playing the card.  Amount formulas are read for the acting class,
  except inside ``provide`` bundles and Event tasks, where they are read for the receiving class.
- A cost (``pay``, ``machinery.cost``, ``prosperity.cost``, ``storage.cost``) is optional
  spending: the card is playable only if the payer can pay from what it holds (never a loan).
  A payment forced on the State (``gain`` from the treasury, ``state_payout``, ``sell_to_state``,
  ``payer: state``, ``wage_payer: state``) is mandatory and may force a State loan.
- Goods a class gains go to WC's and MC's Goods & Services area, to CC's Storage (then the FTZ
  for food and lux; overflow lost), and for ST to Public Services (health, edu,
  media_influence, capped) or the State board (food, lux, capped).
- A primitive whose precondition fails makes its card unplayable, except inside ``optional``,
  the untaken branch of ``if`` or an unchosen ``choice`` option.

Primitives (``PRIMITIVES``; roles in brackets)
- ``basic`` [all]: run a basic action of §3 with modifiers; it follows all of that action's rules
  unless a modifier says otherwise, and its workers are committed.
  - ``action``: one of ``BASIC_ACTIONS`` the acting role may use (§3 table).
  - modifiers: any of ``BASIC_MODIFIERS`` allowed with that action (listed below).
- ``gain`` [all]: the acting class gains ``amt`` of ``res``.
  - ``res``: money | food | lux | health | edu | influence | media_influence | cubes
    (``cubes``: own cubes from supply into the bag; ``media_influence``: ST's Public Services).
  - ``amt``: an amount (int or formula).
  - ``from``: supply | treasury | WC | MC | CC: who gives it (the treasury or a class must
    pay; a short class or the State takes a loan for money, goods are capped by stock).
- ``pay`` [all]: the acting class pays ``amt`` of ``res`` (same ``res`` list) to ``to``
  (supply | treasury | WC | MC | CC); an optional cost, as above.
- ``sell_to_state`` [MC, CC]: sell up to ``max_n`` units of ``res`` (food | lux | health | edu)
  from own Storage to the State at ``unit_price`` each; capped by the State's storage room, and
  the State must pay (forced loan allowed).
  - ``res``, ``max_n`` (int ≥ 1), ``unit_price`` (int ≥ 1).
- ``provide`` [ST]: put ``bundle`` into the Benefits area of one class the State picks from
  ``target_class_choice``; it replaces what was there unless added in the same turn.  The State
  may buy what it lacks first (§3.13).
  - ``target_class_choice``: non-empty list of WC | MC | CC.
  - ``bundle``: object resource → amount (money, food, lux, health, edu, influence, cubes;
    cubes come from that class's supply; influence from Public Services' Media Influence, and
    the option is illegal when it holds less, decision #48), formulas read for the receiving
    class.
- ``add_cubes`` [WC, MC, CC]: ``amt`` own cubes from supply into the bag (capped by supply).
- ``bag_purge`` [WC, MC, CC]: draw ``draw`` cubes; return up to ``remove_up_to`` of the drawn
  cubes of other classes to their supplies; the rest go back into the bag.
  - ``draw`` (int ≥ 1), ``remove_up_to`` (int ≥ 1).
- ``bag_replace`` [WC, MC, CC]: draw cubes one by one until ``reveal_until_k_opponent_cubes``
  cubes of other classes are out (or the bag is empty); each of those goes to its supply and is
  replaced by one own cube from supply (while any is left); own cubes drawn go back.
- ``add_worker`` [WC, MC, ST]: ``n`` new workers of ``class`` (WC | MC; a WC or MC card adds
  only its own class's) go to the Unemployed area; Population is recomputed.
  - ``kind``: unskilled | skilled_choice (industry chosen by the owner) | skilled_agri |
    skilled_lux | skilled_health | skilled_edu | skilled_media.
- ``remove_unemployed`` [WC, MC]: remove up to ``n`` own unemployed workers from the game
  (at least 1); gain ``pay_unskilled`` ₳ per unskilled and ``pay_skilled`` ₳ per skilled worker
  removed, from supply; playable only with at least ``min_unemployed`` own unemployed workers.
- ``upgrade_worker`` [WC, MC]: replace one own worker anywhere with a skilled worker of any
  industry, as Use Education (§4.2) without its cost or Prosperity.  No parameters.
- ``build_coop_farm`` [WC]: build one unbuilt Cooperative Farm beside the WC board (§5.9).
  No parameters.
- ``sell_company`` [MC, CC]: sell one own company with no committed workers, as §3.8, for
  ``price_factor`` × its cost (rounded down).  (Not ST: a public company leaves the board only
  through p1, the IMF or ``transfer_company``, so the p1 face-up count stays exact.)
  - ``price_factor`` (number in (0, 2]); ``filter`` (optional company filter).
- ``transfer_company`` [CC, ST]: move one company between the public sector and CC.
  - ``direction``: public_to_cc (CC buys a face-up public company; paid to the treasury) |
    cc_to_public (ST buys a CC company; paid to CC's Revenue; it becomes a face-up public company,
    its machinery returns to supply).  Workers stay, commitment unchanged.
  - ``price``: an amount, usually ``{"fraction_of_cost": f}``.
- ``produce`` [all; WC: its Cooperative Farm only]: one operational, unstruck company matching
  ``company_filter`` (default: an own company) produces its output again now (CC: + machinery;
  MC: + the employee bonus when the wage is paid); output goes where Production puts it.
  - ``company_filter``: a company filter.
  - ``wage_payer``: owner | state | none: who pays its wage once more to the staffing class.
- ``set_wage`` [WC, MC, CC, ST]: move a wage to ``level``; never below the p2 minimum (raised to
  it), never lowered while a worker paid by it is committed; raising does not commit anyone.
  - ``company``: own_one | own_all (MC, CC) | public_one | public_all (ST) | employer_one (WC,
    MC: one company of any owner employing the acting class's workers).
  - ``level``: L1 | L2 | L3 | min (the p2 minimum).
- ``machinery`` [CC]: pay ``cost`` (amount, total) and place ``n`` machinery tokens (§5.6).
- ``storage`` [CC]: take a storage tile for ``resource`` (food | lux | health | edu | choice)
  paying ``cost`` (int, default 0); §4.10 limits apply.
- ``revenue_to_capital`` [CC]: move ``fraction`` (number in (0, 1]) of Revenue into Capital,
  rounding ``round`` (up | down).
- ``prosperity`` [WC, MC]: pay ``cost`` (amount, default 0) and gain ``steps`` (int 1-2)
  Prosperity, scoring each new space (§4).
- ``vp`` [all]: gain ``n`` VP (an amount; negative allowed).
- ``legitimacy`` [ST]: ``n`` (±1 or ±2) on the track of ``class`` (WC | MC | CC | chosen);
  a decrease is illegal if it would go below 1 (decision #23).
- ``legitimacy_token`` [ST]: take a Legitimacy token for ``class`` (WC | MC | CC | chosen).
- ``event_action`` [ST]: take the Event Action ``times`` (int 2-3) in a row, each on a
  different face-up Event.
- ``event_peek`` [ST]: look at the top ``k`` (int 1-5) Events; with ``place_or_replace`` =
  place, put one face up as an extra Event; = replace, swap it for a face-up Event (which goes
  under the deck); the rest go back in the same order.
- ``shift_policy`` [all]: move one policy to a section listed in ``condition`` (non-empty list
  of sections); with ``adjacent`` (bool) true only one step (A↔B, B↔C); ``no_vp`` (bool) true
  scores no bill VP, false scores the proposer's +3.  A policy with a pending bill may not be
  chosen (decision #33).
- ``state_payout`` [WC, MC, CC]: the treasury pays ``amt`` ₳ to the acting class (mandatory;
  forced loan allowed).
- ``choice`` [all]: do one of ``options`` (2-4 nodes, §14); unplayable options are masked.
- ``optional`` [all]: the acting player may do ``effect`` (a node) or skip it.
- ``if`` [all]: if ``cond`` (a requirement) holds do ``then`` (a node), else ``else`` (a node,
  optional).
- ``seq`` [all]: do ``effects`` (2 or more nodes) in order.

Basic actions (``BASIC_ACTIONS``; §3 numbers and who may use them)
- ``propose_bill`` #1 all; ``political_pressure`` #2 WC MC CC; ``assign_workers`` #3 WC MC;
  ``buy_goods`` #4 WC MC; ``strike`` #5 WC; ``demonstration`` #6 WC; ``build_company`` #7 MC CC;
  ``sell_company`` #8 MC CC; ``sell_foreign`` #9 MC CC ST; ``extra_shift`` #10 MC;
  ``business_deal`` #11 CC; ``lobby`` #12 CC; ``event_action`` #13 ST; ``meet_mps`` #14 ST;
  ``extra_tax`` #15 ST; ``campaign`` #16 ST.

``basic`` modifiers (``BASIC_MODIFIERS``; the actions each may go with)
- ``max_workers``: int 1-9 or "any": how many workers Assign Workers may place [assign_workers].
- ``source``: unemployed_only: workers come only from the Unemployed area [assign_workers].
- ``allow_reassign``: true: a worker may be placed back into the company it stands in (which
  commits it); never a committed worker [assign_workers].
- ``scope``: public: only face-up public companies; Assign Workers places only there; an Extra
  Shift runs a public company staffed by MC's non-committed workers, its output goes to Public
  Services and the State pays its wage [assign_workers, extra_shift].
- ``policy_filter``: list of policies the bill may target [propose_bill].
- ``n_bills``: int 2-3: propose that many bills (each on a different policy) [propose_bill].
- ``any_section``: true: the bill may target any other section (A↔C too); no immediate vote
  [propose_bill].
- ``free_immediate_vote``: true: the immediate vote costs no influence [propose_bill].
- ``preview_cubes``: 5: look at 5 cubes drawn from the bag before choosing; if the bill is
  voted at once those 5 are its drawn cubes, otherwise they go back [propose_bill].
- ``price_factor``: number in (0, 1]: the purchase's total price × factor, rounded up; the
  seller still receives the full price only with ``state_pays_rest``
  [buy_goods, build_company, business_deal].
- ``state_pays_rest``: true: the treasury pays the part the buyer does not (mandatory for the
  State) [buy_goods, build_company, business_deal].
- ``no_tariff``: true: no tariff is paid [buy_goods, business_deal].
- ``sources``: list of CC | MC | ST | foreign: the only sources allowed [buy_goods].
- ``qty_cap``: int 1-3: each source sells up to qty_cap × Population [buy_goods].
- ``cost_delta``: int -20..20, not 0: added to the cost (never below 0)
  [build_company, business_deal, lobby].
- ``payer``: state: the treasury pays the cost (mandatory, forced loan allowed) [build_company].
- ``search_deck``: true: choose the company from the own company deck, not the market; the deck
  is shuffled afterwards [build_company].
- ``industry_filter``: list of industries: only companies of these industries (buy_goods: only
  their products, agri → food, media → influence) [build_company, buy_goods, extra_shift, strike].
- ``count``: 2: build two companies (or run two Extra Shifts) in one action
  [build_company, extra_shift].
- ``market_refill``: true: refill the own market after the build [build_company].
- ``txn_bonus_from_state``: int 1-10: the treasury pays that much ₳ per transaction
  (mandatory) [sell_foreign].
- ``extra_offers``: list of [res, quantity, price] (goods; price a multiple of 5): extra offers
  open for this sale only, each usable once [sell_foreign].
- ``peek_exports``: int 1-3: look at that many Export cards under the current one and sell to
  the offers of any one of them instead; they go back in order [sell_foreign].
- ``extra_strike_tokens``: per_union: strike up to 2 + (own unions) companies [strike].

Amounts (``FORMULA_TERMS``): an int, or one formula object
- ``{"per": term, "times": m, "divide": d, "round": up|down, "min": lo, "max": hi,
  "filter": {...}}``: m × count(term), then ÷ d rounded (default down), then clamped; only
  ``per`` is required (``times`` 1).  Terms:
  - ``population``: Population; ``employed``: own employed workers (``filter.owner`` restricts
    the companies' owner); ``unemployed``: own unemployed workers; ``companies``: own companies
    (``filter``: operational / industry / with_wc_employee); ``union``: WC unions filled;
    ``agenda_match``: policies 1-5 matching the face-up Agenda; ``loan``: own loans;
    ``public_company``: face-up public companies.
- ``{"lookup": "pN", "values": [a, b, c]}``: a, b or c as policy N is at A, B or C.
- ``{"fraction_of_cost": f, "round": up|down}``: f × the cost of the company the effect acts on.

Company filters (``COMPANY_FILTER``; every key optional)
- ``owner``: list of WC | MC | CC | public (default: the acting class's own companies; WC owns
  only Cooperative Farms); ``industry``: list of industries; ``operational``: bool;
  ``with_wc_employee``: bool (MC companies whose WC employee is present).

Requirements (``REQUIREMENTS``; a card's ``requirement`` and ``if.cond``: one key each)
- ``policy_in``: list of sections; holds when one of them is current.
- ``round_at_least``: int 2-5.
- ``unemployed_at_least``: int: own unemployed workers (ST: all WC and MC unemployed).
- ``pending_bills_at_least``: int: bills from anyone waiting for the Elections phase.
- ``has_loan``: bool: the acting player holds a loan (true) or none (false).
- ``companies_at_least``: ``{"n": k, ...company filter keys}``: matching companies ≥ k.

Events (``EVENT_TASKS``, ``EVENT_REWARDS``; done by the State's Event Action, §3.13)
- ``task`` node ops: ``provide_to`` (``bundle``: given to the chosen option's class, as
  ``provide``); ``spend`` (``res``: food | lux | health | edu | media_influence, ``up_to``: int;
  from what ST holds, at least 1); ``spend_money`` (``tiers``: three ascending ₳ sums, e.g.
  [15, 30, 45]; option ``tier`` k spends the k-th, to supply); ``buy_from_players`` (``res``:
  a good, ``up_to``: amount; bought at their prices from the chosen option's class);
  ``build_for`` (``min_cost``: int; the State pays for a company of the chosen class's market
  costing at least that, the owner chooses wage and staffing); ``propose_for`` (no parameter;
  the chosen class proposes a bill, the State decides the immediate vote).
- options: ``{"class": WC|MC|CC, "reward": r}`` (provide_to, buy_from_players, build_for,
  propose_for) or ``{"tier": k, "reward": r}`` (spend: tier 1 only; spend_money: 1-3).
- rewards (one key): ``legitimacy`` (1 | 2, with the option's class); ``legitimacy_per_units``
  (2 | 3: +1 with the option's class per that many units provided or bought); ``vp`` (int);
  ``vp_per_unit`` (int: VP per unit spent, provided or bought).
- ``no_action``: ``{"pair": [c1, c2]}`` or ``{"pair": "any"}`` (the State picks two classes):
  −1 Legitimacy to each at Scoring if the Event is still face up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

CLASSES = ("WC", "MC", "CC")
ROLES = ("WC", "MC", "CC", "ST")
ALL = ROLES
INDUSTRIES = ("agri", "lux", "health", "edu", "media")
GOODS = ("food", "lux", "health", "edu")
RESOURCES = ("money", *GOODS, "influence", "media_influence", "cubes")
BUNDLE_RESOURCES = ("money", *GOODS, "influence", "cubes")
PARTIES = ("supply", "treasury", *CLASSES)
POLICIES = tuple(f"p{n}" for n in range(1, 8))
SECTIONS = tuple(f"{n}{s}" for n in range(1, 8) for s in "ABC")
WORKER_KINDS = ("unskilled", "skilled_choice", *(f"skilled_{i}" for i in INDUSTRIES))
EXPORT_RESOURCES = GOODS
MAX_CHOICE_OPTIONS = 4  # §14: each card stays within the shared "option k" block


class DeckError(ValueError):
    """A deck file breaks the vocabulary or the schema; the message names file, card and path."""


@dataclass(frozen=True)
class Param:
    """One typed parameter: ``kind`` says how to check it, ``values``/``low``/``high`` bound it."""

    kind: str
    required: bool = True
    values: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Primitive:
    roles: tuple[str, ...]
    params: Mapping[str, Param]


def _p(kind: str, *values: Any, required: bool = True, low: float | None = None,
       high: float | None = None) -> Param:
    return Param(kind, required, tuple(values), low, high)


def _opt(kind: str, *values: Any, low: float | None = None, high: float | None = None) -> Param:
    return Param(kind, False, tuple(values), low, high)


# Parameter kinds: int, number, bool, enum, enum_list, amount, node, node_list, cond,
# filter, bundle, offers, count_or_any, int_list.
PRIMITIVES: Mapping[str, Primitive] = MappingProxyType({
    "basic": Primitive(ALL, {"action": _p("enum")}),  # modifiers: BASIC_MODIFIERS
    "gain": Primitive(ALL, {"res": _p("enum", *RESOURCES), "amt": _p("amount"),
                            "from": _p("enum", *PARTIES)}),
    "pay": Primitive(ALL, {"res": _p("enum", *RESOURCES), "amt": _p("amount"),
                           "to": _p("enum", *PARTIES)}),
    "sell_to_state": Primitive(("MC", "CC"), {
        "res": _p("enum", *GOODS), "max_n": _p("int", low=1, high=12),
        "unit_price": _p("int", low=1, high=20)}),
    "provide": Primitive(("ST",), {"target_class_choice": _p("enum_list", *CLASSES),
                                   "bundle": _p("bundle")}),
    "add_cubes": Primitive(CLASSES, {"amt": _p("amount")}),
    "bag_purge": Primitive(CLASSES, {"draw": _p("int", low=1, high=10),
                                     "remove_up_to": _p("int", low=1, high=10)}),
    "bag_replace": Primitive(CLASSES, {"reveal_until_k_opponent_cubes": _p("int", low=1, high=5)}),
    "add_worker": Primitive(("WC", "MC", "ST"), {
        "class": _p("enum", "WC", "MC"), "kind": _p("enum", *WORKER_KINDS),
        "n": _p("int", low=1, high=4)}),
    "remove_unemployed": Primitive(("WC", "MC"), {
        "n": _p("int", low=1, high=6), "pay_unskilled": _p("int", low=0, high=20),
        "pay_skilled": _p("int", low=0, high=20), "min_unemployed": _p("int", low=1, high=10)}),
    "upgrade_worker": Primitive(("WC", "MC"), {}),
    "build_coop_farm": Primitive(("WC",), {}),
    "sell_company": Primitive(("MC", "CC"), {"price_factor": _p("number", low=0, high=2),
                                                   "filter": _opt("filter")}),
    "transfer_company": Primitive(("CC", "ST"), {
        "direction": _p("enum", "public_to_cc", "cc_to_public"), "price": _p("amount")}),
    "produce": Primitive(ALL, {"company_filter": _p("filter"),
                               "wage_payer": _p("enum", "owner", "state", "none")}),
    "set_wage": Primitive(ALL, {
        "company": _p("enum", "own_one", "own_all", "public_one", "public_all", "employer_one"),
        "level": _p("enum", "L1", "L2", "L3", "min")}),
    "machinery": Primitive(("CC",), {"n": _p("int", low=1, high=3), "cost": _p("amount")}),
    "storage": Primitive(("CC",), {"resource": _p("enum", *GOODS, "choice"),
                                   "cost": _opt("int", low=0, high=40)}),
    "revenue_to_capital": Primitive(("CC",), {"fraction": _p("number", low=0, high=1),
                                              "round": _p("enum", "up", "down")}),
    "prosperity": Primitive(("WC", "MC"), {"steps": _p("int", low=1, high=2),
                                           "cost": _opt("amount")}),
    "vp": Primitive(ALL, {"n": _p("amount")}),
    "legitimacy": Primitive(("ST",), {"class": _p("enum", *CLASSES, "chosen"),
                                      "n": _p("enum", -2, -1, 1, 2)}),
    "legitimacy_token": Primitive(("ST",), {"class": _p("enum", *CLASSES, "chosen")}),
    "event_action": Primitive(("ST",), {"times": _p("int", low=2, high=3)}),
    "event_peek": Primitive(("ST",), {"k": _p("int", low=1, high=5),
                                      "place_or_replace": _p("enum", "place", "replace")}),
    "shift_policy": Primitive(ALL, {"condition": _p("enum_list", *SECTIONS),
                                    "adjacent": _p("bool"), "no_vp": _p("bool")}),
    "state_payout": Primitive(CLASSES, {"amt": _p("amount")}),
    "choice": Primitive(ALL, {"options": _p("node_list", low=2, high=MAX_CHOICE_OPTIONS)}),
    "optional": Primitive(ALL, {"effect": _p("node")}),
    "if": Primitive(ALL, {"cond": _p("cond"), "then": _p("node"), "else": _opt("node")}),
    "seq": Primitive(ALL, {"effects": _p("node_list", low=2, high=8)}),
})

# §3: basic action -> (number, roles that may use it).
BASIC_ACTIONS: Mapping[str, tuple[int, tuple[str, ...]]] = MappingProxyType({
    "propose_bill": (1, ALL),
    "political_pressure": (2, CLASSES),
    "assign_workers": (3, ("WC", "MC")),
    "buy_goods": (4, ("WC", "MC")),
    "strike": (5, ("WC",)),
    "demonstration": (6, ("WC",)),
    "build_company": (7, ("MC", "CC")),
    "sell_company": (8, ("MC", "CC")),
    "sell_foreign": (9, ("MC", "CC", "ST")),
    "extra_shift": (10, ("MC",)),
    "business_deal": (11, ("CC",)),
    "lobby": (12, ("CC",)),
    "event_action": (13, ("ST",)),
    "meet_mps": (14, ("ST",)),
    "extra_tax": (15, ("ST",)),
    "campaign": (16, ("ST",)),
})

_PURCHASES = ("buy_goods", "build_company", "business_deal")
# modifier -> (its parameter spec, the basic actions it may modify)
BASIC_MODIFIERS: Mapping[str, tuple[Param, tuple[str, ...]]] = MappingProxyType({
    "max_workers": (_p("count_or_any", low=1, high=9), ("assign_workers",)),
    "source": (_p("enum", "unemployed_only"), ("assign_workers",)),
    "allow_reassign": (_p("bool"), ("assign_workers",)),
    "scope": (_p("enum", "public"), ("assign_workers", "extra_shift")),
    "policy_filter": (_p("enum_list", *POLICIES), ("propose_bill",)),
    "n_bills": (_p("int", low=2, high=3), ("propose_bill",)),
    "any_section": (_p("bool"), ("propose_bill",)),
    "free_immediate_vote": (_p("bool"), ("propose_bill",)),
    "preview_cubes": (_p("int", low=5, high=5), ("propose_bill",)),
    "price_factor": (_p("number", low=0, high=1), _PURCHASES),
    "state_pays_rest": (_p("bool"), _PURCHASES),
    "no_tariff": (_p("bool"), ("buy_goods", "business_deal")),
    "sources": (_p("enum_list", "CC", "MC", "ST", "foreign"), ("buy_goods",)),
    "qty_cap": (_p("int", low=1, high=3), ("buy_goods",)),
    "cost_delta": (_p("int", low=-20, high=20), ("build_company", "business_deal", "lobby")),
    "payer": (_p("enum", "state"), ("build_company",)),
    "search_deck": (_p("bool"), ("build_company",)),
    "industry_filter": (_p("enum_list", *INDUSTRIES),
                        ("build_company", "buy_goods", "extra_shift", "strike")),
    "count": (_p("int", low=2, high=2), ("build_company", "extra_shift")),
    "market_refill": (_p("bool"), ("build_company",)),
    "txn_bonus_from_state": (_p("int", low=1, high=10), ("sell_foreign",)),
    "extra_offers": (_p("offers"), ("sell_foreign",)),
    "peek_exports": (_p("int", low=1, high=3), ("sell_foreign",)),
    "extra_strike_tokens": (_p("enum", "per_union"), ("strike",)),
})

FORMULA_TERMS = ("population", "employed", "unemployed", "companies", "union", "agenda_match",
                 "loan", "public_company")
FORMULA_PER: Mapping[str, Param] = MappingProxyType({
    "per": _p("enum", *FORMULA_TERMS), "times": _opt("int", low=-20, high=20),
    "divide": _opt("int", low=2, high=5), "round": _opt("enum", "up", "down"),
    "min": _opt("int", low=0, high=50), "max": _opt("int", low=0, high=60),
    "filter": _opt("filter"),
})
FORMULA_LOOKUP: Mapping[str, Param] = MappingProxyType({
    "lookup": _p("enum", *POLICIES), "values": _p("int_list", low=-60, high=60),
})
FORMULA_FRACTION: Mapping[str, Param] = MappingProxyType({
    "fraction_of_cost": _p("number", low=0, high=2), "round": _opt("enum", "up", "down"),
})

COMPANY_FILTER: Mapping[str, Param] = MappingProxyType({
    "owner": _opt("enum_list", "WC", "MC", "CC", "public"),
    "industry": _opt("enum_list", *INDUSTRIES),
    "operational": _opt("bool"),
    "with_wc_employee": _opt("bool"),
})

REQUIREMENTS: Mapping[str, Param] = MappingProxyType({
    "policy_in": _p("enum_list", *SECTIONS),
    "round_at_least": _p("int", low=2, high=5),
    "unemployed_at_least": _p("int", low=1, high=12),
    "pending_bills_at_least": _p("int", low=1, high=12),
    "has_loan": _p("bool"),
    "companies_at_least": _p("count_filter"),
})
COUNT_FILTER_N = _p("int", low=1, high=12)  # companies_at_least's ``n``

EVENT_TASKS: Mapping[str, Mapping[str, Param]] = MappingProxyType({
    "provide_to": {"bundle": _p("bundle")},
    "spend": {"res": _p("enum", *GOODS, "media_influence"), "up_to": _p("int", low=1, high=12)},
    "spend_money": {"tiers": _p("int_list", low=5, high=100)},
    "buy_from_players": {"res": _p("enum", *GOODS), "up_to": _p("amount")},
    "build_for": {"min_cost": _p("int", low=0, high=45)},
    "propose_for": {},
})
# Tasks whose options name a class; the others (spend, spend_money) have tier options.
CLASS_OPTION_TASKS = ("provide_to", "buy_from_players", "build_for", "propose_for")

EVENT_REWARDS: Mapping[str, Param] = MappingProxyType({
    "legitimacy": _p("enum", 1, 2),
    "legitimacy_per_units": _p("enum", 2, 3),
    "vp": _p("int", low=1, high=10),
    "vp_per_unit": _p("int", low=1, high=3),
})
