"""Training, evaluation and export of MeepleZoo opponents (stable-baselines3 / sb3-contrib).

Entry points: ``meeplezoo train``, ``training.evaluate``, ``training.export``,
``training.bench`` and ``training.demo``; ``training.opponents.load`` plays an exported
opponent with numpy and onnxruntime only.
"""
