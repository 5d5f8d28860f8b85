"""The bot protocols: StateBot plays, TeacherBot also names its equally best actions."""

import pytest

from meeplezoo.envs.core.agents import RandomBot, TeacherBot, teacher_choice
from tests.core.toy_game import ToyGame


class TieBot:
    """Plays the first of its two best actions and says both are best."""

    def act(self, state):
        return self.decide(state)[0]

    def decide(self, state):
        legal = state.legal_actions()
        return legal[0], legal[:2]


class ConfusedBot(TieBot):
    def decide(self, state):
        legal = state.legal_actions()
        return legal[-1], legal[:1]


def test_a_plain_bot_teaches_its_one_action():
    state = ToyGame().new_initial_state(3)
    action, best = teacher_choice(RandomBot(0), state)
    assert best == [action] and state.legal_mask()[action]
    assert not isinstance(RandomBot(0), TeacherBot)


def test_a_teacher_bot_teaches_its_whole_best_set():
    state = ToyGame().new_initial_state(3)
    assert isinstance(TieBot(), TeacherBot)
    assert teacher_choice(TieBot(), state) == (0, [0, 1])


def test_a_teacher_whose_action_is_not_among_its_best_is_refused():
    with pytest.raises(ValueError, match="outside its own best set"):
        teacher_choice(ConfusedBot(), ToyGame().new_initial_state(3))
