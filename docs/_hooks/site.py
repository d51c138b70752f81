"""MkDocs hooks for seqform's site (``mkdocs.yml`` names this file under ``hooks:``).

Four jobs, so that the site never holds a second copy of something the repository already has:

* figures: the PNGs under ``benchmarks/results/`` and ``notebooks/figures/`` are served as
  ``figures/NAME.png`` (pages write ``![...](figures/scaling.png)``);
* API reference: ``api.md`` is generated from ``seqform.__all__``, one mkdocstrings block per
  public name at its defining module, so a name added to (or removed from) the facade appears
  (or disappears) without editing the page;
* home page: ``index.md`` is the README, its links turned into links between the site's pages
  (``docs/cli.md`` becomes ``cli.md``; a link to a file outside ``docs/`` keeps its text only);
* navigation: a page in ``docs/`` that ``nav`` does not list is appended under *More*, so a
  helper adding ``docs/<topic>.md`` gets a reachable page and the strict build does not fail.
"""

from __future__ import annotations

import importlib
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
FIGURE_FOLDERS = ("benchmarks/results", "notebooks/figures")
API_PAGE = "api.md"  # generated: not a file in docs/
API_INTRO = """# API reference

The public names of `seqform` (its `__all__`), grouped by the module that defines them.
Import them from the package itself: `from seqform import load_game, solve`.

"""


def _listed(nav: list[Any]) -> set[str]:
    """Every page path that the ``nav`` setting names, at any depth."""
    found: set[str] = set()
    for item in nav:
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            for value in item.values():
                if isinstance(value, str):
                    found.add(value)
                elif isinstance(value, list):
                    found |= _listed(value)
    return found


def on_config(config: Any) -> Any:
    """Append the pages that ``nav`` omits under *More* (sorted by file name)."""
    nav = config["nav"]
    if not nav:
        return config
    docs = Path(config["docs_dir"])
    pages = sorted(
        path.relative_to(docs).as_posix()
        for path in docs.rglob("*.md")
        if not any(part.startswith("_") for part in path.relative_to(docs).parts)
    )
    missing = [page for page in pages if page not in _listed(nav)]
    if missing:
        nav.append({"More": missing})
    return config


def _api_markdown() -> str:
    """One ``::: module.name`` block per public name, grouped by defining module."""
    seqform = importlib.import_module("seqform")
    by_module: dict[str, list[str]] = defaultdict(list)
    for name in sorted(seqform.__all__):
        value = getattr(seqform, name)
        module = getattr(value, "__module__", None)
        defined = getattr(value, "__name__", None)
        if module is None or defined is None or not module.startswith("seqform"):
            continue
        by_module[module].append(name)
    blocks = [API_INTRO]
    for module in sorted(by_module):
        blocks.append(f"## `{module}`\n")
        blocks.extend(f"::: {module}.{name}\n" for name in by_module[module])
    return "\n".join(blocks)


def _home_markdown() -> str:
    """The README with its links made relative to ``docs/``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = re.sub(r"\]\(docs/([^)]+)\)", r"](\1)", text)
    text = text.replace("](ARCHITECTURE.md)", "](architecture.md)")
    return re.sub(r"\[([^\]]+)\]\((?!https?:|[\w-]+\.md)[^)]*\)", r"\1", text)


def on_files(files: Files, config: Any) -> Files:
    """Serve the repository's figures under ``figures/`` and generate the API page."""
    for folder in FIGURE_FOLDERS:
        for path in sorted((ROOT / folder).glob("*.png")):
            files.append(File.generated(config, f"figures/{path.name}", abs_src_path=str(path)))
    files.append(File.generated(config, API_PAGE, content=_api_markdown()))
    files.append(File.generated(config, "index.md", content=_home_markdown()))
    return files
