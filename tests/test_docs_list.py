"""README's documentation list names every document under docs/, each on its own line,
and every link in it leads to a file that exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _docs_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Documentation\n", 1)[1].split("\n## ", 1)[0]


def test_readme_lists_every_doc_once() -> None:
    section = _docs_section()
    listed = re.findall(r"^- \[docs/([\w.-]+\.md)\]\(docs/\1\) — \S", section, flags=re.M)
    on_disk = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert sorted(listed) == on_disk, f"README's Documentation list vs docs/: {sorted(listed)} != {on_disk}"
    assert len(set(listed)) == len(listed)


def test_doc_links_resolve() -> None:
    for doc in (ROOT / "docs").glob("*.md"):
        for target in re.findall(r"\]\(([\w./-]+\.md)(?:#[\w-]+)?\)", doc.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            assert (doc.parent / target).resolve().exists(), f"{doc.name}: broken link {target}"
