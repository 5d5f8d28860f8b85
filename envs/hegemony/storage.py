"""Storage capacities and putting goods away (§5.11): overflow beyond every space is lost."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, PUBLIC_SEATS

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState


def capacity(st: HegemonyState, cls: int, good: int) -> int:
    """Regular storage room for ``good`` (0 food, 1 lux, 2 health, 3 edu) of MC or CC."""
    if cls == MC:
        return D.MC_STORAGE_CAP[good]
    if cls == CC:
        return D.CC_STORAGE_CAP[good] * (2 if st.storage_tiles[good] else 1)
    raise ValueError(f"class {cls} has no storage")


def room(st: HegemonyState, cls: int, good: int) -> int:
    held = st.mc_storage[good] if cls == MC else st.cc_storage[good]
    return max(0, capacity(st, cls, good) - held)


def ftz_room(st: HegemonyState, good: int) -> int:
    """Free Trade Zone room (food 0, lux 1 only)."""
    return max(0, D.FTZ_CAP[good] - st.ftz[good]) if good < 2 else 0


def store(st: HegemonyState, cls: int, good: int, amount: int, *, ftz: bool = False) -> int:
    """Put ``amount`` of ``good`` into ``cls``'s storage (CC: then the FTZ if ``ftz``);
    returns how many were stored (the rest is lost)."""
    into = min(amount, room(st, cls, good))
    if cls == MC:
        st.mc_storage[good] += into
    else:
        st.cc_storage[good] += into
    extra = 0
    if ftz and cls == CC and good < 2:
        extra = min(amount - into, ftz_room(st, good))
        st.ftz[good] += extra
    return into + extra


def public_service_cap(st: HegemonyState, service: int) -> int:
    """Cap of Public Service ``service`` (0 health, 1 edu, 2 media influence): the production
    of the face-up public companies of that industry, operational or not, + 6 (§5.8)."""
    industry = 2 + service  # health 2, edu 3, media 4
    total = sum(D.COMPANIES[st.seat_card[s]].production for s in PUBLIC_SEATS
                if st.seat_card[s] >= 0 and st.seat_face_up[s]
                and D.COMPANIES[st.seat_card[s]].industry == industry)
    return total + D.STATE_STOCK_MARGIN


def state_goods_cap(st: HegemonyState, good: int) -> int:
    """The State's own food / lux cap: its production of that good + 6 (§5.11, §12 #12).
    The State produces food or lux only through public companies of that industry, which the
    base game does not have, so the cap is 6 unless a card moves such a company to it."""
    total = sum(D.COMPANIES[st.seat_card[s]].production for s in PUBLIC_SEATS
                if st.seat_card[s] >= 0 and st.seat_face_up[s]
                and D.COMPANIES[st.seat_card[s]].industry == good)
    return total + D.STATE_STOCK_MARGIN


def discard_state_excess(st: HegemonyState) -> None:
    """Decision #47 (§5.8): whatever lowers a cap of the State's stock (a public company moved
    to CC, sold or turned face down) discards the stock above it at once, so no cap is ever
    exceeded when a decision is asked.  The State's own Food and Lux follow the same rule."""
    for service in range(3):
        st.public_services[service] = min(st.public_services[service],
                                          public_service_cap(st, service))
    for good in range(2):
        st.state_goods[good] = min(st.state_goods[good], state_goods_cap(st, good))
