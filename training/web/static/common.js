// Shared by the lobby and the table: the API calls and the credentials each table hands
// out once (kept in this browser's localStorage, so a table survives a reload).
"use strict";

const MZ = {
  credentials(id) {
    return localStorage.getItem("mz-table:" + id);
  },
  remember(id, credentials) {
    localStorage.setItem("mz-table:" + id, credentials);
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
    if (!response.ok) throw new Error(data.error || response.statusText);
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
