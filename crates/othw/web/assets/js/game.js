// The O/THW game page of one seat (or a spectator): the grid, both armies' morale and
// generals, the activation die, the engine's legal actions (the `legal` query: units that
// may act are highlighted; a unit's or a group's moves and combats come from the `actions`
// query, with where each unit would end and the exact odds of a round), the follow-up
// decision, the dice log with flight, pursuit and rampage called out, and the end of the
// battle. The session itself (stream, hotseat, links) is the platform's GamePage.

import { h, replace, toast, pct } from '/assets/js/dom.js';
import { refusal } from '/assets/js/rules.js';
import { valueText } from '/assets/js/dicelog.js';
import { GamePage } from '/assets/js/gamepage.js';
import { Board } from './board.js';
import {
  SYSTEM, SIDE_COLOUR, QUIET, sideLabel, sideName, unitName, actionText, describeEvent,
  outcomeText, cellText, generalWith,
} from './words.js';

const key = (a) => JSON.stringify(a);
const cellKey = (c) => `${c.col},${c.row}`;
const PIPS = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/** The total of an engine `Value` (base, modifiers, floor). */
function total(v) {
  const raw = v.base + v.modifiers.reduce((a, m) => a + m.delta, 0);
  return v.floor !== null && v.floor !== undefined && raw < v.floor ? v.floor : raw;
}

/** The exact odds of a round (`othw_game::odds::RoundOdds`), every number the server's. */
export function oddsView(view, r) {
  if (!r || !r.odds) return null;
  const o = r.odds;
  const fighter = (f, role) => h('div', { class: 'odds-side', 'data-testid': `odds-${role}` },
    h('div', {}, h('b', {}, `${role === 'attacker' ? 'Attacker' : 'Defender'}: ${unitName(view, f.unit)}`), ` — strength ${f.strength}${f.general ? `, with ${f.general}` : ''}`),
    f.strikes
      ? h('div', { class: 'muted' }, `${total(f.strikes.dice)} dice hitting on ${total(f.strikes.need)}+${f.strikes.reroll_one ? ', one failed die re-rolled' : ''}`,
        h('ul', { class: 'operands' }, h('li', {}, valueText(f.strikes.dice)), h('li', {}, valueText(f.strikes.need))))
      : h('div', { class: 'muted' }, 'does not strike back (not facing its attacker)'),
    f.phalanx ? h('div', { class: 'muted' }, `Phalanx test: ${valueText(f.phalanx)}`) : null,
    h('div', {}, 'Hits taken: ', f.hits_taken.filter(([, p]) => p > 0).map(([n, p]) => h('span', { class: 'hits' }, `${n}: ${pct(p)}`))),
    h('div', {}, `wins ${pct(f.wins)} · loses ${pct(f.loses)} · draws ${pct(f.draws)} · breaks ${pct(f.breaks)}`,
      f.general_lost > 0 ? ` · general lost ${pct(f.general_lost)}` : ''));
  return h('div', { class: 'odds', 'data-testid': 'odds' },
    h('div', { class: 'odds-head' }, `Exact odds of the round: attacker wins ${pct(o.attacker_wins)}, defender wins ${pct(o.defender_wins)}, draw ${pct(o.draw)}`),
    fighter(o.fighters[0], 'attacker'), fighter(o.fighters[1], 'defender'));
}

export class Game extends GamePage {
  constructor(root, { gameId, token, info }) {
    super(root, { system: SYSTEM, gameId, token, info });
    this.legal = null;
    this.options = null;
    this.pick = null;
    this.groupMode = false;
    this.sel = [];
    this.handoverNote = 'Hotseat: pass the device to the other player.';
    this.spectatorNote = 'Spectators see the whole battle: only the dice to come are hidden.';
  }

  seatLabel(seat) { return sideLabel(this.view, seat); }

  seatName(seat) { return sideName(seat); }

  seatColour(seat) { return SIDE_COLOUR[seat]; }

  outcomeText(o) { return outcomeText(this.view, o); }

  /** The selected units (the platform page resets the selection to null). */
  get selected() { return this.sel || []; }

  fresh() {
    this.legal = null;
    this.options = null;
    this.pick = null;
    // What the selection may do has changed: the player selects again.
    this.sel = [];
  }

