// The replay viewer of every system: the game from its first view through every step, each
// step's view asked of the server (`replay?step=k`: the engine replays the record and filters
// the view for this viewer), nothing rebuilt here; the system's table module draws it (its
// `replayBoard`). A running game is followed live on its WebSocket.

import { systemApi, ApiError, GameSocket } from './api.js';
import { h, replace, toast } from './dom.js';
import { DiceLog } from './dicelog.js';
import { gamePath } from './systems.js';

/** The events of steps 1..`step` (the log, for a board that keeps none in its view). */
function eventsUpTo(frames, step) {
  return frames.slice(1, step + 1).flatMap((f) => f.events || []);
}

export async function replayPage(root, { system, info, gameId, token, module }) {
  document.title = `acies · ${info.name} · replay ${gameId.slice(0, 8)}`;
  const api = systemApi(system);
  const tableBox = h('div', { class: 'table-box' });
  const logBox = h('section', { class: 'logbox', 'aria-label': 'Log and dice' });
  const stepInfo = h('div', { class: 'step-info', 'data-testid': 'replay-step', role: 'status' });
  const slider = h('input', { type: 'range', min: '0', max: '0', value: '0', 'aria-label': 'Step', 'data-testid': 'replay-slider' });
  const btn = (label, aria, testid, f) => h('button', { 'aria-label': aria, 'data-testid': testid, onclick: f }, label);
  // Every step's version, seat and events (the list from the server); the views by step,
  // asked for when shown.
  let frames = [];
  const views = new Map();
  let at = 0;
  let timer = null;
  // Keys the board passes on: , and . (or Page Up/Down) step back and forth.
  const onKey = (ev) => {
    if (ev.key === ',' || ev.key === 'PageUp') { go(at - 1); return true; }
    if (ev.key === '.' || ev.key === 'PageDown') { go(at + 1); return true; }
    return false;
  };
  const playBtn = btn('▶ Play', 'Play', 'replay-play', () => toggle());
  const controls = h('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': 'Replay controls' },
    btn('« First', 'First step', 'replay-first', () => go(0)),
    btn('‹ Back', 'Previous step', 'replay-back', () => go(at - 1)),
    playBtn,
    btn('Next ›', 'Next step', 'replay-forward', () => go(at + 1)),
    btn('Last »', 'Last step', 'replay-last', () => go(frames.length - 1)),
    slider, stepInfo);
  const backLink = h('a', { class: 'button small ghost-btn', href: gamePath(system, gameId, { token }), 'data-testid': 'back-to-game' }, 'Back to the game');
  const eventsBox = h('ol', { class: 'step-events', 'data-testid': 'replay-events', 'aria-label': 'Events of this step' });
  replace(root, h('div', { class: 'game-page replay-page' },
    h('header', { class: 'topbar' }, h('a', { class: 'brand', href: '/' }, 'acies', h('span', {}, ` · ${info.name}`)),
      h('span', { class: 'game-id' }, `replay of game ${gameId.slice(0, 8)}`), h('span', { class: 'spacer' }), backLink),
    controls,
    h('div', { class: 'game-main' },
      h('div', { class: 'table-col' }, tableBox),
      h('aside', { class: 'side' }, h('section', { class: 'panel' }, h('h3', {}, 'This step'), eventsBox), logBox))));
  let board;
  try {
    board = await module.replayBoard(tableBox, { system, info, onKey });
  } catch (e) {
    replace(tableBox, h('div', { class: 'fatal', role: 'alert', 'data-testid': 'replay-error' }, `The board could not be drawn: ${e.message}`));
    return;
  }
  // The view of the step shown: the sentences may name its units.
  let shown = null;
  const describe = (e) => board.describe(e, shown);
  const log = new DiceLog(logBox, { describe, quiet: board.quiet });

  /** The view at `step`, from the server (once per step: a step never changes). */
  async function viewAt(step) {
    if (!views.has(step)) {
      const r = await api.replayStep(gameId, token, step);
      views.set(step, r.view);
    }
    return views.get(step);
  }

  function stepText(i) {
    const f = frames[i];
    return i === 0 ? 'start' : `step ${i} / ${frames.length - 1} · version ${f.version} · seat ${f.seat}`;
  }

  async function go(i) {
    if (!frames.length) return;
    at = Math.max(0, Math.min(frames.length - 1, i));
    const step = at;
    const f = frames[step];
    slider.value = String(step);
    replace(stepInfo, stepText(step));
    if (step === frames.length - 1 && timer) toggle();
    let v;
    try {
      v = await viewAt(step);
    } catch (e) {
      toast(`Step ${step} could not be loaded: ${e instanceof ApiError ? e.describe() : e.message}`, 'error');
      return;
    }
    if (step !== at) return; // the reader moved on meanwhile
    shown = v;
    board.render(v);
    log.render(board.log ? board.log(v) : eventsUpTo(frames, step));
    const caption = board.caption?.(v, step);
    replace(stepInfo, caption ? `${stepText(step)} · ${caption}` : stepText(step));
    replace(eventsBox, (f.events || []).map((e) => h('li', {}, describe(e))));
    // The neighbours are likely next (playing, stepping).
    for (const k of [step + 1, step - 1]) if (k >= 0 && k < frames.length) viewAt(k).catch(() => {});
  }

  function toggle() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      replace(playBtn, '▶ Play');
    } else {
      if (at >= frames.length - 1) go(0);
      timer = setInterval(() => go(at + 1), 900);
      replace(playBtn, '❚❚ Pause');
    }
  }

  slider.addEventListener('input', () => go(Number(slider.value)));
  // A running game goes on while it is replayed: the viewer follows it on the game's
  // WebSocket, each update adding its step (its events and the view after it); a viewer at
  // the last step stays at the last step, one looking back stays where it is.
  let loaded = -1;
  let outcome = null;
  let loading = null;
  let again = false;
  async function load(first) {
    if (loading) { again = true; return loading; }
    loading = fetchSteps(first);
    try { await loading; } finally { loading = null; }
    if (again) { again = false; await load(false); }
  }
  async function fetchSteps(first) {
    let r;
    try {
      r = await api.replay(gameId, token);
    } catch (e) {
      if (first) replace(tableBox, h('div', { class: 'fatal', role: 'alert', 'data-testid': 'replay-error' }, e instanceof ApiError ? e.describe() : e.message));
      return;
    }
    const wasLast = at >= frames.length - 1;
    frames = [{ version: 0, seat: null, events: [] }, ...r.steps.map((st) => ({ version: st.version, seat: st.seat, events: st.events || [] }))];
    views.set(r.last_step, r.view);
    slider.max = String(frames.length - 1);
    loaded = r.last_step;
    outcome = r.outcome;
    go(first || wasLast ? frames.length - 1 : at);
    if (outcome) follow(false);
  }

  /** A step played while the replay is open, as the socket delivered it. */
  function played(m) {
    if (m.version !== loaded + 1 || !m.events) {
      if (m.version > loaded) load(false);
      return;
    }
    const wasLast = at >= frames.length - 1;
    frames.push({ version: m.version, seat: m.seat, events: m.events });
    views.set(m.version, m.view);
    slider.max = String(frames.length - 1);
    loaded = m.version;
    if (wasLast) go(frames.length - 1);
    if (m.outcome) follow(false);
  }
  const live = h('span', { class: 'conn', 'data-testid': 'replay-live', 'data-state': 'connecting' }, 'connecting…');
  controls.append(live);
  let socket = null;
  function follow(on) {
    if (!on) {
      socket?.close();
      socket = null;
      live.dataset.state = 'ended';
      replace(live, 'game over');
      return;
    }
    socket = new GameSocket(system, gameId, token, {
      onSync: (m) => { if (m.version > loaded) load(false); },
      onUpdate: played,
      onStatus: (st) => {
        if (!socket) return;
        live.dataset.state = st;
        replace(live, st === 'online' ? 'live' : st);
      },
    });
    socket.connect();
  }
  await load(true);
  if (!frames.length || outcome) follow(false);
  else follow(true);
}
