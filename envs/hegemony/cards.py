"""Hegemony's authored decks (action cards, Events, Political Agendas, Export cards) and the
closed effect vocabulary the engine's card interpreter reads (our Hegemony rules page §11.1).

The four json files beside this module hold the decks; this module loads them once at import,
checks every effect tree against the vocabulary below, and fails with a :class:`DeckError` that
names the file, the card id and the path inside the tree (``wc_07.effects[0].options[1]``).
The vocabulary is data (``PRIMITIVES``, ``BASIC_ACTIONS``, ``BASIC_MODIFIERS``, ``FORMULA_TERMS``,
``REQUIREMENTS``, ``COMPANY_FILTER``, ``EVENT_TASKS``, ``EVENT_REWARDS``); this docstring is its
manual.  Names: classes WC MC CC, roles WC MC CC ST; resources are lower case like ``data.py``
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

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

DECK_DIR = Path(__file__).parent
ACTION_FILE = "action_cards.json"
EVENT_FILE = "events.json"
AGENDA_FILE = "agendas.json"
EXPORT_FILE = "exports.json"

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
_FORMULA_PER: Mapping[str, Param] = MappingProxyType({
    "per": _p("enum", *FORMULA_TERMS), "times": _opt("int", low=-20, high=20),
    "divide": _opt("int", low=2, high=5), "round": _opt("enum", "up", "down"),
    "min": _opt("int", low=0, high=50), "max": _opt("int", low=0, high=60),
    "filter": _opt("filter"),
})
_FORMULA_LOOKUP: Mapping[str, Param] = MappingProxyType({
    "lookup": _p("enum", *POLICIES), "values": _p("int_list", low=-60, high=60),
})
_FORMULA_FRACTION: Mapping[str, Param] = MappingProxyType({
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


# ---------------------------------------------------------------------------------------------
# Validation


def _fail(path: str, message: str) -> DeckError:
    return DeckError(f"{path}: {message}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str)


def _check_range(value: float, spec: Param, path: str) -> None:
    if spec.low is not None and value < spec.low:
        raise _fail(path, f"{value} is below {spec.low}")
    if spec.high is not None and value > spec.high:
        raise _fail(path, f"{value} is above {spec.high}")


def _check_params(obj: Mapping[str, Any], specs: Mapping[str, Param], role: str, path: str,
                  skip: tuple[str, ...] = ()) -> None:
    """Every required parameter present, none unknown, each of its declared kind."""
    for name, spec in specs.items():
        if spec.required and name not in obj:
            raise _fail(path, f"missing parameter '{name}'")
    for name, value in obj.items():
        if name in skip:
            continue
        if name not in specs:
            raise _fail(path, f"unknown parameter '{name}'")
        _check_value(value, specs[name], role, f"{path}.{name}")


def _check_value(value: Any, spec: Param, role: str, path: str) -> None:
    kind = spec.kind
    if kind == "int":
        if not _is_int(value):
            raise _fail(path, f"expected an int, got {value!r}")
        _check_range(value, spec, path)
    elif kind == "number":
        if not _is_number(value):
            raise _fail(path, f"expected a number, got {value!r}")
        if spec.low is not None and value <= spec.low:  # numbers are fractions: (low, high]
            raise _fail(path, f"{value} must be above {spec.low}")
        if spec.high is not None and value > spec.high:
            raise _fail(path, f"{value} is above {spec.high}")
    elif kind == "bool":
        if not isinstance(value, bool):
            raise _fail(path, f"expected true or false, got {value!r}")
    elif kind == "enum":
        if isinstance(value, bool) or value not in spec.values:
            raise _fail(path, f"{value!r} is not one of {list(spec.values)}")
    elif kind == "enum_list":
        if not _is_list(value) or not value:
            raise _fail(path, f"expected a non-empty list, got {value!r}")
        if len(set(value)) != len(value):
            raise _fail(path, f"repeated entries in {list(value)}")
        for i, item in enumerate(value):
            if item not in spec.values:
                raise _fail(f"{path}[{i}]", f"{item!r} is not one of {list(spec.values)}")
    elif kind == "int_list":
        if not _is_list(value) or len(value) != 3:
            raise _fail(path, f"expected a list of three ints, got {value!r}")
        for i, item in enumerate(value):
            if not _is_int(item):
                raise _fail(f"{path}[{i}]", f"expected an int, got {item!r}")
            _check_range(item, spec, f"{path}[{i}]")
    elif kind == "count_or_any":
        if value != "any":
            if not _is_int(value):
                raise _fail(path, f"expected an int or \"any\", got {value!r}")
            _check_range(value, spec, path)
    elif kind == "amount":
        check_amount(value, path)
    elif kind == "node":
        validate_effect(value, role, path)
    elif kind == "node_list":
        if not _is_list(value):
            raise _fail(path, f"expected a list of effect nodes, got {value!r}")
        _check_range(len(value), spec, path + " (length)")
        for i, item in enumerate(value):
            validate_effect(item, role, f"{path}[{i}]")
    elif kind == "cond":
        check_requirement(value, path)
    elif kind == "filter":
        _check_object(value, path)
        _check_params(value, COMPANY_FILTER, role, path)
    elif kind == "count_filter":
        _check_object(value, path)
        if "n" not in value:
            raise _fail(path, "missing parameter 'n'")
        _check_value(value["n"], _p("int", low=1, high=12), role, f"{path}.n")
        _check_params(value, COMPANY_FILTER, role, path, skip=("n",))
    elif kind == "bundle":
        _check_object(value, path)
        if not value:
            raise _fail(path, "an empty bundle")
        for res, amount in value.items():
            if res not in BUNDLE_RESOURCES:
                raise _fail(f"{path}.{res}", f"{res!r} is not one of {list(BUNDLE_RESOURCES)}")
            check_amount(amount, f"{path}.{res}")
    elif kind == "offers":
        _check_offers(value, path)
    else:  # pragma: no cover - a typo in the tables above
        raise AssertionError(f"unknown parameter kind {kind}")


def _check_object(value: Any, path: str) -> None:
    if not isinstance(value, Mapping):
        raise _fail(path, f"expected an object, got {value!r}")


def _check_offers(value: Any, path: str) -> None:
    if not _is_list(value) or not value:
        raise _fail(path, "expected a non-empty list of [res, quantity, price]")
    for i, offer in enumerate(value):
        where = f"{path}[{i}]"
        if not _is_list(offer) or len(offer) != 3:
            raise _fail(where, f"expected [res, quantity, price], got {offer!r}")
        res, qty, price = offer
        if res not in GOODS:
            raise _fail(where, f"{res!r} is not one of {list(GOODS)}")
        if not (_is_int(qty) and 1 <= qty <= 8):
            raise _fail(where, f"quantity {qty!r} is not an int 1-8")
        if not (_is_int(price) and price > 0 and price % 5 == 0):
            raise _fail(where, f"price {price!r} is not a positive multiple of 5")


def check_amount(value: Any, path: str) -> None:
    """An amount is an int or exactly one formula object (``per``, ``lookup``, a cost share)."""
    if _is_int(value):
        return
    if not isinstance(value, Mapping):
        raise _fail(path, f"not an amount (an int or a formula object): {value!r}")
    if "per" in value:
        specs = _FORMULA_PER
        term = value.get("per")
        if "filter" in value and term not in ("employed", "companies"):
            raise _fail(path, f"'filter' goes only with per employed or companies, not {term!r}")
    elif "lookup" in value:
        specs = _FORMULA_LOOKUP
    elif "fraction_of_cost" in value:
        specs = _FORMULA_FRACTION
    else:
        raise _fail(path, f"not an amount (int, per, lookup or fraction_of_cost): {value!r}")
    _check_params(value, specs, "", path)


def check_requirement(value: Any, path: str) -> None:
    """A requirement is an object with exactly one key of ``REQUIREMENTS``."""
    _check_object(value, path)
    if len(value) != 1:
        raise _fail(path, f"a requirement has exactly one key, got {sorted(value)}")
    (name, arg), = value.items()
    if name not in REQUIREMENTS:
        raise _fail(path, f"unknown requirement '{name}'")
    _check_value(arg, REQUIREMENTS[name], "", f"{path}.{name}")


def validate_effect(node: Any, role: str, path: str) -> None:
    """Check one effect tree for ``role``; raise :class:`DeckError` naming ``path`` on a fault."""
    _check_object(node, path)
    op = node.get("op")
    if op not in PRIMITIVES:
        raise _fail(path, f"unknown op {op!r}")
    primitive = PRIMITIVES[op]
    if role not in primitive.roles:
        raise _fail(path, f"'{op}' is not available to {role} (only {list(primitive.roles)})")
    params = {k: v for k, v in node.items() if k != "op"}
    if op == "basic":
        _check_basic(params, role, path)
        return
    _check_params(params, primitive.params, role, path)
    if op == "add_worker" and role != "ST" and params["class"] != role:
        raise _fail(path, f"a {role} card adds only {role} workers")
    if op == "bag_purge" and params["remove_up_to"] > params["draw"]:
        raise _fail(path, "remove_up_to exceeds draw")
    if op == "produce" and role == "WC" and params["company_filter"].get("owner", ["WC"]) != ["WC"]:
        raise _fail(f"{path}.company_filter", "WC produces only on its Cooperative Farm")
    if op == "set_wage":
        allowed = _WAGE_TARGETS[role]
        if params["company"] not in allowed:
            raise _fail(f"{path}.company", f"{role} may set only {list(allowed)}")
    if op in ("gain", "pay"):
        party = params["from"] if op == "gain" else params["to"]
        if party == role:
            raise _fail(path, f"{op} with its own class as the other party")


# Whose wages a card of each role may set: WC owns no wage-paying company, only ST sets public
# wages, and any class may push the wage of a company employing its own workers.
_WAGE_TARGETS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "WC": ("employer_one",),
    "MC": ("own_one", "own_all", "employer_one"),
    "CC": ("own_one", "own_all"),
    "ST": ("public_one", "public_all"),
})


def _check_basic(params: Mapping[str, Any], role: str, path: str) -> None:
    if "action" not in params:
        raise _fail(path, "missing parameter 'action'")
    action = params["action"]
    if action not in BASIC_ACTIONS:
        raise _fail(f"{path}.action", f"unknown basic action {action!r}")
    if role not in BASIC_ACTIONS[action][1]:
        raise _fail(f"{path}.action", f"{role} may not use the basic action '{action}'")
    for name, value in params.items():
        if name == "action":
            continue
        if name not in BASIC_MODIFIERS:
            raise _fail(path, f"unknown basic modifier '{name}'")
        spec, actions = BASIC_MODIFIERS[name]
        if action not in actions:
            raise _fail(path, f"modifier '{name}' does not go with '{action}'")
        _check_value(value, spec, role, f"{path}.{name}")
    if "market_refill" in params and "count" not in params:
        raise _fail(path, "market_refill goes only with count")
    if "state_pays_rest" in params and "price_factor" not in params:
        raise _fail(path, "state_pays_rest goes only with price_factor")


def iter_nodes(node: Mapping[str, Any]):
    """Yield every node of an effect tree, depth first (the node itself first)."""
    yield node
    for name, value in node.items():
        if name == "op":
            continue
        if name in ("effect", "then", "else") and isinstance(value, Mapping):
            yield from iter_nodes(value)
        elif name in ("options", "effects") and _is_list(value):
            for child in value:
                if isinstance(child, Mapping):
                    yield from iter_nodes(child)


# ---------------------------------------------------------------------------------------------
# Frozen card records


def _freeze(value: Any) -> Any:
    """Read-only copy of parsed json: objects become mapping proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class ActionCard:
    id: str
    role: str
    title: str
    copies: int
    requirement: Mapping[str, Any] | None
    effects: tuple[Mapping[str, Any], ...]
    legitimacy: Mapping[str, int]  # State legitimacy change per class when played for effect
    min_round: int
    note: str


