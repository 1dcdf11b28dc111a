// pawnpost's web pages: stepping through a game, flipping the board, the
// clocks, and live updates (server-sent events). Plain JavaScript, no
// build step; text is only ever set with textContent, never as HTML.
"use strict";

(function () {
  const root = document.getElementById("game");
  if (!root) return;
  let game = JSON.parse(root.dataset.game);
  let ply = game.plies.length - 1;
  let orientation = "white";
  const board = document.getElementById("board");
  const moves = document.getElementById("moves");
  const lang = root.dataset.lang || "en";

  function pieceAt(fen) {
    const placement = fen.split(" ")[0].split("/");
    const found = {};
    for (let r = 0; r < 8 && r < placement.length; r++) {
      let file = 0;
      for (const c of placement[r]) {
        if (c >= "1" && c <= "8") { file += Number(c); continue; }
        const colour = c === c.toUpperCase() ? "w" : "b";
        found["abcdefgh"[file] + (8 - r)] = colour + c.toUpperCase();
        file++;
      }
    }
    return found;
  }

  function drawBoard() {
    const fen = game.plies[ply].fen;
    const pieces = pieceAt(fen);
    const uci = game.plies[ply].uci || "";
    const marked = uci.length >= 4 ? [uci.slice(0, 2), uci.slice(2, 4)] : [];
    const squares = [];
    for (let r = 7; r >= 0; r--) {
      for (let f = 0; f < 8; f++) squares.push("abcdefgh"[f] + (r + 1));
    }
    if (orientation === "black") squares.reverse();
    const cells = board.children;
    squares.forEach(function (name, i) {
      const cell = cells[i];
      const file = name.charCodeAt(0) - 97, rank = Number(name[1]) - 1;
      cell.dataset.sq = name;
      cell.dataset.piece = pieces[name] || "";
      cell.className = "sq " + ((file + rank) % 2 === 0 ? "dark" : "light") +
        (marked.includes(name) ? " last" : "");
    });
    board.dataset.orientation = orientation;
    board.dataset.ply = String(ply);
    document.getElementById("ply-counter").textContent = ply + "/" + (game.plies.length - 1);
    for (const button of moves.querySelectorAll(".mv")) {
      button.classList.toggle("current", Number(button.dataset.ply) === ply);
    }
  }

  function drawMoves() {
    while (moves.firstChild) moves.removeChild(moves.firstChild);
    const blackFirst = game.plies[0].fen.split(" ")[1] === "b";
    let item = null, number = 0;
    for (let i = 1; i < game.plies.length; i++) {
      const n = Math.floor((i + (blackFirst ? 1 : 0) + 1) / 2);
      if (n !== number) {
        number = n;
        item = document.createElement("li");
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = n + ".";
        item.appendChild(num);
        moves.appendChild(item);
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "mv";
      button.dataset.ply = String(i);
      button.textContent = game.plies[i].san;
      item.appendChild(button);
    }
  }

  function clockText(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    const d = Math.floor(s / 86400), rest = s % 86400;
    const two = function (n) { return String(n).padStart(2, "0"); };
    const hms = two(Math.floor(rest / 3600)) + ":" + two(Math.floor(rest % 3600 / 60)) + ":" + two(rest % 60);
    return d > 0 ? d + "d " + hms : hms;
  }

  let shownAt = Date.now();
  function drawClocks() {
    const c = game.clocks;
    const top = document.getElementById("clock-top"), bottom = document.getElementById("clock-bottom");
    if (!c) { top.textContent = ""; bottom.textContent = ""; return; }
    const spent = Date.now() - shownAt;
    const white = c.white_ms - (c.running === "white" ? spent : 0);
    const black = c.black_ms - (c.running === "black" ? spent : 0);
    const [upper, lower] = orientation === "white" ? [black, white] : [white, black];
    top.textContent = clockText(upper);
    bottom.textContent = clockText(lower);
    top.classList.toggle("running", c.running === (orientation === "white" ? "black" : "white"));
    bottom.classList.toggle("running", c.running === orientation);
  }

  function drawFlag() {
    const flag = document.getElementById("flag");
    while (flag.firstChild) flag.removeChild(flag.firstChild);
    const at = game.clocks && game.clocks.flag_at;
    if (!at) return;
    const time = document.createElement("time");
    time.dateTime = at;
    // The viewer's own time zone and way of writing dates.
    time.textContent = new Date(at).toLocaleString(lang, { dateStyle: "full", timeStyle: "short" });
    flag.append(root.dataset.labelFlag + " ", time);
  }

  function drawPlayers() {
    const names = document.querySelectorAll(".player .name");
    const dots = document.querySelectorAll(".player .side-dot");
    const [upper, lower] = orientation === "white" ? ["black", "white"] : ["white", "black"];
    names[0].textContent = game[upper];
    names[1].textContent = game[lower];
    dots[0].className = "side-dot " + upper;
    dots[1].className = "side-dot " + lower;
  }

  function drawStatus() {
    const status = document.getElementById("status");
    while (status.firstChild) status.removeChild(status.firstChild);
    const text = document.createElement("bdi");
    text.textContent = game.status;
    status.appendChild(text);
    if (game.score) {
      const score = document.createElement("strong");
      score.id = "score";
      score.textContent = game.score;
      status.append(" ", score);
    }
    document.getElementById("opening").textContent = game.opening || "";
  }

  function go(to) {
    ply = Math.max(0, Math.min(game.plies.length - 1, to));
    drawBoard();
  }

  document.getElementById("go-first").addEventListener("click", function () { go(0); });
  document.getElementById("go-prev").addEventListener("click", function () { go(ply - 1); });
  document.getElementById("go-next").addEventListener("click", function () { go(ply + 1); });
  document.getElementById("go-last").addEventListener("click", function () { go(game.plies.length - 1); });
  document.getElementById("flip").addEventListener("click", function () {
    orientation = orientation === "white" ? "black" : "white";
    drawPlayers(); drawBoard(); drawClocks();
  });
  moves.addEventListener("click", function (e) {
    const target = e.target.closest(".mv");
    if (target) go(Number(target.dataset.ply));
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: game.plies.length - 1 };
    if (e.key in keys) { e.preventDefault(); go(keys[e.key]); }
  });

  drawMoves(); drawBoard(); drawClocks(); drawFlag();
  setInterval(drawClocks, 1000);

  if (game.over || !window.EventSource) return;
  const live = document.getElementById("live");
  const source = new EventSource(location.pathname + "/events?v=" + game.version + "&lang=" + lang);
  source.onopen = function () { live.hidden = false; };
  source.addEventListener("update", function (e) {
    const next = JSON.parse(e.data);
    if (next.version <= game.version) return;
    const atEnd = ply === game.plies.length - 1;
    game = next;
    shownAt = Date.now();
    drawMoves();
    go(atEnd ? game.plies.length - 1 : ply);
    drawStatus(); drawClocks(); drawFlag();
    if (game.over) {
      source.close();
      live.textContent = root.dataset.labelOver;
    }
  });
})();
