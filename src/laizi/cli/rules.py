"""``laizi rules --preset P [--options JSON] [--lang zh|en] [--json]``: the rule card (规则卡).

Prints the preset plus every option that differs from it, in Chinese or English
(:func:`laizi.rulecatalog.rule_card`); ``--json`` prints the card, the options that differ
(name, value, words) and the whole rule set.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

NAME = "rules"
HELP = "the rule card (规则卡) of a preset and options, in Chinese or English"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", default="kaikoufan", metavar="P",
                        help="kaikoufan, kaikoufan_fa, qipisilai, koukoufan or jiayu (default kaikoufan)")
    parser.add_argument("--options", default="{}", metavar="JSON",
                        help='options that change the preset, e.g. \'{"min_points": 32, "fanbao": true}\'')
    parser.add_argument("--lang", choices=("zh", "en"), default="zh", help="the card's language (default zh)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the one-line card")


def run(args: argparse.Namespace) -> int:
    from laizi.errors import RuleError
    from laizi.rulecatalog import rule_card, rule_card_items
    from laizi.rules import RuleSet

    try:
        options: Any = json.loads(args.options)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--options is not JSON: {exc.msg} at position {exc.pos}") from None
    if not isinstance(options, dict):
        raise RuleError("--options must be a JSON object of options")
    if "preset_name" in options:
        raise RuleError("give the preset with --preset, not in --options")
    rules = RuleSet.preset(args.preset, **options)
    if args.json:
        print(json.dumps({"card": rule_card(rules, args.lang), "preset": args.preset,
                          "changed": rule_card_items(rules, args.lang),
                          "rules": rules.model_dump(mode="json")}, ensure_ascii=False, indent=2))
    else:
        print(rule_card(rules, args.lang))
    return 0
