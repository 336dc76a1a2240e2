"""Errata: what changed between two versions of a game, and the changed pieces alone to reprint.

A stage of its own that reuses the front end (prepare) and the renderer; it never builds a kit
of its own: `versions` finds the two versions, `compare` tells them apart, `changelog` writes the
result for people, and `run.diff_games` ties them together for `cardforge diff` and for
`cardforge build --errata`.
"""
