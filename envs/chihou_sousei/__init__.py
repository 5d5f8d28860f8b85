"""地方創生 (Chihou Sousei, "Regional Revival"): a drafting and tableau game about regional
revival, 2-4 players.

    from meeplezoo.envs.chihou_sousei import env       # or meeplezoo.make("chihou_sousei_v1")
    e = env(num_players=4)

============  ===================================================================================
Import        ``from meeplezoo.envs.chihou_sousei import env, raw_env``
Env id        ``chihou_sousei_v1``
Agents        ``player_0`` ... ``player_<n-1>``, n = 2-4 (default 4), one role
Actions       ``Discrete(589)``, the same for every seat and player count
Observations  ``observation``: ``Box(0, 1, (2504,), float32)``; ``action_mask``:
              ``Box(0, 1, (589,), int8)``
Rewards       terminal only: ``rank`` (default), ``win`` or ``score``
Rules         ``envs/chihou_sousei/RULES.md``: every rule, with the test that checks it
============  ===================================================================================

Players
-------
2 to 4, each owning a big city with 16 tokens (seat 0 Tokyo, 1 Aichi, 2 Osaka, 3 Fukuoka).
Eight rounds.  Planning: players + 1 regional cards are revealed in a row and each player, from
the start player clockwise, takes one; the taker of the rightmost card gets the start marker;
the 2nd picker (and the 3rd at 4 players) may make a forced move (one token to an orthogonally
adjacent card of its tableau), the last picker a forced move and a compulsory population
increase (a token from the stock onto its big city).  Migration: each player places its card
next to its tableau, min(power, tokens next to it) tokens move onto it, and the events of the
cards next to it resolve.  After round 8: population + industry + region; the highest total
wins, ties going to fewer tokens on one's fullest card.  Hidden: the order of the undrawn deck
only (``resample_hidden`` reshuffles it).

Actions
-------
One fixed catalogue of 589 named actions (``game.action_name(i)``); a turn is split into small
decisions of the same player, and the mask says which actions the pending one allows.  Cells
are offsets from the big city, ``|x| + |y| <= 8`` (145 cells):

=========  ================  ==============================================================
index      name              used at
=========  ================  ==============================================================
0-4        ``pick:i``        ``pick``: take row slot i (0 the leftmost)
5-148      ``place@(x,y)``   ``place``: where the picked card goes (never (0,0))
149-293    ``from@(x,y)``     a token's source: forced move, migration, an event
294-438    ``to@(x,y)``       a token's destination: forced move, an event
439-582    ``event@(x,y)``    ``event_order``: which adjacent card's event resolves next
583-586    ``tableau:+k``     whose tableau a forced move is in (``forced_move_any_player``)
587        ``increase``       the last picker's population increase, now
588        ``skip``           decline the forced move (a due increase still follows)
=========  ================  ==============================================================

Decision kinds: ``pick``, ``bonus``, ``forced_move_source``, ``forced_move_target``, ``place``,
``migrate``, ``event_order``, ``event_source``, ``event_target``.  A step without a real
choice is played automatically; no live decision has an empty mask.

Observation
-----------
2504 float32 in [0, 1], every entry named (``game.feature_names()``), from the observing
player's point of view (nothing hidden from it appears):

- four seat blocks of 224, ``me.*`` first, then ``seat+1.*`` ... in seat order (zero-padded
  to 4 players): each seat's 9 card slots (position, tokens, colour, power, icons, event), the
  card it picked and has not placed, its icon totals and score parts so far, start player,
  marker, pick position;
- a global block of 158: the pending decision (one-hot ``decision[...]``) and its context
  (bonus left, forced-move tableau and source, placed card, tokens left to migrate, the event
  awaiting a choice), round, stock, cards left in the deck, the row, pending events, and the
  remaining deck's composition (public: the discards and every tableau are);
- the player's own tableau as a plane of 145 cells x 10 (``own_board@(x,y)``), in the order of
  the cell actions: occupied, tokens, colour, frontier, neighbours' tokens and colours.

Rewards
-------
0 until the game ends, then from the final standing: ``reward="rank"`` (default) first +1 to
last -1, tied places averaged; ``"win"`` 1 for each winner, 0 for the others; ``"score"`` the
points minus the table's mean, divided by 10 (``score_scale``).  The final ``infos`` hold
``scores``, ``places``, ``winners``, ``score_breakdown`` (``population``, ``industry``,
``region``, ``total``) and ``decisions``; past ``max_decisions`` (default 1000) the episode is
truncated.

Variants
--------
Options of ``env(...)`` (``game.options`` says the same):

- ``forced_move_any_player=False``: ``True`` lets a forced move move a token inside another
  player's tableau (``tableau:+k`` first);
- ``population_scoring="largest"``: ``"mode"`` takes k, the count population scores, as the
  most frequent non-zero count on one's cards instead of the largest.

Version history
---------------
- ``chihou_sousei_v1``: an audit against the designer's draft: the last picker's population
  increase is compulsory (``skip`` declines only the forced move); the hidden deck's re-draw
  depends only on what the viewer knows; the bot no longer values the start marker in the last
  round.  The action catalogue and the observation are unchanged.
- ``chihou_sousei_v0``: the first release; retired (``make`` raises ``RetiredEnvError``).
"""

from meeplezoo.envs.chihou_sousei.bot import ChihouBot
from meeplezoo.envs.chihou_sousei.game import ChihouSouseiGame
from meeplezoo.envs.core.aec import env_functions

ENV_NAME = "chihou_sousei_v1"
env, raw_env = env_functions(ChihouSouseiGame, __doc__)

__all__ = ["ENV_NAME", "ChihouBot", "ChihouSouseiGame", "env", "raw_env"]
