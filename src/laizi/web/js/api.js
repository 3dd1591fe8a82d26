// The one JSON API call of every page: the account token as a bearer (the one given, else
// localStorage "laizi.token"), a body POSTed as JSON; a refusal throws an Error carrying the
// server's message (and .status, the HTTP status).

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
    const err = new Error((data && data.error) || `HTTP ${r.status}`);
    err.status = r.status;
    throw err;
  }
  return data;
}
