// The live view of a demo's pipeline. Everything it draws comes from the
// demo's stream (/events): a snapshot, then one message per timeline row,
// each saying which tokens moved where and what the counters now read. The
// page only draws, at the pace the learner chooses: it never works out on
// its own what the informer did.
'use strict';

const UI = {
  en: {
    pause: 'Pause', play: 'Play', step: 'Step', slow: 'Slow motion',
    waiting: (n) => (n ? `${n} rows to play` : ''),
    offline: 'The demo has stopped, or cannot be reached. The page reconnects when it is back.',
    more: (n) => `+${n}`, ring: 'ring', yes: 'yes', no: 'no', synced: 'HasSynced',
    words: { open: 'open', cut: 'cut', restored: 'restored', true: 'yes', false: 'no' },
    other: '中文', step_: (n, t) => `Step ${n}: ${t}`, answer: (b, t) => `${b}: ${t}`,
  },
  zh: {
    pause: '暂停', play: '继续', step: '单步', slow: '慢动作',
    waiting: (n) => (n ? `还有 ${n} 行待播放` : ''),
    offline: 'demo 已经停止，或者连不上。它回来后页面会自动重连。',
    more: (n) => `+${n}`, ring: '缓冲区', yes: '是', no: '否', synced: 'HasSynced',
    words: { open: '已连接', cut: '已断开', restored: '已恢复', true: '是', false: '否' },
    other: 'English', step_: (n, t) => `第 ${n} 步：${t}`, answer: (b, t) => `${b}：${t}`,
  },
};

const params = new URLSearchParams(location.search);
let lang = params.get('lang') || localStorage.getItem('webview.lang') || 'en';
if (!UI[lang]) lang = 'en';

const pipeline = document.getElementById('pipeline');
const arrows = document.getElementById('arrows');
const logEl = document.getElementById('log');

let config = null;
let state = { counters: {}, listeners: [] };
let queue = []; // messages received, not yet drawn
let paused = params.get('paused') === '1';
let slow = false;
let busy = false;
// The heading and the last button's answer come in both languages (a step
// row's titleText, an action's answer): the toggle switches them too.
let stepTitle = null; // {step, title, text}
let answer = null; // {button, text: {en, zh} or null while waiting, error}

const tokens = new Map(); // id → {el, lane, key, label, state}
const lanes = new Map(); // lane instance id ("queue", "listener:audit") → {el, ids: [], box}

// What the page has drawn, for tests and for the curious (open the console):
// every token's lanes in the order it was drawn in them, and the last
// message drawn.
const view = (window.webview = { applied: 0, journeys: {}, counters: {} });

// ---------- text ----------

const t = (k) => UI[lang][k];
const label = (l) => (l ? l[lang] || l.en : '');
const word = (v) => (v in UI[lang].words ? UI[lang].words[v] : v);

function renderText() {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.querySelectorAll('[data-ui]').forEach((el) => (el.textContent = t(el.dataset.ui)));
  document.getElementById('pause').textContent = paused ? t('play') : t('pause');
  document.getElementById('lang').textContent = t('other');
  renderBacklog();
  if (!config) return;
  document.getElementById('title').textContent = label(config.title);
  document.title = label(config.title);
  renderCounters();
  renderButtons();
  layout();
  renderStepTitle();
  renderAnswer();
}

// stepOf is what the heading needs of a step row: its title in both
// languages when the demo narrated it so, else as it was printed.
const stepOf = (row) => ({ step: row.step, title: row.title, text: row.titleText });

function renderStepTitle() {
  const h = document.getElementById('steptitle');
  h.textContent = stepTitle ? t('step_')(stepTitle.step, stepTitle.text ? label(stepTitle.text) : stepTitle.title) : '';
}

function renderAnswer() {
  const el = document.getElementById('answer');
  if (!answer) return;
  el.className = answer.error ? 'error' : '';
  el.textContent = answer.text ? t('answer')(label(answer.button.label), label(answer.text)) : '…';
}

// ---------- counters and buttons ----------

function renderCounters() {
  const box = document.getElementById('counters');
  box.replaceChildren();
  for (const c of config.counters) {
    const el = document.createElement('div');
    el.className = 'counter';
    el.innerHTML = '<div class="name"></div><div class="value"></div>';
    el.querySelector('.name').textContent = label(c.label);
    const v = el.querySelector('.value');
    v.dataset.counter = c.id;
    v.textContent = word(state.counters[c.id] ?? '-');
    box.append(el);
  }
}

