"""Multi-agent PPO on Ray RLlib (the ``rllib`` extra): self-play with one policy per role,
on one machine or a Ray cluster, exported to the suite's ONNX + card format.

Every Ray import of the suite is inside this package, so the rest runs without Ray.
``train`` trains, ``export`` exports a saved run; ``env`` wraps any MeepleZoo env as an
RLlib ``MultiAgentEnv`` and ``module`` is the masked PPO network.
"""
