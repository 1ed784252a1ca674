"""Every document the repository cites is in the repository.

The scan reads the tracked text files (`git ls-files`: SCANNED_SUFFIXES and SCANNED_NAMES)
and finds the references to documents in them:

- markdown links, `[text](target)` and `![alt](target)`, in .md files (not web addresses);
- bare mentions of a document: a path or name ending in `.md` or `.txt` (`RULES.md`,
  `docs/web.md`), and any path under `docs/` (`docs/screenshots/zoo.png`).

A reference counts when the repository holds its target:

- a path with a folder in it is looked up from the citing file's folder, then from the
  repository root;
- a bare name is looked up in the citing file's folder and every folder above it, then
  anywhere in the repository: it names a kind of file ("the game's RULES.md");
- a path that leaves the repository never counts, even where a file lies at its end.

Templates are not references: a path with `<…>`, `{…}`, `*` or `$` in it, or with a folder
written in capitals as a placeholder (`services/GAME/RULES.md`), is skipped.

Some documents live outside the repository and are cited by name only: EXTERNAL_DOCUMENTS
(the publishers' rulebooks, cited as "the rulebook" with their file name). A path to one
of them is refused like any other path the repository does not contain.

Sections are checked too. A markdown link with a fragment (`[x](docs/web.md#how-it-works)`,
`[x](#build-run-test)`) must name a heading of its target, and a document under docs/
followed by a quoted section (`docs/architecture.md "Storage"`) must have a heading that
reads exactly so. RULES.md files are cited by section all over the engines, often by the
start of a heading or a bold rule name; those citations are not checked here.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[2]
# This file is left out of the scan: its examples cite missing documents on purpose.
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()
SCANNED_SUFFIXES = (".py", ".md", ".toml", ".ts", ".tsx", ".yml", ".yaml", ".lua", ".proto", ".sh", ".Dockerfile")
SCANNED_NAMES = ("Makefile", "Dockerfile")
# Documents kept outside the repository, cited by name and never by path (see the module's docstring).
EXTERNAL_DOCUMENTS = frozenset(
    {
        "beasts-board-game.txt",  # the rulebook of Fantastic Beasts (services/beasts)
        "beast-pursuit-dice-game.txt",  # the rulebook of Beast Pursuit (services/pursuit)
        "fantasy-zoo.txt",  # the rulebook of Fantasy Zoo (services/zoo)
        "catch-the-golden-snitch.txt",  # the rulebook of Catch the Golden Snitch (services/snitch)
    }
)
# Names of files a standard defines, written by code rather than cited as documents.
STANDARD_FILES = frozenset({"entry_points.txt"})  # a dist-info's entry points (the packaging spec)

_WEB_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+")
_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_PATH_CHARS = r"[\w.\-/<>{}*$]"
_DOCUMENT = re.compile(rf"(?<!{_PATH_CHARS})({_PATH_CHARS}*[\w\-<>{{}}*$]\.(?:md|txt))(?![\w\-/])")
_DOCS_PATH = re.compile(rf"(?<!{_PATH_CHARS})(docs/(?:{_PATH_CHARS}*[\w\-/<>{{}}*$])?)")
# A quoted section right after a mention: `docs/architecture.md "Storage"`, `… .md, "Storage"`, `… .md ("Storage")`.
_SECTION = re.compile(r"\s*[,:]?\s*\(?[\"“]([^\"”\n]+)[\"”]")
_TEMPLATE = re.compile(r"[<>{}*$]|(?:^|/)[A-Z][A-Z_]+(?:/|$)")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


@dataclass(frozen=True)
class Reference:
    """One reference to a document: where it is, what it names, and the section it names, if any."""

    path: str  # the citing file, relative to the repository root
    line: int
    target: str  # as written, without a link's fragment
    section: str | None = None  # a quoted section name, or a link's fragment (then `anchor` is True)
    anchor: bool = False

    def __str__(self) -> str:
        cited = self.target + (f"#{self.section}" if self.anchor else f' "{self.section}"' if self.section else "")
        return f"{self.path}:{self.line}: {cited}"


def references(path: str, text: str) -> list[Reference]:
    """The references to documents in `text`, the contents of the tracked file `path`."""
    found: list[Reference] = []
    markdown = path.endswith(".md")
    for number, line in enumerate(text.splitlines(), start=1):
        if markdown:
            for match in _LINK.finditer(line):
                target, _, fragment = match.group(1).partition("#")
                if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", match.group(1)):  # a web address, mailto:…
                    continue
                found.append(Reference(path, number, target, fragment or None, anchor=bool(fragment)))
        # Links and web addresses blanked out, so that their paths are not read again as mentions.
        plain = _WEB_ADDRESS.sub(_blank, _LINK.sub(_blank, line) if markdown else line)
        starts: set[int] = set()  # a path under docs/ ending in .md is one mention, not two
        for pattern in (_DOCUMENT, _DOCS_PATH):
            for match in pattern.finditer(plain):
                target = match.group(1)
                if match.start() in starts or _TEMPLATE.search(target):
                    continue
                starts.add(match.start())
                section = _SECTION.match(plain, match.end())
                found.append(Reference(path, number, target, section.group(1) if section else None))
    return found


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def headings(markdown: str) -> list[str]:
    """The headings of a markdown document, as they read (inline code marks dropped), outside code blocks."""
    out: list[str] = []
    fenced = False
    for line in markdown.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        heading = None if fenced else _HEADING.match(line)
        if heading:
            out.append(heading.group(1).replace("`", ""))
    return out


def anchors(markdown: str) -> set[str]:
    """The fragments the usual code hosts give the headings of a markdown document (GitHub's rule)."""
    out: set[str] = set()
    for heading in headings(markdown):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchor, count = slug, 1
        while anchor in out:
            anchor, count = f"{slug}-{count}", count + 1
        out.add(anchor)
    return out


def contents(files: Iterable[str]) -> set[str]:
    """Every file and folder the repository holds, as paths relative to its root."""
    out: set[str] = set()
    for name in files:
        path = PurePosixPath(name)
        out.add(str(path))
        out.update(str(parent) for parent in path.parents if str(parent) != ".")
    return out


def _inside(base: PurePosixPath, target: str) -> str | None:
    """`target` taken from folder `base`, relative to the root; None when it leaves the repository."""
    parts: list[str] = list(base.parts)
    for part in PurePosixPath(target).parts:
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part not in (".", "/"):
            parts.append(part)
    return "/".join(parts)


def resolve(reference: Reference, contained: set[str]) -> str | None:
    """The repository path `reference` names, or None when the repository has no such file or folder."""
    target = reference.target.rstrip("/")
    folder = PurePosixPath(reference.path).parent
    if not target:  # a link to a fragment of the citing document itself
        return reference.path
    # A path from the citing folder or the root; a bare name from the citing folder upwards.
    bases = [folder, PurePosixPath()] if "/" in target else [folder, *folder.parents]
    for base in bases:
        candidate = _inside(base, target)
        if candidate and candidate in contained:
            return candidate
    if "/" not in target:
        return next((name for name in sorted(contained) if PurePosixPath(name).name == target), None)
    return None


def problems(found: Iterable[Reference], contained: set[str], read: Callable[[str], str]) -> list[str]:
    """One line per reference whose document, or section, the repository does not contain."""
    out: list[str] = []
    for reference in found:
        if "/" not in reference.target and reference.target in EXTERNAL_DOCUMENTS | STANDARD_FILES:
            continue
        target = resolve(reference, contained)
        if target is None:
            out.append(f"{reference}: no such document in the repository")
            continue
        if reference.section is None or not target.endswith(".md"):
            continue
        if reference.anchor:
            if reference.section not in anchors(read(target)):
                out.append(f"{reference}: {target} has no heading with that anchor")
        elif target.startswith("docs/") and reference.section not in headings(read(target)):
            out.append(f"{reference}: {target} has no heading that reads so")
    return out


def tracked_files() -> list[str]:
    """The repository's tracked files (skips the test outside a git checkout)."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"not a git checkout: {error}")
    return [name for name in listing.split("\0") if name]


def scanned(files: Iterable[str]) -> list[str]:
    """The tracked text files the scan reads: all of SCANNED_SUFFIXES and SCANNED_NAMES but this file."""
    return [
        name
        for name in files
        if (name.endswith(SCANNED_SUFFIXES) or PurePosixPath(name).name in SCANNED_NAMES) and name != SELF
    ]


# -------------------------------------------------------------------------- the scanner


MISSING = "nowhere.md"
RULEBOOK = "catch-the-golden-snitch.txt"


def synthetic_problems(path: str, text: str, files: dict[str, str]) -> list[str]:
    """The problems of `text`, written at `path` in a repository that holds exactly `files`."""
    contained = contents([*files, path])
    return problems(references(path, text), contained, lambda name: files.get(name, text if name == path else ""))


def test_the_scan_names_each_missing_document_and_section() -> None:
    """The check can fail: a missing link target, a bare name, a path out of the repository, a missing heading."""
    files = {
        "docs/guide.md": "# Guide\n\n## Storage\n\ntext\n\n```\n# not a heading\n```\n",
        "services/game/RULES.md": "# Rules\n",
    }
    text = "\n".join(
        [
            f"See [the plan](docs/{MISSING}) and the plan ({MISSING}).",  # 1: two missing documents
            'The guide: [guide](docs/guide.md#storage), docs/guide.md "Storage".',  # 2: both fine
            'Also docs/guide.md, "Lua scripts" and [x](docs/guide.md#not-a-heading).',  # 3: two missing sections
            f"The rulebook ({RULEBOOK}) by name; not by path (../shared/rules/{RULEBOOK}).",  # 4: the path fails
            "Templates: services/<game>/RULES.md, services/GAME/RULES.md, docs/{page}.md.",  # 5: skipped
            f"Web: https://example.com/{MISSING} and [site](https://example.com/a.md).",  # 6: skipped
        ]
    )
    assert synthetic_problems("services/game/notes.md", text, files) == [
        f"services/game/notes.md:1: docs/{MISSING}: no such document in the repository",
        f"services/game/notes.md:1: {MISSING}: no such document in the repository",
        "services/game/notes.md:3: docs/guide.md#not-a-heading: docs/guide.md has no heading with that anchor",
        'services/game/notes.md:3: docs/guide.md "Lua scripts": docs/guide.md has no heading that reads so',
        f"services/game/notes.md:4: ../shared/rules/{RULEBOOK}: no such document in the repository",
    ]


def test_names_resolve_from_the_citing_folder_upwards_and_paths_from_it_or_the_root() -> None:
    """A bare name finds the nearest one above the citing file; a path finds its file from either place."""
    files = {"services/game/RULES.md": "", "docs/guide.md": "# Guide\n", "README.md": ""}
    text = "RULES.md, README.md, docs/guide.md, ../../../docs/guide.md, [up](../../../README.md), docs/"
    assert synthetic_problems("services/game/engine/rules.py", text, files) == []
    outside = "../../../../README.md and a folder docs/gone/"
    assert synthetic_problems("services/game/engine/rules.py", outside, files) == [
        "services/game/engine/rules.py:1: ../../../../README.md: no such document in the repository",
        "services/game/engine/rules.py:1: docs/gone/: no such document in the repository",
    ]


def test_anchors_follow_the_code_hosts_rule() -> None:
    """Lower case, punctuation dropped, spaces as hyphens, repeated headings numbered."""
    markdown = "# Storage: keys, streams and scripts\n## `mg:` keys\n## Notes\n## Notes\n"
    assert anchors(markdown) == {"storage-keys-streams-and-scripts", "mg-keys", "notes", "notes-1"}


# -------------------------------------------------------------------------- the repository


def test_every_document_the_repository_cites_is_in_it() -> None:
    """Code, docs and comments cite only documents (and sections of docs/) the repository holds."""
    files = tracked_files()
    contained = contents(files)
    found = [
        reference
        for name in scanned(files)
        if (ROOT / name).is_file()
        for reference in references(name, (ROOT / name).read_text(encoding="utf-8", errors="replace"))
    ]
    assert found, "the scan found no reference at all: it reads nothing"
    missing = problems(found, contained, lambda name: (ROOT / name).read_text(encoding="utf-8"))
    assert not missing, "cite documents the repository holds (docs/architecture.md, a module):\n" + "\n".join(missing)