@dataclass(frozen=True)
class EventOption:
    cls: str | None  # the class the option serves (rewards with it), or None for a tier option
    tier: int | None
    reward: Mapping[str, int]


@dataclass(frozen=True)
class Event:
    id: str
    title: str
    min_round: int
    task: Mapping[str, Any]
    options: tuple[EventOption, ...]
    penalty_pair: tuple[str, str] | None  # None: the State picks any two classes (decision #22)
    note: str


@dataclass(frozen=True)
class Agenda:
    id: str
    target: Mapping[str, str]  # "p1".."p5" -> "A" | "B" | "C"
    note: str


@dataclass(frozen=True)
class ExportCard:
    id: str
    offers: Mapping[str, tuple[tuple[int, int], tuple[int, int]]]  # good -> (small, large)
    note: str


def _keys(obj: Any, required: tuple[str, ...], optional: tuple[str, ...], path: str) -> None:
    _check_object(obj, path)
    for key in required:
        if key not in obj:
            raise _fail(path, f"missing field '{key}'")
    for key in obj:
        if key not in required + optional:
            raise _fail(path, f"unknown field '{key}'")


def _text(obj: Mapping[str, Any], key: str, path: str) -> str:
    value = obj[key]
    if not isinstance(value, str) or not value.strip() or "\n" in value:
        raise _fail(f"{path}.{key}", "expected a non-empty one-line string")
    return value