function updateCounters(next) {
  for (const c of config.counters) {
    const v = document.querySelector(`[data-counter="${c.id}"]`);
    const before = state.counters[c.id];
    const after = next.counters[c.id] ?? '-';
    v.textContent = word(after);
    if (before !== undefined && before !== after) {
      const box = v.parentElement;
      box.classList.add('changed');
      setTimeout(() => box.classList.remove('changed'), 1500);
    }
  }
  view.counters = { ...next.counters };
}

function renderButtons() {
  const box = document.getElementById('actions');
  box.replaceChildren();
  for (const b of config.buttons) {
    const el = document.createElement('button');
    el.dataset.action = b.id;
    el.textContent = label(b.label);
    el.title = label(b.hint);
    el.onclick = () => act(b, el);
    box.append(el);
  }
}

// act presses a button. The demo answers in both languages, {en, zh}; a
// refusal of the server's own (a 403, a 404) is plain text, the same in both.
async function act(b, el) {
  el.disabled = true;
  answer = { button: b, text: null, error: false };
  renderAnswer();
  try {
    const resp = await fetch(`act/${b.id}`, { method: 'POST', headers: { 'X-Webview': '1' } });
    const body = (await resp.text()).trim();
    let text = null;
    try {
      text = JSON.parse(body);
    } catch (e) {}
    if (!text || typeof text !== 'object') text = { en: body, zh: body };
    answer = { button: b, text, error: !resp.ok };
  } catch (e) {
    answer = { button: b, text: { en: `${e}`, zh: `${e}` }, error: true };
  } finally {
    el.disabled = false;
  }
  renderAnswer();
}

// ---------- lanes ----------

// laneInstances lists what to draw: every lane, and a per-listener lane
// once per listener, with its column and row.
function laneInstances() {
  const out = [];
  config.lanes.forEach((l, col) => {
    if (!l.perListener) {
      out.push({ id: l.id, lane: l, col, row: 0, rows: 1 });
      return;
    }
    const names = state.listeners.map((x) => x.name);
    names.forEach((name, row) => out.push({ id: `${l.id}:${name}`, lane: l, name, col, row, rows: names.length }));
  });
  return out;
}

const GAP = 14;
const TOKEN_H = 24;
const TOKEN_GAP = 4;

// CAPTION is the strip above the per-listener columns, which holds their
// name once instead of in every row.
const CAPTION = 26;

// columns gives each lane its x and width: a ring is drawn wider, since it
// holds two tokens a row.
function columns(W) {
  const weight = (l) => (l.perListener && l.id === 'listener' ? 1.35 : 1);
  const total = config.lanes.reduce((n, l) => n + weight(l), 0);
  const unit = (W - GAP * (config.lanes.length - 1)) / total;
  let x = 0;
  return config.lanes.map((l) => {
    const c = { x, w: unit * weight(l) };
    x += c.w + GAP;
    return c;
  });
}

function layout() {
  const W = pipeline.clientWidth;
  const H = pipeline.clientHeight;
  const cols = columns(W);
  pipeline.querySelectorAll('.caption').forEach((el) => el.remove());
  config.lanes.forEach((l, i) => {
    if (!l.perListener) return;
    const el = document.createElement('div');
    el.className = 'caption';
    el.textContent = label(l.label);
    el.title = label(l.hint);
    Object.assign(el.style, { left: `${cols[i].x}px`, width: `${cols[i].w}px` });
    pipeline.append(el);
  });
  const seen = new Set();
  for (const inst of laneInstances()) {
    seen.add(inst.id);
    let l = lanes.get(inst.id);
    if (!l) {
      const el = document.createElement('div');
      el.className = `lane ${inst.lane.perListener ? inst.lane.id : ''}`;
      el.dataset.lane = inst.id;
      el.innerHTML = '<div class="head"></div><div class="hint"></div><div class="flashtext"></div><div class="more"></div>';
      pipeline.append(el);
      l = { el, ids: [] };
      lanes.set(inst.id, l);
    }
    const top = inst.lane.perListener ? CAPTION : 0;
    const rowH = (H - top - (GAP / 2) * (inst.rows - 1)) / inst.rows;
    l.box = { x: cols[inst.col].x, y: top + inst.row * (rowH + GAP / 2), w: cols[inst.col].w, h: rowH };
    l.per = inst.lane.perListener;
    l.ring = inst.lane.perListener && inst.lane.id === 'listener';
    Object.assign(l.el.style, { left: `${l.box.x}px`, top: `${l.box.y}px`, width: `${l.box.w}px`, height: `${l.box.h}px` });
    const head = l.el.querySelector('.head');
    if (inst.name === undefined) {
      head.textContent = label(inst.lane.label);
      l.el.querySelector('.hint').textContent = label(inst.lane.hint);
    } else {
      renderListenerHead(head, inst);
      l.el.querySelector('.hint').textContent = '';
    }
    // Tokens start below the lane's head and hint, however many lines
    // they take in the current language.
    const hint = l.el.querySelector('.hint');
    l.top = l.per ? 28 : Math.max(80, hint.offsetTop + hint.offsetHeight + 6);
  }
  for (const [id, l] of lanes) {
    if (!seen.has(id)) {
      l.el.remove();
      lanes.delete(id);
    }
  }
  drawArrows();
  for (const id of lanes.keys()) placeLane(id, 0);
}

