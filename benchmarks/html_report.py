"""The HTML report of a spot, opened in a real browser: ``show RESULT.json --html`` rendered
by headless Chromium, and its screenshot checked for content.

Run ``python -m benchmarks.html_report [--out DIR] [--spot SPOT.toml]``.  It solves the
docs' river spot (docs/spots.md; or the spot given), saves the result as ``solve --format
json --output`` does, writes the page with ``seqform show RESULT.json --html PAGE`` (fresh
processes, as a user runs them) and has Chromium render it to a PNG (``--headless
--screenshot``; Debian's package ``chromium``: ``apt-get install -y chromium``).  The
screenshot must not be blank: it must hold the solvers' colours of the grid's cells (check
and call green, bets red; :mod:`seqform.documents.spots.html`) and more than
:data:`MIN_COLOURS` distinct colours in all.  The PNG is kept in ``DIR`` (a temporary
folder by default) for a person to look at.

This is a check of the page in a browser, not a test: the test suite checks the page's
structure with the standard library's ``html.parser`` and needs no browser.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

RIVER = """\
board = "Ks7h2d9c4s"
pot = 10
effective_stack = 30
oop_range = "AA,AKs,QQ:0.5,JhTh,99"
ip_range = "KK:0.25,AQo,QJs,77"
bet_sizes = [0.5]
raise_sizes = [1]
max_raises = 1
"""
"""The river spot of docs/spots.md's examples (tests/spot_files.py)."""

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
MIN_COLOURS = 20
"""A blank or unstyled page has a handful of colours (white, black text); the grids have
many (bands, text anti-aliasing)."""
WINDOW = "1400,2400"
GREEN, RED = (0x5A, 0xA4, 0x69), (0xCC, 0x33, 0x33)  # documents/html.py's check/call, bet


def _browser() -> str:
    for name in CHROMIUM:
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("no Chromium found: apt-get install -y chromium (Debian), then rerun")


def _seqform(*argv: str) -> None:
    subprocess.run([sys.executable, "-m", "seqform", *argv], check=True)


def screenshot(page: Path, png: Path) -> None:
    """Render ``page`` with headless Chromium into ``png`` (a fresh profile, no network
    services, no GPU, no sandbox: it runs as root in containers)."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                _browser(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--no-first-run",
                f"--user-data-dir={profile}",
                f"--window-size={WINDOW}",
                f"--screenshot={png}",
                page.resolve().as_uri(),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )


def _near(colour: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 8 for a, b in zip(colour, wanted, strict=True))


def check_screenshot(png: Path) -> list[str]:
    """What is wrong with the screenshot (nothing: an empty list)."""
    from PIL import Image

    with Image.open(png) as image:
        pixels = image.convert("RGB")
        colours = pixels.getcolors(maxcolors=1 << 24) or []
    problems = []
    if len(colours) <= MIN_COLOURS:
        problems.append(f"{len(colours)} colours: the page looks blank")
    present = [colour for _, colour in colours]
    for name, wanted in (("green (check/call)", GREEN), ("red (bet)", RED)):
        if not any(_near(colour, wanted) for colour in present):
            problems.append(f"no {name} cell in the screenshot")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="keep the page and the PNG here")
    parser.add_argument("--spot", type=Path, help="a spot file (default: the docs' river)")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="seqform-html-"))
    out.mkdir(parents=True, exist_ok=True)
    spot = args.spot
    if spot is None:
        spot = out / "river.toml"
        spot.write_text(RIVER)
    result, page, png = out / "result.json", out / "report.html", out / "report.png"
    _seqform("solve", str(spot), "--format", "json", "--output", str(result), "--quiet")
    _seqform("show", str(result), "--html", str(page), "--output", str(out / "report.txt"))
    screenshot(page, png)
    problems = check_screenshot(png)
    size = page.stat().st_size
    print(f"result {result.stat().st_size:,} bytes; page {size:,} bytes; screenshot {png}")
    for problem in problems:
        print(f"FAIL: {problem}")
    if not problems:
        print("OK: Chromium rendered the grids in the solvers' colours")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