def _ids(cards: list[Mapping[str, Any]], prefix: str, path: str) -> None:
    seen: set[str] = set()
    for i, card in enumerate(cards):
        card_id = card.get("id") if isinstance(card, Mapping) else None
        if not isinstance(card_id, str) or not card_id.startswith(prefix) \
                or not card_id[len(prefix):].isdigit():
            raise _fail(f"{path}[{i}]", f"id {card_id!r} is not {prefix}NN")
        if card_id in seen:
            raise _fail(card_id, "duplicate id")
        seen.add(card_id)


def _items(data: Any, key: str) -> list[Any]:
    _keys(data, ("about", key), (), "file")
    if not isinstance(data["about"], str) or not data["about"].strip():
        raise _fail("about", "expected a non-empty string")
    if not isinstance(data[key], list):
        raise _fail(key, "expected a list")
    return data[key]


def parse_action_card(raw: Any, path: str) -> ActionCard:
    """One action card from parsed json; ``path`` is its id, used in every error message."""
    _keys(raw, ("id", "role", "title", "copies", "effects", "note"),
          ("requirement", "legitimacy", "min_round"), path)
    role = raw["role"]
    if role not in ROLES or not raw["id"].startswith(role.lower() + "_"):
        raise _fail(f"{path}.role", f"role {role!r} does not match the id")
    copies = raw["copies"]
    if not _is_int(copies) or not 1 <= copies <= 3:
        raise _fail(f"{path}.copies", f"expected 1-3 copies, got {copies!r}")
    requirement = raw.get("requirement")
    if requirement is not None:
        check_requirement(requirement, f"{path}.requirement")
    effects = raw["effects"]
    if not _is_list(effects) or not effects:
        raise _fail(f"{path}.effects", "expected a non-empty list of effect nodes")
    for i, node in enumerate(effects):
        validate_effect(node, role, f"{path}.effects[{i}]")
    legitimacy = raw.get("legitimacy", {})
    _check_object(legitimacy, f"{path}.legitimacy")
    if not 1 <= len(legitimacy) <= 2 and "legitimacy" in raw:
        raise _fail(f"{path}.legitimacy", "legitimacy symbols name one or two classes")
    for cls, n in legitimacy.items():
        if cls not in CLASSES or n not in (-2, -1, 1, 2) or isinstance(n, bool):
            raise _fail(f"{path}.legitimacy.{cls}", f"expected a class and ±1 or ±2, got {n!r}")
    min_round = raw.get("min_round", 1)
    if not _is_int(min_round) or not 1 <= min_round <= 5:
        raise _fail(f"{path}.min_round", f"expected a round 1-5, got {min_round!r}")
    return ActionCard(raw["id"], role, _text(raw, "title", path), copies,
                      _freeze(requirement), _freeze(list(effects)), _freeze(dict(legitimacy)),
                      min_round, _text(raw, "note", path))


