"""The big-hand card (晒大胡) as the browser drew it: every tile slot of its canvas read back."""

from __future__ import annotations

from typing import Any

# Each slot the card recorded (data-slots: [x, y, w, h, code]) read back from the canvas: the
# share of the slot that is the tiles' ivory face, and of its left margin strip (tile art
# x 3.5–5 of 60, y 10–60 of 80: ivory on every face, whatever the face draws, laizi badge or not).
SLOTS_JS = """() => {
  const c = document.querySelector('[data-testid="card-image"]');
  if (!c || !c.dataset.slots) return null;
  const g = c.getContext('2d');
  const ivory = (d, i) => d[i] > 230 && d[i + 1] > 225 && d[i + 2] > 200;
  return JSON.parse(c.dataset.slots).map(([x, y, w, h, code]) => {
    const d = g.getImageData(x, y, w, h).data;
    let face = 0;
    for (let i = 0; i < d.length; i += 4) face += ivory(d, i);
    const mx = Math.floor(4.25 * w / 60), y0 = Math.ceil(10 * h / 80), y1 = Math.floor(60 * h / 80);
    let margin = 0;
    for (let yy = y0; yy < y1; yy++) margin += ivory(d, (yy * w + mx) * 4);
    return { code, x, y, w, h, face: face / (w * h), margin: margin / (y1 - y0) };
  });
}"""


def card_slots(page: Any) -> list[dict[str, Any]]:
    """The drawn card's tile slots (raises when the card recorded none)."""
    slots = page.evaluate(SLOTS_JS)
    assert slots, "the card recorded no tile slots"
    return list(slots)


def empty_slots(page: Any) -> list[dict[str, Any]]:
    """The slots of the drawn card that do not show a tile's ivory face (none, when it drew
    every tile): fewer than 95 % of the margin strip or 30 % of the slot ivory."""
    return [s for s in card_slots(page) if s["margin"] < 0.95 or s["face"] < 0.3]
