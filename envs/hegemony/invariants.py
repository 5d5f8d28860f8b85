"""Conservation laws and limits checked after every step by the conformance kit (issue:
money, workers, cubes, influence and goods accounted for; the component limits of §1.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.hegemony import board, storage
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC_SEATS, COOP_SEATS, MC_SEATS, PUBLIC_SEATS
from meeplezoo.envs.hegemony.politics import cubes_out_of_bag
from meeplezoo.envs.hegemony.state import NO_WORKER, worker_class, worker_kind

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState


def check_invariants(st: HegemonyState) -> None:
    _money(st)
    _cubes(st)
    _tokens(st)
    _companies(st)
    _cards(st)


def _money(st: HegemonyState) -> None:
    on_table = sum(st.money) + st.capital
    assert on_table == sum(D.START_MONEY) + st.minted, (
        f"money {on_table} != start {sum(D.START_MONEY)} + minted {st.minted}")
    assert min(st.loans) >= 0, f"loans {st.loans}"

    for cls in (0, 1, 3):
        assert st.money[cls] >= 0, f"class {cls} money {st.money[cls]} < 0"
    assert st.money[2] >= 0 and st.capital >= 0, (
        f"CC revenue {st.money[2]} / capital {st.capital} < 0")


def _cubes(st: HegemonyState) -> None:
    held = board.influence_supply(st)
    assert 0 <= held <= D.INFLUENCE_CUBES, f"influence supply {held} outside 0..35"
    drawn = cubes_out_of_bag(st)
    for cls in range(3):
        total = st.bag[cls] + st.cube_supply[cls] + drawn[cls] + st.benefits[cls][6]
        assert total == D.VOTING_CUBES, f"class {cls} voting cubes {total} != {D.VOTING_CUBES}"


def _tokens(st: HegemonyState) -> None:
    assert 0 <= board.strike_tokens_left(st) <= D.STRIKE_TOKENS
    assert 0 <= board.machinery_left(st) <= D.MACHINERY_TOKENS
    assert sum(st.storage_tiles) <= D.STORAGE_TILES
    assert sum(st.legit_tokens) <= D.LEGITIMACY_TOKENS
    assert all(D.LEGITIMACY_MIN <= v <= D.LEGITIMACY_MAX for v in st.legitimacy), st.legitimacy
    for good in range(4):
        assert st.mc_storage[good] <= D.MC_STORAGE_CAP[good], f"MC storage {st.mc_storage}"
        cap = D.CC_STORAGE_CAP[good] * (2 if st.storage_tiles[good] else 1)
        assert st.cc_storage[good] <= cap, f"CC storage {st.cc_storage}"
    for good in range(2):
        assert st.ftz[good] <= D.FTZ_CAP[good], f"FTZ {st.ftz}"
    assert min(min(g) for g in st.goods) >= 0 and min(st.public_services) >= 0
    for service in range(3):  # decision #47: no cap exceeded when a decision is asked
        cap = storage.public_service_cap(st, service)
        assert st.public_services[service] <= cap, f"Public Services {st.public_services}"
    for good in range(2):
        cap = storage.state_goods_cap(st, good)
        assert st.state_goods[good] <= cap, f"State goods {st.state_goods}"


def _companies(st: HegemonyState) -> None:
    # a card effect may move a company between the public sector and CC (transfer_company)
    for seats, sectors in ((CC_SEATS, ("cc", "public")), (MC_SEATS, ("mc",)),
                           (PUBLIC_SEATS, ("public", "cc")), (COOP_SEATS, ("coop",))):
        for seat in seats:
            index = st.seat_card[seat]
            workers = st.seat_workers[seat]
            if index < 0:
                assert all(w == NO_WORKER for w in workers), f"workers in empty seat {seat}"
                assert not st.seat_strike[seat] and not st.seat_machinery[seat]
                continue
            company = D.COMPANIES[index]
            assert company.sector in sectors, f"a {company.sector} card in seat {seat}"
            classes = set()
            for k, w in enumerate(workers):
                if w == NO_WORKER:
                    assert not st.seat_committed[seat][k], f"empty slot committed in seat {seat}"
                    continue
                assert k < len(company.slots), f"worker beyond the slots of seat {seat}"
                slot = company.slots[k]
                if slot.skill is not None:
                    assert worker_kind(w) == 1 + slot.skill, f"wrong skill in seat {seat}/{k}"
                if slot.employee:
                    assert worker_class(w) == 0, f"non-WC employee in seat {seat}"
                else:
                    classes.add(worker_class(w))
            assert len(classes) <= 1, f"seat {seat} mixes classes {classes} (§12 #21)"
            if not st.seat_face_up[seat]:
                assert all(w == NO_WORKER for w in workers), f"workers on face-down seat {seat}"
            assert not st.seat_machinery[seat] or company.machinery > 0
    for cls in range(2):
        assert min(st.unemployed[cls]) >= 0, f"unemployed {st.unemployed[cls]}"


def _cards(st: HegemonyState) -> None:
    for cls, name in enumerate(D.CLASSES):
        total = len(st.hands[cls]) + len(st.action_decks[cls]) + len(st.action_discard[cls])
        assert total == len(C.ACTION_DECK[name]), f"{name} action cards {total}"
