// The game page of one seat (or a spectator): the grid, the players' points and cards, the
// decision awaited, the engine's choices as buttons (the `choices` and `unit_options`
// queries: nothing is offered that the engine did not list), exact odds of fights and shots,
// the dice log, the hotseat hand-over and the end of the battle. Every action goes to the
// server, which decides.

import { systemApi } from '/assets/js/api.js';
import { h, replace, toast, pct } from '/assets/js/dom.js';
import { refusal } from '/assets/js/rules.js';
import { GamePage } from '/assets/js/gamepage.js';
import { Board } from './board.js';
import {
  SYSTEM, SEAT_COLOUR, seatLabel, seatName, viewerSeat, unitName, actionText, pendingText,
  describeEvent, outcomeText, pointsText, QUIET, total,
} from './words.js';

const api = systemApi(SYSTEM);
const key = (a) => JSON.stringify(a);
const unitOf = (a) => (a.unit !== undefined ? a.unit : null);

/** Odds of a combat or a shooting as a small table (every number from the server). */
export function oddsView(o) {
  if (!o || !o.odds) return null;
  const d = o.odds;
  const shooting = o.kind === 'shooting';
  const rating = (v) => `${v.name} ${total(v)}${v.modifiers.length ? ` (${v.base}${v.modifiers.map((m) => ` ${m.delta >= 0 ? '+' : ''}${m.delta} ${m.source}`).join('')})` : ''}`;
  const rows = d.results.filter(([, p]) => p > 0).map(([r, p]) => h('tr', {}, h('td', {}, r.replace(/_/g, ' ')), h('td', { class: 'num' }, pct(p))));
  rows.push(h('tr', { class: 'muted' }, h('td', {}, 'cancelled by a Defence die'), h('td', { class: 'num' }, pct(d.cancelled))));
  const side = (name, x) => x && h('div', { class: 'odds-side' }, `${name}: pushed back ${pct(x.pushed_back)}, Discipline Test ${pct(x.tests)}`,
    x.test ? ` (rout ${pct(x.test.rout)})` : '', x.reversal ? `, Reversal of Fortune ${pct(x.reversal)}` : '');
  return h('div', { class: 'odds', 'data-testid': 'odds' },
    h('div', { class: 'odds-head' }, shooting ? 'Exact odds of the shooting' : 'Exact odds of the combat', ` · ${d.dice} ${d.dice === 1 ? 'die' : 'dice'}`),
    h('div', { class: 'muted' }, rating(shooting ? d.ranged : d.attack), ' against ', rating(shooting ? d.target_rating : d.defence)),
    h('table', {}, rows),
    shooting ? side('target', d.target) : [side('attacker', d.attacker), side('defender', d.defender)],
    shooting && d.shooter_reversal ? h('div', { class: 'odds-side' }, `short of ammunition: ${pct(d.shooter_reversal)}`) : null);
}

export class Game extends GamePage {
  constructor(root, { gameId, token, info }) {
    super(root, { system: SYSTEM, gameId, token, info });
    this.choices = null;
    this.unitOptions = null;
    this.pendingOdds = null;
    this.handoverNote = 'Hotseat: pass the device. The other player\'s cards stay hidden until they continue.';
    this.spectatorNote = 'Spectators see what both players may see: no face-down card.';
    this.watchingNote = 'You are watching: both players\' face-down cards are hidden from you.';
  }

  /** The Command Points view says whom it is for. */
  get mySeat() { return viewerSeat(this.view?.viewer); }

  seatLabel(seat) { return seatLabel(this.view, seat); }

  seatName(seat) { return seatName(seat); }

  seatColour(seat) { return SEAT_COLOUR[seat]; }

  outcomeText(o) { return outcomeText(this.view, o); }

  fresh() {
    this.choices = null;
    this.unitOptions = null;
    this.pendingOdds = null;
    if (this.sel !== null && !this.view.units.some((u) => u.id === this.sel && u.owner === this.mySeat)) this.sel = null;
  }

  /** Asks the engine for this seat's choices (and the odds of a fight under way). */
  async ask() {
    const seq = ++this.seq;
    const v = this.view;
    const fight = v.pending && ['combat_dice', 'choose_die', 'defence_dice'].includes(v.pending.decision);
    try {
      const [choices, odds] = await Promise.all([
        this.myTurn ? api.query(this.gameId, this.token, { kind: 'choices' }) : null,
        fight ? api.query(this.gameId, this.token, { kind: 'odds', pending: true }).catch(() => null) : null,
      ]);
      if (seq !== this.seq) return;
      const unitOptions = choices && this.sel !== null
        ? (await api.query(this.gameId, this.token, { kind: 'unit_options', unit: this.sel })).options
        : null;
      if (seq !== this.seq) return;
      // Everything at once: the panel shows the engine's choices as soon as they are known.
      this.choices = choices;
      this.pendingOdds = odds;
      this.unitOptions = unitOptions;
      this.render();
    } catch (e) {
      if (seq === this.seq) toast(refusal(e), 'error');
    }
  }

