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
RENDERERS = ("reportlab", "svgwrite", "cairosvg", "cairocffi", "pypdfium2", "PIL", "forge.render", "forge.pdf",
             "forge.pdftext")
DRAWING = (*RENDERERS, "fontTools", "pypdf", "forge.canvas", "forge.fontcache", "forge.outline", "forge.tiling",
           "forge.layout", "forge.impose", "forge.pdfx", "forge.vassal", "forge.templates")
"""Everything that draws, lays out or writes a page: neither ``forge check`` nor ``forge verify --no-print-check``
has a use for any of it."""
CHECK_MODULES = {"forge", "forge.check", "forge.cli", "forge.errors", "forge.glyphs", "forge.hexgrid",
                 "forge.keypath", "forge.loader", "forge.model", "forge.modelkit", "forge.modelmarks", "forge.notation",
                 "forge.units",
                 "forge.startcache",  # compiled regular expressions and dataclass methods, kept (python -m forge)
                 "forge.claim_keys", "forge.conditions",  # the example keys and combat conditions check refuses
                 "forge.commands", "forge.commands.play",  # play's options (standard library only)
                 "forge.commands.diff_options",  # diff's options (standard library only)
                 "forge.commands.analyze"}  # analyze's options (standard library only)
"""The forge modules ``forge check`` of a game without set-up zones imports: no more (a new one is a choice to make
here, with its cost in docs/PERFORMANCE.md)."""


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
    # the die-row labels are read by forge.notation, not the combat engine; layout templates are a build's
    assert under(names, ("forge.rules", "forge.templates")) == []


def forge_modules(names: set[str]) -> set[str]:
    return {n for n in names if n == "forge" or n.startswith("forge.")}


def test_check_imports_its_module_set_and_nothing_that_draws(tmp_path: Path) -> None:
    """Also for a game whose texts need the fonts' coverage (non-ASCII place names): the coverage is read from
    forge/fonts/coverage.txt, not from the fonts through reportlab."""
    text = GAME.read_text(encoding="utf-8")
    assert "name: Tichonovka" in text
    cyrillic = tmp_path / "cyrillic.yaml"
    cyrillic.write_text(text.replace("Tichonovka", "Тихоновка"), encoding="utf-8")  # the hex and its mentions
    for game in (GAME, cyrillic):
        names, r = imported("check", str(game))
        assert r.returncode == 0, r.stderr[-2000:]
        assert "forge.glyphs" in names
        assert under(names, DRAWING) == [], game.name
        assert forge_modules(names) == CHECK_MODULES, game.name
        assert under(names, ("pydantic", "pydantic_core")) == [], game.name  # a good file: msgspec alone


def test_check_of_a_bad_file_reads_it_again_with_the_pydantic_mirror(tmp_path: Path) -> None:
    """A file the model refuses is validated once more by pydantic (forge.modelmirror), for its located messages."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(GAME.read_text(encoding="utf-8").replace("format: 1", "format: 1\nformat_x: 2", 1))
    names, r = imported("check", str(bad))
    assert r.returncode == 2, r.stderr[-2000:]
    assert "unknown key 'format_x'" in r.stderr
    assert {"pydantic", "forge.modelmirror"} <= names
    assert under(names, DRAWING) == []


def test_verify_without_the_print_check_imports_nothing_that_draws() -> None:
    names, r = imported("verify", "--no-print-check", str(GAME))
    assert r.returncode in (0, 1), r.stderr[-2000:]
    assert "forge.verifier" in names
    assert under(names, DRAWING) == []
    assert forge_modules(names) >= CHECK_MODULES
    assert under(names, ("forge.builder",)) == ["forge.builder"]  # BuildOptions only: it imports no renderer


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


def test_build_leaves_pillows_image_module_unrun(tmp_path: Path) -> None:
    """reportlab imports PIL.Image for images, which a build of map, counters and cards never draws: the build's
    command line makes it lazy (forge.builder.defer_image_library), so its own imports (PIL.ExifTags, PIL.TiffTags,
    PIL.ImageMode ...: about 5 % of a small build's instructions) never run.  An image build still gets Pillow."""
    names, r = imported("build", str(GAME), "--out", str(tmp_path / "a"), "-q")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "reportlab.lib.utils" in names  # which imports PIL.Image
    assert under(names, ("PIL.ExifTags", "PIL.TiffTags", "PIL.ImageMode", "PIL.ImageColor")) == []
    names, r = imported("build", str(GAME), "--out", str(tmp_path / "b"), "-q", "--only", "counters", "--pdfx")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "PIL.ImageCms" in names
    assert "PIL.ImageMode" in names


def test_forge_model_skips_field_docstrings_but_forge_schema_has_them() -> None:
    """forge.model (msgspec) reads no docstrings; ``forge schema`` writes the pydantic mirror's schema, which reads
    them, and its descriptions are the committed schema's (tests/test_cli.py compares the whole file)."""
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


def loaded(*args: str) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules in ``sys.modules`` when ``forge ARGS`` (run in a fresh interpreter) exits, and the process: a
    build's imports, which ``-X importtime`` does not list whole (it writes through ``sys.stderr``, and a build's
    renderers import while it is not the terminal's)."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.__stderr__.write('\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n'))\n"
        "from forge.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, check=False, timeout=300
    )
    found = re.findall(r"^MODULES (.*)$", r.stderr, re.MULTILINE)
    return (set(found[-1].split()) if found else set()), r


