"""Hegemony: Lead Your Class to Victory, as a MeepleZoo engine (4 players, four classes).

Work in progress: see RULES.md for what is implemented.  Not yet registered as an env.
"""
