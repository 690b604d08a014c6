"""Hexforge: make and check hex-and-counter wargames on paper from one YAML file."""

__version__ = "0.1.0"
