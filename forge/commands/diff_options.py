"""The command line of ``forge diff`` (forge.cli reads it when it builds its parser): the options, and a ``run`` that
imports :mod:`forge.commands.diff` only when the command is ``diff`` (its classes and tables cost about 10 ms, which
no other command needs).  Only the standard library is imported here."""

from __future__ import annotations

import argparse

__all__ = ["FORMATS", "add_arguments", "run"]

FORMATS = ("text", "json", "markdown")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``forge diff`` (forge.cli calls this when it builds its parser)."""
    p.add_argument("old", metavar="OLD.yaml", help="the earlier edition")
    p.add_argument("new", metavar="NEW.yaml", help="the later edition")
    p.add_argument("--format", choices=FORMATS, default="text", help="report format (default: text)")


def run(args: argparse.Namespace) -> int:
    from .diff import run as run_diff

    return run_diff(args)
