"""The fair shuffle: wall derivation, commitments, ``laizi verify`` and ``laizi replay``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from laizi.cli import main
from laizi.game import Match
from laizi.game.play import play_match
from laizi.game.replay import dump_log, parse_log
from laizi.game.verify import verify_events
from laizi.game.wall import commitment, derive_wall, hand_seed
from laizi.rules import RuleSet
from support.policies import random_policy


def test_wall_is_a_fixed_function_of_the_seed() -> None:
    seed = bytes(range(32))
    wall = derive_wall(seed)
    assert sorted(wall) == [k for k in range(34) for _ in range(4)]
    assert derive_wall(seed) == wall
    assert derive_wall(bytes(32)) != wall
    assert commitment(seed, wall) == commitment(seed, list(wall))
    assert commitment(seed, wall) != commitment(bytes(32), wall)
    assert hand_seed(b"m" * 32, 1) != hand_seed(b"m" * 32, 2)


def test_wall_derivation_is_pinned() -> None:
    """Golden values: changing the shuffle breaks every published commitment."""
    wall = derive_wall(b"\x00" * 32)
    assert commitment(b"\x00" * 32, wall) == GOLDEN_COMMITMENT
    assert "".join(f"{k:02d}" for k in wall[:10]) == GOLDEN_PREFIX


GOLDEN_COMMITMENT = "dd465e9041e93bb5718d660a8d128610af68e7daad71b5eb9a72c784ad64c52a"
GOLDEN_PREFIX = "32240611172727102113"


def test_wall_matches_an_independent_reading_of_the_documentation() -> None:
    import hashlib
    import hmac

    def stream(seed: bytes):  # type: ignore[no-untyped-def]
        i = 0
        while True:
            block = hmac.new(seed, b"laizi-wall-v1" + i.to_bytes(8, "big"), hashlib.sha256).digest()
            for j in range(0, 32, 4):
                yield int.from_bytes(block[j:j + 4], "big")
            i += 1

    for seed in (b"\x00" * 32, b"abc", bytes(range(32))):
        tiles = sorted(k for k in range(34) for _ in range(4))
        rnd = stream(seed)
        for i in range(135, 0, -1):
            n = i + 1
            while True:
                u = next(rnd)
                if u < 2**32 - (2**32 % n):
                    break
            j = u % n
            tiles[i], tiles[j] = tiles[j], tiles[i]
        assert tuple(tiles) == derive_wall(seed)
        expected = hashlib.sha256(b"laizi-wall-v1" + seed + bytes(tiles)).hexdigest()
        assert commitment(seed, tiles) == expected


def match_log(hands: int, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    m = Match(RuleSet.preset("kaikoufan", rounds=10**6), seed=rng.randbytes(32), max_hands=hands)
    play_match(m, random_policy(rng, claim=0.3, kong=0.3))
    return m.log


LONG_MATCH = 2_000


@pytest.mark.slow
def test_verify_a_long_match() -> None:
    """A 2,000-hand match verifies, every hand checked. The verifier checks each hand on its
    own (its seed from the match seed and the hand number, its commitment, its deal and every
    draw from the front and the back), so more hands are more samples of the same checks: on
    this seed every kind of event (draws from both ends, each kind of kong, claims, wins by
    self-draw and on a discard, drawn hands) has appeared by hand 158, and 2,000 hands hold
    each of them at least 7 times. It was 10,000 hands: 25-26 s (4.4-5.2 s for 2,000; the
    play is the cost, the verification itself takes 0.3 s) for nothing more proven."""
    events = match_log(LONG_MATCH, 1)
    report = verify_events(events)
    assert report.ok, report.summary()
    assert report.checked == LONG_MATCH and not report.unfinished


@pytest.fixture(scope="module")
def log_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "match.jsonl"
    path.write_text(dump_log(match_log(200, 2)), encoding="utf-8")
    return path


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_cli_ok(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["verify", str(log_file), "--replay"], capsys)
    assert code == 0, out + err
    assert out.startswith("OK: 200 hands checked") and "replayed identically" in out


def tamper(path: Path, tmp: Path, fn: object) -> Path:
    events = parse_log(path.read_text(encoding="utf-8"))
    assert callable(fn)
    fn(events)
    bad = tmp / "bad.jsonl"
    bad.write_text(dump_log(events), encoding="utf-8")
    return bad


def _change_draw(events: list[dict[str, object]]) -> None:
    # Change the 40th draw of hand 7: as if the server had swapped a tile.
    hand = 0
    n = 0
    for e in events:
        if e["type"] == "start_hand":
            hand += 1
        if hand == 7 and e["type"] == "draw":
            n += 1
            if n == 40:
                e["tile"] = "1m" if e["tile"] != "1m" else "2m"
                return


def _change_seed(events: list[dict[str, object]]) -> None:
    ends = [e for e in events if e["type"] == "end_hand"]
    seed = str(ends[4]["seed"])
    ends[4]["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]


def _change_commitment(events: list[dict[str, object]]) -> None:
    starts = [e for e in events if e["type"] == "start_hand"]
    c = str(starts[2]["commitment"])
    starts[2]["commitment"] = c[::-1]


@pytest.mark.parametrize(("fn", "hand", "words"), [
    (_change_draw, 7, "not the wall's tile"),
    (_change_seed, 5, "does not derive"),
    (_change_commitment, 3, "commitment"),
])
def test_verify_cli_rejects_tampering(log_file: Path, tmp_path: Path, fn: object, hand: int,
                                      words: str, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tamper(log_file, tmp_path, fn)
    code, out, _ = run_cli(["verify", str(bad)], capsys)
    assert code == 1
    assert out.startswith(f"FAILED: hand #{hand} ") and words in out


def test_verify_cli_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "x.jsonl"
    p.write_text("{not json\n", encoding="utf-8")
    code, out, err = run_cli(["verify", str(p)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "error" in err
    code, _, err = run_cli(["verify", str(tmp_path / "missing.jsonl")], capsys)
    assert code == 2 and err.count("\n") == 1


def test_verify_rejects_a_redacted_stream() -> None:
    from laizi.views import events_for

    m = Match(RuleSet.preset("kaikoufan"), seed=b"r" * 32, max_hands=1)
    play_match(m, random_policy(random.Random(0)))
    report = verify_events(events_for(m, 1))
    assert not report.ok and "redacted" in report.summary()


def test_replay_cli(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["replay", str(log_file), "--check"], capsys)
    assert code == 0
    assert "replays identically" in out and "=== hand 1" in out and "end of match" in out
    code, out2, _ = run_cli(["replay", str(log_file), "--seat", "2", "--no-draws"], capsys)
    assert code == 0 and "draws" not in out2


def test_replay_cli_single_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from support.policies import random_hand

    h = random_hand(RuleSet.preset("jiayu"), 5, greedy=True)
    p = tmp_path / "hand.jsonl"
    p.write_text(dump_log(h.log), encoding="utf-8")
    code, out, _ = run_cli(["replay", str(p), "--check"], capsys)
    assert code == 0 and h.hash() in out
    json.loads(p.read_text().splitlines()[0])


def test_verify_and_replay_cli_with_kong_draw_choice(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # 补/不补 after kongs (kong_draw_choice): the walls still verify (a 补 is a draw from the
    # back, a 不补 draws nothing), the log replays identically and tells both choices
    m = Match(RuleSet.preset("qipisilai", kong_draw_choice=True), seed=b"k" * 32, max_hands=6)
    play_match(m, random_policy(random.Random(4), claim=0.6, kong=0.9))
    kinds = {e["draw"] for e in m.log if e["type"] == "replace"}
    assert kinds == {True, False}
    p = tmp_path / "kongs.jsonl"
    p.write_text(dump_log(m.log), encoding="utf-8")
    code, out, _ = run_cli(["verify", str(p), "--replay"], capsys)
    assert code == 0 and out.startswith("OK"), out
    code, out, _ = run_cli(["replay", str(p), "--check"], capsys)
    assert code == 0 and "replays identically" in out
    assert "chooses 补: takes the replacement" in out and "chooses 不补: no replacement, no discard" in out
