"""Data that the training tools share on disk: game records (``records``).

This part sits between ``agents/`` and ``fitting/`` (ARCHITECTURE.md's training/ table):
``evaluation/selfplay`` writes records, and fitting reads them without importing
``evaluation/``.  numpy only, no torch.
"""
