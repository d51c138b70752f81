"""The README and the documentation pages show what a user sees: their examples are run here.

Two kinds of fenced block are executed, in ``README.md`` and every page under ``docs/``:

* ``console`` blocks: each line starting ``$ `` is a shell command (run by bash in a fresh
  temporary folder, ``python`` and ``seqform`` being this interpreter and the checkout on
  ``PYTHONPATH``), and the lines after it, up to the next ``$ ``, are what it prints, stdout
  and stderr together as a terminal shows them.  A line ``...`` (or ``…``) alone stands for
  any number of lines.
* ``pycon`` blocks: ``>>>`` sessions, run by :mod:`doctest` (with ``ELLIPSIS`` and
  ``NORMALIZE_WHITESPACE``), each block in its own namespace.

Other blocks (plain fences, ``python``, ``text``) are illustrations and are not run.  The blocks
of one page run in order in one temporary folder, so a block may read what an earlier one wrote.
Before the comparison, volatile numbers are masked on both sides: seconds (``0.014 s``), round-off
exploitabilities (``5.55e-17``), and whatever an HTML comment ``<!-- docs-test: mask REGEX -->``
on the line before the fence adds for that block (``<!-- docs-test: skip REASON -->`` skips it).
Runs of spaces are compared as one, so a masked number of another width does not break the
columns.

A mismatch names the page, the line of the block and the command, and shows a unified diff of
what the page says against what the program printed: refresh the block from that output when the
change is intended.
"""

from __future__ import annotations

import difflib
import doctest
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")))
RUN_LANGUAGES = ("console", "pycon")
COMMAND_SECONDS = 300  # one command of a block; the examples take seconds

# Volatile numbers, masked on both sides: timings, and round-off far below every tolerance.
DEFAULT_MASKS = (
    r"\d[\d,]*\.\d+(?= s\b)",  # seconds: "solve 0.014 s", "in 0.043 s of solver time"
    r"\b\d\.\d+e-1\d\b",  # round-off: 5.55e-17, 1.23e-11 (tolerances are 1e-09 and above)
)
MASK = "<masked>"
DIRECTIVE = re.compile(r"<!--\s*docs-test:\s*(mask|skip)\s+(.*?)\s*-->")
ELLIPSIS_LINES = frozenset({"...", "…"})


