"""``python -m forge`` and the ``forge`` command (the console entry point is :func:`run`).

Nothing is imported before the ``try`` that handles Ctrl-C (``sys`` is built in): an interrupt while the rest of
forge is still being imported (the first tens of milliseconds) ends the run with one line and exit status 130, not
a traceback.  (An interrupt while the interpreter itself starts, before this module runs, is the interpreter's.)
"""

import sys


def run() -> int:
    """Run the command line in ``sys.argv``; return the exit status."""
    try:
        try:
            from . import startcache

            # before anything compiles a regular expression or a dataclass (forge/startcache.py)
            startcache.preload(sys.argv[1] if len(sys.argv) > 1 else "")
            from .cli import main

            status = main()
            if status != 2:  # bad input reads it again with pydantic: its patterns would weigh on every good run
                startcache.save()
            return status
        finally:  # the process is ending: a late Ctrl-C must not print a traceback either
            import signal

            signal.signal(signal.SIGINT, signal.SIG_IGN)
    except KeyboardInterrupt:
        sys.stderr.write("forge: interrupted (SIGINT)\n")
        return 130
    except RuntimeError as e:  # Ctrl-C inside a class body's __set_name__ comes out as a RuntimeError caused by it
        if not _caused_by_interrupt(e):
            raise
        sys.stderr.write("forge: interrupted (SIGINT)\n")
        return 130


def _caused_by_interrupt(e: BaseException) -> bool:
    """Whether ``e`` was raised because of a KeyboardInterrupt (its cause or context, at any depth)."""
    seen: set[int] = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False


if __name__ == "__main__":
    sys.exit(run())
