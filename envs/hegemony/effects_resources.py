"""Card primitives, the resource family: what a class gains and pays (money, goods, influence,
cubes, VP, the State's payouts, Revenue moved to Capital), the voting bag, and the workers a
card adds, removes or upgrades (§11.1).

Choices the vocabulary leaves open, decided here: ``remove_unemployed`` removes one worker at
a time, ``done`` after the first; ``bag_purge`` offers only drawn cubes of other classes;
``bag_replace`` sets own cubes drawn aside and puts the replacing cubes in after the draws.

It sits above the interpreter's core (``effects``) and below the phase modules; a retraining
or a Prosperity step is a phase rule of ``workers_free``, reached through the game's rules
object (``st.game.rules.phase``, built by ``rules.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from meeplezoo.envs.core.agenda import Decision, Item
from meeplezoo.envs.core.rules import Primitive, spends_nothing
from meeplezoo.envs.hegemony import board, money
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, COOP_SEATS, ST, blocks
from meeplezoo.envs.hegemony.effects import (
    COUNT,
    DRAWN,
    PURGE,
    REMOVE,
    SKILL,
    UPGRADE,
    UPGRADE_TO,
)
from meeplezoo.envs.hegemony.effects_terms import (
    CLASS_OF,
    INDUSTRY_OF,
    amount,
    receive,
    rounded,
    stock,
    take,
)
from meeplezoo.envs.hegemony.state import KINDS

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# -- gain, pay, state payout, vp -------------------------------------------------------------------
def _party(name: str) -> int:
    return money.SUPPLY if name == "supply" else ST if name == "treasury" else CLASS_OF[name]


def _always(st: HegemonyState, cls: int, nid: int) -> bool:
    return True


def _can_gain(st: HegemonyState, cls: int, nid: int) -> bool:
    return not (st.game.rules.cards.nodes[nid]["res"] == "cubes" and cls == ST)


def _do_gain(st: HegemonyState, cls: int, nid: int) -> None:
    node = st.game.rules.cards.nodes[nid]
    res, n, source = node["res"], amount(st, cls, node["amt"]), _party(node["from"])
    if n <= 0 or source == cls:
        return
    if res == "money":
        if source == money.SUPPLY:
            money.gain(st, cls, n)
        else:
            money.pay(st, source, n, cls, forced=True)
        return
    if source != money.SUPPLY and res != "cubes":
        n = min(n, stock(st, source, res))
        take(st, source, res, n)
    receive(st, cls, res, n)


def _can_pay(st: HegemonyState, cls: int, nid: int) -> bool:
    node = st.game.rules.cards.nodes[nid]
    return stock(st, cls, node["res"]) >= amount(st, cls, node["amt"])


def _do_pay(st: HegemonyState, cls: int, nid: int) -> None:
    node = st.game.rules.cards.nodes[nid]
    res, n, to = node["res"], amount(st, cls, node["amt"]), _party(node["to"])
    if n <= 0:
        return
    if res == "money":
        money.pay(st, cls, n, to)
        return
    take(st, cls, res, n)
    if to != money.SUPPLY and res != "cubes":
        receive(st, to, res, n)


def _do_state_payout(st: HegemonyState, cls: int, nid: int) -> None:
    n = amount(st, cls, st.game.rules.cards.nodes[nid]["amt"])
    if n > 0:
        money.pay(st, ST, n, cls, forced=True)


def _do_vp(st: HegemonyState, cls: int, nid: int) -> None:
    board.score(st, cls, amount(st, cls, st.game.rules.cards.nodes[nid]["n"]), "cards")


def _do_add_cubes(st: HegemonyState, cls: int, nid: int) -> None:
    receive(st, cls, "cubes", amount(st, cls, st.game.rules.cards.nodes[nid]["amt"]))


def _do_revenue_to_capital(st: HegemonyState, cls: int, nid: int) -> None:
    node = st.game.rules.cards.nodes[nid]
    moved = rounded(Fraction(str(node["fraction"])) * st.money[CC], node["round"])
    st.money[CC] -= moved
    st.capital += moved


# -- workers -------------------------------------------------------------------------------------
def _do_add_worker(st: HegemonyState, cls: int, nid: int) -> None:
    node = st.game.rules.cards.nodes[nid]
    owner, kind, n = CLASS_OF[node["class"]], node["kind"], node["n"]
    if kind == "skilled_choice":
        st.push((SKILL, owner, n))  # the owner chooses each industry
        return
    st.unemployed[owner][0 if kind == "unskilled" else 1 + INDUSTRY_OF[kind[8:]]] += n


def _legal_skill(st: HegemonyState, item: Item) -> list[int]:
    industry = blocks(item[1]).industry
    return [industry + i for i in range(len(D.INDUSTRIES))]


def _apply_skill(st: HegemonyState, item: Item, action: int) -> None:
    st.unemployed[item[1]][1 + action - blocks(item[1]).industry] += 1
    if item[2] > 1:
        st.agenda[-1] = (SKILL, item[1], item[2] - 1)
    else:
        st.agenda.pop()


def _can_remove_unemployed(st: HegemonyState, cls: int, nid: int) -> bool:
    return sum(st.unemployed[cls]) >= max(1, st.game.rules.cards.nodes[nid]["min_unemployed"])


def _do_remove_unemployed(st: HegemonyState, cls: int, nid: int) -> None:
    st.ctx[COUNT] = 0
    st.push((REMOVE, cls, nid))


def _legal_remove(st: HegemonyState, item: Item) -> list[int]:
    cls = item[1]
    b = blocks(cls)
    done = st.ctx[COUNT]
    legal = []
    if done < st.game.rules.cards.nodes[item[2]]["n"]:
        legal = [b.from_unemployed + k for k in range(KINDS) if st.unemployed[cls][k]]
    if done >= 1 or not legal:
        legal.append(b.DONE)
    return legal


def _apply_remove(st: HegemonyState, item: Item, action: int) -> None:
    cls = item[1]
    b = blocks(cls)
    if action == b.DONE:
        st.ctx[COUNT] = 0
        st.agenda.pop()
        return
    kind = action - b.from_unemployed
    node = st.game.rules.cards.nodes[item[2]]
    st.unemployed[cls][kind] -= 1
    money.gain(st, cls, node["pay_unskilled"] if kind == 0 else node["pay_skilled"])
    st.ctx[COUNT] += 1


def _can_upgrade(st: HegemonyState, cls: int, nid: int) -> bool:
    return bool(st.game.rules.phase["retrain_sources"](st, cls))


def _do_upgrade(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((UPGRADE, cls, nid))


def _legal_upgrade(st: HegemonyState, item: Item) -> list[int]:
    """The workers Use Education could replace (§4.2)."""
    return st.game.rules.phase["retrain_sources"](st, item[1])


def _apply_upgrade(st: HegemonyState, item: Item, action: int) -> None:
    """Remember where the worker is: arg = kind (unemployed) or KINDS + slot index."""
    b = blocks(item[1])
    source = action - b.from_unemployed if action < b.from_slot else \
        KINDS + action - b.from_slot
    st.agenda[-1] = (UPGRADE_TO, item[1], source)


def _legal_upgrade_to(st: HegemonyState, item: Item) -> list[int]:
    return st.game.rules.phase["legal_retrain_industry"](st, item)


def _apply_upgrade_to(st: HegemonyState, item: Item, action: int) -> None:
    """As Use Education's replacement (§4.2), without its cost or Prosperity."""
    st.game.rules.phase["apply_retrain"](st, item, action)


