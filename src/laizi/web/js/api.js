// The one JSON API call of every page: the account token as a bearer (the one given, else
// localStorage "laizi.token"), a body POSTed as JSON; a refusal throws an Error whose message is
// the refusal in the page's language (i18n.js apiErrorText: its code's words in Chinese), with
// .status (the HTTP status), .code and .serverMessage (the server's English message).

import { apiErrorText } from "./i18n.js";

/** The account token kept by the browser (null when there is none or storage is off). */
export function storedToken() {
  try { return localStorage.getItem("laizi.token"); } catch (e) { return null; }
}

export async function api(path, body = null, token = storedToken()) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const r = await fetch(path, body === null || body === undefined ? { headers }
    : { method: "POST", headers, body: JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    throw apiError(r.status, data);
  }
  return data;
}

/** The Error a refusal throws (also for pages that fetch by themselves: the replay viewer). */
export function apiError(status, data) {
  const server = (data && data.error) || `HTTP ${status}`;
  const err = new Error(apiErrorText(data && data.code, data && data.params, server));
  err.status = status;
  err.code = (data && data.code) || null;
  err.serverMessage = server;
  return err;
}
