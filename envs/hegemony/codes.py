"""Agenda code numbers, in one table so that phase modules can push each other's items
without importing each other.  Each phase module owns a range and names its codes there;
``turn.build_agenda`` joins every module's ``CODES`` (a clash is an error: ``turn`` checks it
when imported)."""

# turn.py: 0-19
SETUP_SKILL = 0      # decision: MC picks the industry of its starting skilled worker (§1.3)
ROUND = 1            # step: start round ``arg`` (Preparation from round 2, §2.1)
TURN = 2             # step: start turn number ``arg`` (0..19) of the action phase
DECIDE_TURN = 3      # decision: main action / free action / end turn (§2.2)
DISCARD = 4          # decision: which card pays for a basic action or a pass
START_BASIC = 5      # step: begin basic action ``arg`` (index in actions.BASIC_ACTIONS)
START_FREE = 6       # step: begin free action ``arg`` (index in actions.FREE_ACTIONS)
AFTER_ACTION = 7     # step: the re-checks after every action (§3.6 demonstration, §5.10 unions)
MARKET_DISCARD = 8   # decision: CC / MC discard market cards, then refill (§2.1 step 6)
PREP_SKILL = 9       # decision: MC picks its new skilled worker's industry (variant)
PREP = 10            # step: §2.1 steps 2-5 (interest, prosperity, Events, Agenda, cards)
PREP_ARRIVALS = 11   # step: §2.1 steps 7-9 (Deals, Export card, new workers), after step 6

# workers*.py: 20-39 ; economy*.py: 40-69 ; politics.py: 70-99 ; production.py: 100-119
WORKERS = range(20, 40)
ECONOMY = range(40, 70)
POLITICS = range(70, 100)
PRODUCTION = range(100, 120)

ELECTIONS_PHASE = 70   # step (politics.py): the Elections phase of the round (§7)
PRODUCTION_PHASE = 100  # step (production.py): the Production phase (§6)
SCORING_PHASE = 101    # step (production.py): the Scoring phase (§8)
GAME_END = 102         # step (production.py): Game End (§9)

# Cross-module decisions (pushed by other modules, so their numbers are fixed here):
STAFF = 20           # workers_build.py: staff a company from one class's unemployed workers
                     # (built by CC, revealed by p1, built for a class by a card)
ADJUST_WAGES = 40    # economy_free.py: arg 0 = the free action (a raise commits); arg 1 = the
                     # policy follow-up after a p2 change (lower only, nothing committed)
ADJUST_PRICES = 41   # economy_free.py: arg 0 = the free action; arg 1 = re-pricing after a change
                     # of p4 / p5 / p6 or an IMF intervention

# effects*.py (the card and Event interpreter, named in effects.py): 120-159
EFFECTS = range(120, 160)
