// The replay viewer: the game from its first view through every action's events, filtered
// for the viewer by the server. Intermediate tables are rebuilt from the events (positions,
// markers, removals, phases); the last step is the server's own view. A running game is
// followed live on its WebSocket.

import { api, catalog, ApiError, GameSocket } from './api.js';
import { h, replace, num } from './dom.js';
import { Names, phaseName } from './cards.js';
import { TableView } from './table.js';
import { DiceLog, describeEvent } from './dicelog.js';
import { sizeOf } from './game.js';

const clone = (x) => JSON.parse(JSON.stringify(x));

const FRESH_STATE = {
  wounds: 0, broken: false, fleeing: false, marching: false, hero: false, no_officer: false,
  rank: 'regular', formation: null, extended_left: false, extended_right: false,
};

/** Applies one step's events to a view (a best effort: the engine's final view is exact). */
export function applyEvents(view, events, cards) {
  const v = view;
  const unit = (id) => v.units.find((u) => u.id === id);
  const dropEngagements = (id) => { v.engagements = v.engagements.filter((e) => e.a !== id && e.b !== id); };
  for (const e of events) {
    v.log.push(e);
    switch (e.event) {
      case 'unit_deployed': {
        const card = cards.get(e.unit) || null;
        const hidden = !e.card;
        v.units = v.units.filter((u) => u.id !== e.unit);
        v.units.push({
          id: e.unit, owner: e.seat, pose: e.pose, size: card ? sizeOf(card) : { width: 2, depth: 1.2 }, hidden,
          card: hidden ? null : card, state: hidden ? null : { ...FRESH_STATE, formation: e.formation ?? null, extended_left: !!e.extended?.[0], extended_right: !!e.extended?.[1] },
          turn: null,
        });
        const p = v.players.find((x) => x.seat === e.seat);
        if (p?.reserve) p.reserve = p.reserve.filter((r) => r.id !== e.unit);
        if (p) p.reserve_count = Math.max(0, (p.reserve_count || 0) - 1);
        break;
      }
      case 'units_revealed':
        for (const [id] of e.units) {
          const u = unit(id);
          const card = cards.get(id);
          if (u && card) {
            u.hidden = false;
            u.card = card;
            u.size = sizeOf(card);
            u.state ||= { ...FRESH_STATE };
          }
        }
        break;
      case 'general_placed': {
        const p = v.players.find((x) => x.seat === e.seat);
        const g = p?.generals.find((x) => x.card.name === e.general) || p?.generals[0];
        if (g) g.unit = e.unit;
        break;
      }
      case 'general_transferred': {
        const p = v.players.find((x) => x.seat === e.seat);
        const g = p?.generals.find((x) => x.card.name === e.general);
        if (g) g.unit = e.to;
        break;
      }
      case 'turn_started':
        v.turn = e.turn;
        v.round = e.round;
        v.group = e.seats;
        v.active = e.seats[0];
        for (const u of v.units) if (u.turn) u.turn.activated = false;
        break;
      case 'phase_started':
        v.phase = e.phase;
        v.deployment = null;
        break;
      case 'unit_activated': {
        const u = unit(e.unit);
        if (u) u.turn = { ...(u.turn || {}), activated: true };
        break;
      }
      case 'moved':
      case 'flight_move':
      case 'withdrawn':
      case 'repositioned': {
        const u = unit(e.unit);
        if (u) u.pose = e.to;
        if (e.event === 'withdrawn') {
          // VII-2.D: the enemies that kept contact and are still engaged stay in the fight
          // (their new place is in the next view; the event gives only who followed).
          const still = new Set((e.followers || []).filter(([, , engaged]) => engaged).map(([id]) => id));
          v.engagements = v.engagements.filter((x) => (x.a !== e.unit && x.b !== e.unit) || still.has(x.a === e.unit ? x.b : x.a));
        } else if (e.event !== 'repositioned') dropEngagements(e.unit);
        break;
      }
      case 'charged': {
        const u = unit(e.unit);
        if (u) u.pose = e.to;
        for (const t of e.engaged || [e.target]) {
          const [a, b] = e.unit < t ? [e.unit, t] : [t, e.unit];
          if (!v.engagements.some((x) => x.a === a && x.b === b)) v.engagements.push({ a, b, contacts: [], charged_by: e.unit });
        }
        break;
      }
      case 'retreated':
        if (e.disengaged) dropEngagements(e.unit);
        break;
      case 'fight_resolved':
      case 'free_attack_resolved': {
        const a = unit(e.attacker);
        const d = unit(e.defender);
        if (a && e.result?.attacker?.state) a.state = e.result.attacker.state;
        if (d && e.result?.defender?.state) d.state = e.result.defender.state;
        break;
      }
      case 'unit_broken': {
        const u = unit(e.unit);
        if (u?.state) u.state.broken = true;
        break;
      }
      case 'unit_fled': {
        const u = unit(e.unit);
        if (u?.state) Object.assign(u.state, { broken: true, fleeing: true });
        break;
      }
      case 'unit_rallied': {
        const u = unit(e.unit);
        if (u?.state) Object.assign(u.state, { broken: e.broken, fleeing: e.fleeing });
        break;
      }
      case 'unit_healed': {
        const u = unit(e.unit);
        if (u?.state) u.state.wounds = Math.max(0, u.state.wounds - e.wounds);
        break;
      }
      case 'unit_removed': {
        const u = unit(e.unit);
        v.units = v.units.filter((x) => x.id !== e.unit);
        dropEngagements(e.unit);
        const p = v.players.find((x) => x.seat === u?.owner);
        if (p && u?.card && !p.eliminated.some(([id]) => id === e.unit)) p.eliminated.push([e.unit, u.card]);
        break;
      }
      case 'game_over':
        v.outcome = e.outcome;
        v.phase = 'game_over';
        break;
      default:
        break;
    }
  }
  return v;
}

