// The lobby: choose a game, its players and who sits where, start a table, rejoin one.
"use strict";

const lobby = {games: {}};

function agentSelect(game, seat) {
  const wrap = MZ.el("div", "seat-row");
  wrap.append(MZ.el("span", "seat-name", "Seat " + seat));
  const select = MZ.el("select", "seat-agent");
  select.dataset.seat = seat;
  const choices = [["human", "You"], ...game.agents.map((a) => [a, a]), ["custom", "custom agent…"]];
  for (const [value, text] of choices) {
    const option = MZ.el("option", null, text);
    option.value = value;
    select.append(option);
  }
  select.value = seat === 0 ? "human" : "heuristic";
  const custom = MZ.el("input", "seat-custom");
  custom.placeholder = "package.module:attribute";
  custom.hidden = true;
  select.addEventListener("change", () => { custom.hidden = select.value !== "custom"; });
  wrap.append(select, custom);
  return wrap;
}

function drawSeats() {
  const game = lobby.games[document.getElementById("env").value];
  const players = Number(document.getElementById("players").value) || game.default_players;
  const seats = document.getElementById("seats");
  seats.replaceChildren(...Array.from({length: players}, (_, s) => agentSelect(game, s)));
}

function drawOptions(game) {
  const box = document.getElementById("options");
  box.replaceChildren();
  for (const [key, option] of Object.entries(game.options)) {
    const label = MZ.el("label", "option", key + " ");
    label.title = option.doc;
    const select = MZ.el("select");
    select.dataset.option = key;
    for (const value of option.choices) {
      const item = MZ.el("option", null, String(value));
      item.value = JSON.stringify(value);
      select.append(item);
    }
    select.value = JSON.stringify(option.default);
    label.append(select, MZ.el("span", "hint option-doc", " " + option.doc));
    box.append(label);
  }
}

function chooseGame() {
  const game = lobby.games[document.getElementById("env").value];
  const players = document.getElementById("players");
  players.min = game.min_players;
  players.max = game.max_players;
  players.value = game.default_players;
  players.disabled = game.min_players === game.max_players;
  drawOptions(game);
  drawSeats();
}

async function start(event) {
  event.preventDefault();
  const error = document.getElementById("error");
  error.hidden = true;
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const select = row.querySelector("select");
    return select.value === "custom" ? row.querySelector("input").value.trim() : select.value;
  });
  const options = {};
  for (const select of document.querySelectorAll("[data-option]")) {
    options[select.dataset.option] = JSON.parse(select.value);
  }
  const body = {
    env: document.getElementById("env").value, seats, options,
    players: Number(document.getElementById("players").value),
    seed: Number(document.getElementById("seed").value) || 0,
  };
  try {
    const made = await MZ.call("POST", "/api/tables", body);
    MZ.remember(made.id, made.credentials);
    window.location.href = made.url;
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
}

async function listTables() {
  const tables = await MZ.call("GET", "/api/tables");
  const list = document.getElementById("tables");
  if (!tables.length) return;
  list.replaceChildren(...tables.map((t) => {
    const item = MZ.el("li");
    const text = `${t.id}: ${t.env} (${t.seats.join(", ")})${t.over ? ", over" : ""}`;
    if (MZ.credentials(t.id)) {
      const link = MZ.el("a", null, text);
      link.href = "/table/" + t.id;
      item.append(link);
    } else {
      item.append(MZ.el("span", "hint", text + " — started in another browser"));
    }
    return item;
  }));
}

async function init() {
  const games = await MZ.call("GET", "/api/games");
  const env = document.getElementById("env");
  for (const game of games) {
    lobby.games[game.env] = game;
    const option = MZ.el("option", null, `${game.title} (${game.env})`);
    option.value = game.env;
    env.append(option);
  }
  env.addEventListener("change", chooseGame);
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("new-table").addEventListener("submit", start);
  chooseGame();
  await listTables();
}

init();