def parse_event(raw: Any, path: str) -> Event:
    """One Event from parsed json (§11.1 Events schema, checked against ``EVENT_TASKS``)."""
    _keys(raw, ("id", "title", "min_round", "task", "options", "no_action", "note"), (), path)
    if raw["min_round"] not in (1, 2) or isinstance(raw["min_round"], bool):
        raise _fail(f"{path}.min_round", "expected 1 or 2")
    task = raw["task"]
    _check_object(task, f"{path}.task")
    op = task.get("op")
    if op not in EVENT_TASKS:
        raise _fail(f"{path}.task", f"unknown task op {op!r}")
    _check_params({k: v for k, v in task.items() if k != "op"}, EVENT_TASKS[op], "ST",
                  f"{path}.task")
    if op == "spend_money" and list(task["tiers"]) != sorted(set(task["tiers"])):
        raise _fail(f"{path}.task.tiers", "tiers must be strictly ascending")
    options_raw = raw["options"]
    if not _is_list(options_raw) or not 1 <= len(options_raw) <= MAX_CHOICE_OPTIONS:
        raise _fail(f"{path}.options", "expected 1-4 options")
    options = tuple(_parse_option(o, op, task, f"{path}.options[{i}]")
                    for i, o in enumerate(options_raw))
    keys = [o.cls if o.cls is not None else o.tier for o in options]
    if len(set(keys)) != len(keys):
        raise _fail(f"{path}.options", "repeated option")
    _keys(raw["no_action"], ("pair",), (), f"{path}.no_action")
    pair = raw["no_action"]["pair"]
    if pair == "any":
        penalty_pair = None
    elif (_is_list(pair) and len(pair) == 2 and len(set(pair)) == 2
          and all(c in CLASSES for c in pair)):
        penalty_pair = (pair[0], pair[1])
    else:
        raise _fail(f"{path}.no_action.pair", f"expected two classes or \"any\", got {pair!r}")
    return Event(raw["id"], _text(raw, "title", path), raw["min_round"], _freeze(dict(task)),
                 options, penalty_pair, _text(raw, "note", path))


