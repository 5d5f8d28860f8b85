"""The policy network families ``training.train --arch`` offers.

Kept free of torch so that argument parsers (train, bench) can list them
without importing the networks; ``training.spatial`` builds them.
"""

ARCHS = ("mlp", "spatial")
