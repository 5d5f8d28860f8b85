// The table: draws the view the server sends (sections of pieces, the seats, the prompt and
// the choices, the log), plays the person's clicks and lets the agents move at the chosen
// speed.  The server decides everything; this page only shows and asks.
"use strict";

const table = {
  id: window.location.pathname.split("/").pop(),
  view: null,
  timer: null,
  paused: false,
};
const $ = (id) => document.getElementById(id);

function busy(on) {
  document.body.dataset.busy = on ? "1" : "0";
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function request(method, what, body) {
  busy(true);
  try {
    const view = await MZ.call(method, `/api/tables/${table.id}/${what}`, body, table.id);
    showError("");
    draw(view);
  } catch (err) {
    // another link moved first (two people, two pages stepping the agents): show the table
    // as it is now; an agent step that lost the race says nothing
    if (err.status === 409 && what !== "view") {
      await request("GET", "view");
      if (what !== "step") showError(err.message);
      return;
    }
    showError(err.message);
    busy(false);
  }
}

// while another person is to move, look again every second
async function poll() {
  try {
    const view = await MZ.call("GET", `/api/tables/${table.id}/view`, undefined, table.id);
    if (view.table.version !== table.view.table.version) return draw(view);
  } catch (err) {
    showError(err.message);
  }
  schedule();
}

// -- drawing -----------------------------------------------------------------------------
function targets(view) {
  const byPiece = {};
  for (const choice of view.choices) {
    if (choice.target) (byPiece[choice.target] = byPiece[choice.target] || []).push(choice);
  }
  return byPiece;
}

function pieceNode(piece, choices) {
  const node = MZ.el("div", "piece " + piece.tags.map((t) => "tag-" + t).join(" "));
  node.dataset.id = piece.id;
  if (piece.title) node.append(MZ.el("div", "piece-title", piece.title));
  for (const line of piece.lines) node.append(MZ.el("div", "piece-line", line));
  if (piece.badges.length) {
    const badges = MZ.el("div", "badges");
    for (const badge of piece.badges) badges.append(MZ.el("span", "badge badge-" + badge, badge));
    node.append(badges);
  }
  const text = [piece.title, piece.detail].filter(Boolean).join(" — ");
  if (piece.detail) node.title = piece.detail;
  node.addEventListener("mouseenter", () => { if (piece.detail) $("detail").textContent = text; });
  if (choices) {
    node.classList.add("choice");
    node.tabIndex = 0;
    node.addEventListener("click", (event) => pick(choices, event));
    node.addEventListener("keydown", (event) => { if (event.key === "Enter") pick(choices, event); });
  } else {
    node.addEventListener("click", () => { if (piece.detail) $("detail").textContent = text; });
  }
  return node;
}

function sectionNode(section, byPiece) {
  const box = MZ.el("section", "section layout-" + section.layout);
  box.dataset.section = section.id;
  const head = MZ.el("h2", null, section.title);
  if (section.note) head.append(MZ.el("span", "note", " — " + section.note));
  box.append(head);
  const body = MZ.el("div", "pieces");
  if (section.layout === "grid" && section.pieces.length) {
    const xs = section.pieces.map((p) => p.x), ys = section.pieces.map((p) => p.y);
    const minX = Math.min(...xs), minY = Math.min(...ys);
    for (const piece of section.pieces) {
      const node = pieceNode(piece, byPiece[piece.id]);
      node.style.gridColumn = `${piece.x - minX + 1} / span ${piece.w}`;
      node.style.gridRow = String(piece.y - minY + 1);
      body.append(node);
    }
  } else {
    for (const piece of section.pieces) body.append(pieceNode(piece, byPiece[piece.id]));
  }
  if (!section.pieces.length) body.append(MZ.el("p", "hint", "(none)"));
  box.append(body);
  return box;
}

function drawChoices(view) {
  const box = $("choices");
  box.replaceChildren();
  let group = null, list = null;
  for (const choice of view.choices) {
    if (choice.group !== group) {
      group = choice.group;
      const block = MZ.el("div", "choice-group");
      block.append(MZ.el("div", "group-name", group));
      list = MZ.el("div", "group-buttons");
      block.append(list);
      box.append(block);
    }
    const button = MZ.el("button", "choice-button", choice.label);
    button.type = "button";
    button.dataset.action = choice.action;
    button.title = choice.name;
    button.addEventListener("click", () => play(choice));
    list.append(button);
  }
}

function drawSeats(view) {
  const players = view.table.players;
  $("seats").replaceChildren(...view.seats.map((seat) => {
    const who = players[seat.seat].who;
    const node = MZ.el("div", "seat" + (seat.to_move ? " to-move" : "") + (who === "you" ? " mine" : ""));
    const whoText = who === "you" || who === "another person" ? who : "agent: " + who;
    node.dataset.seat = seat.seat;
    const head = MZ.el("div", "seat-head");
    head.append(MZ.el("span", "seat-name", `${seat.name}`),
                MZ.el("span", "seat-score", `${seat.score}${seat.place ? " · place " + seat.place : ""}`));
    node.append(head, MZ.el("div", "seat-who", whoText));
    for (const line of seat.summary) node.append(MZ.el("div", "seat-line", line));
    const parts = Object.entries(seat.breakdown).filter(([, v]) => v).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`);
    if (parts.length) node.append(MZ.el("div", "seat-breakdown", parts.join(" · ")));
    return node;
  }));
}

function drawLog(view) {
  const log = $("log");
  const [start, end] = view.recent.log;  // the others' lines since your last move
  log.replaceChildren(...view.log.map((line, k) => MZ.el("li",
    [line.startsWith("  ") ? "indent" : "", k >= start && k < end ? "recent" : ""]
      .filter(Boolean).join(" "), line.trim())));
  log.scrollTop = log.scrollHeight;
}

// what the others did since this seat last moved: the pieces it touched, marked on the board
function drawRecent(view) {
  const ids = new Set(view.recent.pieces);
  for (const node of $("board").querySelectorAll(".piece")) {
    if (ids.has(node.dataset.id)) node.classList.add("recent");
  }
  $("recent-note").hidden = !ids.size && view.recent.log[0] === view.recent.log[1];
}

function draw(view) {
  table.view = view;
  document.title = `${view.title} — MeepleZoo`;
  $("title").textContent = view.title;
  $("status").textContent = view.status;
  const byPiece = targets(view);
  $("board").replaceChildren(...view.sections.map((s) => sectionNode(s, byPiece)));
  const watching = view.table.watch;
  let prompt = view.prompt;
  if (view.over) prompt = "The game is over. " + view.seats.map((s) => `${s.name}: ${s.score} (place ${s.place})`).join(", ");
  else if (view.table.pass_to) prompt = `Pass the screen to ${view.table.pass_to.name}.`;
  else if (!prompt) prompt = watching ? "Watching." : view.table.bot_to_move ? "The agents are moving…" : "Waiting for another person's move…";
  $("prompt").textContent = prompt;
  $("turn").classList.toggle("mine", view.choices.length > 0);
  drawChoices(view);
  drawSeats(view);
  drawLog(view);
  drawRecent(view);
  $("rules").replaceChildren(...view.rules.map((r) => MZ.el("li", null, r)));
  $("undo").disabled = !view.table.can_undo;
  $("undo").title = view.table.can_undo ? "Back to your previous decision"
    : view.table.undo_stop ? `Undo stops at the last ${view.table.undo_stop}` : "Nothing to undo";
  const kind = [view.table.practice ? "Practice table" : "",
                view.table.hotseat ? "hot-seat" : "",
                view.table.link === "watcher" ? "you are watching" : "",
                view.table.seed !== null ? `seed ${view.table.seed}` : "seed shown when the game ends"];
  $("table-kind").textContent = kind.filter(Boolean).join(" · ");
  drawPass(view);
  $("pause").hidden = !view.table.bot_to_move && !table.paused;
  document.body.dataset.version = view.table.version;
  document.body.dataset.over = view.over ? "1" : "0";
  document.body.dataset.mine = view.choices.length ? "1" : "0";
  schedule();
  busy(false);
}

// -- moves -------------------------------------------------------------------------------
function play(choice) {
  closeMenu();
  const view = table.view;
  request("POST", "act", {seat: view.to_move, action: choice.action, version: view.table.version});
}

function pick(choices, event) {
  if (choices.length === 1) return play(choices[0]);
  const menu = $("menu");
  menu.replaceChildren(...choices.map((choice) => {
    const button = MZ.el("button", "choice-button", choice.label);
    button.type = "button";
    button.dataset.action = choice.action;
    button.addEventListener("click", () => play(choice));
    return button;
  }));
  menu.style.left = `${event.pageX}px`;
  menu.style.top = `${event.pageY}px`;
  menu.hidden = false;
  event.stopPropagation();
}

function closeMenu() {
  $("menu").hidden = true;
}

// hot-seat: the page hides the table until the next person takes the screen (the server
// sends only the public view until then)
function drawPass(view) {
  const next = view.table.pass_to;
  $("pass").hidden = !next;
  document.body.dataset.pass = next ? "1" : "0";
  if (!next) return;
  $("pass-text").textContent = `Pass the screen to ${next.name}.`;
  $("pass-go").textContent = `I am ${next.name}: show my seat`;
  $("pass-go").onclick = () => request("POST", "pass", {seat: next.seat});
}

function drawLinks() {
  const mine = MZ.credentials(table.id);
  const links = MZ.links(table.id).filter((link) => link.credentials !== mine);
  $("links-panel").hidden = !links.length;
  $("links").replaceChildren(...links.map((link) => {
    const item = MZ.el("li");
    const who = link.kind === "watcher" ? "Watcher" : link.names.join(", ");
    const field = MZ.el("input", "link-url");
    field.readOnly = true;
    field.value = link.url;
    field.dataset.kind = link.kind;
    field.addEventListener("focus", () => field.select());
    item.append(MZ.el("span", "link-who", who + ": "), field);
    return item;
  }));
}

function schedule() {
  clearTimeout(table.timer);
  const view = table.view;
  if (!view || view.over || table.paused || view.table.pass_to) return;
  if (!view.table.bot_to_move) {
    if (!view.choices.length) table.timer = setTimeout(poll, 1000);  // another person's turn
    return;
  }
  const delay = Number($("speed").value);
  table.timer = setTimeout(() => {
    request("POST", "step", {moves: delay === 0 ? 5000 : 1, version: table.view.table.version});
  }, delay);
}

// -- saves -------------------------------------------------------------------------------
async function listSaves() {
  const saves = await MZ.call("GET", `/api/tables/${table.id}/saves`, undefined, table.id);
  const env = table.view ? table.view.env : null;
  $("saves").replaceChildren(...saves.filter((s) => s.env === env).map((s) => {
    const option = MZ.el("option", null, s.name);
    option.value = s.name;
    return option;
  }));
}

async function save() {
  const name = $("save-name").value.trim();
  try {
    await MZ.call("POST", `/api/tables/${table.id}/save`, {name}, table.id);
    showError("");
    $("detail").textContent = `Saved as ${name}.`;
    await listSaves();
  } catch (err) {
    showError(err.message);
  }
}

async function upload() {
  const file = $("upload").files[0];
  if (!file) return;
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (err) {
    return showError(`${file.name} is not a saved game (not JSON): ${err.message}`);
  }
  request("POST", "load", {save: data});
}

async function init() {
  MZ.adopt(table.id);
  if (!MZ.credentials(table.id)) {
    showError("This browser does not hold this table's credentials: open the link its host shared, or start a table from the lobby.");
    busy(false);
    return;
  }
  document.addEventListener("click", closeMenu);
  $("undo").addEventListener("click", () => request("POST", "undo", {version: table.view.table.version}));
  $("speed").addEventListener("change", () => { localStorage.setItem("mz-speed", $("speed").value); schedule(); });
  $("pause").addEventListener("click", () => {
    table.paused = !table.paused;
    $("pause").textContent = table.paused ? "Resume" : "Pause";
    schedule();
  });
  $("save").addEventListener("click", save);
  $("load").addEventListener("click", () => { if ($("saves").value) request("POST", "load", {name: $("saves").value}); });
  $("upload").addEventListener("change", upload);
  const speed = new URLSearchParams(window.location.search).get("speed") || localStorage.getItem("mz-speed");
  if (speed !== null && [...$("speed").options].some((o) => o.value === speed)) $("speed").value = speed;
  drawLinks();
  await request("GET", "view");
  if (table.view && table.view.table.link !== "watcher") await listSaves();
  else for (const id of ["save", "load", "save-name", "saves", "upload", "undo"]) $(id).disabled = true;
}

init();
