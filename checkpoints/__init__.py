"""The shipped opponents, as a data package: ``<env>/<name>/{policy.onnx, card.json}``
(a team: ``<env>/<name>/team.json`` and one such folder per role).

Why a package: the folder stays at the top of the repository, where the cards and the
README point, and the wheel still carries it.  Being importable, it is installed beside
``envs`` and ``training`` (``pyproject.toml`` lists it and its ``*.onnx``/``*.json``
files as package data), and ``importlib.resources.files("checkpoints")`` finds it in a
clone and in a wheel install alike, whatever the working directory.  Nothing here is
code: ``training.opponents.list_zoo`` and ``training.opponents.load`` read the folders.
"""

# ``training.opponents`` checks this marker, so that another project's ``checkpoints``
# folder (a common name) found first on ``sys.path`` is never taken for the zoo.
MEEPLEZOO_ZOO = True
