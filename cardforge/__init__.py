"""cardforge: a compiler for card games and print-and-play kits."""
__version__ = "0.1.0"