def test_build_of_a_good_file_imports_no_pydantic(tmp_path: Path) -> None:
    """The game model and the layout templates are msgspec Structs (forge.modelkit): a build with the shipped
    templates, and with a user's good copy of them, validates both without pydantic (its import and schema build
    are a bad file's cost); nor forge.commands.diff (the parser reads diff's options from
    forge.commands.diff_options), nor the standard library's web modules (xml.sax.saxutils imported them)."""
    from forge import templates as T

    user = tmp_path / "tpl"
    user.mkdir()
    for name in (T.COUNTER_FILE, T.CARD_FILE):
        (user / name).write_bytes((T.SHIPPED / name).read_bytes())
    for extra in (("--only", "map,counters,cards"), ("--only", "counters", "--templates", str(user))):
        names, r = loaded("build", "-q", str(GAME), "--out", str(tmp_path / "out"), *extra)
        assert r.returncode == 0, r.stderr[-2000:]
        assert "forge.templates" in names  # it did read the templates
        assert "forge.render.counters" in names
        assert under(names, ("pydantic", "pydantic_core", "forge.modelmirror")) == [], extra
        assert "forge.commands.diff_options" in names
        assert under(names, ("forge.commands.diff",)) == [], extra
        # the cards' markup is escaped by forge.markup: xml.sax.saxutils imports urllib.request, http.client, ssl
        assert under(names, ("xml.sax", "urllib.request", "http", "ssl", "email")) == [], extra
        if "cards" in extra[1]:
            assert "forge.render.cards" in names
    names, r = loaded("verify", str(GAME))  # with the print check: it builds and reads back the pages
    assert r.returncode in (0, 1), r.stderr[-2000:]
    assert "forge.templates" in names
    assert under(names, ("pydantic", "pydantic_core", "forge.modelmirror", "forge.commands.diff")) == []
    # the cards are read back by pdfium like the counters and the track: pypdf (its import, and ten to twenty
    # times pdfium's time per page) is only for a PDF rulebook given with --book
    assert under(names, ("pypdf",)) == []
    # pdfium through forge.pdftext's dozen ctypes declarations: not pypdfium2's bindings of all its API, and not
    # ctypes.util (subprocess), logging, nor pypdfium2_raw's generated module (90 M instructions of a verify)
    assert "forge.pdftext" in names
    assert under(names, ("pypdfium2", "pypdfium2_raw", "pypdfium2_cfg", "ctypes.util", "logging", "subprocess")) == []


def test_build_lays_out_cards_and_handout_without_platypus(tmp_path: Path) -> None:
    """The cards, the handout's player aids and sheets and the teacher's pages are blocks drawn on forge.canvas
    (forge.render.blocks, issue 23 item 2): a build of every printed component never imports reportlab's platypus
    (its import was 40 ms of a build, docs/PERFORMANCE.md)."""
    names, r = loaded("build", "-q", str(GAME), "--out", str(tmp_path), "--only", "map,counters,cards,handout,teacher")
    assert r.returncode == 0, r.stderr[-2000:]
    assert {"forge.render.cards", "forge.render.handout", "forge.render.blocks"} <= names  # it did lay them out
    assert under(names, ("reportlab.platypus",)) == []


def test_a_bad_template_is_read_again_by_the_pydantic_mirror(tmp_path: Path) -> None:
    """The templates' messages are pydantic's (forge.modelmirror), as before the move to msgspec."""
    from forge import templates as T

    (tmp_path / T.CARD_FILE).write_text(
        (T.SHIPPED / T.CARD_FILE).read_text(encoding="utf-8").replace("margin: 0.35in", "margin: 25"),
        encoding="utf-8",
    )
    names, r = imported("build", "-q", str(GAME), "--templates", str(tmp_path), "--out", str(tmp_path / "out"))
    assert r.returncode == 2, r.stderr[-2000:]
    assert "card.yaml:9:1: margin: expected text, got 25" in r.stderr, r.stderr[-2000:]
    assert "pydantic" in names


def test_a_size_override_merges_into_the_layout_validation_gives() -> None:
    """CounterTemplate.at merges a size's overrides without validating again: the same layout as validating the
    merge, for overrides that move a part to the other edge, change a number, or both."""
    from forge import templates as T

    base = T.shipped().counter.model_dump()
    base["sizes"] = {
        "1/2in": {"label": {"right": 0.1}, "strength": {"size": 0.25, "bottom": 0.05}, "padding": 0.05},
        "3/4in": {"steps": {"y": 0.5, "r": 0.05}, "frame": {"inset": 0.1}},
    }
    tpl = T.CounterTemplate.model_validate(base)
    for size in (*T.SIZES, None):
        merged = tpl.at(size)
        again = T.CounterLayout.model_validate(merged.model_dump())
        assert repr(merged) == repr(again), size
    assert tpl.at("1/2in").label.x is None
    assert tpl.at("1/2in").label.right == 0.1
    assert tpl.at("3/4in").steps.bottom is None


def test_an_override_out_of_bounds_or_placed_twice_is_refused_where_it_is_written() -> None:
    """The overrides carry the layout's bounds and place a part from one edge of each pair, so that every merge is a
    valid layout (an out-of-bounds override used to end in a traceback when the merge was validated)."""
    import pytest
    from pydantic import ValidationError

    from forge import templates as T

    base = T.shipped().counter.model_dump()
    for override, field in (({"strength": {"size": 50}}, "size"), ({"label": {"x": 0.1, "right": 0.2}}, "label")):
        with pytest.raises(ValidationError) as info:
            T.CounterTemplate.model_validate({**base, "sizes": {"1/2in": override}})
        assert field in str(info.value)
