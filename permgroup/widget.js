// The browser half of permgroup.widget.PuzzleWidget (an anywidget ES module).
// It only draws what Python sends (traits) and sends requests back as custom
// messages: {type: "move", name}, "undo", "reset", {type: "history", text},
// {type: "target", text}, "target_here".  Python computes every state.

const STYLE = `
.pg-widget { font: 13px/1.4 system-ui, sans-serif; color: #222; outline: none;
  display: inline-block; padding: 8px; border: 1px solid #ccc; border-radius: 6px;
  max-width: 100%; box-sizing: border-box; }
.pg-widget:focus { border-color: #4a78b5; }
.pg-title { font-weight: 600; margin-bottom: 4px; }
.pg-net { margin: 4px 0 8px; max-width: 100%; }
.pg-net svg { display: block; max-width: 100%; height: auto; }
.pg-row { margin: 4px 0; display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
.pg-widget button { font: inherit; padding: 2px 8px; border: 1px solid #999;
  border-radius: 4px; background: #f6f6f6; cursor: pointer; }
.pg-widget button:hover { background: #e6eefa; }
.pg-moves button { min-width: 2.6em; font-family: ui-monospace, monospace; }
.pg-widget input[type=text] { font-family: ui-monospace, monospace; width: 22em; }
.pg-message { color: #b00020; white-space: pre-wrap; }
.pg-message:empty { display: none; }
.pg-spinner { display: inline-block; width: 10px; height: 10px; border: 2px solid #bbb;
  border-top-color: #4a78b5; border-radius: 50%; animation: pg-spin 0.8s linear infinite;
  visibility: hidden; }
.pg-busy .pg-spinner { visibility: visible; }
@keyframes pg-spin { to { transform: rotate(360deg); } }
.pg-solution { font-family: ui-monospace, monospace; }
.pg-dim { color: #777; }
`;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function render({ model, el: root }) {
  const send = (content) => model.send(content);
  // playback: the moves are sent one at a time, Python turns each
  let timer = null;
  const stop = () => { if (timer) clearTimeout(timer); timer = null; };
  const play = (word) => {
    stop();
    const steps = [...word];
    const next = () => {
      if (!steps.length) { timer = null; return; }
      send({ type: "move", name: steps.shift() });
      timer = setTimeout(next, 1000 / Number(speed.value));
    };
    next();
  };
  const style = el("style", {}, STYLE);
  const box = el("div", { class: "pg-widget", tabindex: "0" });
  const title = el("div", { class: "pg-title" });
  const net = el("div", { class: "pg-net" });
  const moves = el("div", { class: "pg-row pg-moves" });
  const controls = el("div", { class: "pg-row" },
    el("button", { class: "pg-undo", title: "undo (Backspace)", onclick: () => { stop(); send({ type: "undo" }); } }, "undo"),
    el("button", { class: "pg-reset", title: "back to the start", onclick: () => { stop(); send({ type: "reset" }); } }, "reset"));
  const history = el("input", { type: "text", class: "pg-history", placeholder: "moves, e.g. R U R' U'" });
  const apply = () => send({ type: "history", text: history.value });
  history.addEventListener("keydown", (e) => { e.stopPropagation(); if (e.key === "Enter") apply(); });
  const historyRow = el("div", { class: "pg-row" }, "moves: ", history,
    el("button", { class: "pg-apply", onclick: apply }, "apply"));
  const message = el("div", { class: "pg-message" });
  const distance = el("span", { class: "pg-distance" });
  const distanceRow = el("div", { class: "pg-row" }, el("span", { class: "pg-spinner" }), distance);
  const speed = el("input", { type: "range", min: "0.5", max: "8", step: "0.5", value: "2", class: "pg-speed" });
  const solution = el("button", { class: "pg-play pg-solution", title: "play the solution step by step" });
  const solutionRow = el("div", { class: "pg-row" }, "solution: ", solution, " speed ", speed,
    el("span", { class: "pg-dim" }, "moves/s"));
  const element = el("div", { class: "pg-row pg-element" });
  const target = el("input", { type: "text", class: "pg-target", placeholder: "target: moves from solved" });
  const setTarget = () => send({ type: "target", text: target.value });
  target.addEventListener("keydown", (e) => { e.stopPropagation(); if (e.key === "Enter") setTarget(); });
  const targetRow = el("div", { class: "pg-row" }, "target: ", target,
    el("button", { class: "pg-set-target", onclick: setTarget }, "set"),
    el("button", { class: "pg-target-here", title: "the current state becomes the target",
      onclick: () => send({ type: "target_here" }) }, "current"));
  const targetDistance = el("span", { class: "pg-target-distance" });
  const targetSolution = el("button", { class: "pg-play-target pg-solution", title: "play it step by step" });
  const targetOut = el("div", { class: "pg-row" }, targetDistance, targetSolution);
  box.append(title, net, moves, controls, historyRow, message, distanceRow, solutionRow,
    element, targetRow, targetOut);
  root.append(style, box);

  solution.addEventListener("click", () => play(model.get("solution")));
  targetSolution.addEventListener("click", () => play(model.get("target_solution")));

  box.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const name = (model.get("key_moves") || {})[e.key];
    if (name) { send({ type: "move", name }); e.preventDefault(); }
    else if (e.key === "Backspace") { send({ type: "undo" }); e.preventDefault(); }
  });

  const word = (w) => (w.length ? "▶ " + w.join(" ") : "—");
  const draw = {
    title: () => { title.textContent = model.get("title"); },
    svg: () => { net.innerHTML = model.get("svg"); },
    moves: () => {
      moves.replaceChildren(...model.get("moves").map((name) =>
        el("button", { "data-move": name, onclick: () => { stop(); send({ type: "move", name }); } }, name)));
    },
    history: () => { history.value = model.get("history"); },
    message: () => { message.textContent = model.get("message"); },
    busy: () => { box.classList.toggle("pg-busy", model.get("busy")); },
    distance_text: () => { distance.textContent = model.get("distance_text"); },
    solution: () => { solution.textContent = word(model.get("solution")); },
    element_text: () => { element.textContent = model.get("element_text"); },
    target_history: () => { target.value = model.get("target_history"); },
    target_text: () => { targetDistance.textContent = model.get("target_text"); },
    target_solution: () => {
      const w = model.get("target_solution");
      targetSolution.textContent = word(w);
      targetSolution.style.display = model.get("target_text") ? "" : "none";
    },
  };
  const handlers = [];
  for (const [name, f] of Object.entries(draw)) {
    f();
    const h = () => f();
    model.on(`change:${name}`, h);
    handlers.push([name, h]);
  }
  model.on("change:target_text", draw.target_solution);
  return () => {
    stop();
    for (const [name, h] of handlers) model.off(`change:${name}`, h);
    model.off("change:target_text", draw.target_solution);
  };
}

export default { render };