  async loadUnitOptions(seq) {
    this.unitOptions = null;
    if (this.sel === null || !this.choices) return;
    const r = await api.query(this.gameId, this.token, { kind: 'unit_options', unit: this.sel });
    if (seq === this.seq) this.unitOptions = r.options;
  }

  layout() {
    this.frame({
      prefix: 'cp', title: 'Command Points', panelLabel: 'Decisions and choices', strip: ['cp-players', 'players'],
      describe: (e) => describeEvent(e, this.view), quiet: QUIET,
    });
    this.playersEl = this.stripEl;
    this.board = new Board(this.boardBox, { onCell: (c) => this.clickCell(c), onUnit: (id) => this.clickUnit(id) });
  }

  // ---- what the engine offers --------------------------------------------------------

  actions() { return this.choices?.actions || []; }

  deployTargets() {
    return new Map(this.actions().filter((a) => a.action === 'deploy').map((a) => [`${a.cell.col},${a.cell.row}`, a]));
  }

  /** Units with an activation on offer now. */
  activeUnits() {
    const ids = new Set();
    for (const a of this.actions()) {
      if (['move', 'charge', 'combat', 'shoot', 'reform', 'return'].includes(a.action)) ids.add(a.unit);
    }
    return ids;
  }

  clickCell(cell) {
    const a = this.deployTargets().get(`${cell.col},${cell.row}`);
    if (a) this.act(a);
  }

  async clickUnit(id) {
    const u = this.view.units.find((x) => x.id === id);
    if (!u) return;
    this.sel = this.sel === id ? null : id;
    const seq = ++this.seq;
    try {
      await this.loadUnitOptions(seq);
    } catch (e) {
      toast(refusal(e), 'error');
    }
    if (seq === this.seq) this.render();
  }