/** Cards known at the end of the game, by unit id (so revealed units show their card). */
function knownCards(r) {
  const m = new Map();
  const take = (v) => {
    for (const u of v?.units || []) if (u.card) m.set(u.id, u.card);
    for (const p of v?.players || []) {
      for (const [id, card] of p.eliminated || []) m.set(id, card);
      for (const res of p.reserve || []) m.set(res.id, res.card);
    }
  };
  take(r.initial_view);
  take(r.view);
  return m;
}

export async function replayPage(root, gameId, token) {
  document.title = `acies · replay ${gameId.slice(0, 8)}`;
  const tableBox = h('div', { class: 'table-box' });
  const logBox = h('section', { class: 'logbox', 'aria-label': 'Log and dice' });
  const stepInfo = h('div', { class: 'step-info', 'data-testid': 'replay-step', role: 'status' });
  const slider = h('input', { type: 'range', min: '0', max: '0', value: '0', 'aria-label': 'Step', 'data-testid': 'replay-slider' });
  const btn = (label, aria, testid, f) => h('button', { 'aria-label': aria, 'data-testid': testid, onclick: f }, label);
  let frames = [];
  let at = 0;
  let timer = null;
  const names = { current: null };
  const table = new TableView(tableBox, { onUnitClick: () => {}, onKey: (ev) => {
    if (ev.key === ',' || ev.key === 'PageUp') { go(at - 1); return true; }
    if (ev.key === '.' || ev.key === 'PageDown') { go(at + 1); return true; }
    return false;
  } });
  const log = new DiceLog(logBox);
  const playBtn = btn('▶ Play', 'Play', 'replay-play', () => toggle());
  const controls = h('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': 'Replay controls' },
    btn('« First', 'First step', 'replay-first', () => go(0)),
    btn('‹ Back', 'Previous step', 'replay-back', () => go(at - 1)),
    playBtn,
    btn('Next ›', 'Next step', 'replay-forward', () => go(at + 1)),
    btn('Last »', 'Last step', 'replay-last', () => go(frames.length - 1)),
    slider, stepInfo);
  const backLink = h('a', { class: 'button small ghost-btn', href: `/games/${encodeURIComponent(gameId)}${token ? `?token=${encodeURIComponent(token)}` : ''}`, 'data-testid': 'back-to-game' }, 'Back to the game');
  const eventsBox = h('ol', { class: 'step-events', 'data-testid': 'replay-events', 'aria-label': 'Events of this step' });
  replace(root, h('div', { class: 'game-page replay-page' },
    h('header', { class: 'topbar' }, h('a', { class: 'brand', href: '/' }, 'acies', h('span', {}, ' · ONUS!')),
      h('span', { class: 'game-id' }, `replay of game ${gameId.slice(0, 8)}`), h('span', { class: 'spacer' }), backLink),
    controls,
    h('div', { class: 'game-main' },
      h('div', { class: 'table-col' }, tableBox),
      h('aside', { class: 'side' }, h('section', { class: 'panel' }, h('h3', {}, 'This step'), eventsBox), logBox))));

  function go(i) {
    if (!frames.length) return;
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at];
    slider.value = String(at);
    names.current = new Names(names.catalog, f.view);
    table.render({ view: f.view, highlights: new Map(), lines: [], zones: [], flipped: false });
    log.render(f.view.log, names.current);
    const v = f.view;
    replace(stepInfo, at === 0 ? `start · ${phaseName(v.phase)}` : `step ${at} / ${frames.length - 1} · version ${f.version} · seat ${f.seat} · ${v.phase === 'deployment' ? 'deployment' : `turn ${v.turn}, ${phaseName(v.phase)}`}`);
    replace(eventsBox, (f.events || []).map((e) => h('li', {}, describeEvent(e, names.current))));
    if (at === frames.length - 1 && timer) toggle();
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

  let cat;
  try {
    cat = await catalog();
  } catch {
    cat = { deck: { cards: [] }, factions: [] };
  }
  names.catalog = cat;
  // A running game goes on while it is replayed: the viewer follows it on the game's
  // WebSocket and fetches the steps played since each update (a viewer at the last step
  // stays at the last step; one looking back stays where it is).
  let loaded = -1;
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
    const cards = knownCards(r);
    let v = clone(r.initial_view);
    v.log ||= [];
    v.engagements ||= [];
    const wasLast = at >= frames.length - 1;
    frames = [{ view: clone(v), version: 0, seat: null, events: [] }];
    r.steps.forEach((st, i) => {
      v = applyEvents(v, st.events || [], cards);
      const exact = i === r.steps.length - 1 && r.view;
      frames.push({ view: exact ? r.view : clone(v), version: st.version, seat: st.seat, events: st.events || [] });
    });
    slider.max = String(frames.length - 1);
    loaded = frames[frames.length - 1].version;
    go(first || wasLast ? frames.length - 1 : at);
    if (r.view?.outcome) follow(false);
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
    const news = (m) => { if (m.version > loaded) load(false); };
    socket = new GameSocket(gameId, token, {
      onSync: news,
      onUpdate: news,
      onStatus: (st) => {
        if (!socket) return;
        live.dataset.state = st;
        replace(live, st === 'online' ? 'live' : st);
      },
    });
    socket.connect();
  }
  await load(true);
  if (!frames.length || frames[frames.length - 1].view.outcome) follow(false);
  else follow(true);
  void num;
}
