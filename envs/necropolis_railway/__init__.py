"""London Necropolis Railway: trains of coffins and mourners from London to the Necropolis,
1-4 players (1: the solo variant).

    from meeplezoo.envs.necropolis_railway import env  # or meeplezoo.make("necropolis_railway_v1")
    e = env(num_players=2)

============  ===================================================================================
Import        ``from meeplezoo.envs.necropolis_railway import env, raw_env``
Env id        ``necropolis_railway_v1``
Agents        ``player_0`` ... ``player_<n-1>``, n = 1-4 (default 2), one role
Actions       ``Discrete(108)``, the same for every seat and player count
Observations  ``observation``: ``Box(0, 1, (890,), float32)``; ``action_mask``:
              ``Box(0, 1, (108,), int8)``
Rewards       terminal only: ``rank`` (default; solo: ``score``), ``win`` or ``score``
Rules         ``envs/necropolis_railway/RULES.md``: every rule, with the test that checks it
============  ===================================================================================

Players
-------
1 to 4 railway companies, each with a train on a one-way loop of 6 spaces (London and the
Necropolis among them), London facilities, a Necropolis board of 5 columns of plots, staff and
money.  Twelve rounds of one turn each, in seat order.  A turn: take one of 3 row cards with the
discs under it, then from a menu, in any order until ``end_turn``: each of the card's three
actions at most once, paid with a disc of its colour or orange (London: upgrade a facility;
Necropolis: hire staff, build a mortuary; Railway: add or flip a car, tuck the card, sell a
car), one bonus space, one prestige step, one tucked card.  The train then moves by the trains
beside the actions taken, and each station reached resolves: London pays income, loads the
train and charges upkeep; the Necropolis unloads mourners and buries coffins.  The Turn of the
Century (between rounds 6 and 7) gives each a free action; after round 12 every train makes an
end move and each player a final purchase.  Points: prestige x London workers, London pairs,
completed columns, column majorities x mortuaries, overflow coffins, money; ties go to more
money left, then more coffins buried.  Solo (``num_players=1``): after each turn a random
untaken row card is discarded, and the reward is the score.  Hidden: the deck's order and the
order of the coffin draws (the bag's counts by colour are public).  Every number of the boards
is our own design (``necropolis_railway.json``); ``solo.py`` has the solo game as a plain
gymnasium env.

Actions
-------
One fixed catalogue of 108 named actions (``game.action_name(i)``); a turn is split into small
decisions of the same player, and the mask says which actions the pending one allows:

=======  ===========================================  ===========================================
index    name                                         used at
=======  ===========================================  ===========================================
0-2      ``take:row_1..3``                            ``take``
3-5      ``action:london|necropolis|railway``         ``turn`` (the menu)
6-9      ``pay:blue|green|grey|orange``               ``pay``: which disc pays
10-17    ``upgrade:<facility>_<1|2>``                 ``london_upgrade``, ``century``
18-23    ``hire@london``, ``hire@column_1..5``        ``necropolis``, ``bonus_hire``, ``century``,
                                                      ``final_purchase``
24-38    ``build:<bronze|silver|gold>@column_1..5``   ``necropolis``, ``free_mortuary``,
                                                      ``century``, ``final_purchase``
39-49    ``rail:...``: add, flip, tuck, sell          ``railway``, ``century``
50-52    ``perk:express|volunteers|royal_patronage``  ``perk``
53-58    ``volunteer@london``, ``volunteer@column_*``  ``volunteer``
59-64    ``bonus:<space>``                            ``turn``
65       ``prestige``                                 ``turn``
66-68    ``use_tucked:1..3``                          ``turn``
69-71    ``gain:blue|green|grey``                     ``income_disc``
72-75    ``load:<coffin colour>``                     ``load``
76-95    ``bury:<colour>@column_1..5``                ``bury``
96-101   ``dismiss@london``, ``dismiss@column_1..5``  ``dismiss``
102-105  ``discard:<colour>``                         ``discard`` (more than 6 discs held)
106      ``end_turn``                                 ``turn`` (end move: take the station)
107      ``skip``                                     decline (a part, the century's action, the
                                                      final purchase, an end move's station)
=======  ===========================================  ===========================================

Decision kinds: ``take``, ``turn``, ``pay``, ``london_upgrade``, ``necropolis``, ``railway``,
``bonus_hire``, ``perk``, ``volunteer``, ``free_mortuary``, ``income_disc``, ``load``, ``bury``,
``dismiss``, ``discard``, ``century``, ``final_purchase``.  No live decision has an empty mask.

Observation
-----------
890 float32 in [0, 1], every entry named (``game.feature_names()``), from the observing
player's point of view (nothing hidden from it appears):

- the pending decision (one-hot ``decision[...]``), the decider's seat relative to the viewer,
  the viewer's turn order, what a payment is for and what is left to pay, rail mode, free
  mortuary kind, pieces to place, upkeep rate;
- the turn so far: actions used, flags, movement, the turn's card;
- the table: phase, round, player count, the row (trains, ability, discs under each card), the
  back of the deck's top card, the disc supply, bonus spaces taken, deck and discard sizes, the
  coffin bag by colour, the mortuary and volunteer supplies (134 entries up to here);
- four seat blocks of 189, ``me[...]`` first, then ``opponent_1[...]`` ... clockwise
  (zero-padded to 4 players): money, prestige, the score lines, discs, cargo, London staff and
  slots, train position, rail tiles, perks, tucked cards, and per column its worker, mortuary,
  fill and plot colours.  Counts are divided by the maxima in ``engine.observation_maxima``.

Rewards
-------
0 until the game ends, then from the final standing: ``reward="rank"`` (default at 2-4 players)
first +1 to last -1, tied places averaged; ``"win"`` 1 for each winner, 0 for the others;
``"score"`` (the only kind solo, and its default) the points minus the table's mean (solo: the
points), divided by 25 (``score_scale``).  The final ``infos`` hold ``scores``, ``places``,
``winners``, ``score_breakdown`` (``prestige_x_london_staff``, ``london_pairs``,
``completed_columns``, ``column_majorities``, ``overflow_coffins``, ``money``, ``total``) and
``decisions``; past ``max_decisions`` (default 5000) the episode is truncated.

Variants
--------
No options: ``num_players=1`` is the solo variant (5 mortuaries of each kind, a random row card
discarded after each turn).

Version history
---------------
- ``necropolis_railway_v1``: an audit against the teaching memo: the material yard counts every
  card tucked this turn; the crew and dining cars serve the first London / Necropolis stop of
  the turn only; dismissed staff leave the game; an end move's station may be declined; solo
  discards a random untaken row card; every number of the data file is read and used.  The
  action catalogue and the observation are unchanged; v0 saves do not load.
- ``necropolis_railway_v0``: the first release; retired (``make`` raises ``RetiredEnvError``).
"""

from meeplezoo.envs.core.aec import env_functions
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame

ENV_NAME = "necropolis_railway_v1"
env, raw_env = env_functions(NecropolisRailwayGame, __doc__)

__all__ = ["ENV_NAME", "NecropolisRailwayGame", "env", "raw_env"]
