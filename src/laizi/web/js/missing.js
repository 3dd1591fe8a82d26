// A page whose subject is not there (no such player, tournament or club) or not for this visitor
// (a club's page opened by a guest): its cards give way to one card that says why, with links to
// go on from there — not a toast over the top bar above empty cards. Text only (textContent).

/** Hide the cards of ``section`` and show one card (data-testid "missing") with ``message`` and
 *  ``links``, a list of [href, words]; called again (the language switched), it is rebuilt. */
export function showMissing(section, message, links) {
  let card = section.querySelector(":scope > .missing");
  for (const c of section.children) if (c !== card) c.classList.add("hidden");
  if (!card) {
    card = document.createElement("div");
    card.className = "card missing";
    card.dataset.testid = "missing";
    card.setAttribute("role", "status");
    section.appendChild(card);
  }
  const p = document.createElement("p");
  p.textContent = message;
  const row = document.createElement("p");
  row.className = "row";
  for (const [href, words] of links) {
    const a = document.createElement("a");
    a.className = "btn-link";
    a.href = href;
    a.textContent = words;
    row.append(a);
  }
  card.replaceChildren(p, row);
  card.classList.remove("hidden");
}
