"""What a difficulty level may be called (``zoo.level_claim``): stronger than its network only
where its card's paired gain has its 95% interval above 0 at that player count, weaker where
below, level where across, and not measured where the card has no such figure; @expert
harder than @hard only where its interval lies wholly above @hard's.  Small synthetic cards,
so the rule is checked apart from what the shipped cards happen to record."""

from __future__ import annotations

import pytest

from meeplezoo.training.agents.zoo import (
    LEVEL,
    NOT_MEASURED,
    STRONGER,
    WEAKER,
    CheckpointError,
    counts_text,
    level_claim,
    level_claims,
)


def contest(difference: float, low: float, high: float, games: int = 200,
            score: tuple[float, float, float] = (0.0, -1.0, 1.0)) -> dict:
    """A level's figures at two or more players: win share decides, score rides along."""
    return {"strength": {"games": games, "win_share_difference": difference,
                         "win_share_difference_ci95": [low, high],
                         "score_difference": score[0],
                         "score_difference_ci95": [score[1], score[2]]},
            "cost": {"median_s": 0.1}}


def solo(difference: float, low: float, high: float, games: int = 400) -> dict:
    """A level's figures alone: mean score, no win share (there is nobody to beat)."""
    return {"strength": {"games": games, "score_difference": difference,
                         "score_difference_ci95": [low, high]}}


def card(**levels: dict) -> dict:
    return {"env": "toy_v0", "player_counts": [1, 4], "levels": levels}


@pytest.mark.parametrize("interval, verdict", [
    ((0.10, 0.02, 0.17), STRONGER),
    ((-0.19, -0.31, -0.08), WEAKER),
    ((-0.06, -0.15, 0.03), LEVEL),
    ((0.045, 0.0, 0.095), LEVEL),  # touching 0 is not above it
])
def test_a_multi_player_level_is_judged_by_its_win_share_interval_against_zero(interval,
                                                                               verdict):
    claim = level_claim(card(hard={"4p": contest(*interval)}), "hard", 4)
    assert claim.verdict == verdict
    assert claim.stronger == (verdict == STRONGER)
    assert claim.games == 200 and "at 4 players" in claim.text
    assert claim.gain.startswith("win share") and claim.label.startswith("@hard: ")


def test_the_claim_says_the_figure_and_the_deals_it_rests_on():
    claim = level_claim(card(hard={"4p": contest(-0.1917, -0.3083, -0.0833, games=60)}),
                        "hard", 4)
    assert claim.label == ("@hard: weaker than the network at 4 players: win share -19.2 "
                           "points [-30.8 to -8.3] over 60 paired deals")


def test_at_several_players_win_share_decides_even_where_the_score_says_otherwise():
    """Hegemony's @hard: its score is measured lower, its win share across 0: level."""
    figures = contest(-0.0625, -0.15, 0.03, score=(-3.4, -5.97, -0.8))
    claim = level_claim(card(hard={"4p": figures}), "hard", 4)
    assert claim.verdict == LEVEL and "score" not in claim.gain


@pytest.mark.parametrize("interval, verdict", [
    ((14.6, 12.6, 16.6), STRONGER), ((-4.2, -6.4, -2.1), WEAKER), ((0.5, -1.0, 2.0), LEVEL)])
def test_alone_a_level_is_judged_by_its_score_interval_against_zero(interval, verdict):
    claim = level_claim(card(hard={"1p": solo(*interval)}), "hard", 1)
    assert claim.verdict == verdict
    assert claim.gain.startswith("score ") and "alone" in claim.text


def test_a_claim_holds_only_at_the_player_count_it_was_measured_at():
    measured = card(hard={"1p": solo(14.6, 12.6, 16.6), "2p": contest(0.045, -0.001, 0.095)})
    assert level_claim(measured, "hard", 1).verdict == STRONGER
    assert level_claim(measured, "hard", 2).verdict == LEVEL
    assert level_claim(measured, "hard", 3).verdict == NOT_MEASURED
    assert level_claim(measured, "hard", 3).text == "not measured at 3 players"


@pytest.mark.parametrize("measured", [
    {},  # a card without levels
    {"levels": {}},
    {"levels": {"easy": {"4p": contest(-0.1, -0.2, -0.05)}}},  # another level only
    {"levels": {"hard": {"4p": {"cost": {"median_s": 0.1}}}}},  # a cost but no strength
    {"levels": {"hard": {"4p": {"strength": {"games": 10, "win_share_difference": 0.1}}}}},
    # at several players the win share decides: a score alone is not its figure
    {"levels": {"hard": {"4p": solo(3.0, 1.0, 5.0)}}},
])
def test_missing_figures_are_not_measured_and_never_stronger(measured):
    claim = level_claim(measured, "hard", 4)
    assert claim.verdict == NOT_MEASURED and not claim.stronger
    assert claim.gain == "" and claim.games is None