@dataclass(frozen=True)
class Block:
    """One fenced block to run: where it is, its language, its text and its extra masks."""

    page: Path
    line: int  # of the opening fence, 1-based
    language: str
    text: str
    masks: tuple[str, ...] = ()
    skip: str | None = None

    @property
    def name(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page.name
        return f"{page}:{self.line}"


@dataclass(frozen=True)
class Step:
    """One command of a console block and the output the page shows for it."""

    command: str
    expected: tuple[str, ...]


def read_blocks(page: Path) -> list[Block]:
    """The ``console`` and ``pycon`` blocks of a Markdown page, with their directives."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks = []
    index = 0
    while index < len(lines):
        opening = lines[index].strip()
        if not opening.startswith("```"):
            index += 1
            continue
        language = opening[3:].strip()
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if language in RUN_LANGUAGES:
            masks, skip = _directives(lines[:index])
            body = "\n".join(lines[index + 1 : end])
            blocks.append(Block(page, index + 1, language, body, masks, skip))
        index = end + 1
    return blocks


def _directives(before: list[str]) -> tuple[tuple[str, ...], str | None]:
    """The ``docs-test`` comments on the lines right above a fence (blank lines end them)."""
    masks: list[str] = []
    skip = None
    for line in reversed(before):
        match = DIRECTIVE.search(line)
        if not match:
            break
        if match.group(1) == "mask":
            masks.append(match.group(2))
        else:
            skip = match.group(2)
    return tuple(masks), skip


def console_steps(text: str) -> list[Step]:
    """Split a console block at its ``$ `` prompts."""
    steps: list[Step] = []
    command: str | None = None
    expected: list[str] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            if command is not None:
                steps.append(Step(command, tuple(expected)))
            command, expected = line[2:], []
        elif command is not None:
            expected.append(line)
    if command is not None:
        steps.append(Step(command, tuple(expected)))
    return steps


def normalise(line: str, masks: tuple[str, ...]) -> str:
    """A line with its volatile numbers masked and its runs of spaces made one."""
    for pattern in (*DEFAULT_MASKS, *masks):
        line = re.sub(pattern, MASK, line)
    return re.sub(r" {2,}", " ", line.rstrip())


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` fits ``expected``, where an ellipsis line stands for any lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head in ELLIPSIS_LINES:
        return any(matches(rest, actual[skip:]) for skip in range(len(actual) + 1))
    return bool(actual) and actual[0] == head and matches(rest, actual[1:])


def mismatch_report(block: Block, step: Step, expected: list[str], actual: list[str]) -> str:
    diff = difflib.unified_diff(
        expected, actual, f"{block.name} (the page)", "the program's output", lineterm=""
    )
    return (
        f"{block.name}: `{step.command}` prints something else than the page shows "
        "(numbers masked, spaces collapsed; refresh the block if the change is intended):\n"
        + "\n".join(diff)
    )


# The commands a page runs by name, as small shell scripts that run this interpreter.  Not
# symlinks: a virtual environment's interpreter finds its environment from where it is called
# (the ``pyvenv.cfg`` beside it), so a link to it in another folder starts the bare base Python
# without the environment's packages.  A script that runs ``sys.executable`` itself works however
# the environment was entered (activated, or its ``bin/pytest`` called directly).
COMMANDS = {
    "python": (),
    "python3": (),
    "seqform": ("-m", "seqform"),
}


def command_folder(folder: Path) -> Path:
    """A folder of scripts running ``python`` and ``seqform`` as this interpreter, made once."""
    bin_folder = folder / ".bin"
    bin_folder.mkdir(exist_ok=True)
    for name, arguments in COMMANDS.items():
        script = bin_folder / name
        if not script.exists():
            line = shlex.join([sys.executable, *arguments])
            script.write_text(f'#!/bin/sh\nexec {line} "$@"\n', encoding="utf-8")
            script.chmod(0o755)
    return bin_folder


def run_command(command: str, folder: Path) -> list[str]:
    """Run one shell command as a reader would, stdout and stderr together."""
    bin_folder = command_folder(folder)
    env = {
        **os.environ,
        "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
    completed = subprocess.run(
        ["bash", "-c", command],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=COMMAND_SECONDS,
        check=False,
    )
    return completed.stdout.splitlines()


def check_console(block: Block, folder: Path) -> None:
    steps = console_steps(block.text)
    assert steps, f"{block.name}: a console block without a `$ ` command"
    for step in steps:
        actual = [normalise(line, block.masks) for line in run_command(step.command, folder)]
        expected = [normalise(line, block.masks) for line in step.expected]
        assert matches(expected, actual), mismatch_report(block, step, expected, actual)


def check_pycon(block: Block, folder: Path) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, {}, block.name, str(block.page), block.line)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    runner = doctest.DocTestRunner(optionflags=flags)
    report: list[str] = []
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        result = runner.run(test, out=report.append)
    finally:
        os.chdir(cwd)
    assert result.failed == 0, f"{block.name}: the Python session differs:\n" + "".join(report)


PAGES_TO_RUN = [page for page in PAGES if read_blocks(page)]


def test_the_readme_has_examples_to_run() -> None:
    readme = read_blocks(ROOT / "README.md")
    assert {block.language for block in readme} == {"console", "pycon"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "page", PAGES_TO_RUN, ids=[str(page.relative_to(ROOT)) for page in PAGES_TO_RUN]
)
def test_the_page_shows_what_the_program_prints(page: Path, tmp_path: Path) -> None:
    # A page's blocks run in order in one folder, as a reader would run them (a later block may
    # read a file an earlier one wrote); every block runs, and every mismatch is reported.
    failures = []
    for block in read_blocks(page):
        if block.skip:
            continue
        check = check_console if block.language == "console" else check_pycon
        try:
            check(block, tmp_path)
        except AssertionError as failure:
            failures.append(str(failure))
    assert not failures, "\n\n".join(failures)


# ---------------------------------------------------------------------------------------------
# The checker can fail
# ---------------------------------------------------------------------------------------------

PAGE = """\
Text.

<!-- docs-test: mask \\d+ apples -->
```console
$ echo 'solve 0.014 s, 3 apples'
solve 9.999 s, 7 apples
$ printf 'a\\nb\\nc\\n'
a
...
c
```

```console
$ echo two
one
```

```python
print("not run")
```

```pycon
>>> 1 + 1
3
```
"""


@pytest.fixture
def toy_blocks(tmp_path: Path) -> list[Block]:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    return read_blocks(page)


def test_reader_finds_the_blocks_to_run_and_their_masks(toy_blocks: list[Block]) -> None:
    assert [(b.line, b.language) for b in toy_blocks] == [
        (4, "console"),
        (13, "console"),
        (22, "pycon"),
    ]
    assert toy_blocks[0].masks == (r"\d+ apples",)
    assert [s.command for s in console_steps(toy_blocks[0].text)][1] == r"printf 'a\nb\nc\n'"


def test_masks_and_ellipsis_let_volatile_output_through(
    toy_blocks: list[Block], tmp_path: Path
) -> None:
    check_console(toy_blocks[0], tmp_path)


def test_a_changed_output_names_the_block_and_shows_the_diff(
    toy_blocks: list[Block], tmp_path: Path
) -> None:
    with pytest.raises(AssertionError) as failure:
        check_console(toy_blocks[1], tmp_path)
    message = str(failure.value)
    assert "page.md:13: `echo two`" in message
    assert "-one" in message and "+two" in message


def test_a_wrong_python_result_fails(toy_blocks: list[Block], tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="the Python session differs"):
        check_pycon(toy_blocks[2], tmp_path)


def test_ellipsis_matches_any_number_of_lines_but_not_a_wrong_one() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a"], ["a", "b"])


def test_commands_run_by_name_are_this_interpreter_with_its_packages(tmp_path: Path) -> None:
    # From a virtual environment's bin/pytest, not activated, a symlinked `python` started the
    # base interpreter without the environment (`seqform: error: No module named 'rich'`).
    shown = run_command('python -c "import sys; print(sys.prefix)"; seqform --version', tmp_path)
    assert shown[0] == sys.prefix
    assert shown[1].startswith("seqform ")