def _parse_option(raw: Any, op: str, task: Mapping[str, Any], path: str) -> EventOption:
    if op in CLASS_OPTION_TASKS:
        _keys(raw, ("class", "reward"), (), path)
        if raw["class"] not in CLASSES:
            raise _fail(f"{path}.class", f"{raw['class']!r} is not one of {list(CLASSES)}")
    else:
        _keys(raw, ("tier", "reward"), (), path)
        n_tiers = len(task["tiers"]) if op == "spend_money" else 1
        if not _is_int(raw["tier"]) or not 1 <= raw["tier"] <= n_tiers:
            raise _fail(f"{path}.tier", f"expected a tier 1-{n_tiers}, got {raw['tier']!r}")
    reward = raw["reward"]
    _check_object(reward, f"{path}.reward")
    if len(reward) != 1:
        raise _fail(f"{path}.reward", "a reward has exactly one key")
    (name, value), = reward.items()
    if name not in EVENT_REWARDS:
        raise _fail(f"{path}.reward", f"unknown reward '{name}'")
    _check_value(value, EVENT_REWARDS[name], "ST", f"{path}.reward.{name}")
    return EventOption(raw.get("class"), raw.get("tier"), _freeze(dict(reward)))


def parse_agenda(raw: Any, path: str) -> Agenda:
    """One Political Agenda: a section for each of policies 1-5."""
    _keys(raw, ("id", "target", "note"), (), path)
    _keys(raw["target"], tuple(f"p{n}" for n in range(1, 6)), (), f"{path}.target")
    for policy, section in raw["target"].items():
        if section not in ("A", "B", "C"):
            raise _fail(f"{path}.target.{policy}", f"{section!r} is not A, B or C")
    return Agenda(raw["id"], _freeze(dict(raw["target"])), _text(raw, "note", path))