function renderListenerHead(head, inst) {
  const info = state.listeners.find((x) => x.name === inst.name) || { depth: 0, synced: false };
  head.replaceChildren(document.createTextNode(inst.name));
  const badge = document.createElement('span');
  if (inst.lane.id === 'listener') {
    badge.className = `badge ${info.depth ? 'no' : 'zero'}`;
    badge.dataset.depth = inst.name;
    badge.textContent = `${t('ring')} ${info.depth}`;
  } else {
    badge.className = `badge ${info.synced ? 'yes' : 'no'}`;
    badge.dataset.synced = inst.name;
    badge.textContent = `${t('synced')} ${info.synced ? '✓' : '✗'}`;
  }
  head.append(badge);
}

// drawArrows joins each lane to the next, in the Config's order: a lane to
// a lane, a lane to every listener's row, row to row, or every row to a lane
// (stage 08's workqueue after the handlers).
function drawArrows() {
  const parts = [];
  const boxesOf = (l) =>
    l.perListener
      ? state.listeners.map((x) => lanes.get(`${l.id}:${x.name}`)).filter(Boolean).map((x) => x.box)
      : [lanes.get(l.id).box];
  const midY = (b) => b.y + Math.min(60, b.h / 2);
  for (let i = 0; i + 1 < config.lanes.length; i++) {
    const from = boxesOf(config.lanes[i]);
    const to = boxesOf(config.lanes[i + 1]);
    if (from.length === to.length) {
      from.forEach((a, k) => parts.push(arrow(a.x + a.w, midY(a), to[k].x, midY(to[k]))));
    } else if (from.length === 1) {
      to.forEach((b) => parts.push(arrow(from[0].x + from[0].w, midY(b), b.x, midY(b))));
    } else if (to.length === 1) {
      from.forEach((a) => parts.push(arrow(a.x + a.w, midY(a), to[0].x, midY(a))));
    }
  }
  arrows.innerHTML = `<defs><marker id="head" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#8c959f"/></marker></defs>${parts.join('')}`;
}

const arrow = (x1, y1, x2, y2) =>
  `<line x1="${x1}" y1="${y1}" x2="${x2 - 2}" y2="${y2}" stroke="#8c959f" stroke-width="2" marker-end="url(#head)"/>`;

// slot is where the i-th token of a lane is drawn.
function slot(l, i) {
  const top = l.top;
  const perRow = l.ring ? 2 : 1;
  const w = (l.box.w - 16 - (perRow - 1) * 4) / perRow;
  const cap = perRow * Math.max(1, Math.floor((l.box.h - top - 4) / (TOKEN_H + TOKEN_GAP)));
  return {
    x: l.box.x + 8 + (i % perRow) * (w + 4),
    y: l.box.y + top + Math.floor(i / perRow) * (TOKEN_H + TOKEN_GAP),
    w, cap,
  };
}

// placeLane puts every token of a lane in its slot; those past the lane's
// room are hidden, and counted.
function placeLane(id, ms) {
  const l = lanes.get(id);
  if (!l) return;
  l.ids.forEach((tid, i) => {
    const tok = tokens.get(tid);
    if (!tok || tok.animating) return;
    const s = slot(l, i);
    tok.el.style.transition = `transform ${ms}ms, opacity .4s`;
    tok.el.style.width = `${s.w}px`;
    tok.el.style.transform = `translate(${s.x}px, ${s.y}px)`;
    tok.el.style.visibility = i < s.cap ? 'visible' : 'hidden';
  });
  const cap = l.ids.length ? slot(l, 0).cap : 0;
  l.el.querySelector('.more').textContent = l.ids.length > cap ? t('more')(l.ids.length - cap) : '';
}

