"""The PettingZoo environment: API test, masks, rewards, bots through the env."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # type: ignore[import-untyped]  # noqa: E402

from laizi.bots import make_bot  # noqa: E402
from laizi.env import ACTION_SIZE, action_to_index, env, raw_env  # noqa: E402


def test_api_test() -> None:
    api_test(env(), num_cycles=1500)
    api_test(raw_env(preset="qipisilai"), num_cycles=300)


def test_masks_only_for_the_selected_agent_and_obs_in_space() -> None:
    e = raw_env()
    e.reset(seed=1)
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert e.observation_space(agent).contains(obs)
        if agent != e.agent_selection:
            assert obs["action_mask"].sum() == 0
        else:
            assert obs["action_mask"].sum() > 0
    assert e.observe(e.agent_selection)["action_mask"].shape == (ACTION_SIZE,)


def test_bots_through_the_env_and_zero_sum_rewards() -> None:
    e = raw_env()
    bots = [make_bot("greedy", s) for s in range(4)]
    won = 0
    for ep in range(6):
        e.reset(seed=ep)
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter(max_iter=5000):
            obs, reward, term, trunc, _info = e.last()
            total[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            v = e.view(agent)
            a = bots[e.possible_agents.index(agent)].act(v)
            idx = action_to_index(a, pending=v.pending)
            assert obs["action_mask"][idx] == 1
            e.step(idx)
        assert abs(sum(total.values())) < 1e-6
        won += any(r != 0 for r in total.values())
    assert won >= 3


def test_illegal_action_is_rejected() -> None:
    e = raw_env()
    e.reset(seed=2)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError):
        e.step(bad)


def test_match_episodes_pass_the_api_test() -> None:
    api_test(raw_env(match_hands=3), num_cycles=600)


def test_a_whole_match_is_one_episode_and_rewards_add_up_to_the_match_scores() -> None:
    from laizi.game import Match

    e = raw_env(match_hands=4)
    e.reset(seed=7)
    bots = [make_bot("greedy", s) for s in range(4)]
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    hand_ends: list[int] = []
    for agent in e.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if agent == "player_0" and info.get("hand") and info["hand"] not in hand_ends:
            hand_ends.append(int(info["hand"]))
        if term or trunc:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        view = e.view(agent)
        a = bots[seat].act(view)
        e.step(action_to_index(a, pending=view.pending))
        steps += 1
    m = e.match
    assert isinstance(m, Match) and m.over and m.hand_no == 4
    assert [total[a] for a in e.possible_agents] == pytest.approx(
        [float(x) for x in m.score_values()])
    assert abs(sum(total.values())) < 1e-6
    assert hand_ends == [1, 2, 3, 4]  # every hand paid out within the one episode
    assert steps > 40 * 4


def test_match_hands_is_checked() -> None:
    with pytest.raises(ValueError, match="match_hands"):
        raw_env(match_hands=0)