  // ---- rendering ---------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v) return;
    this.renderSeat();
    this.renderStatus();
    const cells = new Map();
    for (const k of this.deployTargets().keys()) cells.set(k, 'target');
    const units = new Map();
    for (const id of this.activeUnits()) units.set(id, 'can-act');
    if (v.activation) units.set(v.activation.unit, 'acting');
    this.board.render(v, { flipped: !!this.flipped, cells, units, selected: this.sel });
    this.renderPlayers();
    this.renderPanel();
    this.log.render(this.events, v);
    this.renderEnd();
  }

  renderStatus() {
    const v = this.view;
    const st = v.stage.stage;
    const stage = st === 'deploy' ? `Deployment — ${seatLabel(v, v.stage.next)} places a unit` : st === 'over' ? 'The battle is over' : `Turn ${v.turn} of ${v.scenario.turns} · ${seatLabel(v, v.active)}'s phase`;
    const toAct = this.toAct === null ? 'nobody' : this.toAct === this.mySeat ? 'you' : seatLabel(v, this.toAct);
    replace(this.statusEl,
      h('span', { class: 'turn', 'data-testid': 'turn', 'data-stage': st, 'data-turn': v.turn }, stage),
      v.reversal ? h('span', { class: 'chip current' }, 'Reversal of Fortune: the phase ends after this activation') : null,
      h('span', { class: 'spacer' }),
      h('span', { class: ['who', toAct === 'you' && 'you'], 'data-testid': 'to-act', 'data-seat': this.toAct ?? '' }, 'To act: ', h('b', {}, toAct)));
  }

  renderPlayers() {
    const v = this.view;
    replace(this.playersEl, v.players.map((p) => {
      const mine = p.seat === this.mySeat;
      const cards = p.cards.map((c, i) => h('span', {
        class: ['card', c.kind, c.value === null || c.value === undefined ? 'face-down' : 'face-up', c.revealed && 'revealed'],
        'data-testid': `card-${p.seat}-${i}`, title: c.value === null || c.value === undefined ? `a ${c.kind} card, face down` : `${c.kind} card ${c.id}: ${c.value} points${c.revealed ? ' (revealed)' : ''}`,
      }, c.kind === 'disaster' ? 'Disaster' : 'Setback', ' ', c.value === null || c.value === undefined ? '?' : String(c.value)));
      const g = p.general;
      return h('div', { class: ['cp-player', mine && 'mine'], 'data-testid': `player-${p.seat}`, style: { borderColor: SEAT_COLOUR[p.seat] } },
        h('div', { class: 'pl-head' }, h('b', { style: { color: SEAT_COLOUR[p.seat] } }, seatLabel(v, p.seat)), mine ? ' (you)' : ''),
        h('div', { 'data-testid': `points-${p.seat}` }, 'Command Points: ', pointsText(p.points)),
        h('div', {}, `General ${g.name}: ${g.points}/${g.initial} Generalship${g.status !== 'commanding' ? ` — ${g.status.replace(/_/g, ' ')}` : g.unit !== null ? ` (with ${unitName(v, g.unit)})` : ''}`),
        h('div', {}, `Army Break Point ${p.break_point} · cards known ${p.known_points}`,
          p.fatigued ? h('b', { class: 'warn' }, ' · Fatigued') : null,
          p.called_homunculus ? ' · called Homunculus Est! this phase' : null,
          p.cancel_used ? ' · cancellation used' : null,
          p.camp_captured ? h('b', { class: 'warn' }, ' · camp captured') : null),
        h('div', { class: 'cards', 'data-testid': `cards-${p.seat}` }, cards.length ? cards : h('span', { class: 'muted' }, 'no card')),
        this.offTable(p.seat));
    }));
  }

  offTable(seat) {
    const away = this.view.units.filter((u) => u.owner === seat && u.place.kind !== 'table');
    const pursuing = away.filter((u) => u.place.kind === 'pursuing');
    const gone = away.filter((u) => u.place.kind === 'gone');
    const reserve = away.filter((u) => u.place.kind === 'reserve');
    return h('div', { class: 'muted' },
      reserve.length ? `To deploy: ${reserve.length}. ` : '',
      pursuing.length ? `Pursuing off-table: ${pursuing.map((u) => `${u.profile.name} #${u.id}`).join(', ')}. ` : '',
      gone.length ? `Out of the battle: ${gone.length}.` : '');
  }

  button(a, extra = {}) {
    return h('button', {
      class: ['act', extra.primary && 'primary'], disabled: this.busy, 'data-testid': `act-${a.action}`, 'data-action': key(a),
      onclick: () => this.act(a),
    }, extra.label || actionText(this.view, a));
  }

  renderPanel() {
    const v = this.view;
    const out = [];
    if (v.pending) {
      out.push(h('div', { class: 'pending', 'data-testid': 'pending', 'data-decision': v.pending.decision }, pendingText(v, v.pending)));
      if (v.pending.fight) out.push(this.fightView(v.pending.fight));
      if (this.pendingOdds) out.push(oddsView(this.pendingOdds));
    }
    out.push(this.waitingNote(!!this.choices));
    if (this.myTurn && this.choices) out.push(...this.choicePanel());
    replace(this.panelEl, out);
  }

  fightView(f) {
    const v = this.view;
    return h('div', { class: 'fight', 'data-testid': 'fight' },
      h('div', {}, `${f.shooting ? 'Shooting' : f.charge ? 'Charge' : 'Combat'}: ${unitName(v, f.attacker)} (${total(f.attack)}) against ${unitName(v, f.defender)} (${total(f.defence)})`),
      f.faces.length ? h('div', {}, 'Dice: ', f.faces.map((x, i) => h('span', { class: ['die', f.chosen === x && 'chosen'], title: `die ${i + 1}` }, String(x)))) : null,
      f.penalty ? h('div', { class: 'muted' }, `${f.penalty} on the result (shooting at a higher rating)`) : null);
  }

  choicePanel() {
    const v = this.view;
    const all = this.actions();
    const out = [];
    const ofKind = (...kinds) => all.filter((a) => kinds.includes(a.action));
    if (v.pending) {
      out.push(h('div', { class: 'choices', 'data-testid': 'decision-choices' }, all.map((a) => this.button(a))));
    } else if (v.stage.stage === 'deploy') {
      const first = ofKind('deploy')[0];
      out.push(h('p', { 'data-testid': 'deploy-help' }, first ? `Deploy ${unitName(v, first.unit)} (facing the enemy): click a highlighted square. A square away from your placed units costs a Strategy Point.` : 'Nothing to deploy.'));
    } else if (v.activation?.mover) {
      const m = v.activation.mover;
      out.push(h('p', {}, `${unitName(v, v.activation.unit)} moves: ${m.points} Movement Point${m.points === 1 ? '' : 's'} left, ${m.moved} square${m.moved === 1 ? '' : 's'} entered${v.activation.order === 'charge' ? ' (charging: stop to fight the enemy in front)' : ''}.`));
      out.push(h('div', { class: 'choices steps', 'data-testid': 'step-choices' }, ofKind('step', 'end_move').map((a) => this.button(a))));
    } else {
      const acting = this.activeUnits();
      if (this.sel !== null) out.push(this.unitPanel());
      out.push(h('div', { class: 'unit-list' }, h('h3', {}, `Units that may activate (${acting.size})`),
        h('div', { class: 'choices' }, [...acting].map((id) => h('button', {
          class: ['small', this.sel === id && 'primary'], 'data-testid': `select-${id}`, onclick: () => this.clickUnit(id),
        }, unitName(v, id))))));
      out.push(h('div', { class: 'choices phase-end' }, ofKind('call_homunculus', 'end_phase').map((a) => this.button(a, { primary: a.action === 'end_phase' }))));
    }
    out.push(this.pointsPanel());
    return out;
  }

  unitPanel() {
    const v = this.view;
    const u = v.units.find((x) => x.id === this.sel);
    const p = u.profile;
    const info = h('div', { class: 'unit-info', 'data-testid': 'unit-info' },
      h('h3', {}, `${p.name} #${u.id}`),
      h('div', {}, `${p.troop.replace(/_/g, ' ')}; ${p.characteristics.map((c) => c.replace(/_/g, ' ')).join(', ') || 'no characteristic'}`),
      h('div', {}, `Combat ${p.combat} · Ranged ${p.ranged}${p.range ? ` (range ${p.range})` : ''} · Manoeuvre ${p.manoeuvre} · Discipline ${p.discipline + (u.discipline_increase || 0)}`),
      h('div', {}, `Facing ${u.facing}${u.disordered ? ' · Disordered' : ''}${u.retiring ? ' · Retiring' : ''}${u.activated ? ' · activated this phase' : ''}${u.lines.length ? ` · lines: ${u.lines.map((l) => l.replace(/_/g, ' ')).join(', ')}` : ''}`));
    if (u.owner !== this.mySeat) return info;
    const opts = this.unitOptions;
    if (!opts) return h('div', {}, info, h('p', { class: 'loading' }, 'Asking the engine…'));
    return h('div', {}, info, h('div', { class: 'unit-options', 'data-testid': 'unit-options' },
      opts.length ? opts.map((o) => h('div', { class: 'option' }, this.button(o.action), oddsView(o.odds))) : h('p', { class: 'muted' }, 'No activation for this unit now.')));
  }

  pointsPanel() {
    const v = this.view;
    const me = v.players.find((p) => p.seat === this.mySeat);
    const ex = this.choices?.exchanges || [];
    const parts = [];
    if (ex.length) {
      const sel = h('select', { 'data-testid': 'exchange-select', 'aria-label': 'Exchange' }, ex.map((a, i) => h('option', { value: String(i) }, actionText(v, a))));
      parts.push(h('div', { class: 'row' }, 'Three Points for one: ', sel,
        h('button', { class: 'small', 'data-testid': 'exchange', disabled: this.busy, onclick: () => this.act(ex[Number(sel.value)]) }, 'Exchange')));
    }
    if (me && me.points.strategy > 0 && v.stage.stage === 'battle' && !v.pending && !v.activation?.mover) parts.push(this.reallocateForm(me));
    return parts.length ? h('details', { class: 'points-box' }, h('summary', {}, 'Command Points: exchange, re-allocate'), parts) : h('div');
  }

  /** Strategy: re-allocate the Command Points; offered once the engine accepts the split. */
  reallocateForm(me) {
    const kinds = ['attack', 'movement', 'defence', 'strategy'];
    const left = kinds.reduce((a, k) => a + me.points[k], 0) - 1;
    const inputs = kinds.map((k) => h('input', { type: 'number', min: '0', max: '30', value: String(k === 'strategy' ? me.points[k] - 1 : me.points[k]), class: 'narrow', 'aria-label': k, 'data-testid': `realloc-${k}` }));
    const verdict = h('span', { class: 'muted', 'data-testid': 'realloc-verdict' });
    const go = h('button', { class: 'small', disabled: true, 'data-testid': 'reallocate' }, 'Re-allocate');
    let action = null;
    const check = async () => {
      action = { action: 'reallocate', points: Object.fromEntries(kinds.map((k, i) => [k, Number(inputs[i].value) || 0])) };
      go.disabled = true;
      const r = await api.query(this.gameId, this.token, { kind: 'check_action', action });
      go.disabled = !r.ok;
      replace(verdict, r.ok ? 'the engine accepts it' : r.error);
    };
    inputs.forEach((i) => i.addEventListener('input', () => check().catch(() => {})));
    go.addEventListener('click', () => { if (action) this.act(action); });
    check().catch(() => {});
    return h('div', { class: 'realloc' }, `Re-allocate (a Strategy Point; ${left} to share): `, kinds.map((k, i) => h('label', {}, ` ${k[0].toUpperCase()} `, inputs[i])), ' ', go, ' ', verdict);
  }
}
