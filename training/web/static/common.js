// Shared by the lobby and the table: the API calls and the credentials a table's link holds
// (a seat's link carries them in its fragment, #key=..., which browsers never send to a
// server).  They are kept per tab (sessionStorage, so a table survives a reload) and for the
// browser (localStorage, for a tab that holds none: a table opened later from the lobby).
// Per tab, because two tabs of one browser may hold two seats of one table (the host tries
// the other person's link): a tab's seat must never change under it when another tab opens
// another link.
"use strict";

const MZ = {
  credentials(id) {
    return sessionStorage.getItem("mz-table:" + id) || localStorage.getItem("mz-table:" + id);
  },
  remember(id, credentials) {
    sessionStorage.setItem("mz-table:" + id, credentials);
    localStorage.setItem("mz-table:" + id, credentials);
  },
  // a link opened (/table/<id>#key=...): keep its key and take it out of the address bar;
  // a table opened without one keeps for this tab the credentials it found
  adopt(id) {
    const key = new URLSearchParams(window.location.hash.slice(1)).get("key");
    if (!key) {
      const held = MZ.credentials(id);
      if (held) sessionStorage.setItem("mz-table:" + id, held);
      return;
    }
    MZ.remember(id, key);
    history.replaceState(null, "", window.location.pathname + window.location.search);
  },
  // the links to hand out, kept by the browser that made the table
  links(id) {
    try { return JSON.parse(localStorage.getItem("mz-links:" + id)) || []; } catch (e) { return []; }
  },
  // fetch JSON; a 4xx/5xx throws an Error carrying the server's message
  async call(method, path, body, table) {
    const headers = {"Content-Type": "application/json"};
    if (table) headers["X-Table-Credentials"] = MZ.credentials(table) || "";
    const response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await response.json(); } catch (e) { data = {error: response.statusText}; }
    if (!response.ok) {
      const error = new Error(data.error || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  },
  // an element with a class and text (text only: nothing is parsed as HTML)
  el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  },
};
