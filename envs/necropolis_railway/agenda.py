"""Codes of the automatic steps on the state's agenda (decisions use ``actions.K_*`` < 100).

The agenda is a stack of ``(code, seat, arg)`` items: the top item runs next.
Automatic items run at once (and may push more); a decision item waits for the
seat's action.  ``state.push(a, b, c)`` runs a, then b, then c.  The loop and
its patterns are ``envs/core/agenda.py``; the table of every code (handlers and
what each may change) is ``state.build_agenda``.
"""

from __future__ import annotations

AUTO = 100
TURN_START = 100  # set up a turn for seat
MOVE_START = 101  # end_turn was chosen: total movement, load if leaving London
MOVE = 102  # move one space (arg: spaces left)
LOAD = 103  # load waiting cargo in London
INCOME = 104  # London stop: income
UPKEEP = 105  # London stop: staff upkeep (arg: money per staff)
NECRO_STOP = 106  # Necropolis stop: unload mourners, then bury coffins
DISCARD_CHECK = 107  # hold limit at the end of a turn
CLEANUP = 108  # taken card to the discard pile, solo row discard
NEXT = 109  # next seat or end of round
ROUND_END = 110  # clear bonus spaces; Turn of the Century; end of game
END_MOVE = 111  # after round 12: move to the next station
GAME_OVER = 112
PHASE = 113  # set the phase shown in observations (arg: phase)

# what a turn may use once each (state.t_used, in this order)
TURN_USES = ("london", "necropolis", "railway", "bonus", "prestige", "tucked_card")

PHASES = ("rounds", "turn_of_century", "end_moves", "final_purchase", "over")
P_ROUNDS, P_CENTURY, P_END_MOVES, P_FINAL, P_OVER = range(5)

# What an item may change, for the observation's caches (the marks are in state.build_agenda).
# Seat areas: money/prestige (and so the score lines), London board, train and rail tiles,
# Necropolis columns, discs held, cargo (waiting, train, mourners, overflow), staff
# (London staff and volunteers, staff supply, capacities, tucked cards).
S_MONEY, S_LONDON, S_RAIL, S_COLS, S_DISCS, S_CARGO, S_STAFF = 1, 2, 4, 8, 16, 32, 64
SEAT_ALL = 127
# Table areas: the row (with phase and round), deck/discard sizes + bag + mortuary and
# volunteer supplies, the turn context, the disc supply + bonus spaces.
T_ROW, T_SUP, T_TURN, T_DISC = 1, 2, 4, 8
TABLE_ALL = 15
