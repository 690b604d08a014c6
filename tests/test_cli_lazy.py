"""``forge COMMAND ...`` builds only that command's parser (forge.cli.build_parser(only=...); issue 23).

Property: for every command, the parser built alone parses the same arguments to the same namespace, prints the same
help and usage, and refuses bad arguments with the same message as the whole command line's parser."""

from __future__ import annotations

import argparse
import contextlib
import io
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge.cli import COMMANDS, EXAMPLES, build_parser
from tests.strategies import examples


def _subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> tuple[object, str, str]:
    """The namespace (or the exit status), standard output and standard error of parsing ``argv``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            result: object = vars(parser.parse_args(argv))
        except SystemExit as e:
            result = ("exit", e.code)
    return result, out.getvalue(), err.getvalue()


def test_the_command_list_is_the_parsers() -> None:
    assert tuple(_subparsers(build_parser())) == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_parser_built_alone_is_the_same(command: str) -> None:
    alone = _subparsers(build_parser(command))
    assert command in alone
    assert set(alone) <= {command, "build"}  # watch takes build's options as its parent's
    whole = _subparsers(build_parser())[command]
    assert alone[command].format_help() == whole.format_help()
    assert alone[command].format_usage() == whole.format_usage()
    argv = shlex.split(EXAMPLES[command])[1:]
    argv = [a for a in argv if a not in (">", "hexforge.schema.json")]
    assert _parse(build_parser(command), argv) == _parse(build_parser(), argv)


_WORDS = st.sampled_from(["x.yaml", "-q", "--quiet", "--out", "o", "--only", "map", "--paper", "a4", "--games", "5",
                          "--bogus", "--format", "markdown", "--", "-h", "vassal", "--seed", "x", "--jobs", "0"])


@given(st.sampled_from(COMMANDS), st.lists(_WORDS, max_size=6))
@settings(max_examples=examples(60, 500), deadline=None)
def test_any_arguments_parse_alike(command: str, words: list[str]) -> None:
    argv = [command, *words]
    assert _parse(build_parser(command), argv) == _parse(build_parser(), argv)