def parse_export(raw: Any, path: str) -> ExportCard:
    """One Export card: a small and a large [quantity, price] offer for each good."""
    _keys(raw, ("id", "offers", "note"), (), path)
    _keys(raw["offers"], EXPORT_RESOURCES, (), f"{path}.offers")
    offers: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {}
    for res in EXPORT_RESOURCES:
        pair = raw["offers"][res]
        where = f"{path}.offers.{res}"
        if not _is_list(pair) or len(pair) != 2:
            raise _fail(where, "expected [[q_small, price], [q_large, price]]")
        for i, offer in enumerate(pair):
            if not (_is_list(offer) and len(offer) == 2 and all(_is_int(x) and x > 0
                                                                   for x in offer)):
                raise _fail(f"{where}[{i}]", f"expected [quantity, price], got {offer!r}")
        (q1, m1), (q2, m2) = pair
        offers[res] = ((q1, m1), (q2, m2))
    return ExportCard(raw["id"], MappingProxyType(offers), _text(raw, "note", path))


def _parse_file(name: str, data: Any, key: str, prefix: str | None, parse) -> list[Any]:
    """Parse every entry of one deck file; any fault is re-raised naming the file."""
    try:
        items = _items(data, key)
        if prefix is not None:
            _ids(items, prefix, key)
        return [parse(item, item["id"]) for item in items]
    except DeckError as error:
        raise DeckError(f"{name}: {error}") from None


def parse_action_cards(data: Any, name: str = ACTION_FILE) -> list[ActionCard]:
    """All action cards of a parsed ``action_cards.json``; ids are checked per role prefix."""
    try:
        items = _items(data, "cards")
        seen: set[str] = set()
        for i, item in enumerate(items):
            card_id = item.get("id") if isinstance(item, Mapping) else None
            if not isinstance(card_id, str) or card_id[:3] not in ("wc_", "mc_", "cc_", "st_") \
                    or not card_id[3:].isdigit():
                raise _fail(f"cards[{i}]", f"id {card_id!r} is not wc_NN, mc_NN, cc_NN or st_NN")
            if card_id in seen:
                raise _fail(card_id, "duplicate id")
            seen.add(card_id)
        return [parse_action_card(item, item["id"]) for item in items]
    except DeckError as error:
        raise DeckError(f"{name}: {error}") from None


def parse_events(data: Any, name: str = EVENT_FILE) -> list[Event]:
    return _parse_file(name, data, "events", "ev_", parse_event)


def parse_agendas(data: Any, name: str = AGENDA_FILE) -> list[Agenda]:
    return _parse_file(name, data, "agendas", "ag_", parse_agenda)


def parse_exports(data: Any, name: str = EXPORT_FILE) -> list[ExportCard]:
    return _parse_file(name, data, "exports", "ex_", parse_export)


def _read(name: str) -> Any:
    with (DECK_DIR / name).open(encoding="utf-8") as handle:
        return json.load(handle)


_CARDS = parse_action_cards(_read(ACTION_FILE))
ACTION_CARDS: dict[str, tuple[ActionCard, ...]] = {
    role: tuple(card for card in _CARDS if card.role == role) for role in ROLES
}
ACTION_DECK: dict[str, tuple[str, ...]] = {
    role: tuple(card.id for card in cards for _ in range(card.copies))
    for role, cards in ACTION_CARDS.items()
}
CARD_BY_ID: dict[str, ActionCard] = {card.id: card for card in _CARDS}
EVENTS: tuple[Event, ...] = tuple(parse_events(_read(EVENT_FILE)))
AGENDAS: tuple[Agenda, ...] = tuple(parse_agendas(_read(AGENDA_FILE)))
EXPORTS: tuple[ExportCard, ...] = tuple(parse_exports(_read(EXPORT_FILE)))