def _can_coop(st: HegemonyState, cls: int, nid: int) -> bool:
    return any(st.seat_card[s] < 0 for s in COOP_SEATS)


def _do_coop(st: HegemonyState, cls: int, nid: int) -> None:
    seat = next(s for s in COOP_SEATS if st.seat_card[s] < 0)
    st.seat_card[seat], st.seat_face_up[seat], st.seat_wage[seat] = D.COOP_FARM, 1, -1


# -- the voting bag --------------------------------------------------------------------------------
def _draw_one(st: HegemonyState, counts: list[int]) -> int:
    """Draw one cube from ``counts`` (per class) at random; its class."""
    r = int(st.rng.integers(sum(counts)))
    for c, n in enumerate(counts):
        if r < n:
            counts[c] -= 1
            return c
        r -= n
    raise AssertionError("empty bag")


def _do_bag_purge(st: HegemonyState, cls: int, nid: int) -> None:
    """Draw; the drawn cubes stay counted in the bag until one is returned or all go back."""
    left = list(st.bag)
    drawn = [0, 0, 0]
    for _ in range(st.game.rules.cards.nodes[nid]["draw"]):
        if not sum(left):
            break
        drawn[_draw_one(st, left)] += 1
    for c in range(3):
        st.ctx[DRAWN[c]] = drawn[c] if c != cls else 0
    st.ctx[COUNT] = 0
    st.push((PURGE, cls, nid))


