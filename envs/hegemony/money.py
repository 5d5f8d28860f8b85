"""Money routing and loans (rules page "CC money", §11.2 loans, §12 #35).

Every payment goes through ``pay`` or ``pay_capital_first`` and every gain through
``gain``, so money is conserved by construction: ``st.minted`` counts what came from
or went to the bank (the supply), and ``invariants`` checks that the money on the
table equals the starting money plus ``minted``.

- CC's gains go to its Revenue; CC pays from Revenue, then Capital, except interest,
  Lobby and Pay Off Loan, which take Capital first (``pay_capital_first``).
- A mandatory payment a player cannot meet takes 50₳ loans until it can
  (``forced=True``); an optional cost must be affordable (``can_pay``), it is never
  financed by a loan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

SUPPLY = -1  # the bank: money from or to it is minted or burned


def cash(st: HegemonyState, cls: int) -> int:
    """What ``cls`` can spend (CC: Revenue + Capital)."""
    return st.money[cls] + (st.capital if cls == CC else 0)


def can_pay(st: HegemonyState, cls: int, amount: int) -> bool:
    return cash(st, cls) >= amount


def gain(st: HegemonyState, cls: int, amount: int, source: int = SUPPLY) -> None:
    """``cls`` receives ``amount`` (CC: into Revenue).  ``source`` must already have paid."""
    st.money[cls] += amount
    if source == SUPPLY:
        st.minted += amount


def take_loan(st: HegemonyState, cls: int) -> None:
    """A 50₳ loan from the bank (CC: into Capital)."""
    st.loans[cls] += 1
    if cls == CC:
        st.capital += D.LOAN_VALUE
    else:
        st.money[cls] += D.LOAN_VALUE
    st.minted += D.LOAN_VALUE


def _cover(st: HegemonyState, cls: int, amount: int, forced: bool) -> None:
    if cash(st, cls) >= amount:
        return
    if not forced:
        raise AssertionError(f"class {cls} cannot pay {amount} and the payment is optional")
    while cash(st, cls) < amount:
        take_loan(st, cls)


def pay(st: HegemonyState, cls: int, amount: int, to: int = SUPPLY, *,
        forced: bool = False) -> None:
    """``cls`` pays ``amount`` to class ``to`` (or the bank).  CC pays Revenue, then Capital."""
    if amount <= 0:
        return
    _cover(st, cls, amount, forced)
    if cls == CC:
        from_revenue = min(st.money[CC], amount)
        st.money[CC] -= from_revenue
        st.capital -= amount - from_revenue
    else:
        st.money[cls] -= amount
    _receive(st, to, amount)


def pay_capital_first(st: HegemonyState, cls: int, amount: int, to: int = SUPPLY, *,
                      forced: bool = False) -> None:
    """As ``pay``, but CC takes Capital first (interest, Lobby, Pay Off Loan)."""
    if cls != CC:
        pay(st, cls, amount, to, forced=forced)
        return
    if amount <= 0:
        return
    _cover(st, cls, amount, forced)
    from_capital = min(st.capital, amount)
    st.capital -= from_capital
    st.money[CC] -= amount - from_capital
    _receive(st, to, amount)


def _receive(st: HegemonyState, to: int, amount: int) -> None:
    if to == SUPPLY:
        st.minted -= amount
    else:
        st.money[to] += amount


def repay_loan(st: HegemonyState, cls: int, price: int = D.LOAN_REPAY) -> None:
    """Return one loan card, paying ``price`` to the bank (the caller checked it can)."""
    pay_capital_first(st, cls, price)
    st.loans[cls] -= 1
