// The game page of one seat (or a spectator): the table, the half-turn's step with its
// controls, both Morale Clocks, the melees to come with their odds, and the log. Every action
// goes to the server; every ghost, refusal and odds figure is the engine's answer to a query.

import { ApiError } from '/assets/js/api.js';
import { GameSocket } from '/assets/js/api.js';
import { h, replace, toast, debounce, pct } from '/assets/js/dom.js';
import { refusal } from '/assets/js/rules.js';
import { DiceLog } from '/assets/js/dicelog.js';
import { Correspondence } from '/assets/js/correspond.js';
import { rememberGame, tokensFor } from '/assets/js/mygames.js';
import { gamePath } from '/assets/js/systems.js';
import { api, SYSTEM, sideName } from './api.js';
import { TableView } from './table.js';
import { describeEvent, outcomeText, unitName, QUIET } from './events.js';

const PHASES = { missiles: '2. Missile Fire', orders: '3. Moves: orders', adjust: '3. Moves: adjustments', over: 'The battle is over' };
const OUTCOMES = { no_effect: 'no effect', dmz: 'DMZ marker', retreat: '2 DMZ: retreat', destroyed: 'destroyed' };
const RESULTS = { no_effect: 'NE (no effect)', dmz: 'D (DMZ)', killed: 'K (killed)' };

function outcomeName(o) {
  if (o.kind === 'dmz') return `${o.total} DMZ`;
  return OUTCOMES[o.kind] || o.kind;
}

/** A Morale Clock as a clock face: 12 marks, the hand at the army's score. */
export function clockFace(army, side, active) {
  const top = Math.max(12, army.clock);
  const marks = [];
  for (let i = 0; i < top; i += 1) {
    const a = (i / top) * 2 * Math.PI;
    const lit = i < army.clock;
    marks.push(h('span', { class: ['tick', lit && 'lit'], style: { transform: `rotate(${a}rad) translateY(-26px)` } }));
  }
  const hand = (army.clock / top) * 360;
  return h('div', { class: ['mc-clock', `side-${side}`, active && 'active'], 'data-testid': `clock-${side}`, 'data-clock': army.clock, title: `${army.name}: Morale Clock ${army.clock}` },
    h('div', { class: 'dial' }, marks, h('span', { class: 'hand', style: { transform: `rotate(${hand}deg)` } }),
      h('span', { class: 'value' }, String(army.clock))),
    h('div', { class: 'clock-name' }, `${sideName(side)}: ${army.name}`));
}

/** The odds of one unit's outcomes: "destroyed 12%, 1 DMZ 30%...", with its modifiers. */
function unitOddsView(u) {
  const mods = u.modifiers;
  const total = mods.base + mods.modifiers.reduce((a, m) => a + m.delta, 0);
  return h('div', { class: 'odds-unit' },
    h('div', {}, h('b', {}, u.name), ` — ${mods.name} ${total} = ${mods.base}`, mods.modifiers.map((m) => ` ${m.delta >= 0 ? '+' : ''}${m.delta} (${m.source})`)),
    h('div', { class: 'muted' }, u.outcomes.map(([o, p]) => `${outcomeName(o)} ${pct(p)}`).join(', ')));
}

function meleeOddsView(o, battle) {
  return h('div', { class: 'odds', 'data-testid': 'melee-odds' },
    h('div', {}, `${o.units[0].name} wins ${pct(o.wins[0])}, ${o.units[1].name} wins ${pct(o.wins[1])}, tie ${pct(o.tie)}`),
    o.units.map(unitOddsView));
}

function volleyOddsView(o) {
  return h('div', { class: 'odds', 'data-testid': 'volley-odds' },
    h('div', {}, o.results.map(([r, p]) => `${RESULTS[r] || r} ${pct(p)}`).join(', ')),
    unitOddsView(o.target));
}

export class Game {
  constructor(root, gameId, token) {
    this.root = root;
    this.gameId = gameId;
    this.token = token || null;
    this.tokens = tokensFor(gameId);
    this.msg = null;
    this.events = [];
    this.sel = new Set();
    this.target = null;
    this.steps = [];
    this.by = 'clock';
    this.stratagem = '';
    this.check = null;
    this.querySeq = 0;
    this.recheck = debounce(() => this.runCheck(), 120);
    // The game's chat and the notification of this page's move (the platform's). Hotseat:
    // a message is written by the seat to act when this browser holds it.
    this.corr = new Correspondence({
      system: SYSTEM, gameId, title: `Morale Clock game ${gameId.slice(0, 8)}`,
      token: () => this.tokenFor(this.actingSeat) || this.token,
      seats: () => [...new Set([...this.tokens.keys(), ...(this.msg?.view?.seat ? [this.msg.view.seat] : [])])],
      seatLabel: (seat) => sideName(seat),
    });
    window.__acies = this; // for the browser tests and the curious
  }

