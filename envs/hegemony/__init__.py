"""Hegemony: Lead Your Class to Victory: four classes of one country, 4 players, each with its
own actions.

    from meeplezoo.envs.hegemony import env             # or meeplezoo.make("hegemony_v1")
    e = env()

============  ===================================================================================
Import        ``from meeplezoo.envs.hegemony import env, raw_env``
Env id        ``hegemony_v1``
Agents        4 players, one per class and named after it: ``working_class``,
              ``middle_class``, ``capitalist_class``, ``state`` (four roles)
Actions       per class: working_class ``Discrete(333)``, middle_class ``Discrete(358)``,
              capitalist_class ``Discrete(260)``, state ``Discrete(231)``
Observations  ``observation``: ``Box(0, 1, (2559,), float32)`` for every class; ``action_mask``:
              ``Box(0, 1, (<the class's catalogue>,), int8)``
Rewards       terminal only: ``rank`` (default), ``win`` or ``score``
Rules         ``envs/hegemony/RULES.md``: every rule, with the test that checks it; the cards
              in ``DECKS.md``
============  ===================================================================================

Players
-------
4 players, always: the Working Class (WC), the Middle Class (MC), the Capitalist Class (CC) and
the State, seated in that turn order, each a role with its own deck, actions and way to score.
Five rounds of Preparation (from round 2), Action, Production, Elections and Scoring, then the
Game End.  In the Action phase the classes take five turns each, WC, MC, CC, State: one main
action (a card played for its effect, or a card discarded for a basic action: assign workers,
build or sell a company, propose a bill, strike, demonstrate, buy goods, ...) and at most one
free action, then ``end_turn``.  Production runs the companies (wages, output), the classes
cover their needs and pay their taxes; the Elections vote the bills proposed on the seven
policies; Scoring gives each class its own points.  Most VP wins; ties go to policies in one's
own section (the State: its Agenda's matches), then to the State, then to one's cubes in the
bag.  Hidden: the other classes' hands, every deck's order and a sealed bid until all bids are
in.

Actions
-------
Each class has a fixed catalogue (``game.action_name(i, role)``, e.g. ``basic:build_company``)
made of the same small blocks, so an index names the same thing wherever the block exists; a
compound choice is a chain of small decisions (an "any number" choice ends with ``done``), a
decision with one legal action is taken automatically, and an interrupt (a vote, a sealed bid,
another class's choice inside a card) hands the turn to the deciding class.  Block sizes per
class:

====================================================  ====  ====  ====  =====
block (names)                                         WC    MC    CC    State
====================================================  ====  ====  ====  =====
``end_turn``, ``done``, ``yes``, ``no``, ``pass``     5     5     5     5
``play:<card>``, ``discard:<card>`` (``wc_01`` ...)   54    54    54    54
``basic:<action>``                                    6     8     7     6
``free:<action>``                                     6     8     6     2
``company:<seat>``: CC 12, MC 8, public 9, 2 farms    31    31    31    31
``market:<slot>``                                     4     4     4     4
``union:<industry>``                                  5     5
``from:<worker source>``                              99    99
``resource:``, ``source:``, ``qty:0`` ... ``qty:12``  22    22    22    22
``wage:L1`` ..., ``price:<good>_<step>``              15    15    15    15
``bill:<policy>_<section>`` (``bill:p1_A``)           21    21    21    21
``class:``, ``industry:``                             9     9     9     9
``offer:``, ``deal:``, ``event:``, ``option:``        18    18    18    18
``bid:0`` ... ``bid:35``, ``vote:for|against``        38    38    38    38
``deck_card:``, ``extra_offer:``, ``export_card:``          21    30    6
====================================================  ====  ====  ====  =====
total                                                 333   358   260   231
====================================================  ====  ====  ====  =====

Observation
-----------
2559 float32 in [0, 1] for every class, every entry named (``game.feature_names(role)``), all
that the rules call public plus the class's own secrets (never another class's hand, a deck's
order or a sealed bid before all are in):

- the pending decision (one-hot ``decision[...]`` of 64, its argument) and its scratch values
  (``ctx[...]``: 86), 151 entries;
- the table, 233 entries: round, the turn, policies and proposed bills, money, loans, VP,
  influence and hand sizes of every class, CC's capital, supplies, the bag, WC's and MC's
  prosperity, population, unemployed workers and goods, unions, storage, wealth, prices,
  legitimacy, Public Services, Benefits, tokens;
- every company seat (1736: the card, face up, industry, wage, workers on each slot, ...), the
  markets (84), Deals (8), the Export card (16), the Events (100) and the Agenda (15);
- the class's own hand by design id (27);
- the Events or Export cards the class is looking at for its pending decision (189: a card's
  peek, an export sale).

Rewards
-------
0 until the game ends, then from the final standing: ``reward="rank"`` (default) first +1 to
last -1, tied places averaged; ``"win"`` 1 for each winner, 0 for the others; ``"score"`` the
VP minus the table's mean, divided by 50 (``score_scale``).  The final ``infos`` hold
``scores``, ``places``, ``winners``, ``score_breakdown`` (every VP booked by its source:
``bills``, ``prosperity``, ``exports``, ..., ``money``, and ``total``) and ``decisions``; past
``max_decisions`` (default 20000) the episode is truncated.

Variants
--------
Options of ``env(...)`` (``game.options`` says the same): where the published rulebook differs
from the teaching memo this game follows, and one decision's alternative (RULES.md, "Variants"):

- ``initial_p6="B"``: ``"A"`` starts policy 6 at section A;
- ``mc_prep_arrivals="memo"``: ``"published"`` also gives MC a skilled worker of its choice in
  Preparation;
- ``mc_policy_vp="memo"`` (1/4/8/12/18): ``"published"`` 1/3/6/10/15;
- ``cc_end_loans="memo"`` (repay 55 each): ``"published"`` -5 VP per loan;
- ``cc_export_vp=False``: ``True`` gives CC +1 VP per Foreign Market transaction;
- ``swap_target="unskilled"``: ``"any"`` lets Swap Workers bring in any unemployed worker;
- ``demonstration_discard="memo"``: ``"published"`` re-checks the Demonstration only after a
  build and its staffing;
- ``price_high_requires_policy=False``: ``True``: high prices need 6A / 4C / 5C;
- ``mc_scoring_compare="vp"``: ``"position"`` compares MC's track position instead of the
  printed VP.

Version history
---------------
- ``hegemony_v1``: the audit's corrections: the State's own Legitimacy symbols can no longer
  take a track below 1; Preparation asks the market discards before the Deals, Export card and
  new workers; the State's stock above a lowered cap is discarded at once; a ``provide`` of
  influence comes from Media Influence; the union condition is checked after the whole action.
  The action catalogues and the observation are unchanged (the shipped team was carried over).
- ``hegemony_v0``: the first release; retired (``make`` raises ``RetiredEnvError``).
"""

from meeplezoo.envs.core.aec import env_functions
from meeplezoo.envs.hegemony.game import HegemonyGame

ENV_NAME = "hegemony_v1"
env, raw_env = env_functions(HegemonyGame, __doc__)

__all__ = ["ENV_NAME", "HegemonyGame", "env", "raw_env"]
