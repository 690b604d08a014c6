"""The bundled fonts are parsed once per installation (forge.fontcache, issue 23): a second process loads the parsed
faces from the cache instead of parsing the TrueType files, and the PDFs are the same bytes either way; a damaged,
stale or unwritable cache only means parsing.  Every test here has a cache folder of its own (``XDG_CACHE_HOME``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from forge import fontcache
from forge.pdf import FONT_FACES, FONTS_DIR

ROOT = Path(__file__).resolve().parent.parent
KIT = ROOT / "bench" / "kits" / "small.yaml"

# A forge build in which every TrueType parse is counted: prints "parses N" (reportlab's extractInfo calls).
COUNTED = """
import sys
from reportlab.pdfbase import ttfonts
calls = []
real = ttfonts.TTFontFile.extractInfo
def counted(self, *a, **k):
    calls.append(self)
    return real(self, *a, **k)
ttfonts.TTFontFile.extractInfo = counted
from forge.cli import main
status = main(sys.argv[1:])
print("parses", len(calls))
sys.exit(status)
"""


def build(cache: Path, out: Path) -> tuple[int, dict[str, bytes]]:
    """The small kit built in a fresh process with ``cache`` as XDG_CACHE_HOME: TrueType parses, and the PDFs."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    r = subprocess.run(
        [sys.executable, "-c", COUNTED, "build", "-q", str(KIT), "--counter-size", "1/2in", "--only", "map,cards",
         "--out", str(out)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=300, check=False,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    parses = int(r.stdout.split("parses")[-1])
    return parses, {p.name: p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def test_a_second_process_parses_no_font_and_writes_the_same_bytes(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first, pdfs = build(cache, tmp_path / "a")
    assert first == len(FONT_FACES)  # each face parsed once (the glyph extents reuse the registered face)
    assert len(list((cache / "hexforge" / "fonts").glob("*.pickle"))) == len(FONT_FACES)
    second, again = build(cache, tmp_path / "b")
    assert second == 0
    assert set(pdfs) == {"map.pdf", "cards.pdf"}
    assert again == pdfs


def test_a_corrupted_or_stale_cache_is_parsed_again_with_the_same_output(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _, pdfs = build(cache, tmp_path / "a")
    folder = cache / "hexforge" / "fonts"
    files = [folder / fontcache._key(FONTS_DIR / f"{n}.ttf", (FONTS_DIR / f"{n}.ttf").read_bytes()) for n in FONT_FACES]
    assert all(f.is_file() for f in files)
    files[1].write_bytes(b"not a pickle")  # corrupted
    files[2].write_bytes(files[2].read_bytes()[:1000])  # cut short
    digest = fontcache._digest((FONTS_DIR / f"{FONT_FACES[0]}.ttf").read_bytes()).encode()
    assert digest in files[0].read_bytes()
    files[0].write_bytes(files[0].read_bytes().replace(digest, digest[:-1] + b"!"))  # stale: of other bytes
    parses, again = build(cache, tmp_path / "b")
    assert parses == 3
    assert again == pdfs
    # and the cache was repaired: the next process parses nothing
    assert build(cache, tmp_path / "c")[0] == 0


def test_a_cache_of_another_font_file_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cached face is of one file's bytes: a different file under the same name (an edited or upgraded font) is
    parsed, even when its cache entry is planted under the new file's key."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    regular, bold = FONTS_DIR / f"{FONT_FACES[0]}.ttf", FONTS_DIR / f"{FONT_FACES[1]}.ttf"
    fontcache.face(bold)
    (bold_entry,) = fontcache.cache_dir().glob(f"{FONT_FACES[1]}-*.pickle")
    planted = fontcache.cache_dir() / fontcache._key(regular, regular.read_bytes())
    planted.write_bytes(bold_entry.read_bytes())  # the bold face's state where the regular's should be
    face = fontcache.face(regular)
    assert face.name == FONT_FACES[0].encode()
    assert fontcache._load(planted, regular.read_bytes()) is not None  # rewritten with the regular face's state


def test_an_unwritable_cache_is_no_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would go", encoding="utf-8")
    parses, pdfs = build(blocked, tmp_path / "a")
    assert parses == 3
    _, reference = build(tmp_path / "cache", tmp_path / "b")
    assert pdfs == reference
    assert build(blocked, tmp_path / "c")[0] == 3  # nothing could be kept


def test_a_cached_face_and_font_are_what_parsing_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reportlab.pdfbase.ttfonts import TTFont

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for name in FONT_FACES:
        path = FONTS_DIR / f"{name}.ttf"
        fontcache.face(path)  # parsed and kept
        parsed = TTFont(name, str(path))
        cached = fontcache.ttfont(name, path)
        assert cached.face is not parsed.face
        assert sorted(vars(cached)) == sorted(vars(parsed))  # what TTFont.__init__ sets, no more, no less
        for attr, value in vars(parsed).items():
            if attr not in ("face", "state", "encoding"):
                assert getattr(cached, attr) == value, attr
        assert vars(cached.encoding) == vars(parsed.encoding)
        # glyphToChar is not kept (only the parse reads it): it is parsed when asked for, and is then the same
        assert "glyphToChar" not in vars(cached.face)
        assert cached.face.glyphToChar == parsed.face.glyphToChar
        mine, theirs = vars(cached.face), vars(parsed.face)
        assert sorted(mine) == sorted(theirs)
        for attr, value in theirs.items():
            if attr != "_pdfScale":
                assert mine[attr] == value, attr
        for x in (0, 1, 317.5, -2048, 1e6):
            assert cached.face._pdfScale(x) == parsed.face._pdfScale(x)


def test_a_build_never_asks_for_what_the_cache_leaves_out(tmp_path: Path) -> None:
    """The cache leaves glyphToChar out (two thirds of a face's unpickling): a whole build (map, counters, cards:
    measuring, drawing, subsetting every face) never asks for it, so no face parses its file again."""
    code = f"""
import sys
from pathlib import Path
from forge import fontcache
from forge.pdf import FONT_FACES, FONTS_DIR
for name in FONT_FACES:
    fontcache.face(FONTS_DIR / f"{{name}}.ttf")  # parsed and kept
from forge.cli import main
assert main(["build", "-q", {str(ROOT / "data" / "hells_gate.yaml")!r}, "--out", {str(tmp_path / "out")!r}]) == 0
from reportlab.pdfbase import pdfmetrics
faces = [pdfmetrics.getFont(name).face for name in FONT_FACES]
print([type(f).__name__ for f in faces], ["glyphToChar" in vars(f) for f in faces])
"""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split("\n")[-2] == "['CachedFace', 'CachedFace', 'CachedFace'] [False, False, False]"


def test_the_cache_follows_xdg_cache_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert fontcache.cache_dir() == tmp_path / "hexforge" / "fonts"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # the XDG spec: a relative path is ignored
    assert fontcache.cache_dir() == Path.home() / ".cache" / "hexforge" / "fonts"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert fontcache.cache_dir() == Path.home() / ".cache" / "hexforge" / "fonts"


def test_no_home_folder_is_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without XDG_CACHE_HOME and without a home folder (Path.home() raises), the face is parsed, as without a
    cache."""

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    face = fontcache.face(FONTS_DIR / f"{FONT_FACES[0]}.ttf")
    assert face.name == FONT_FACES[0].encode()


def test_a_cached_face_is_read_with_one_digest_of_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file's CRC-32 names the cache file and checks what it holds: worked out once (0.4 ms a face)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = FONTS_DIR / f"{FONT_FACES[0]}.ttf"
    fontcache.face(path)  # parsed and kept
    calls: list[int] = []
    real = fontcache._digest
    monkeypatch.setattr(fontcache, "_digest", lambda data: calls.append(len(data)) or real(data))
    face = fontcache.face(path)
    assert "glyphToChar" not in vars(face)  # from the cache
    assert calls == [path.stat().st_size]
