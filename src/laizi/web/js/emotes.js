// Emotes drawn by the project (web/emotes/{id}.svg), sent through the table chat
// ({type: "chat", emote}; the server's list: laizi.server.common.chat.EMOTES, the same ids).
// A message with an emote shows its picture (its name as the picture's text alternative).
import * as net from "./net.js";
import { getLang, onLang } from "./i18n.js";

export const EMOTES = {
  zan: ["赞", "Thumbs up"], haha: ["哈哈", "Ha ha"], qi: ["气死了", "Fuming"],
  ku: ["哭", "Crying"], cha: ["喝口茶", "Tea break"], huo: ["手气好", "On fire"],
};

const name = id => EMOTES[id][getLang() === "zh" ? 0 : 1];

/** Emote ``id``'s name in the page's language, in brackets as a line of chat says it ([赞],
 *  [Thumbs up]); null for an id this client does not know. */
export function emoteText(id) { return Object.hasOwn(EMOTES, id) ? `[${name(id)}]` : null; }

/** The picture of emote ``id`` (null for an id this client does not know). */
export function emoteImg(id) {
  if (!Object.hasOwn(EMOTES, id)) return null;
  const img = document.createElement("img");
  img.className = "emote";
  img.src = `/static/emotes/${id}.svg`;
  img.alt = name(id);
  img.title = name(id);
  img.dataset.emote = id;
  return img;
}

function render() {
  const box = document.getElementById("emotes");
  if (!box) return;
  box.textContent = "";
  for (const id of Object.keys(EMOTES)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "emote-btn";
    b.dataset.emote = id;
    b.setAttribute("aria-label", name(id));
    b.appendChild(emoteImg(id));
    b.addEventListener("click", () => net.send({ type: "chat", emote: id }));
    box.appendChild(b);
  }
}

export function initEmotes() {
  render();
  onLang(render);
}
