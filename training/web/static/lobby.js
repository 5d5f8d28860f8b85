// The lobby: choose a game, its players and who sits where, start a table, rejoin one.
"use strict";

// agents: per "env:players", the agents the server says can play that table, each
// {spec, label, claim} (a level labelled by what its card measured at that count)
const lobby = {games: {}, agents: {}};
const BOTS = [{spec: "heuristic", label: "heuristic"}, {spec: "random", label: "random"}];

function tableKey() {
  const env = document.getElementById("env").value;
  const game = lobby.games[env];
  const players = Number(document.getElementById("players").value) || game.default_players;
  return {env, game, players, key: env + ":" + players};
}

// a seat's choices: You, the agents that can play this table, a custom agent; the seat
// keeps its choice when it is still offered
function fillAgents(select, offers, keep) {
  const seat = Number(select.dataset.seat);
  const choices = [{spec: "human", label: "You"}, ...offers,
                   {spec: "custom", label: "custom agent…"}];
  select.replaceChildren(...choices.map((choice) => {
    const option = MZ.el("option", null, choice.label);
    option.value = choice.spec;
    option.title = choice.label;
    return option;
  }));
  const fallback = seat === 0 ? "human" : "heuristic";
  select.value = choices.some((c) => c.spec === keep) ? keep : fallback;
  const custom = select.parentElement && select.parentElement.querySelector(".seat-custom");
  if (custom) custom.hidden = select.value !== "custom";
}

function agentSelect(offers, seat) {
  const wrap = MZ.el("div", "seat-row");
  wrap.append(MZ.el("span", "seat-name", "Seat " + seat));
  const select = MZ.el("select", "seat-agent");
  select.dataset.seat = seat;
  const custom = MZ.el("input", "seat-custom");
  custom.placeholder = "package.module:attribute";
  custom.hidden = true;
  wrap.append(select, custom);
  fillAgents(select, offers, seat === 0 ? "human" : "heuristic");
  select.addEventListener("change", () => { custom.hidden = select.value !== "custom"; });
  return wrap;
}

// the seats at once (with the agents known for this table, else the bots), then the
// server's list for this game and player count.  A new count keeps the seats already
// chosen (the Players field fires "change" again when it loses focus: a click on a seat or
// on Start must not reset them), adding or removing seats at the end; a new game starts
// from the defaults.
function drawSeats(fresh) {
  const {players, key} = tableKey();
  const seats = document.getElementById("seats");
  const offers = lobby.agents[key] || BOTS;
  if (fresh === true) seats.replaceChildren();
  const rows = [...seats.querySelectorAll(".seat-row")];
  for (const row of rows.slice(players)) row.remove();
  for (const row of rows.slice(0, players)) {
    const select = row.querySelector(".seat-agent");
    fillAgents(select, offers, select.value);
  }
  for (let s = rows.length; s < players; s++) seats.append(agentSelect(offers, s));
  askAgents();
}

// ask the server which agents can play the chosen game and player count, and offer those
async function askAgents() {
  const {env, players, key} = tableKey();
  const error = document.getElementById("error");
  let answer;
  try {
    answer = await MZ.call("GET", `/api/agents?env=${encodeURIComponent(env)}&players=${players}`);
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    return;
  }
  lobby.agents[key] = answer.agents;
  if (tableKey().key !== key) return;  // the form moved on while the server answered
  error.hidden = true;
  for (const select of document.querySelectorAll(".seat-agent")) {
    fillAgents(select, answer.agents, select.value);
  }
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
  drawSeats(true);
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
  const practice = document.getElementById("practice").checked;
  const body = {
    env: document.getElementById("env").value, seats, options,
    players: Number(document.getElementById("players").value),
    practice, hotseat: document.getElementById("hotseat").checked,
    open: practice && document.getElementById("open").checked,
  };
  const seed = document.getElementById("seed").value.trim();
  if (practice && seed !== "") body.seed = Number(seed);
  try {
    const made = await MZ.call("POST", "/api/tables", body);
    MZ.remember(made.id, made.credentials);
    localStorage.setItem("mz-links:" + made.id, JSON.stringify(made.links));
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
    const kind = [t.practice ? "practice" : "", t.hotseat ? "hot-seat" : ""].filter(Boolean);
    const text = `${t.id}: ${t.env} (${t.seats.join(", ")})${kind.length ? ", " + kind.join(", ") : ""}${t.over ? ", over" : ""}`;
    if (MZ.credentials(t.id)) {
      const link = MZ.el("a", null, text);
      link.href = "/table/" + t.id;
      item.append(link);
    } else {
      item.append(MZ.el("span", "hint", text + " — open it with the link its host shared"));
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
  document.getElementById("players").addEventListener("change", () => drawSeats(false));
  document.getElementById("new-table").addEventListener("submit", start);
  document.getElementById("practice").addEventListener("change", (event) => {
    document.getElementById("seed").disabled = !event.target.checked;
    document.getElementById("open").disabled = !event.target.checked;
  });
  chooseGame();
  await listTables();
}

init();
