"""``python -m forge`` and the ``forge`` command (the console entry point is :func:`run`).

Nothing is imported before the ``try`` that handles Ctrl-C (``sys`` is built in): an interrupt while the rest of
forge is still being imported (the first tens of milliseconds) ends the run with one line and exit status 130, not
a traceback.  (An interrupt while the interpreter itself starts, before this module runs, is the interpreter's.)
"""

import sys


FAST_EXIT = frozenset({"build"})
"""The commands whose process ends without the interpreter's teardown when :func:`run` is the program's entry
(:func:`_leave`)."""


def run() -> int:
    """Run the command line in ``sys.argv``; return the exit status.  Called as the program itself (the ``forge``
    script, ``python -m forge``) for a command of :data:`FAST_EXIT`, it ends the process instead (:func:`_leave`)."""
    status = _run()
    caller = sys._getframe(1).f_globals.get("__name__")
    if caller == "__main__" and len(sys.argv) > 1 and sys.argv[1] in FAST_EXIT:
        _leave(status)
    return status


def _leave(status: int) -> None:
    """End the process with ``status`` now, when nothing is left to do but the interpreter's teardown: freeing
    every object and module one by one, and a last collection over them all (5 % of a small build's
    instructions).  Everything forge wrote is already on disk (written, flushed and synced, then renamed), so
    only the standard streams are flushed first.  Returns (the interpreter then ends as usual) when a flush
    fails, so that Python reports it as it would, when another thread is still running, or under a profiler or a
    tracer (cProfile, coverage: they write what they measured at exit)."""
    import os

    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    os._exit(status)


def _run() -> int:
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
