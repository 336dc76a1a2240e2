"""Icon sets shipped with cardforge (package data, read by cardforge/layout/iconsets.py):
game-icons.zip and its index game-icons.json, game-icons.net's icons by Lorc, Delapouite and others under CC BY 3.0, made by
tools/vendor_game_icons.py.  See PROVENANCE.md."""