def _legal_purge(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    if st.ctx[COUNT] >= st.game.rules.cards.nodes[item[2]]["remove_up_to"]:
        return [b.DONE]
    return [*(getattr(b, "class") + c for c in range(3) if st.ctx[DRAWN[c]]), b.DONE]


def _apply_purge(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(item[1])
    if action == b.DONE:
        for key in DRAWN:
            st.ctx[key] = 0
        st.ctx[COUNT] = 0
        st.agenda.pop()
        return
    c = action - getattr(b, "class")
    st.ctx[DRAWN[c]] -= 1
    st.bag[c] -= 1
    st.cube_supply[c] += 1
    st.ctx[COUNT] += 1


def _do_bag_replace(st: HegemonyState, cls: int, nid: int) -> None:
    """Draw until k opponent cubes are out; each goes home and an own cube replaces it."""
    left = list(st.bag)
    out = 0
    while out < st.game.rules.cards.nodes[nid]["reveal_until_k_opponent_cubes"] and sum(left):
        c = _draw_one(st, left)
        if c == cls:
            continue  # set aside, back into the bag at the end
        out += 1
        st.bag[c] -= 1
        st.cube_supply[c] += 1
        if st.cube_supply[cls]:
            st.cube_supply[cls] -= 1
            st.bag[cls] += 1


# -- the tables ------------------------------------------------------------------------------
def _pay_cost(st: HegemonyState, cls: int, nid: int) -> int:
    """A ``pay`` of money costs its amount (other resources cost no money)."""
    node = st.game.rules.cards.nodes[nid]
    return amount(st, cls, node["amt"]) if node["res"] == "money" else 0


def _pays_money(node: Mapping[str, Any]) -> bool:
    return node["res"] == "money"


# each primitive: its check, its effect and its declared cost (core.rules.Primitive;
# ``spends_nothing``: it declares no cost)
PRIMITIVES = {
    "gain": spends_nothing(_can_gain, _do_gain),
    "pay": Primitive(_can_pay, _do_pay, _pay_cost, _pays_money),
    "add_cubes": spends_nothing(_always, _do_add_cubes),
    "bag_purge": spends_nothing(_always, _do_bag_purge),
    "bag_replace": spends_nothing(_always, _do_bag_replace),
    "add_worker": spends_nothing(_always, _do_add_worker),
    "remove_unemployed": spends_nothing(_can_remove_unemployed, _do_remove_unemployed),
    "upgrade_worker": spends_nothing(_can_upgrade, _do_upgrade),
    "build_coop_farm": spends_nothing(_can_coop, _do_coop),
    "revenue_to_capital": spends_nothing(_always, _do_revenue_to_capital),
    "vp": spends_nothing(_always, _do_vp),
    "state_payout": spends_nothing(_always, _do_state_payout),
}
CODES: dict[int, Decision] = {
    SKILL: Decision("effects_new_worker_industry", _legal_skill, _apply_skill),
    REMOVE: Decision("effects_remove_unemployed", _legal_remove, _apply_remove),
    UPGRADE: Decision("effects_upgrade_worker", _legal_upgrade, _apply_upgrade),
    UPGRADE_TO: Decision("effects_upgrade_industry", _legal_upgrade_to, _apply_upgrade_to),
    PURGE: Decision("effects_bag_purge", _legal_purge, _apply_purge),
}