  /** Asks the engine for this seat's legal actions, and the selected units' actions. */
  async ask() {
    const seq = ++this.seq;
    try {
      const legal = this.myTurn ? (await this.api.query(this.gameId, this.token, { kind: 'legal' })).actions : null;
      if (seq !== this.seq) return;
      const options = legal && this.selected.length ? await this.unitActions() : null;
      if (seq !== this.seq) return;
      this.legal = legal;
      this.options = options;
      this.render();
    } catch (e) {
      if (seq === this.seq) toast(refusal(e), 'error');
    }
  }

  async unitActions() {
    const r = await this.api.query(this.gameId, this.token, { kind: 'actions', units: this.selected });
    return r.actions;
  }

  layout() {
    this.frame({
      prefix: 'othw', title: 'O/THW Ancients', panelLabel: 'Actions', strip: ['othw-armies', 'armies'],
      describe: (e) => describeEvent(e, this.view), quiet: QUIET,
    });
    this.armiesEl = this.stripEl;
    this.board = new Board(this.boardBox, { onCell: (c) => this.clickCell(c), onUnit: (id) => this.clickUnit(id) });
  }

  // ---- what the engine offers --------------------------------------------------------

  /** Units with an activation on offer now (a move of their own, a combat, a put-down). */
  activeUnits() {
    const ids = new Set();
    for (const a of this.legal || []) {
      if (a.kind === 'move' && a.units.length === 1) ids.add(a.units[0]);
      if (a.kind === 'combat' || a.kind === 'put_down') ids.add(a.unit);
    }
    return ids;
  }

  /** The groups the engine lets move together now. */
  groups() {
    const seen = new Map();
    for (const a of this.legal || []) {
      if (a.kind === 'move' && a.units.length > 1) {
        const ids = [...a.units].sort((x, y) => x - y);
        seen.set(ids.join('-'), ids);
      }
    }
    return [...seen.values()];
  }

  /** Where each option leaves the first selected unit: "col,row" -> options. */
  destinations() {
    const out = new Map();
    const lead = this.selected[0];
    for (const o of this.options || []) {
      if (o.action.kind !== 'move') continue;
      const mine = o.detail.units.find((x) => x.unit === lead) || o.detail.units[0];
      const k = cellKey(mine.to);
      if (!out.has(k)) out.set(k, []);
      out.get(k).push(o);
    }
    return out;
  }

  async select(ids) {
    this.sel = ids;
    this.pick = null;
    this.options = null;
    const seq = ++this.seq;
    this.render();
    if (!this.legal || !ids.length) return;
    try {
      const options = await this.unitActions();
      if (seq === this.seq) {
        this.options = options;
        this.render();
      }
    } catch (e) {
      toast(refusal(e), 'error');
    }
  }

  clickUnit(id) {
    const u = this.view.units[id];
    if (!u) return;
    // A unit of this seat's: selected (or added to / taken from the group being formed).
    if (u.side === this.mySeat && this.legal) {
      const sel = this.selected;
      if (this.groupMode) this.select(sel.includes(id) ? sel.filter((x) => x !== id) : [...sel, id]);
      else this.select(sel.length === 1 && sel[0] === id ? [] : [id]);
      return;
    }
    // An enemy the selection may charge or attack: that option.
    const hit = (this.options || []).filter((o) => o.detail.target === id || o.detail.charge?.target === id);
    if (hit.length === 1) {
      this.act(hit[0].action);
      return;
    }
    this.inspect = this.inspect === id ? null : id;
    this.render();
  }

  clickCell(cell) {
    const opts = this.destinations().get(cellKey(cell)) || [];
    if (opts.length === 1) {
      this.act(opts[0].action);
      return;
    }
    this.pick = opts.length ? cellKey(cell) : null;
    this.render();
  }