// ---------- tokens ----------

function kind(label) {
  const op = label.split(' ').pop();
  if (/^(Add|Added|add|OnAdd|replay)$/.test(op)) return 'add';
  if (/^(Update|Updated|update|OnUpdate|Sync|Replaced)$/.test(op)) return 'update';
  if (/^(Delete|Deleted|delete|OnDelete)$/.test(op)) return 'delete';
  return 'list';
}

function setLane(tok, lane) {
  if (tok.lane === lane) return;
  const old = lanes.get(tok.lane);
  if (old) old.ids = old.ids.filter((x) => x !== tok.id);
  tok.lane = lane;
  const l = lanes.get(lane);
  if (l) l.ids.push(tok.id);
}

function point(lane, atEnd) {
  const l = lanes.get(lane);
  if (!l) return null;
  const s = slot(l, atEnd ? Math.min(l.ids.length, slot(l, 0).cap - 1) : 0);
  return `translate(${s.x}px, ${s.y}px)`;
}

function makeToken(mv, lane) {
  const el = document.createElement('div');
  el.className = 'token';
  pipeline.append(el);
  const tok = { id: mv.id, el, lane: null, key: mv.key || '' };
  tokens.set(mv.id, tok);
  const start = point(lane, true);
  if (start) el.style.transform = start;
  setLane(tok, lane);
  return tok;
}

function drawToken(tok, mv) {
  tok.el.textContent = mv.label;
  tok.el.title = `${mv.key || mv.label} · ${mv.path.join(' → ')}`;
  tok.el.className = `token ${kind(mv.label)} ${mv.state === 'popped' ? 'popped' : ''} ${mv.lane.startsWith('listener:') ? 'small' : ''}`;
  Object.assign(tok.el.dataset, { id: mv.id, key: mv.key || '', lane: mv.lane, state: mv.state || '' });
}

// journey records the lanes the page drew a token in. A copy made by the
// processor starts with the journey of the token it was copied from.
function journey(mv, isNew) {
  let j = view.journeys[mv.id];
  if (!j) {
    const parent = isNew && mv.from ? [...tokens.values()].find((x) => x.id !== mv.id && x.key === mv.key && x.lane === mv.from) : null;
    j = view.journeys[mv.id] = { key: mv.key || '', label: mv.label, lanes: parent ? [...view.journeys[parent.id].lanes] : [mv.from || mv.path[0]] };
  }
  for (const lane of [...(mv.via || []), mv.lane]) {
    if (j.lanes[j.lanes.length - 1] !== lane) j.lanes.push(lane);
  }
  j.label = mv.label;
  j.gone = !!mv.gone;
}

function moveToken(mv, ms) {
  const isNew = !tokens.has(mv.id);
  const tok = isNew ? makeToken(mv, mv.from || mv.path[0]) : tokens.get(mv.id);
  journey(mv, isNew);
  drawToken(tok, mv);
  const frames = [tok.el.style.transform];
  for (const v of mv.via || []) frames.push(point(v, true));
  setLane(tok, mv.lane);
  const l = lanes.get(mv.lane);
  const s = slot(l, l.ids.indexOf(tok.id));
  const end = `translate(${s.x}px, ${s.y}px)`;
  frames.push(end);
  tok.el.style.width = `${s.w}px`;
  tok.el.style.transition = 'opacity .4s';
  tok.el.style.transform = end;
  if (ms > 0 && frames[0]) {
    tok.animating = true;
    const a = tok.el.animate(frames.filter(Boolean).map((transform) => ({ transform })), { duration: ms, easing: 'ease-in-out' });
    a.onfinish = a.oncancel = () => (tok.animating = false);
  }
  if (mv.gone) {
    setTimeout(() => tok.el.classList.add('gone'), ms);
    setTimeout(() => removeToken(tok), ms + 450);
  }
}

function removeToken(tok) {
  tok.el.remove();
  tokens.delete(tok.id);
  const l = lanes.get(tok.lane);
  if (l) {
    l.ids = l.ids.filter((x) => x !== tok.id);
    placeLane(tok.lane, 200);
  }
}

// ---------- messages ----------

function logRow(text, current) {
  const line = document.createElement('div');
  line.textContent = text.replace(/\n$/, '');
  if (current) {
    logEl.querySelector('.current')?.classList.remove('current');
    line.className = 'current';
  }
  logEl.append(line);
  while (logEl.childElementCount > 400) logEl.firstElementChild.remove();
  logEl.scrollTop = logEl.scrollHeight;
}

