"""The scoring docs match the code: docs/score-api.md's example and docs/rules.md's options."""

from __future__ import annotations

import json
import re
from pathlib import Path

from laizi.rules import OPTION_SETS, PRESETS, RuleSet
from laizi.scoring import BIG_HAND_IDS, REASONS
from laizi.scoring.request import score_json

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def test_score_api_example_is_a_checked_example_and_its_answer_is_exact() -> None:
    text = (DOCS / "score-api.md").read_text(encoding="utf-8")
    path = re.search(r"Example \(the `input` of `([^`]+)`", text)
    assert path, "score-api.md names the example file it shows"
    example = REPO / path.group(1)
    assert example.is_file(), f"{path.group(1)} is not in the repository"
    request, answer = (json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)[:2])
    assert request == json.loads(example.read_text(encoding="utf-8"))["input"]
    assert score_json(request) == answer


def test_rules_md_names_every_option_preset_and_id() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    for name in RuleSet.model_fields:
        assert f"`{name}`" in text, f"rules.md does not document RuleSet.{name}"
    for name in (*PRESETS, *OPTION_SETS, *BIG_HAND_IDS, *REASONS):
        assert f"`{name}`" in text, f"rules.md does not mention {name}"


def test_rules_md_defaults_match_ruleset() -> None:
    """The 'every option at a glance' table gives each field's real default."""
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    table = text.split("### Every option at a glance")[1].split("\n## ")[0]
    defaults = RuleSet()
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", table, re.M)
    assert len(rows) > 20
    for row in rows:
        name, shown = row[0], row[1].strip().strip("`")
        if name not in RuleSet.model_fields:
            continue
        value = getattr(defaults, name)
        want = str(value).lower() if isinstance(value, bool) else str(value)
        assert shown == want, f"rules.md: {name} default {shown!r}, RuleSet says {want!r}"
