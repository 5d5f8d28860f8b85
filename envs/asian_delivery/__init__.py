"""アジアンデリバリー (Asian Delivery): deliveries across the city of Hotan, 3-5 players.

    from meeplezoo.envs.asian_delivery import env       # or meeplezoo.make("asian_delivery_v1")
    e = env(num_players=4)

============  ===================================================================================
Import        ``from meeplezoo.envs.asian_delivery import env, raw_env``
Env id        ``asian_delivery_v1``
Agents        ``player_0`` ... ``player_<n-1>``, n = 3-5 (default 4), one role
Actions       ``Discrete(84)``, the same for every seat and player count
Observations  ``observation``: ``Box(0, 1, (774,), float32)``; ``action_mask``:
              ``Box(0, 1, (84,), int8)``
Rewards       terminal only: ``rank`` (default), ``win`` or ``score``
Rules         ``envs/asian_delivery/RULES.md``: every rule, with the test that checks it
============  ===================================================================================

Players
-------
3 to 5 delivery companies in a city of 9 districts (laid out at random) and Hotan Port.  At
set-up each player, in seat order, chooses one of 5 companies (each with four growth tracks:
warehouse, transport, stock, workers).  Six rounds: in turn each player places a worker on the
leftmost free slot of one of three action cards (fulfil, transport, upgrade; slot 1 gives 1
action and 2 base, slot 2 2 actions and 1 base, slot 3 3 actions), places the base it gained,
then acts: fulfil a market request or a daily (VP, plus 1 per step from the port and per own
interest marker there), move resources between adjacent areas, or upgrade base to an advanced
resource.  At each round end workers, dailies and the port are refilled (not after round 6) and
every company grows: it moves interest markers from a track (raising it) onto districts.
Colour majorities score after round 3 and after round 6, then district majorities.  Most VP
wins; ties go to more completed requests.  Hidden: the order of the request deck only.

Actions
-------
One fixed catalogue of 84 named actions (``game.action_name(i)``); a turn is split into small
decisions of the same player, and the mask says which actions the pending one allows.  Areas are
the diamond's positions ``N NW NE W C E SW SE S`` and ``port``:

=======  ==========================  =======================================================
index    name                        used at
=======  ==========================  =======================================================
0-4      ``choose_company:<key>``    ``choose_company`` (set-up, seat order)
5        ``pass``                    kept in the catalogue, never legal (a player passes only
                                     when it has no worker left, automatically)
6-8      ``place_worker:<card>``     ``main``: fulfil, transport, upgrade
9-18     ``put_base@<area>``         ``place_base``: one base from the reserve
19       ``put_rest@port``           ``place_base``: the whole reserve to the port
20       ``keep_in_reserve``         ``place_base``: end the step (once the slot's base is placed)
21-29    ``fulfil:<card>``           ``choose_request``: market slot 0-5 or daily 0-2
30-39    ``at@<area>``               ``fulfil_area``: where the request is paid
40-49    ``transport_from@<area>``   ``transport_from``
50-59    ``transport_to@<area>``     ``transport_to``: an adjacent area with room
60-64    ``transport_kind:<kind>``   ``transport_kind``: base or an advanced colour
65       ``transport_done``          ``transport_kind``: stop after at least one
66-69    ``upgrade:<colour>``        ``upgrade``
70       ``skip``                    forgo the rest of a placement's actions
71-74    ``grow:<track>``            ``grow_track``: warehouse, transport, stock, workers
75-83    ``marker@<district>``       ``grow_marker``
=======  ==========================  =======================================================

Decision kinds: ``choose_company``, ``main``, ``place_base``, ``choose_request``,
``fulfil_area``, ``transport_from``, ``transport_to``, ``transport_kind``, ``upgrade``,
``grow_track``, ``grow_marker``.  Forced steps (a pass, a wasted action) need no decision; no
live decision has an empty mask.

Observation
-----------
774 float32 in [0, 1], every entry named (``game.feature_names()``), from the observing
player's point of view (nothing hidden from it appears):

- a global block of 269: the pending decision (one-hot ``decision[...]``) and its context (52:
  actions left, action card, base placed this step, chosen request, transport source,
  destination and count, upgrade colour, growth markers left, chosen track), round, workers on
  each action card, the city per position (colour, terminal, distance, touches the port, coins
  left) and the port's position, the market's six requests, deck and discard sizes, the
  companies still free and every company's tracks;
- five seat blocks of 101, ``me.*`` first, then ``seat+1.*`` ... in seat order (zero-padded to
  5 players): present, to move, start player, passed, company, track values and markers left,
  workers, reserve, VP, completed requests per colour, the 3 dailies, warehouses per area and
  kind, interest markers per district.  Scaling maxima are in ``layout.py``.

Rewards
-------
0 until the game ends, then from the final standing: ``reward="rank"`` (default) first +1 to
last -1, tied places averaged; ``"win"`` 1 for each winner, 0 for the others; ``"score"`` the
VP minus the table's mean, divided by 10 (``score_scale``).  The final ``infos`` hold
``scores``, ``places``, ``winners``, ``score_breakdown`` (``request_vp``, ``step_bonus``,
``interest_bonus``, ``coins``, ``interim_majority``, ``final_majority``, ``district_majority``,
``total``) and ``decisions``; past ``max_decisions`` (default 20000) the episode is truncated.

Variants
--------
Options of ``env(...)``, all ``False`` by default (the draft's body rules; ``game.options``
says the same):

- ``growth_before_refill``: at a round end the companies grow first, then the refill uses the
  new levels;
- ``distance_coins``: the port is fixed at position 1 and coins (3 VP each, as many per district
  as its distance) replace the step bonus;
- ``shared_port_dailies``: everyone has the same three dailies (1/2/3 base), fulfilled only at
  the port;
- ``random_companies``: a research option for balance measurement: companies are dealt at
  random instead of chosen (no ``choose_company`` decision).

Version history
---------------
- ``asian_delivery_v1``: an audit against the designer's draft: companies also grow after round
  6, before the final settlement; no voluntary pass; base gained from a slot is all placed
  before the slot's actions (only the set-up base may wait in the reserve).  The action
  catalogue and the observation are unchanged; v0 saves do not load.
- ``asian_delivery_v0``: the first release; retired (``make`` raises ``RetiredEnvError``).
"""

from meeplezoo.envs.asian_delivery.game import AsianDeliveryGame
from meeplezoo.envs.core.aec import env_functions

ENV_NAME = "asian_delivery_v1"
env, raw_env = env_functions(AsianDeliveryGame, __doc__)

__all__ = ["ENV_NAME", "AsianDeliveryGame", "env", "raw_env"]