function apply(msg, ms) {
  const listenersBefore = state.listeners.map((x) => x.name).join(',');
  const listenersAfter = msg.state.listeners?.map((x) => x.name).join(',') || '';
  if (msg.row) {
    logRow(msg.row.text, msg.row.kind === 'event');
    if (msg.row.kind === 'step') {
      stepTitle = stepOf(msg.row);
      renderStepTitle();
    }
  }
  updateCounters(msg.state);
  state = { counters: msg.state.counters, listeners: msg.state.listeners || [] };
  if (listenersBefore !== listenersAfter) layout();
  const touched = new Set();
  for (const mv of msg.moves || []) {
    const from = tokens.get(mv.id)?.lane;
    if (from) touched.add(from);
    moveToken(mv, ms);
    touched.add(mv.lane);
  }
  for (const id of touched) placeLane(id, ms);
  for (const inst of laneInstances()) {
    if (inst.name !== undefined) renderListenerHead(lanes.get(inst.id).el.querySelector('.head'), inst);
  }
  if (msg.flash) flash(msg.flash);
  view.applied = msg.seq;
}

// FLASHES is how many of its last requests and writes a lane lists.
const FLASHES = 8;

function flash(f) {
  const l = lanes.get(f.lane);
  if (!l) return;
  l.el.classList.add('flash');
  l.flashes = [...(l.flashes || []), f.text].slice(-FLASHES);
  l.el.querySelector('.flashtext').textContent = l.flashes.join('\n');
  clearTimeout(l.flashTimer);
  l.flashTimer = setTimeout(() => l.el.classList.remove('flash'), 600);
}

// duration is how long a message's moves take to draw: slow motion is slow;
// otherwise a backlog (an initial list of many objects) plays faster.
function duration(msg) {
  if (!msg.moves && !msg.flash) return 0;
  if (slow) return 1400;
  if (queue.length > 60) return 30;
  if (queue.length > 15) return 120;
  return 380;
}

function pump() {
  renderBacklog();
  if (busy || paused || !queue.length) return;
  const msg = queue.shift();
  const ms = duration(msg);
  apply(msg, ms);
  busy = true;
  setTimeout(() => {
    busy = false;
    pump();
  }, ms);
}

// step draws messages up to and including the next one that moves something.
function step() {
  paused = true;
  renderText();
  while (queue.length) {
    const msg = queue.shift();
    apply(msg, slow ? 1400 : 500);
    if (msg.moves || msg.flash) break;
  }
  renderBacklog();
}

function renderBacklog() {
  document.getElementById('backlog').textContent = t('waiting')(queue.length);
}

function reset(snap) {
  config = snap.config;
  state = snap.state;
  state.listeners = state.listeners || [];
  queue = [];
  for (const tok of tokens.values()) tok.el.remove();
  tokens.clear();
  for (const l of lanes.values()) l.el.remove();
  lanes.clear();
  logEl.replaceChildren();
  renderText();
  for (const tk of snap.tokens || []) {
    const tok = makeToken(tk, tk.lane);
    drawToken(tok, tk);
    view.journeys[tk.id] = view.journeys[tk.id] || { key: tk.key || '', label: tk.label, lanes: [...tk.path] };
  }
  for (const id of lanes.keys()) placeLane(id, 0);
  for (const text of snap.recent || []) logRow(text, false);
  if (snap.step) {
    stepTitle = stepOf(snap.step);
    renderStepTitle();
  }
  view.counters = { ...state.counters };
  view.applied = snap.seq;
}

// ---------- wiring ----------

document.getElementById('pause').onclick = () => {
  paused = !paused;
  renderText();
  pump();
};
document.getElementById('step').onclick = step;
document.getElementById('slow').onchange = (e) => (slow = e.target.checked);
document.getElementById('lang').onclick = () => {
  lang = lang === 'en' ? 'zh' : 'en';
  localStorage.setItem('webview.lang', lang);
  renderText();
};
window.addEventListener('resize', () => config && layout());

const events = new EventSource('events');
const offline = document.getElementById('offline');
events.addEventListener('snapshot', (e) => {
  offline.hidden = true;
  reset(JSON.parse(e.data));
});
events.addEventListener('message', (e) => {
  queue.push(JSON.parse(e.data));
  pump();
});
events.onerror = () => (offline.hidden = false);
renderText();
