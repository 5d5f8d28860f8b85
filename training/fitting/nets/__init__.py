"""Game-specific policy networks, one module per game (``training.spatial`` maps an env to
its builder).  Each reads the game's observation by the names of its feature-layout
blocks, never by offsets copied from the game's internals."""