  get battle() {
    return this.msg?.view?.battle || null;
  }

  /** The seat this page plays now: the one to act if this browser holds it (hotseat). */
  get actingSeat() {
    const toAct = this.msg?.to_act;
    if (!toAct || this.msg?.outcome) return null;
    if (this.tokens.has(toAct)) return toAct;
    const mine = this.msg?.view?.seat;
    return mine === toAct && this.token ? toAct : null;
  }

  tokenFor(seat) {
    return this.tokens.get(seat) || this.token;
  }

  async start() {
    this.layout();
    try {
      const first = await api.view(this.gameId, this.token);
      if (this.token && first.view?.seat) {
        rememberGame(this.gameId, [{ seat: first.view.seat, token: this.token }], { system: SYSTEM });
        this.tokens = tokensFor(this.gameId);
      }
      await this.loadLog();
      this.accept(first);
    } catch (e) {
      replace(this.tableBox, h('div', { class: 'fatal', role: 'alert', 'data-testid': 'game-error' },
        e instanceof ApiError ? `This game cannot be opened: ${e.describe()}` : String(e),
        h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))));
      return;
    }
    this.socket = new GameSocket(SYSTEM, this.gameId, this.token, {
      onSync: (m) => this.accept(m),
      onUpdate: (m) => {
        this.logEvents(m);
        this.accept(m);
      },
      onStatus: (st) => { replace(this.connEl, st); this.connEl.dataset.state = st; },
      onChat: (messages) => this.corr.chat(messages),
    });
    this.socket.version = this.msg.version;
    this.socket.view = this.msg.view;
    this.socket.connect();
  }

  /** Every event so far, from the replay (the view keeps no log). */
  async loadLog() {
    const r = await api.replay(this.gameId, this.token);
    this.events = (r.steps || []).flatMap((s) => s.events || []);
    this.logVersion = r.last_step;
  }

  /** Adds an update's events to the log once (an action's answer and the socket both carry them). */
  logEvents(m) {
    if (!m.events || m.version <= this.logVersion) return;
    if (m.version > this.logVersion + 1) {
      // A step was missed (a reconnection): the replay has every event.
      this.loadLog().then(() => this.render()).catch(() => {});
      return;
    }
    this.events.push(...m.events);
    this.logVersion = m.version;
  }

  layout() {
    this.connEl = h('span', { class: 'conn', 'data-testid': 'conn' }, 'connecting…');
    this.head = h('div', { class: 'mc-head', 'data-testid': 'mc-head' });
    this.clocks = h('div', { class: 'mc-clocks' });
    this.tableBox = h('div', { class: 'mc-table-box' });
    this.panel = h('div', { class: 'mc-panel', 'data-testid': 'mc-panel' });
    this.meleeBox = h('div', { class: 'mc-melees', 'data-testid': 'mc-melees' });
    const logBox = h('div', { class: 'mc-log' });
    replace(this.root, h('div', { class: 'mc-page' },
      h('div', { class: 'mc-top' }, this.head, this.clocks, h('a', { class: 'button small', href: gamePath(SYSTEM, this.gameId, { token: this.token, replay: true }), 'data-testid': 'to-replay' }, 'Replay'), ...this.corr.topbarItems(), this.connEl),
      h('div', { class: 'mc-main' }, this.tableBox, h('div', { class: 'mc-side' }, this.panel, this.meleeBox, logBox))));
    this.table = new TableView(this.tableBox, {
      onUnitClick: (id) => this.clickUnit(id),
      onTableClick: (p) => this.clickTable(p),
    });
    this.log = new DiceLog(logBox, { describe: (e) => describeEvent(e, this.battle), quiet: QUIET });
  }

  accept(m) {
    if (this.msg && m.version < this.msg.version) return;
    const phaseChanged = !this.msg || this.msg.view?.battle?.phase !== m.view?.battle?.phase
      || this.msg.view?.battle?.side !== m.view?.battle?.side;
    this.msg = m;
    this.corr.accept(m);
    if (phaseChanged) this.resetSelection();
    else this.pruneSelection();
    this.render();
    this.loadMelees();
  }

  resetSelection() {
    this.sel = new Set();
    this.target = null;
    this.steps = [];
    this.check = null;
    this.by = 'clock';
    this.stratagem = '';
  }

  pruneSelection() {
    const b = this.battle;
    for (const id of [...this.sel]) {
      const u = b.units[id];
      if (!u || u.removed !== null || b.half.ordered.includes(id) || b.half.fired.includes(id)) this.sel.delete(id);
    }
    if (!this.sel.size) {
      this.steps = [];
      this.check = null;
    }
  }

  async query(q) {
    return api.query(this.gameId, this.tokenFor(this.actingSeat) || this.token, q);
  }

  async act(action) {
    const seat = this.actingSeat;
    if (!seat) return;
    try {
      const r = await api.act(this.gameId, this.tokenFor(seat), this.msg.version, action);
      this.logEvents(r);
      if (r.version > this.msg.version) this.accept(r);
    } catch (e) {
      toast(refusal(e), 'error');
      replace(this.errorBox || this.panel, h('div', { class: 'refusal', role: 'alert', 'data-testid': 'refusal' }, refusal(e)));
    }
  }

  async loadMelees() {
    const version = this.msg.version;
    let r;
    try {
      r = await api.query(this.gameId, this.token, { kind: 'melees' });
    } catch {
      return;
    }
    if (this.msg.version !== version) return;
    const b = this.battle;
    replace(this.meleeBox, h('h3', {}, 'Melees to come'),
      r.melees.length ? r.melees.map((m) => h('div', { class: 'melee-row' },
        h('div', {}, `${unitName(b, m.a)} against ${unitName(b, m.b)}`), meleeOddsView(m.odds, b)))
        : h('p', { class: 'muted' }, 'No unit is in melee contact.'));
  }

  // ---- drawing -------------------------------------------------------------------

  render() {
    const b = this.battle;
    const m = this.msg;
    const acting = this.actingSeat;
    replace(this.head,
      h('b', { 'data-testid': 'mc-turn' }, `Turn ${Math.min(b.turn, b.scenario.turn_limit)} of ${b.scenario.turn_limit}`),
      ` · ${sideName(b.side)}'s half-turn · `,
      h('span', { 'data-testid': 'mc-phase', 'data-phase': b.phase }, PHASES[b.phase] || b.phase),
      b.phase !== 'over' ? h('span', { 'data-testid': 'orders-left' }, ` · ${m.view.orders_left} order${m.view.orders_left === 1 ? '' : 's'} left`) : null,
      m.outcome ? h('div', { class: 'outcome', 'data-testid': 'outcome' }, outcomeText(m.outcome)) : null,
      !acting && !m.outcome ? h('div', { class: 'muted', 'data-testid': 'waiting' }, m.view.seat ? `Waiting for ${sideName(m.to_act)}…` : 'Watching.') : null);
    replace(this.clocks, b.armies.map((a, i) => clockFace(a, i ? 'b' : 'a', b.side === (i ? 'b' : 'a'))));
    this.drawTable();
    this.drawPanel();
    this.log.render(this.events, b);
  }

  drawTable() {
    const b = this.battle;
    const ghosts = [];
    if (this.check?.ok) {
      for (const mv of this.check.moved) {
        const u = b.units[mv.unit];
        ghosts.push({ pose: mv.to, width: u.profile.width, depth: u.profile.depth });
      }
      for (const p of this.check.placed) {
        const u = b.units[p.unit];
        ghosts.push({ pose: p.to, width: u.profile.width, depth: u.profile.depth });
      }
    }
    const targets = new Map();
    for (const t of this.shots || []) targets.set(t.target, t.ok ? 'ok' : 'no');
    const marks = new Map();
    if (this.target !== null) marks.set(this.target, 'aimed');
    this.table.render(b, { selected: this.sel, ghosts, targets, marks });
  }

  drawPanel() {
    const b = this.battle;
    const acting = this.actingSeat;
    this.errorBox = h('div', { class: 'refusal-box', 'data-testid': 'refusal-box' });
    if (!acting) {
      replace(this.panel, h('p', { class: 'muted' }, b.phase === 'over' ? 'The battle is over.' : 'Not your half-turn.'), this.errorBox);
      return;
    }
    const parts = [h('h3', {}, `${sideName(acting)}: ${PHASES[b.phase]}`)];
    if (b.phase === 'missiles') parts.push(...this.missilePanel());
    else if (b.phase === 'orders') parts.push(...this.ordersPanel());
    else if (b.phase === 'adjust') parts.push(...this.adjustPanel());
    parts.push(this.errorBox);
    replace(this.panel, parts);
  }

  endButton(label, action, testid) {
    return h('button', { class: 'primary', 'data-testid': testid, onclick: () => this.act(action) }, label);
  }

  missilePanel() {
    const b = this.battle;
    const firers = [...this.sel];
    const out = [h('p', { class: 'muted' }, 'Click your units that shoot (one volley: one target), then the enemy target.')];
    out.push(h('div', { 'data-testid': 'firers' }, firers.length ? `Firing: ${firers.map((id) => b.units[id].profile.name).join(', ')}` : 'No unit chosen.'));
    if (this.target !== null) out.push(h('div', {}, `Target: ${unitName(b, this.target)}`));
    if (this.volley) {
      if (this.volley.ok) {
        out.push(volleyOddsView(this.volley.odds));
        out.push(h('button', { class: 'primary', 'data-testid': 'fire', onclick: () => this.act({ action: 'fire', firers, target: this.target }) }, 'Fire'));
      } else {
        out.push(h('div', { class: 'refusal', 'data-testid': 'volley-refused' }, `${this.volley.message} [${this.volley.rule}]`));
      }
    }
    out.push(this.endButton('End missile fire', { action: 'end_missiles' }, 'end-missiles'));
    return out;
  }

  ordersPanel() {
    const b = this.battle;
    const acting = this.actingSeat;
    const armyIndex = acting === 'a' ? 0 : 1;
    const army = b.armies[armyIndex];
    const ids = [...this.sel];
    const out = [h('p', { class: 'muted' }, 'Click a unit (or its group), set the steps, check the ghost, give the order. A click on the table aims a straight move there.')];
    if (!ids.length) {
      out.push(this.endButton('End orders', { action: 'end_orders' }, 'end-orders'));
      return out;
    }
    const first = b.units[ids[0]];
    const leader = first.profile.troop === 'general' || first.profile.troop === 'subordinate';
    out.push(h('div', { 'data-testid': 'order-units' }, `Order for: ${ids.map((id) => b.units[id].profile.name).join(', ')}`));
    out.push(h('div', { class: 'row' },
      h('button', { class: 'small', 'data-testid': 'select-group', onclick: () => this.selectGroup(ids[0]) }, 'Its whole group'),
      h('button', { class: 'small', onclick: () => { this.sel = new Set([ids[0]]); this.changed(); } }, 'This unit alone')));
    // Who gives the order.
    const leaders = b.units.filter((l) => l.side === acting && l.removed === null
      && (l.profile.troop === 'general' || l.profile.troop === 'subordinate') && !b.half.free_orders.includes(l.id));
    const bySel = h('select', { 'data-testid': 'order-by', 'aria-label': 'Who gives the order', onchange: (e) => { this.by = e.target.value; this.changed(); } },
      leader ? h('option', { value: 'own', selected: this.by === 'own' }, 'the leader moves itself')
        : [h('option', { value: 'clock', selected: this.by === 'clock' }, `a Morale Clock order (${this.msg.view.orders_left} left)`),
          leaders.map((l) => h('option', { value: `leader:${l.id}`, selected: this.by === `leader:${l.id}` }, `the free order of ${l.profile.name}`))]);
    if (leader && this.by !== 'own') this.by = 'own';
    out.push(h('label', {}, 'By ', bySel));
    const extra = army.stratagems.map((st, i) => ({ st, i })).filter(({ st, i }) => st.effect.effect === 'extra_move' && army.stratagem_uses[i] < st.uses);
    if (extra.length) {
      out.push(h('label', {}, 'Stratagem ', h('select', { 'data-testid': 'order-stratagem', onchange: (e) => { this.stratagem = e.target.value; this.changed(); } },
        h('option', { value: '' }, 'none'),
        extra.map(({ st }) => h('option', { value: st.id, selected: this.stratagem === st.id }, `${st.name} (+${st.effect.inches}", ${st.orders} order${st.orders === 1 ? '' : 's'})`)))));
    }
    out.push(this.stepsEditor(first));
    out.push(this.checkView());
    out.push(h('div', { class: 'row' },
      h('button', { class: 'primary', 'data-testid': 'give-order', disabled: !this.check?.ok, onclick: () => this.act(this.moveAction()) }, 'Give the order'),
      h('button', { 'data-testid': 'disengage', onclick: () => this.act({ action: 'disengage', unit: ids[0], by: { kind: 'clock' } }) }, 'Disengage')));
    const rally = army.stratagems.filter((st, i) => st.effect.effect === 'rally_again' && army.stratagem_uses[i] < st.uses);
    if (rally.length && first.dmz > 0) {
      out.push(rally.map((st) => h('button', { 'data-testid': 'rally-again', onclick: () => this.act({ action: 'rally_again', unit: ids[0], stratagem: st.id }) }, `${st.name}: rally again`)));
    }
    out.push(this.endButton('End orders', { action: 'end_orders' }, 'end-orders'));
    return out;
  }

  stepsEditor(first) {
    const list = h('ol', { class: 'steps', 'data-testid': 'steps' }, this.steps.map((st, i) => h('li', {},
      this.stepInputs(st, i),
      h('button', { class: 'small', 'aria-label': 'remove the step', onclick: () => { this.steps.splice(i, 1); this.changed(); } }, '✕'))));
    const add = (step) => () => { this.steps.push(step); this.changed(); };
    const move = first.profile.move_open;
    return h('div', { class: 'steps-editor' }, h('div', {}, 'Steps'), list,
      h('div', { class: 'row' },
        h('button', { class: 'small', 'data-testid': 'add-forward', onclick: add({ step: 'forward', inches: move, incline: 0 }) }, '+ forward'),
        h('button', { class: 'small', 'data-testid': 'add-wheel', onclick: add({ step: 'wheel', toward: 'right', degrees: 30 }) }, '+ wheel'),
        h('button', { class: 'small', onclick: add({ step: 'sidestep', inches: 1 }) }, '+ sidestep'),
        h('button', { class: 'small', onclick: add({ step: 'back', inches: 1 }) }, '+ back'),
        h('button', { class: 'small', onclick: add({ step: 'face', turn: 'about' }) }, '+ change face'),
        h('button', { class: 'small', onclick: add({ step: 'turn', degrees: 45 }) }, '+ turn')));
  }

  stepInputs(st, i) {
    const num = (key, label, stepv = 0.5) => h('label', {}, ` ${label} `, h('input', {
      type: 'number', step: String(stepv), value: st[key], class: 'narrow', 'data-testid': `step-${i}-${key}`,
      oninput: (e) => { st[key] = Number(e.target.value); this.changed(); },
    }));
    const pick = (key, values) => h('select', { 'data-testid': `step-${i}-${key}`, onchange: (e) => { st[key] = e.target.value; this.changed(); } },
      values.map((v) => h('option', { value: v, selected: st[key] === v }, v)));
    switch (st.step) {
      case 'forward': return h('span', {}, 'forward', num('inches', 'inches'), num('incline', 'incline°', 1));
      case 'wheel': return h('span', {}, 'wheel ', pick('toward', ['left', 'right']), num('degrees', 'degrees', 1));
      case 'sidestep': return h('span', {}, 'sidestep', num('inches', 'inches (right +)', 0.25));
      case 'back': return h('span', {}, 'back', num('inches', 'inches', 0.25));
      case 'face': return h('span', {}, 'change face ', pick('turn', ['left', 'right', 'about']));
      default: return h('span', {}, 'turn', num('degrees', 'degrees (right +)', 1));
    }
  }

  moveAction() {
    const by = this.by === 'clock' ? { kind: 'clock' } : this.by === 'own' ? { kind: 'own' }
      : { kind: 'leader', leader: Number(this.by.split(':')[1]) };
    const a = { action: 'move', units: [...this.sel], by, steps: this.steps };
    if (this.stratagem) a.stratagem = this.stratagem;
    return a;
  }

  checkView() {
    const c = this.check;
    if (!this.steps.length) return h('div', { class: 'muted', 'data-testid': 'check' }, 'Add a step to see where the order ends.');
    if (!c) return h('div', { class: 'muted', 'data-testid': 'check' }, 'checking…');
    const b = this.battle;
    if (!c.ok) return h('div', { class: 'refusal', 'data-testid': 'check', 'data-ok': 'false' }, `Refused: ${c.message}`, h('span', { class: 'rule', 'data-testid': 'check-rule' }, ` [${c.rule}]`));
    return h('div', { class: 'check-ok', 'data-testid': 'check', 'data-ok': 'true' },
      c.moved.map((mv) => h('div', {}, `${b.units[mv.unit].profile.name}: ${Math.round(mv.cost * 100) / 100}" of ${Math.round(mv.allowance * 100) / 100}"`)),
      c.wheels.length ? h('div', {}, `Wheels, on the outside unit: ${c.wheels.map((w) => `${Math.round(w * 100) / 100}"`).join(', ')}`) : null,
      c.charges.map((ch) => h('div', { class: 'charge', 'data-testid': 'check-charge' }, `Charges ${unitName(b, ch.target)} on its ${ch.edge.toLowerCase()} edge${ch.fearsome_test ? ' (a fearsome enemy: the charger tests first)' : ''}`)),
      c.melees.map((m) => h('div', {}, `${unitName(b, m.a)} against ${unitName(b, m.b)}:`, meleeOddsView(m.odds, b))),
      h('div', { class: 'muted' }, `${c.orders_left} order${c.orders_left === 1 ? '' : 's'} left after it.`));
  }

  adjustPanel() {
    const b = this.battle;
    const ids = [...this.sel];
    const out = [h('p', { class: 'muted' }, 'Units that took no order may change face or dress ranks (Limits to Movement 12). Click one.')];
    if (ids.length === 1) {
      const id = ids[0];
      out.push(h('div', {}, b.units[id].profile.name));
      out.push(h('div', { class: 'row' }, ['left', 'right', 'about'].map((turn) => h('button', { 'data-testid': `face-${turn}`, onclick: () => this.act({ action: 'face', unit: id, turn }) }, `Face ${turn}`))));
    }
    out.push(this.endButton('End the moves (melee and the Morale Clock follow)', { action: 'end_moves' }, 'end-moves'));
    return out;
  }

  // ---- input ---------------------------------------------------------------------

  changed() {
    this.check = null;
    this.render();
    if (this.steps.length && this.sel.size) this.recheck();
  }

  async runCheck() {
    const seq = ++this.querySeq;
    const a = this.moveAction();
    const q = { kind: 'check_move', units: a.units, by: a.by, steps: a.steps };
    if (a.stratagem) q.stratagem = a.stratagem;
    try {
      const r = await this.query(q);
      if (seq !== this.querySeq) return;
      this.check = r;
    } catch (e) {
      if (seq !== this.querySeq) return;
      this.check = { ok: false, rule: e.rule || 'Input', message: e instanceof ApiError ? e.describe() : e.message };
    }
    this.render();
  }

  async selectGroup(id) {
    const r = await this.query({ kind: 'groups' });
    const g = r.groups.find((ids) => ids.includes(id));
    if (g) this.sel = new Set(g);
    this.changed();
  }

  async clickUnit(id) {
    const b = this.battle;
    const acting = this.actingSeat;
    if (!acting) return;
    const u = b.units[id];
    if (b.phase === 'missiles') {
      if (u.side === acting) {
        if (this.sel.has(id)) this.sel.delete(id);
        else this.sel.add(id);
        this.shots = null;
        if (this.sel.size === 1) {
          const r = await this.query({ kind: 'shots', unit: [...this.sel][0] });
          this.shots = r.targets;
        }
      } else {
        this.target = id;
      }
      this.volley = null;
      if (this.sel.size && this.target !== null) {
        this.volley = await this.query({ kind: 'volley_odds', firers: [...this.sel], target: this.target });
      }
      this.render();
      return;
    }
    if (u.side !== acting) return;
    this.sel = new Set([id]);
    this.by = u.profile.troop === 'general' || u.profile.troop === 'subordinate' ? 'own' : 'clock';
    if (b.phase === 'orders' && !this.steps.length) this.steps = [{ step: 'forward', inches: u.profile.move_open, incline: 0 }];
    this.changed();
  }

  /** Aims a straight move at a point of the table: forward, inclined towards it. */
  clickTable(p) {
    const b = this.battle;
    if (b.phase !== 'orders' || !this.sel.size || !this.actingSeat) return;
    const units = [...this.sel].map((id) => b.units[id]);
    const cx = units.reduce((a, u) => a + u.pose.centre.x, 0) / units.length;
    const cy = units.reduce((a, u) => a + u.pose.centre.y, 0) / units.length;
    const hd = units[0].pose.heading;
    const dx = p.x - cx;
    const dy = p.y - cy;
    // Into the units' own frame: x to their right, y ahead.
    const lx = dx * Math.cos(hd) + dy * Math.sin(hd);
    const ly = -dx * Math.sin(hd) + dy * Math.cos(hd);
    const incline = Math.round((Math.atan2(lx, ly) * 180) / Math.PI);
    const inches = Math.round(Math.hypot(dx, dy) * 4) / 4;
    this.steps = [{ step: 'forward', inches, incline }];
    this.changed();
  }
}
