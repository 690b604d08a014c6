"""Start-up: each command imports only what it uses (issue 11; docs/PERFORMANCE.md).

Property: the modules a real ``python -m forge ...`` process imports (read from ``-X importtime``) hold none of the
heavy packages the command has no use for.  Timings are the benchmark's business (bench/), never a test's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "data" / "hells_gate.yaml"
RENDERERS = ("reportlab", "svgwrite", "cairosvg", "cairocffi", "pypdfium2", "PIL", "forge.render", "forge.pdf")


def imported(*args: str, cwd: Path = ROOT) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules ``python -m forge ARGS`` imports, and the finished process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPROFILEIMPORTTIME"}
    r = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "forge", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
        timeout=120,
    )
    names = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)\s*$", r.stderr, re.MULTILINE))
    return names, r


def under(names: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == p or n.startswith(p + ".") for p in packages))


def test_the_import_list_is_read() -> None:
    """The parser sees the imports, or the tests below would pass on an empty set."""
    names, r = imported("--version")
    assert r.returncode == 0, r.stderr[-2000:]
    assert {"forge", "forge.cli", "argparse"} <= names


def test_version_imports_neither_pydantic_nor_yaml() -> None:
    names, r = imported("--version")
    assert r.returncode == 0
    assert under(names, ("pydantic", "pydantic_core", "yaml", "forge.model", "forge.loader", "json")) == []
    assert under(names, RENDERERS) == []


def test_import_forge_loads_no_submodule_until_a_name_is_used() -> None:
    code = (
        "import sys, forge; before = sorted(m for m in sys.modules if m.startswith('forge.')); "
        "forge.LoadError; print(before, 'forge.errors' in sys.modules)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["[]", "True"]


def test_check_imports_no_renderer() -> None:
    names, r = imported("check", str(GAME))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "forge.model" in names  # it did load the game
    assert "yaml" in names
    assert under(names, RENDERERS) == []
    assert under(names, ("forge.builder", "forge.verifier", "forge.estimate")) == []


def test_verify_without_the_print_check_imports_no_renderer() -> None:
    names, r = imported("verify", "--no-print-check", str(GAME))
    assert r.returncode in (0, 1), r.stderr[-2000:]
    assert "forge.verifier" in names
    assert under(names, RENDERERS) == []


def test_build_imports_no_image_library_unless_asked(tmp_path: Path) -> None:
    names, r = imported("build", str(GAME), "--out", str(tmp_path), "-q")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "reportlab" in names  # it did draw
    assert under(names, ("svgwrite", "cairosvg", "cairocffi", "pypdfium2", "forge.render.images")) == []
    assert under(names, ("forge.verifier",)) == []


def test_forge_model_skips_field_docstrings_but_forge_schema_has_them() -> None:
    """Reading the fields' docstrings costs ~50 ms a run, so forge.model skips them; ``forge schema`` loads a copy
    that reads them, and its descriptions are the committed schema's (tests/test_cli.py compares the whole file)."""
    from forge import model
    from forge.cli import documented_model

    assert model.Map.model_fields["hex_size"].description is None
    documented = documented_model()
    assert documented is not model
    assert "hex" in (documented.Map.model_fields["hex_size"].description or "")
    assert documented_model() is documented  # loaded once


def test_unprintable_characters_are_the_complement_of_yamls_printable_set() -> None:
    """forge.loader spells the class out (cheaper to compile): the same code points as YAML's printable set's
    complement, plus the noncharacters."""
    from forge.loader import _NONCHARACTERS, _UNPRINTABLE

    every = "".join(map(chr, range(0x110000)))
    reference = re.compile(f"[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\U0010ffff]|[{_NONCHARACTERS}]")
    assert _UNPRINTABLE.findall(every) == reference.findall(every)
    assert len(reference.findall(every)) > 2048  # the surrogates at least
