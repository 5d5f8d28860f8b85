"""The shipped opponents, as a data package: ``<env>/<name>/{policy.onnx, card.json}``
(a team: ``<env>/<name>/team.json`` and one such folder per role).

Why a package: the folder stays at the top of the repository, where the cards and the
README point, and the wheel still carries it as ``meeplezoo.checkpoints`` (``pyproject.toml``
maps it and lists its ``*.onnx``/``*.json`` files as package data), so
``importlib.resources.files("meeplezoo.checkpoints")`` finds it in a clone and in a wheel
install alike, whatever the working directory.  Nothing here is code:
``meeplezoo.training.opponents.list_zoo`` and ``load`` read the folders.
"""
