"""What a class cannot see, re-drawn for search and for the no-leak test (§2.3).

Hidden from a viewer: the other classes' hands, the order of every deck (its own
action deck included), the unseen part of the Immigration deck (cards already drawn
lie at its bottom, face known), and the sealed influence bids of the others that are
not yet revealed.  Everything else is public.  Cards a peek shows the viewer for its
pending decision (``observation.peeked``) stay where they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from meeplezoo.envs.core.hidden import redeal, redraw
from meeplezoo.envs.hegemony.observation import peeked
from meeplezoo.envs.hegemony.politics import resample_bids

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

from meeplezoo.envs.hegemony.politics import SECRET_BIDS  # ctx key of a sealed bid -> its bidder

__all__ = ["SECRET_BIDS", "resample_hidden"]


def _redraw_except(deck: list[int], seen: list[int], rng: np.random.Generator) -> list[int]:
    """``deck`` with every card but the ``seen`` ones re-drawn into the other places."""
    if not seen:
        return redraw(deck, rng)
    keep = [k for k, card in enumerate(deck) if card in seen]
    rest = iter(redraw([card for k, card in enumerate(deck) if k not in keep], rng))
    return [deck[k] if k in keep else next(rest) for k in range(len(deck))]


def resample_hidden(st: HegemonyState, viewer: int, rng: np.random.Generator) -> HegemonyState:
    out = st.clone()
    for cls in range(4):
        if cls == viewer:
            out.action_decks[cls] = redraw(out.action_decks[cls], rng)
        else:
            hand, deck = redeal([out.hands[cls], out.action_decks[cls]], rng)
            out.hands[cls] = sorted(hand)
            out.action_decks[cls] = deck
    for name in ("cc_deck", "mc_deck", "deal_deck", "agenda_deck"):
        setattr(out, name, redraw(getattr(out, name), rng))
    # a card a peek shows the viewer for its pending decision stays where it is
    events, exports = peeked(st, viewer)
    out.event_deck = _redraw_except(out.event_deck, events, rng)
    out.export_deck = _redraw_except(out.export_deck, exports, rng)
    seen = out.immigration_seen
    out.immigration = out.immigration[:seen] + redraw(out.immigration[seen:], rng)
    resample_bids(out, viewer, rng)
    out._mask = None
    out._legal = None if out.agenda else []  # listed when first asked for (``pending``)
    return out