  // ---- rendering ---------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v) return;
    this.renderSeat();
    this.renderStatus();
    const cells = new Map();
    const units = new Map();
    for (const id of this.activeUnits()) units.set(id, 'can-act');
    for (const [k, opts] of this.destinations()) {
      cells.set(k, k === this.pick ? 'chosen' : opts.some((o) => o.detail.charge) ? 'charge' : 'target');
    }
    for (const o of this.options || []) {
      const t = o.detail.target ?? o.detail.charge?.target;
      if (t !== undefined && t !== null) units.set(t, 'target');
    }
    if (v.pending) units.set(v.pending.unit, 'acting');
    const ghosts = [];
    for (const o of (this.pick && this.destinations().get(this.pick)) || []) {
      for (const m of o.detail.units) ghosts.push({ from: v.units[m.unit].at, to: m.to, facing: m.facing });
    }
    this.board.render(v, { flipped: !!this.flipped, cells, units, selected: this.selected, ghosts });
    this.renderArmies();
    this.renderPanel();
    this.log.render(this.events, v);
    this.renderEnd();
  }

  /** The activation die of the phase under way: the last one rolled since it began. */
  lastDie() {
    for (let i = this.events.length - 1; i >= 0; i -= 1) {
      const e = this.events[i];
      if (e.event === 'phase_started') return undefined;
      if (e.event === 'activation') return e.die;
    }
    return undefined;
  }

  renderStatus() {
    const v = this.view;
    const toAct = this.toAct === null ? 'nobody' : this.toAct === this.mySeat ? 'you' : sideLabel(v, this.toAct);
    const die = this.lastDie();
    const dieEl = die === undefined ? h('span', { class: 'die-box muted', 'data-testid': 'activation-die', 'data-die': '' }, 'no activation yet')
      : die === null ? h('span', { class: 'die-box', 'data-testid': 'activation-die', 'data-die': 'general' }, 'general\'s activation (no die)')
        : h('span', { class: ['die-box', die === 1 && 'one'], 'data-testid': 'activation-die', 'data-die': String(die), title: `activation die: ${die}` },
          'Activation die ', h('span', { class: 'pip' }, PIPS[die] || String(die)), ` ${die}`);
    replace(this.statusEl,
      h('span', { class: 'turn', 'data-testid': 'turn', 'data-turn': v.turn }, v.outcome ? 'The battle is over' : `Turn ${v.turn} of ${v.scenario.turns} · ${sideLabel(v, v.active)}'s phase`),
      dieEl,
      v.ending ? h('span', { class: 'chip current', 'data-testid': 'ending' }, 'A 1 was rolled: only the generals\' unused activations remain') : null,
      h('span', { class: 'spacer' }),
      h('span', { class: ['who', toAct === 'you' && 'you'], 'data-testid': 'to-act', 'data-seat': this.toAct ?? '' }, 'To act: ', h('b', {}, toAct)));
  }

  renderArmies() {
    const v = this.view;
    replace(this.armiesEl, ['south', 'north'].map((side, i) => {
      const a = v.armies[i];
      const g = a.general;
      const mine = v.units.filter((u) => u.side === side);
      const count = (st) => mine.filter((u) => u.status.status === st).length;
      const frac = a.start_morale > 0 ? Math.max(0, a.morale) / a.start_morale : 0;
      return h('div', { class: ['othw-army', side === this.mySeat && 'mine'], 'data-testid': `army-${side}`, style: { borderColor: SIDE_COLOUR[side] } },
        h('div', {}, h('b', { style: { color: SIDE_COLOUR[side] } }, sideLabel(v, side)), side === this.mySeat ? ' (you)' : ''),
        h('div', { class: 'morale' }, 'Army morale ', h('b', { 'data-testid': `morale-${side}` }, String(a.morale)), ` of ${a.start_morale} `,
          h('span', { class: 'bar' }, h('span', { class: 'fill', style: { width: `${Math.round(frac * 100)}%`, background: SIDE_COLOUR[side] } }))),
        g ? h('div', {}, `General ${g.general.name} (attack ${g.general.attack}, rally ${g.general.rally})`,
          g.with === null ? h('b', { class: 'warn' }, ' — lost') : ` with ${unitName(v, g.with)}`,
          g.absence !== 'present' ? h('b', { class: 'warn' }, ` — misses ${g.absence === 'this_phase' ? 'this' : 'the next'} phase`) : null) : h('div', { class: 'muted' }, 'No general'),
        h('div', { class: 'muted' }, `${count('formed')} in good order, ${count('fleeing')} fleeing, ${count('rampaging')} rampaging, ${count('removed')} out of the battle`));
    }));
  }

  button(a, detail = null, extra = {}) {
    return h('button', {
      class: ['act', extra.primary && 'primary', extra.chosen && 'chosen'], disabled: this.busy,
      'data-testid': `act-${a.kind}`, 'data-action': key(a), onclick: () => this.act(a),
    }, extra.label || actionText(this.view, a, detail));
  }

  renderPanel() {
    const v = this.view;
    const out = [];
    if (this.inspect !== undefined && this.inspect !== null && v.units[this.inspect]) out.push(this.unitInfo(this.inspect));
    if (v.pending) {
      out.push(h('div', { class: 'pending', 'data-testid': 'pending' },
        `${unitName(v, v.pending.unit)} won the round: follow up into ${cellText(v.pending.into)}?`));
    }
    out.push(this.waitingNote(!!this.legal));
    if (this.myTurn && this.legal) out.push(...this.choicePanel());
    replace(this.panelEl, out);
  }

  unitInfo(id) {
    const v = this.view;
    const u = v.units[id];
    const p = u.profile;
    const g = generalWith(v, id);
    return h('div', { class: 'unit-info', 'data-testid': 'unit-info' },
      h('h3', {}, `${p.name} #${u.id}`),
      h('div', {}, `${sideLabel(v, u.side)} · ${p.class.replace(/_/g, ' ')}${p.traits.length ? ` · ${p.traits.map((t) => t.replace(/_/g, ' ')).join(', ')}` : ''}`),
      h('div', {}, `Moves ${p.moves} · Attacks ${p.attacks} · Defence ${p.defence} · Strength ${u.strength}/${p.strength} · Leadership ${p.leadership}`),
      h('div', {}, `At ${cellText(u.at)} facing ${u.facing} · ${u.status.status.replace(/_/g, ' ')}${u.pursuing !== null ? ` · pursuing ${unitName(v, u.pursuing)}` : ''}${u.moves ? ` · moved ${u.moves}×` : ''}${u.fought ? ' · has fought' : ''}${g ? ` · General ${g.general.name}` : ''}`));
  }

  choicePanel() {
    const v = this.view;
    const out = [];
    if (v.pending) {
      out.push(h('div', { class: 'choices', 'data-testid': 'decision-choices' }, this.legal.map((a) => this.button(a))));
      return out;
    }
    const sel = this.selected;
    if (sel.length) out.push(this.selectionPanel());
    const acting = [...this.activeUnits()];
    out.push(h('div', { class: 'unit-list' }, h('h3', {}, `Units that may act (${acting.length})`),
      h('div', { class: 'choices' }, acting.map((id) => h('button', {
        class: ['small', sel.length === 1 && sel[0] === id && 'primary'], 'data-testid': `select-${id}`, onclick: () => this.select([id]),
      }, unitName(v, id))))));
    const groups = this.groups();
    if (groups.length) {
      out.push(h('div', { class: 'unit-list' }, h('h3', {}, `Groups that may move together (${groups.length})`),
        h('div', { class: 'choices' }, groups.map((ids) => h('button', {
          class: ['small', key(ids) === key([...sel].sort((x, y) => x - y)) && 'primary'], 'data-testid': `group-${ids.join('-')}`, onclick: () => this.select(ids),
        }, `${ids.map((id) => `#${id}`).join(' ')}`))),
        h('label', { class: 'muted' }, h('input', {
          type: 'checkbox', checked: this.groupMode, 'data-testid': 'group-mode',
          onchange: (e) => { this.groupMode = e.target.checked; },
        }), ' form a group by clicking units on the board')));
    }
    out.push(h('div', { class: 'choices phase-end' }, this.legal.filter((a) => a.kind === 'end_phase').map((a) => this.button(a, null, { primary: true }))));
    return out;
  }

  selectionPanel() {
    const v = this.view;
    const sel = this.selected;
    const head = sel.length === 1 ? this.unitInfo(sel[0]) : h('h3', {}, `Group: ${sel.map((id) => unitName(v, id)).join(', ')}`);
    if (!this.options) return h('div', {}, head, h('p', { class: 'loading' }, 'Asking the engine…'));
    if (!this.options.length) return h('div', {}, head, h('p', { class: 'muted', 'data-testid': 'no-options' }, sel.length > 1 ? 'The engine offers no move to this group.' : 'No activation for this unit now.'));
    const picked = (this.pick && this.destinations().get(this.pick)) || [];
    const order = (o) => (o.action.kind === 'combat' ? 0 : o.detail.charge ? 1 : picked.includes(o) ? 2 : 3);
    const opts = [...this.options].sort((a, b) => order(a) - order(b));
    return h('div', {}, head,
      h('p', { class: 'muted' }, 'Click a highlighted square or enemy, or an action below.'),
      h('div', { class: 'unit-options', 'data-testid': 'unit-options' }, opts.map((o) => h('div', { class: 'option' },
        this.button(o.action, o.detail, { chosen: picked.includes(o) }),
        o.action.kind === 'combat' ? oddsView(v, o.detail) : null))));
  }
}