def test_expert_is_harder_than_hard_only_where_its_interval_lies_above_hards_gain():
    hard = contest(0.05, 0.01, 0.09)
    clear = level_claim(card(hard={"4p": hard}, expert={"4p": contest(0.2, 0.12, 0.28)}),
                        "expert", 4)
    assert clear.verdict == STRONGER and clear.above_hard is True
    assert "stronger than the network and than @hard" in clear.text
    overlapping = level_claim(card(hard={"4p": hard}, expert={"4p": contest(0.1, 0.03, 0.17)}),
                              "expert", 4)
    assert overlapping.verdict == STRONGER and overlapping.above_hard is False
    assert "not measured stronger than @hard (@hard: win share +5.0 points" in overlapping.text
    alone = level_claim(card(expert={"4p": contest(0.1, 0.03, 0.17)}), "expert", 4)
    assert alone.verdict == STRONGER and alone.above_hard is None
    assert "@hard" not in alone.text  # no comparison: what is measured, nothing more


def test_expert_measured_stronger_is_harder_than_a_hard_measured_weaker():
    claim = level_claim(card(hard={"4p": contest(-0.2, -0.3, -0.1)},
                             expert={"4p": contest(0.1, 0.02, 0.18)}), "expert", 4)
    assert claim.above_hard is True


def test_level_claims_lists_every_recorded_level_and_count():
    measured = card(hard={"1p": solo(14.6, 12.6, 16.6), "2p": contest(0.04, -0.01, 0.09)},
                    easy={"2p": contest(-0.04, -0.07, -0.01)})
    assert [(c.level, c.players, c.verdict) for c in level_claims(measured)] == [
        ("hard", 1, STRONGER), ("hard", 2, LEVEL), ("easy", 2, WEAKER)]


@pytest.mark.parametrize("levels, says", [
    ({"hard": {"4p": {"strength": {"win_share_difference": 0.1,
                                   "win_share_difference_ci95": ["low", "high"]}}}},
     "must be numbers"),
    ({"hard": {"4p": {"strength": {"win_share_difference": 0.1,
                                   "win_share_difference_ci95": [0.2, 0.1]}}}},
     "is not an interval"),
    ({"hard": {"4p": {"strength": {"win_share_difference": 0.1,
                                   "win_share_difference_ci95": [0.1]}}}},
     "must be numbers"),
])
def test_a_damaged_figure_is_an_error_naming_it(levels, says):
    with pytest.raises(CheckpointError, match=says):
        level_claim({"levels": levels}, "hard", 4)


def test_levels_that_are_not_a_mapping_are_an_error():
    with pytest.raises(CheckpointError, match="levels must map"):
        level_claim({"levels": ["hard"]}, "hard", 4)


@pytest.mark.parametrize("players", [0, -1, True, "4", 2.0])
def test_a_bad_player_count_is_refused(players):
    with pytest.raises(ValueError, match="players must be a player count"):
        level_claim(card(), "hard", players)


def test_a_bad_card_or_level_is_refused():
    with pytest.raises(TypeError, match="card must be"):
        level_claim(["hard"], "hard", 4)
    with pytest.raises(ValueError, match="level must be"):
        level_claim(card(), "", 4)


def test_counts_are_said_in_words():
    assert counts_text((4,)) == "4 players"
    assert counts_text((1, 2)) == "1 or 2 players"
    assert counts_text((2, 3, 4)) == "2, 3 or 4 players"
    assert counts_text((1,)) == "1 player (solo)"
    assert counts_text(()) == "no player count"


def test_figures_recorded_with_other_search_settings_are_outdated_never_stronger():
    """A level whose search changed since its figures were recorded (the root's noise was
    dropped on 2026-12-03) is not offered as harder on the old search's figures."""
    from meeplezoo.training.agents.bots import LEVELS
    from meeplezoo.training.agents.zoo import OUTDATED

    old = {**contest(0.10, 0.02, 0.17), "settings": {
        "play": "search", "simulations": 16, "root": "gumbel", "considered": 4,
        "c_scale": 0.3, "normalise_q": False, "leaf": "playouts"}}
    claim = level_claim(card(hard={"4p": old}), "hard", 4, LEVELS["hard"])
    assert claim.verdict == OUTDATED and not claim.stronger
    assert "current search settings" in claim.text and "+10.0" in claim.text
    now = {**old, "settings": {**LEVELS["hard"], "leaf": "value"}}
    assert level_claim(card(hard={"4p": now}), "hard", 4, LEVELS["hard"]).verdict == STRONGER
    # without the settings to compare, the record is read as it is
    assert level_claim(card(hard={"4p": old}), "hard", 4).verdict == STRONGER
