"""``training.action_counts``: per role, how often each action was chosen and legal."""

from meeplezoo.envs.core.balance import play_lineup
from meeplezoo.training.evaluation import action_counts


def test_counts_add_up_to_the_decisions_of_the_balance_games():
    report = action_counts.count_actions("necropolis_railway_v1", {"num_players": 2},
                                         ["random", "heuristic"], games=3, seed=5)
    rows = [row for actions in report["roles"].values() for row in actions.values()]
    assert all(0 <= row["chosen_per_game"] <= row["legal_per_game"] for row in rows)
    chosen = round(sum(row["chosen_per_game"] for row in rows) * 3)
    decisions = []

    class Counting:
        def __init__(self, bot):
            self.bot = bot

        def act(self, state):
            decisions.append(1)
            return self.bot.act(state)

    from meeplezoo.envs import make_game
    from meeplezoo.training.agents.bots import make_bot

    game = make_game("necropolis_railway_v1", num_players=2)
    for g in range(3):  # the same deals and seeds as the balance report's
        play_lineup(game, ["random", "heuristic"], 5, g,
                    lambda spec, seat, seed: Counting(make_bot(spec, game, seed, seat=seat)))
    assert chosen == len(decisions)


def test_match_lists_every_matching_action_of_each_role_even_never_legal(capsys):
    assert action_counts.main(["--env", "necropolis_railway_v1", "--lineup", "random,random",
                               "--games", "1", "--match", "end_turn"]) == 0
    out = capsys.readouterr().out
    assert "`end_turn`" in out and "| chosen per game |" in out
