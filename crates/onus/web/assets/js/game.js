// The game page: one seat's (or a spectator's) view of a game, kept in sync over the
// WebSocket; the table, the phase bar, the side panel, the hand, the log and the dialogs.
// Every action goes to the server, which decides; this page shows what the engine answers.

import { GameSocket, ApiError } from '/assets/js/api.js';
import { h, replace, toast, clearToasts, debounce, num, copyText } from '/assets/js/dom.js';
import { refusal } from '/assets/js/rules.js';
import { DiceLog } from '/assets/js/dicelog.js';
import { ThinkingSign } from '/assets/js/computer.js';
import { Correspondence } from '/assets/js/correspond.js';
import { modal } from '/assets/js/dialogs.js';
import { rememberGame, tokensFor, gameEntry } from '/assets/js/mygames.js';
import { gamePath } from '/assets/js/systems.js';
import { api, catalog, SYSTEM } from './onusapi.js';
import { Names, PHASES, phaseName, seatColour } from './cards.js';
import { TableView } from './table.js';
import { Hand } from './hand.js';
import { describeEvent, QUIET } from './events.js';
import { renderPanel, renderDecisions, zoneChoiceName } from './panel.js';
import { applySteps, applyStep, toLocal, sub, rot, normAngle, corners, toWorld, vec, isLeftPivot, isRearPivot } from './geom.js';

const DEG = Math.PI / 180;

/**
 * Each player's deployment zone (VI) as the game's view gives it (`players[].deployment_zone`,
 * the scenario's or the default one), with the edge the player deploys along
 * (`home_edges`, one per seat).
 */
export function zonesOf(view) {
  return (view.players || []).map((p, i) => p.deployment_zone && {
    seat: p.seat,
    edge: view.home_edges?.[i] ?? (i === 0 ? 'South' : 'North'),
    ...p.deployment_zone,
  }).filter(Boolean);
}

/**
 * T&F VI "Deployment": the zones a siege's attacker chooses among now, as the view lists them
 * (`players[].zone_choices`, empty otherwise), each with its index for `choose_zone`.
 */
export function zoneChoicesOf(view) {
  return (view.players || []).flatMap((p) => (p.zone_choices || []).map((z, choice) => ({ seat: p.seat, choice, side: p.zone_choice_edges?.[choice], ...z })));
}

const FACING = { South: 0, North: Math.PI, West: -Math.PI / 2, East: Math.PI / 2 };

function round(x, k = 100) {
  return Math.round(x * k) / k;
}

export class Game {
  constructor(root, gameId, token) {
    this.root = root;
    this.gameId = gameId;
    this.token = token || null;
    this.tokens = tokensFor(gameId);
    if (token) {
      // A seat link opened here: remember it (the seat is learnt from the first view).
      this.pendingRemember = true;
    }
    this.view = null;
    this.version = null;
    this.serverToAct = null;
    this.sel = null; // {unit, options, mode, ...}
    this.ghost = null;
    this.order = null; // order being played: {card, units: Set, reorganise: Set, cards: Set, to}
    this.line = null; // advancing in line (XII-A) being prepared: {units: Set, cards: Set}
    this.busy = false;
    this.querySeq = 0;
    this.dialog = null;
    this.dialogKey = null;
    this.endingTurn = false;
    this.pivotMode = 'corner';
    // The measuring tool: null when off, else {a, b, result, seq} (marks: {unit} or {x, y}).
    this.measuring = null;
    this.checkMove = debounce(() => this.runCheckMove(), 140);
    // The game's chat and the notification of this page's move (the platform's).
    this.corr = new Correspondence({
      system: SYSTEM, gameId, title: `ONUS! game ${gameId.slice(0, 8)}`,
      token: () => this.token,
      seats: () => (this.hotseat ? [...this.tokens.keys()] : this.mySeat !== null ? [String(this.mySeat)] : []),
      seatLabel: (seat) => this.names?.shortSeat(seat) ?? `seat ${seat}`,
    });
    window.__acies = this; // for the browser tests and the curious
  }

  get mySeat() {
    const v = this.view?.viewer;
    return v && typeof v === 'object' && 'seat' in v ? v.seat : null;
  }

  get spectator() {
    return this.mySeat === null;
  }

  get myTurnToAct() {
    return this.view && this.mySeat !== null && this.view.to_act === this.mySeat && !this.view.outcome;
  }

  get hotseat() {
    return this.tokens.size > 1;
  }

  me() {
    return this.view?.players?.find((p) => p.seat === this.mySeat) || null;
  }

  unit(id) {
    return this.view?.units?.find((u) => u.id === id) || null;
  }

  // ---- page --------------------------------------------------------------------------

  async start() {
    this.buildLayout();
    try {
      this.catalog = await catalog();
    } catch (e) {
      this.catalog = { deck: { cards: [] }, factions: [] };
      toast(`The catalog could not be loaded: ${e.message}`, 'error');
    }
    try {
      const first = await api.view(this.gameId, this.token);
      this.accept(first, true);
    } catch (e) {
      replace(this.tableBox, h('div', { class: 'fatal', role: 'alert', 'data-testid': 'game-error' },
        e instanceof ApiError ? `This game cannot be opened: ${e.describe()}` : String(e),
        h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))));
      return;
    }
    this.connect();
  }

  connect() {
    if (this.socket) this.socket.close();
    this.socket = new GameSocket(SYSTEM, this.gameId, this.token, {
      onSync: (m) => this.accept(m, false),
      onUpdate: (m) => this.accept(m, false),
      onStatus: (st) => this.setConn(st),
      onTakeback: (m) => this.takebackNews(m),
      onChat: (messages) => this.corr.chat(messages),
    });
    // Resume from the view we have: the server then sends only what changed since.
    this.socket.version = this.version;
    this.socket.view = this.serverView;
    this.socket.connect();
  }

  setConn(st) {
    this.conn = st;
    const labels = { online: 'online', connecting: 'connecting…', reconnecting: 'reconnecting…', offline: 'offline — reconnecting', refused: 'refused' };
    replace(this.connEl, labels[st] || st);
    this.connEl.dataset.state = st;
    this.connEl.title = labels[st] || st;
  }

  /** A view, sync or update message from the server. */
  accept(msg, first) {
    if (this.version !== null && msg.version < this.version) return;
    this.version = msg.version;
    this.view = msg.view;
    this.serverView = msg.view;
    this.serverToAct = msg.to_act ?? null;
    // A take-back another seat asked and nobody answered yet (every message says).
    this.takebackReq = msg.takeback || null;
    this.thinking?.accept(msg);
    this.names = new Names(this.catalog, this.view);
    if (this.pendingRemember && this.mySeat !== null) {
      this.pendingRemember = false;
      rememberGame(this.gameId, [{ seat: String(this.mySeat), token: this.token }], { system: SYSTEM, mode: gameEntry(this.gameId)?.mode || 'link' });
      this.tokens = tokensFor(this.gameId);
    }
    this.corr.accept(msg);
    if (first && this.mySeat !== null) {
      const mine = zonesOf(this.view).find((z) => z.seat === this.mySeat);
      this.flipped = mine?.edge === 'North';
    }
    if (this.order && (this.view.phase !== 'activation' || !this.myTurnToAct)) this.order = null;
    if (this.line && (this.view.phase !== 'activation' || !this.myTurnToAct)) this.line = null;
    // The selection survives an update when its unit does.
    if (this.sel && !this.unit(this.sel.unit) && this.sel.mode !== 'deploy') this.deselect();
    if (this.sel?.mode === 'deploy' && !this.sel.engine && !this.me()?.reserve?.some((r) => r.id === this.sel.unit)) this.deselect();
    if (this.sel?.engine && !(this.view.phase === 'deployment' && this.view.deployment?.units)) this.deselect();
    this.render();
    if (this.sel && this.sel.mode !== 'deploy') this.refreshOptions();
    if (this.maybeSwitchSeat()) return;
    this.continueEndTurn();
  }

  /** Hotseat: when another seat this browser holds is to act, hand the device over. */
  maybeSwitchSeat() {
    const v = this.view;
    if (!v || v.outcome || !this.hotseat || v.to_act === null || v.to_act === undefined) return false;
    if (v.to_act === this.mySeat) return false;
    const token = this.tokens.get(String(v.to_act));
    if (!token) return false;
    if (this.handover) return true;
    this.endingTurn = false;
    this.deselect();
    this.closeDialog();
    const seat = v.to_act;
    const cover = modal({
      title: `${this.names.shortSeat(seat)} to play`,
      testid: 'handover',
      dismissable: false,
      opaque: true,
      onClose: () => { this.handover = null; },
      body: [
        h('p', {}, 'Hotseat: pass the device to the next player. Their hand stays hidden until they continue.'),
        h('button', {
          class: 'primary', 'data-testid': 'handover-continue', autofocus: true,
          onclick: () => { cover.close(); this.switchSeat(seat, token); },
        }, `I am ${this.names.shortSeat(seat)}: continue`),
      ],
    });
    this.handover = cover;
    // Nothing of the previous seat's stream stays on screen, nor keeps arriving: its
    // socket is closed, and its log, hands, reserves and table (face-down units by name) are
    // cleared until the next seat's own view and log come from the server.
    if (this.socket) {
      this.socket.close();
      this.socket = null;
    }
    this.log.reset();
    this.view = {
      ...v,
      log: [],
      units: [],
      players: v.players.map((p) => ({ ...p, hand: null, reserve: [] })),
    };
    clearToasts();
    this.render();
    return true;
  }

  switchSeat(seat, token) {
    this.token = token;
    this.log.reset();
    const url = new URL(location.href);
    url.searchParams.set('token', token);
    history.replaceState(null, '', url);
    this.flipped = zonesOf(this.view).find((z) => z.seat === seat)?.edge === 'North';
    api.view(this.gameId, token).then((m) => {
      this.accept(m, false);
      this.connect();
    }, (e) => toast(e.message, 'error'));
  }

  buildLayout() {
    const root = this.root;
    this.connEl = h('span', { class: 'conn', 'data-testid': 'conn-status', role: 'status' }, 'connecting…');
    this.seatEl = h('span', { class: 'seat-label', 'data-testid': 'seat-label' });
    this.thinking = new ThinkingSign();
    this.header = h('header', { class: 'topbar' },
      h('a', { class: 'brand', href: '/', 'data-testid': 'to-lobby' }, 'acies', h('span', {}, ' · ONUS!')),
      h('span', { class: 'game-id', title: this.gameId }, `game ${this.gameId.slice(0, 8)}`),
      this.seatEl,
      this.thinking.el,
      h('span', { class: 'spacer' }),
      h('button', { class: 'small ghost-btn', onclick: () => this.shareDialog(), 'data-testid': 'share' }, 'Share'),
      this.takebackBtn = h('button', {
        class: 'small ghost-btn', onclick: () => this.takeBack(), 'data-testid': 'takeback', hidden: true,
        title: 'Take your last move back (while nothing random or hidden happened since; online the opponent must accept)',
      }, 'Take back'),
      this.surrenderBtn = h('button', { class: 'small ghost-btn', onclick: () => this.surrender(), 'data-testid': 'surrender', hidden: true }, 'Surrender'),
      h('a', { class: 'button small ghost-btn', href: gamePath(SYSTEM, this.gameId, { token: this.token, replay: true }), 'data-testid': 'open-replay' }, 'Replay'),
      ...this.corr.topbarItems(),
      this.connEl);
    this.phaseBar = h('nav', { class: 'phasebar', 'aria-label': 'Turn and phase', 'data-testid': 'phase-bar' });
    this.tableBox = h('div', { class: 'table-box' });
    this.panelEl = h('section', { class: 'panel', 'aria-label': 'Selection and actions', 'data-testid': 'panel' });
    this.logEl = h('section', { class: 'logbox', 'aria-label': 'Log and dice' });
    this.handEl = h('section', { class: 'handbar', 'aria-label': 'Your hand', 'data-testid': 'hand-bar' });
    this.help = h('div', { class: 'table-help', 'data-testid': 'table-help' });
    this.takebackEl = h('div', { class: 'takeback-bar', role: 'status', 'data-testid': 'takeback-bar', hidden: true });
    const zoom = h('div', { class: 'zoom-controls' },
      h('button', { class: 'small', 'aria-label': 'Zoom in', 'data-testid': 'zoom-in', onclick: () => this.table.zoomAt(1 / 1.25) }, '+'),
      h('button', { class: 'small', 'aria-label': 'Zoom out', 'data-testid': 'zoom-out', onclick: () => this.table.zoomAt(1.25) }, '−'),
      h('button', { class: 'small', 'aria-label': 'Fit the table', 'data-testid': 'zoom-fit', onclick: () => this.table.fit() }, 'Fit'),
      h('button', {
        class: 'small', 'aria-label': 'Turn the view a quarter round', title: 'Turn the view a quarter round (the near edge at the bottom or on the left)',
        'data-testid': 'turn-view', onclick: () => this.table.turn(),
      }, '⟳'),
      this.measureBtn = h('button', {
        class: 'small', 'aria-label': 'Measure a distance', 'aria-pressed': 'false',
        title: 'Measure in DU: click or tap two points or cards (a card: its nearest edge, as the rules measure); Esc ends',
        'data-testid': 'measure', onclick: () => this.toggleMeasure(),
      }, 'Ruler'));
    // On a phone or a tablet held upright the panel, the hand and the log share a sheet
    // under the table, one at a time (the tabs), which folds down to give the table room.
    this.sheetTabs = h('div', { class: 'sheet-tabs', role: 'tablist', 'aria-label': 'Panel, hand and log', 'data-testid': 'sheet-tabs' });
    this.page = h('div', { class: 'game-page onus-game', 'data-sheet': 'panel', 'data-sheet-open': 'true' },
      this.header,
      this.phaseBar,
      h('div', { class: 'game-main' },
        h('div', { class: 'table-col' }, this.takebackEl, this.tableBox, zoom, this.help),
        this.sheetTabs,
        h('aside', { class: 'side' }, this.panelEl, this.logEl)),
      this.handEl);
    replace(root, this.page);
    this.renderSheetTabs();
    this.table = new TableView(this.tableBox, {
      onUnitClick: (id) => this.clickUnit(id),
      onBackgroundClick: (world) => this.clickBackground(world),
      onGhostDrag: (a, b, phase) => this.ghostDrag(a, b, phase),
      onRotateDrag: (p, phase) => this.rotateDrag(p, phase),
      onKey: (ev) => this.key(ev),
    }, { autoTurn: true });
    this.log = new DiceLog(this.logEl, { describe: describeEvent, quiet: QUIET });
    this.hand = new Hand(this.handEl);
    // Hover help on a touch screen: a tap shows it.
    this.panelEl.addEventListener('click', (ev) => {
      const el = ev.target.closest?.('.has-help');
      if (el?.title) toast(el.title);
    });
    document.addEventListener('keydown', (ev) => {
      if (ev.target.closest?.('input, textarea, select, dialog')) return;
      if (ev.target === this.table.svg || this.table.svg.contains(ev.target)) return;
      if (this.key(ev)) ev.preventDefault();
    });
  }

  /** The sheet's tabs (phone, upright tablet): which of panel, hand and log shows. */
  renderSheetTabs() {
    const cur = this.page.dataset.sheet;
    const open = this.page.dataset.sheetOpen === 'true';
    const n = this.me()?.hand?.length;
    const tab = (id, label) => h('button', {
      class: ['small', 'sheet-tab'], role: 'tab', 'aria-selected': cur === id ? 'true' : 'false', 'data-testid': `sheet-${id}`,
      onclick: () => this.showSheet(id),
    }, label);
    replace(this.sheetTabs,
      tab('panel', 'Actions'), tab('hand', n === undefined ? 'Hand' : `Hand (${n})`), tab('log', 'Log & dice'),
      h('span', { class: 'spacer' }),
      h('button', {
        class: 'small sheet-fold', 'data-testid': 'sheet-fold', 'aria-expanded': open ? 'true' : 'false',
        'aria-label': open ? 'Fold the sheet down' : 'Unfold the sheet', onclick: () => this.showSheet(cur, !open),
      }, open ? '▾' : '▴'));
  }

  /** Shows one tab of the sheet (and unfolds it, unless told). */
  showSheet(id, open = true) {
    this.page.dataset.sheet = id;
    this.page.dataset.sheetOpen = open ? 'true' : 'false';
    this.renderSheetTabs();
    if (id === 'hand') this.hand.fit();
  }

  surrender() {
    const d = modal({
      title: 'Surrender?', testid: 'surrender-dialog',
      body: [h('p', {}, 'Your army leaves the field: the battle is lost (VI "Total annihilation or surrender").'),
        h('div', { class: 'row' },
          h('button', { class: 'primary danger', 'data-testid': 'surrender-confirm', onclick: async () => { d.close(); await this.act({ action: 'surrender' }); } }, 'Surrender'),
          h('button', { onclick: () => d.close(), 'data-testid': 'surrender-cancel' }, 'Fight on'))],
    });
  }

  shareDialog() {
    const base = `${location.origin}${gamePath(SYSTEM, this.gameId)}`;
    const rows = [h('p', {}, 'Spectators see what every player may see, and no hand.'),
      h('div', { class: 'link-row' }, h('code', { 'data-testid': 'spectator-link' }, base),
        h('button', { class: 'small', onclick: () => copyText(base) }, 'Copy'))];
    for (const [seat, token] of this.tokens) {
      const link = `${base}?token=${encodeURIComponent(token)}`;
      rows.push(h('div', { class: 'link-row' }, h('span', {}, `${this.names.shortSeat(seat)} (secret):`), h('code', {}, link),
        h('button', { class: 'small', onclick: () => copyText(link) }, 'Copy')));
    }
    const d = modal({ title: 'Links to this game', testid: 'share-dialog', body: [...rows, h('button', { onclick: () => d.close() }, 'Close')] });
  }

  // ---- rendering ---------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v) return;
    this.renderSeatLabel();
    this.renderPhaseBar();
    this.renderTable();
    renderPanel(this, this.panelEl);
    const me = this.me();
    this.hand.render({
      hand: me?.hand || null,
      handCount: me?.hand_count,
      names: this.names,
      spectator: this.spectator,
      canPlay: this.myTurnToAct && v.phase === 'activation' && !v.pending && !this.busy,
      onPlay: (id) => this.startOrder(id),
    });
    this.log.render(v.log, this.names);
    renderDecisions(this);
    this.renderVictory();
    this.renderTakeback();
    this.renderHelp();
    this.renderSheetTabs();
  }

  renderSeatLabel() {
    const s = this.mySeat;
    this.surrenderBtn.hidden = s === null || !!this.view.outcome;
    if (s === null) {
      replace(this.seatEl, 'Spectator');
      this.seatEl.style.color = '';
    } else {
      replace(this.seatEl, `You: ${this.names.shortSeat(s)}${this.hotseat ? ' · hotseat' : ''}`);
      this.seatEl.style.color = seatColour(s);
    }
  }

  renderPhaseBar() {
    const v = this.view;
    const chips = v.phase === 'deployment' || v.phase === 'game_over'
      ? [h('li', { class: 'chip current' }, phaseName(v.phase))]
      : PHASES.map(([id, label, sec]) => h('li', {
        class: ['chip', v.phase === id && 'current'], 'aria-current': v.phase === id ? 'step' : null,
        title: sec, 'data-testid': `phase-${id}`,
      }, label));
    const toAct = v.to_act === null || v.to_act === undefined ? 'nobody' : v.to_act === this.mySeat ? 'you' : this.names.shortSeat(v.to_act);
    const canEnd = this.myTurnToAct && !v.pending && v.phase !== 'deployment' && v.phase !== 'end_of_turn' && !this.busy;
    const stage = v.deployment ? (v.deployment.units ? 'units, face down' : 'generals') : null;
    replace(this.phaseBar,
      h('span', { class: 'turn', 'data-testid': 'turn' }, v.phase === 'deployment' ? `Deployment${stage ? ` (${stage})` : ''}` : `Turn ${v.turn} · round ${v.round + 1}`),
      h('ol', { class: 'chips', 'data-testid': 'phase', 'data-phase': v.phase }, chips),
      h('span', { class: 'who' }, 'Active: ', h('b', { style: { color: seatColour(v.active) }, 'data-testid': 'active-seat' }, this.names.shortSeat(v.active))),
      h('span', { class: ['who', toAct === 'you' && 'you'], 'data-testid': 'to-act', 'data-seat': v.to_act ?? '' }, 'To act: ', h('b', {}, toAct)),
      h('span', { class: 'spacer' }),
      h('button', { onclick: () => this.endPhase(), disabled: !canEnd, 'data-testid': 'end-phase', title: 'Finish this phase (VII: one phase after the other)' }, 'End phase'),
      h('button', { onclick: () => this.endTurn(), disabled: !canEnd, 'data-testid': 'end-turn', title: 'End every remaining phase up to the end-of-turn draw' }, 'End turn'));
  }

  tableModel() {
    const v = this.view;
    const highlights = new Map();
    const lines = [];
    let range = null;
    const sel = this.sel;
    if (sel?.options && sel.mode !== 'deploy') {
      const me = this.unit(sel.unit);
      if (sel.options.shots && (v.phase === 'ranged_attack' || sel.options.may_shoot)) {
        for (const shot of sel.options.shots) {
          const t = this.unit(shot.target);
          if (!t || !me) continue;
          const band = shot.band ? String(shot.band).toLowerCase() : '';
          const label = shot.ok ? `${num(shot.distance)} DU ${band}${shot.los_blocked ? ' · LoS blocked' : ''}` : (shot.rule || 'no');
          highlights.set(shot.target, { kind: shot.ok ? (shot.los_blocked ? 'blocked' : 'target') : 'no', label });
          if (shot.ok || shot.distance !== undefined) {
            lines.push({ from: toWorld(me.pose, vec(0, me.size.depth / 2)), to: t.pose.centre, kind: shot.ok ? (shot.los_blocked ? 'blocked' : 'ok') : 'no', label: null });
          }
        }
        // VII-3 as the engine measures it: from the centre of the shooter's front edge to the
        // nearest point of the target; the card's range is the most, half of it is short range.
        if (me?.card?.ranged) range = { centre: toWorld(me.pose, vec(0, me.size.depth / 2)), short: me.card.ranged.range / 2, long: me.card.ranged.range };
      }
      for (const c of sel.options.charges || []) {
        if (!highlights.has(c.target)) highlights.set(c.target, { kind: 'charge', label: `charge · ${c.dice_with_envelopment ?? c.direct} dice` });
      }
      if (sel.shot !== undefined && sel.shot !== null) {
        const h0 = highlights.get(sel.shot);
        if (h0) h0.kind = 'chosen';
        // VII-3: the units the engine finds across the blocked line of fire to the chosen target.
        const shot = (sel.options.shots || []).find((x) => x.target === sel.shot);
        if (shot?.los_blocked) {
          for (const id of shot.in_the_way || []) {
            if (id !== sel.shot && id !== sel.unit) highlights.set(id, { kind: 'in-the-way', label: 'blocks the line of sight' });
          }
        }
      }
      if (sel.charge) {
        const h1 = highlights.get(sel.charge.target);
        if (h1) h1.kind = 'chosen';
      }
    }
    if (this.order) for (const id of this.order.units) highlights.set(id, { kind: 'ordered', label: null });
    if (this.line) for (const id of this.line.units) highlights.set(id, { kind: 'ordered', label: 'in line' });
    if (sel?.fight) highlights.set(sel.fight, { kind: 'chosen', label: 'fight' });
    const m = this.measuring;
    let measure = null;
    if (m) {
      for (const mark of [m.a, m.b]) {
        if (mark && 'unit' in mark) highlights.set(mark.unit, { kind: 'measure', label: null });
      }
      const points = [m.a, m.b].filter((x) => x && 'x' in x);
      measure = { points, line: m.result ? { from: m.result.from, to: m.result.to, label: `${m.result.distance.toFixed(2)} DU` } : null };
    }
    return {
      view: v,
      mySeat: this.mySeat,
      selected: sel?.mode === 'deploy' ? null : sel?.unit ?? null,
      highlights,
      lines,
      measure,
      range: sel?.showRange ? range : null,
      zones: v.phase === 'deployment' ? this.deploymentZones(v) : [],
      flipped: this.flipped,
      help: this.catalog?.help?.markers,
      seatName: (seat) => this.names.shortSeat(seat),
    };
  }

  /** The deployment zones drawn: each seat's, or the zones its player chooses among. */
  deploymentZones(v) {
    const choices = zoneChoicesOf(v);
    const choosing = new Set(choices.map((z) => z.seat));
    return [
      ...zonesOf(v).filter((z) => !choosing.has(z.seat)).map((z) => ({ ...z, mine: z.seat === this.mySeat, label: `deployment zone · ${this.names.shortSeat(z.seat)}` })),
      ...choices.map((z) => ({ ...z, mine: z.seat === this.mySeat, label: `${zoneChoiceName(z.choice, z.side)} to choose · ${this.names.shortSeat(z.seat)}` })),
    ];
  }

  renderTable() {
    this.table.render(this.tableModel());
    this.renderGhost();
  }

  /** Shows where a proposed pose would put the selected unit (90° repositioning), or clears. */
  previewPose(pose) {
    const u = this.sel && this.unit(this.sel.unit);
    if (!pose || !u) {
      if (this.ghost?.kind === 'preview') this.ghost = null;
    } else {
      this.ghost = { kind: 'preview', unit: u.id, pose, size: u.size, steps: [], path: [u.pose, pose], state: 'ok', label: 'repositioned here', extended: { left: u.state?.extended_left, right: u.state?.extended_right } };
    }
    this.renderGhost();
  }

  renderGhost() {
    const g = this.ghost;
    if (!g) {
      this.table.setGhost(null);
      return;
    }
    let label = g.label;
    if (!label) {
      if (g.kind === 'deploy' && g.engine) label = g.state === 'checking' ? 'checking…' : g.verdict?.ok ? 'the engine accepts this place · Enter places it' : g.verdict?.error || 'drag to place · Q/E rotate';
      else if (g.kind === 'deploy') label = 'drag to place · Q/E rotate · Enter deploys';
      else if (g.state === 'checking') label = 'checking…';
      else if (g.verdict?.ok) {
        const ground = g.verdict.ground;
        const terrain = ground?.difficult ? ` · ${ground.difficult}: ×2 (+${num(ground.extra_cost)} DU)`
          : ground?.climbs ? ` · climbing ${ground.climbs}` : '';
        label = `${num(g.verdict.cost)} DU · ${num(g.verdict.left)} DU left · ${String(g.verdict.kind || '').toLowerCase()}${terrain}`;
      }
      else if (g.verdict) label = g.verdict.error || 'illegal';
      else label = `drag to move · Q/E rotate${this.sel?.options ? ` · ${num(this.sel.options.left)} DU` : ''}`;
    }
    if (g.kind === 'deploy' && g.engine) this.checkEngine(g);
    this.table.setGhost({
      pose: g.pose, size: g.size, state: g.state, label, path: g.path,
      extended: g.extended, rotate: g.kind !== 'charge' && g.kind !== 'preview', pivot: g.pivot || null,
    });
  }

  renderHelp() {
    const v = this.view;
    let t = '';
    if (this.measuring) t = this.measureText();
    else if (this.spectator) t = 'Spectating. Select a unit to see its card.';
    else if (!this.myTurnToAct) t = v.to_act === null || v.to_act === undefined ? '' : `Waiting for ${this.names.shortSeat(v.to_act)}…`;
    else if (v.phase === 'deployment' && (this.me()?.zone_choices || []).length) t = 'Choose in the panel the zone you attack from (T&F VI Deployment); then deploy in it.';
    else if (v.phase === 'deployment') t = v.deployment?.generals ? 'Select one of your units, then place your General.' : 'Choose a unit of your reserve, drag it into your zone, then Deploy (Enter).';
    else if (v.phase === 'activation') t = 'Play orders from your hand to activate units, then End phase.';
    else if (v.phase === 'movement') t = 'Select an active unit: drag the ghost (W/A/S/D), rotate with Q/E or the handle (R: corner/centre), Enter to move; or pick a charge.';
    else if (v.phase === 'ranged_attack') t = 'Select a unit that may shoot, then a target.';
    else if (v.phase === 'skirmishers') t = 'Skirmishers may spend their unused movement.';
    else if (v.phase === 'melee') t = 'Resolve each melee: select an engaged unit, then Fight.';
    else if (v.phase === 'flight') t = 'Flight checks for your fleeing units.';
    else if (v.phase === 'end_of_turn') t = 'Draw your cards.';
    replace(this.help, t);
  }

  renderVictory() {
    const v = this.view;
    if (!v.outcome || this.victoryShown) return;
    this.victoryShown = true;
    const o = v.outcome;
    const winners = o.winners?.seats || [];
    const mine = this.mySeat !== null && winners.includes(this.mySeat);
    const title = o.winners ? (this.spectator ? `${winners.map((s) => this.names.shortSeat(s)).join(' & ')} win${winners.length === 1 ? 's' : ''}` : mine ? 'Victory!' : 'Defeat') : 'A draw';
    const reason = o.winners?.reason || o.draw?.reason || '';
    const rows = v.players.map((p) => h('tr', {},
      h('td', { style: { color: seatColour(p.seat) } }, this.names.shortSeat(p.seat)),
      h('td', {}, p.army_name),
      h('td', {}, `${p.losses} / ${p.starting_value}`),
      h('td', {}, String(p.eliminated.length)),
      h('td', {}, p.defeated || (winners.includes(p.seat) ? 'winner' : ''))));
    const d = modal({
      title, testid: 'victory', wide: true,
      body: [
        h('p', { class: 'victory-reason', 'data-testid': 'victory-reason' }, reason),
        h('table', { class: 'score' }, h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th', {}, 'Army'), h('th', {}, 'Losses'), h('th', {}, 'Units lost'), h('th', {}, ''))), h('tbody', {}, rows)),
        h('div', { class: 'row' },
          h('a', { class: 'button primary', href: gamePath(SYSTEM, this.gameId, { token: this.token, replay: true }), 'data-testid': 'victory-replay' }, 'Watch the replay'),
          h('a', { class: 'button', href: '/' }, 'Lobby'),
          h('button', { onclick: () => d.close(), 'data-testid': 'victory-close' }, 'Look at the table')),
      ],
    });
  }

  closeDialog() {
    if (this.dialog) {
      const d = this.dialog;
      this.dialog = null;
      this.dialogKey = null;
      d.close();
    }
  }

  // ---- acting ------------------------------------------------------------------------

  /** Sends an action; resolves true when the server accepted it. Errors are shown. */
  async act(action, { quiet = false } = {}) {
    if (this.busy) return false;
    this.busy = true;
    this.render();
    try {
      if (this.socket?.open) {
        await this.socket.send(this.version, action);
      } else {
        const m = await api.act(this.gameId, this.token, this.version, action);
        this.accept(m, false);
      }
      return true;
    } catch (e) {
      if (!quiet) toast(refusal(e), 'error', 7000);
      this.lastError = e;
      if (e.code === 'stale_version') this.resync();
      return false;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async resync() {
    try {
      this.accept(await api.view(this.gameId, this.token), false);
    } catch (e) {
      toast(e.message, 'error');
    }
  }

  async query(q) {
    return api.query(this.gameId, this.token, q);
  }

  endPhase() {
    this.endingTurn = false;
    this.deselect();
    return this.act({ action: 'end_phase' });
  }

  endTurn() {
    this.endingTurn = true;
    this.deselect();
    this.continueEndTurn();
  }

  continueEndTurn() {
    if (!this.endingTurn) return;
    const v = this.view;
    if (!this.myTurnToAct || v.pending || v.phase === 'end_of_turn' || v.phase === 'deployment' || (v.decisions && v.decisions.length)) {
      this.endingTurn = false;
      return;
    }
    if (this.busy) return;
    this.act({ action: 'end_phase' }).then((ok) => {
      if (!ok) this.endingTurn = false;
    });
  }

  // ---- selection ---------------------------------------------------------------------

  deselect() {
    this.sel = null;
    this.ghost = null;
    this.checkMove.cancel();
    if (this.view) this.render();
  }

  clickBackground(world) {
    if (this.measuring) {
      if (world) this.measureAt({ x: world.x, y: world.y });
      return;
    }
    if (this.order) return;
    if (this.sel && this.sel.mode !== 'deploy') this.deselect();
  }

  clickUnit(id) {
    const v = this.view;
    const u = this.unit(id);
    if (!u) return;
    if (this.measuring) {
      this.measureAt({ unit: id });
      return;
    }
    // On a phone the sheet shows what the unit can do.
    if (this.page.dataset.sheet !== 'panel') this.showSheet('panel');
    // Playing an order: clicking own units toggles them.
    if (this.order) {
      if (u.owner === this.mySeat) this.toggleOrderUnit(id);
      return;
    }
    if (this.line) {
      if (u.owner === this.mySeat) this.toggleLineUnit(id);
      return;
    }
    const sel = this.sel;
    // A click on an enemy while one's own unit is selected: a target.
    if (sel && sel.mode !== 'deploy' && u.owner !== this.mySeat) {
      const charge = sel.options?.charges?.find((c) => c.target === id);
      const shot = sel.options?.shots?.find((s) => s.target === id && s.ok);
      if (v.phase === 'ranged_attack' && shot) return this.pickShot(id);
      if (charge && (v.phase === 'movement' || v.phase === 'skirmishers')) return this.pickCharge(sel.options.charges.indexOf(charge));
      if (v.phase === 'melee' && this.engagedWith(sel.unit).includes(id)) return this.pickFight(id);
    }
    this.select(id);
  }

  select(id) {
    const u = this.unit(id);
    this.sel = { unit: id, mode: 'info', options: null };
    this.ghost = null;
    this.render();
    if (u && u.owner === this.mySeat && !u.hidden && this.view.phase !== 'deployment') this.refreshOptions(true);
  }

  engagedWith(id) {
    const out = [];
    for (const e of this.view.engagements || []) {
      if (e.a === id) out.push(e.b);
      else if (e.b === id) out.push(e.a);
    }
    return out;
  }

  async refreshOptions(fresh = false) {
    const sel = this.sel;
    if (!sel || sel.mode === 'deploy') return;
    const u = this.unit(sel.unit);
    if (!u || u.owner !== this.mySeat || this.spectator) return;
    const seq = ++this.querySeq;
    let opts = null;
    try {
      opts = await this.query({ kind: 'unit_options', unit: sel.unit });
    } catch (e) {
      if (this.sel !== sel) return;
      sel.optionsError = e.message;
    }
    if (this.sel !== sel || seq !== this.querySeq) return;
    sel.options = opts;
    const movePhase = this.view.phase === 'movement' || this.view.phase === 'skirmishers';
    if (opts && movePhase && this.myTurnToAct && (opts.may_move || (this.view.phase === 'skirmishers' && opts.left > 0))) {
      if (fresh || !this.ghost || this.ghost.unit !== sel.unit || this.ghost.kind !== 'move') this.startMoveGhost();
    } else if (this.ghost?.kind === 'move') {
      this.ghost = null;
    }
    this.render();
  }

  // ---- moves -------------------------------------------------------------------------

  startMoveGhost() {
    const u = this.unit(this.sel.unit);
    this.ghost = {
      kind: 'move', unit: u.id, origin: u.pose, size: u.size, steps: [], pose: u.pose, path: [u.pose],
      state: 'idle', verdict: null, forcedMarch: false, willShoot: false,
      extended: { left: u.state?.extended_left, right: u.state?.extended_right },
    };
    this.sel.mode = 'move';
  }

  /** Faces the terrain the unit touches first (the engine's pose, T&F II "Facing"), or not. */
  setFacing(on) {
    const g = this.ghost;
    const facing = this.sel?.options?.facing;
    if (!g || g.kind !== 'move' || !facing) return;
    g.face = on;
    g.origin = on ? facing.pose : this.unit(g.unit).pose;
    this.setSteps(g.steps);
  }

  setSteps(steps) {
    const g = this.ghost;
    if (!g) return;
    g.steps = steps.filter((st) => !isZeroStep(st));
    let p = g.origin;
    g.path = [p];
    for (const st of g.steps) {
      p = applyStep(p, g.size, st);
      g.path.push(p);
    }
    g.pose = p;
    if (g.kind === 'move') {
      const something = g.steps.length || g.face;
      g.state = something ? 'checking' : 'idle';
      g.verdict = null;
      if (something) this.checkMove();
    }
    this.renderGhost();
    renderPanel(this, this.panelEl);
  }

  async runCheckMove() {
    const g = this.ghost;
    if (!g || g.kind !== 'move' || !(g.steps.length || g.face)) return;
    const steps = g.steps.map((x) => ({ ...x }));
    const seq = ++this.querySeq;
    let r;
    try {
      r = await this.query({ kind: 'check_move', unit: g.unit, order: this.moveOrder(g) });
    } catch (e) {
      r = { ok: false, error: e instanceof ApiError ? e.describe() : e.message };
    }
    if (this.ghost !== g || seq !== this.querySeq || JSON.stringify(steps) !== JSON.stringify(g.steps)) return;
    g.verdict = r;
    g.state = r.ok ? 'ok' : 'bad';
    if (r.ok && r.end_pose) {
      // The engine's poses are the truth.
      g.pose = r.end_pose;
      if (r.poses?.length) g.path = [g.origin, ...r.poses];
    }
    this.renderGhost();
    renderPanel(this, this.panelEl);
  }

  moveOrder(g) {
    return { steps: g.steps, forced_march: !!g.forcedMarch, will_shoot: !!g.willShoot, separate: false, face: !!g.face, beneath: !!g.beneath };
  }

  async commitMove() {
    const g = this.ghost;
    if (!g) return;
    if (g.kind === 'deploy') return this.commitDeploy();
    if (g.kind === 'charge') return this.commitCharge();
    if (!g.steps.length && !g.face) return;
    const phase = this.view.phase;
    const action = phase === 'skirmishers'
      ? { action: 'skirmish_move', unit: g.unit, order: this.moveOrder(g) }
      : { action: 'move', unit: g.unit, order: this.moveOrder(g) };
    const id = g.unit;
    if (await this.act(action)) {
      this.ghost = null;
      this.sel = { unit: id, mode: 'info', options: null };
      this.refreshOptions();
    }
  }

  resetGhost() {
    if (!this.ghost) return;
    if (this.ghost.kind === 'charge') {
      this.sel.charge = null;
      this.startMoveGhost();
      this.render();
      return;
    }
    if (this.ghost.kind === 'deploy') {
      this.ghost.pose = this.ghost.origin;
      this.renderGhost();
      return;
    }
    this.setSteps([]);
  }

  /** The pose before the last step, and the last step when it is a translation. */
  ghostDrag(start, now, phase) {
    const g = this.ghost;
    if (!g || !this.myTurnToAct) return;
    if (g.kind === 'deploy') {
      if (phase === 'start') g.dragFrom = g.pose.centre;
      if (phase === 'cancel') {
        g.pose = { ...g.pose, centre: g.dragFrom };
      } else {
        const c = { x: round(g.dragFrom.x + now.x - start.x, 20), y: round(g.dragFrom.y + now.y - start.y, 20) };
        g.pose = { ...g.pose, centre: c };
      }
      this.renderGhost();
      return;
    }
    if (g.kind !== 'move') return;
    if (phase === 'start') {
      const steps = [...g.steps];
      const last = steps[steps.length - 1];
      let base = { r: 0, f: 0 };
      if (last && ('Advance' in last || 'Slide' in last)) {
        steps.pop();
        base = 'Advance' in last ? { r: 0, f: last.Advance } : { r: last.Slide.right, f: last.Slide.forward };
      }
      g.drag = { steps, base, pose: applySteps(g.origin, g.size, steps), saved: g.steps };
      return;
    }
    const d = g.drag;
    if (!d) return;
    if (phase === 'cancel') {
      g.drag = null;
      this.setSteps(d.saved);
      return;
    }
    const delta = rot(sub(now, start), -d.pose.heading);
    const r = round(d.base.r + delta.x);
    const f = round(d.base.f + delta.y);
    const step = Math.abs(r) <= Math.max(0.12, Math.abs(f) * 0.18) && f >= 0 ? { Advance: round(f) } : { Slide: { right: r, forward: f } };
    this.setSteps([...d.steps, step]);
    if (phase === 'end') g.drag = null;
  }

  rotateDrag(p, phase) {
    const g = this.ghost;
    if (!g || !this.myTurnToAct) return;
    if (g.kind === 'deploy') {
      const c = g.pose.centre;
      const hd = Math.atan2(-(p.x - c.x), p.y - c.y);
      g.pose = { ...g.pose, heading: snapAngle(hd) };
      this.renderGhost();
      return;
    }
    if (g.kind !== 'move') return;
    if (phase === 'start') {
      const steps = [...g.steps];
      const last = steps[steps.length - 1];
      if (last && ('Wheel' in last || 'Turn' in last)) steps.pop();
      g.rot = { steps, pose: applySteps(g.origin, g.size, steps) };
      return;
    }
    const r = g.rot;
    if (!r) return;
    const c = r.pose.centre;
    const want = Math.atan2(-(p.x - c.x), p.y - c.y);
    const a = round(normAngle(want - r.pose.heading), 1000);
    let step;
    if (this.pivotMode === 'centre') step = { Turn: snapAngle(a) };
    else {
      const ang = Math.min(Math.abs(snapAngle(a)), Math.PI / 2);
      step = { Wheel: { pivot: this.wheelPivot(a >= 0), angle: round(ang, 10000) } };
    }
    this.setSteps([...r.steps, step]);
    if (phase === 'end') g.rot = null;
  }

  /** Q/E: rotate by `deg` (positive = left / counter-clockwise) about the current pivot. */
  rotateGhost(deg) {
    const g = this.ghost;
    if (!g) return;
    if (g.kind === 'deploy') {
      g.pose = { ...g.pose, heading: normAngle(g.pose.heading + deg * DEG) };
      this.renderGhost();
      return;
    }
    if (g.kind !== 'move') return;
    const steps = [...g.steps];
    const last = steps[steps.length - 1];
    const a = deg * DEG;
    if (this.pivotMode === 'centre') {
      if (last && 'Turn' in last) steps[steps.length - 1] = { Turn: round(normAngle(last.Turn + a), 10000) };
      else steps.push({ Turn: round(a, 10000) });
    } else if (last && 'Wheel' in last && isRearPivot(last.Wheel.pivot) === (this.pivotMode === 'rear')) {
      const sign = isLeftPivot(last.Wheel.pivot) ? 1 : -1;
      const signed = sign * last.Wheel.angle + a;
      if (Math.abs(signed) < 1e-6) steps.pop();
      else steps[steps.length - 1] = { Wheel: { pivot: this.wheelPivot(signed > 0), angle: round(Math.min(Math.abs(signed), Math.PI / 2), 10000) } };
    } else {
      steps.push({ Wheel: { pivot: this.wheelPivot(a > 0), angle: round(Math.abs(a), 10000) } });
    }
    this.setSteps(steps);
  }

  /** W/A/S/D: nudge the last translation by (right, forward) DU. */
  nudgeGhost(r, f) {
    const g = this.ghost;
    if (!g) return;
    if (g.kind === 'deploy') {
      const d = rot(vec(r, f), g.pose.heading);
      g.pose = { ...g.pose, centre: { x: round(g.pose.centre.x + d.x, 20), y: round(g.pose.centre.y + d.y, 20) } };
      this.renderGhost();
      return;
    }
    if (g.kind !== 'move') return;
    const steps = [...g.steps];
    const last = steps[steps.length - 1];
    let base = { r: 0, f: 0 };
    if (last && ('Advance' in last || 'Slide' in last)) {
      steps.pop();
      base = 'Advance' in last ? { r: 0, f: last.Advance } : { r: last.Slide.right, f: last.Slide.forward };
    }
    const nr = round(base.r + r);
    const nf = round(base.f + f);
    steps.push(Math.abs(nr) < 1e-9 && nf >= 0 ? { Advance: nf } : { Slide: { right: nr, forward: nf } });
    this.setSteps(steps);
  }

  undoStep() {
    const g = this.ghost;
    if (g?.kind === 'move' && g.steps.length) this.setSteps(g.steps.slice(0, -1));
  }

  /** The corner a rotation turns about in the current mode, turning left or right (VII-2.A:
   *  "using any of its corners as a rotation point"). */
  wheelPivot(left) {
    if (this.pivotMode === 'rear') return left ? 'RearLeft' : 'RearRight';
    return left ? 'FrontLeft' : 'FrontRight';
  }

  /** R: front corners, then rear corners, then the centre (free rotation), and round again. */
  togglePivot() {
    const next = { corner: 'rear', rear: 'centre', centre: 'corner' };
    this.pivotMode = next[this.pivotMode] || 'corner';
    renderPanel(this, this.panelEl);
    toast({
      corner: 'Rotation about the front corners (regular movement, VII-2.A)',
      rear: 'Rotation about the rear corners (regular movement, VII-2.A)',
      centre: 'Free rotation about the centre (reduced movement, VII-2.B)',
    }[this.pivotMode]);
  }

  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const g = this.ghost;
    const k = ev.key;
    if (k === 'Escape') {
      if (this.measuring) {
        this.toggleMeasure(false);
        return true;
      }
      if (this.order) {
        this.cancelOrder();
        return true;
      }
      if (this.sel) {
        this.deselect();
        return true;
      }
      return false;
    }
    if (!g) return false;
    const fine = ev.shiftKey;
    const step = fine ? 0.05 : 0.25;
    switch (k.toLowerCase()) {
      case 'q': this.rotateGhost(fine ? 5 : 15); return true;
      case 'e': this.rotateGhost(fine ? -5 : -15); return true;
      case 'w': this.nudgeGhost(0, step); return true;
      case 's': this.nudgeGhost(0, -step); return true;
      case 'a': this.nudgeGhost(-step, 0); return true;
      case 'd': this.nudgeGhost(step, 0); return true;
      case 'r': this.togglePivot(); return true;
      case 'backspace': this.undoStep(); return true;
      case 'enter': this.commitMove(); return true;
      default: return false;
    }
  }

  // ---- take-backs --------------------------------------------------------------------

  /**
   * Asks the server to take this seat's last move back. The engine decides whether it may
   * (nothing random or hidden since): against the computer it happens at once; online the
   * opponent is asked; in a hotseat game this page holds the other seat too and accepts.
   */
  async takeBack() {
    if (this.busy || this.mySeat === null) return;
    const path = `/games/${encodeURIComponent(this.gameId)}/takeback`;
    try {
      this.deselect();
      const r = await api.post(path, { token: this.token, version: this.version });
      if (r.status === 'asked') {
        const other = [...this.tokens].find(([seat]) => seat !== String(this.mySeat));
        if (other) {
          await api.post(`${path}/answer`, { token: other[1], accept: true });
        } else {
          toast('Take-back asked: waiting for the opponent to accept or decline.');
        }
      }
      // The game as this seat now sees it.
      this.accept(await api.view(this.gameId, this.token), false);
    } catch (e) {
      toast(refusal(e), 'error');
    }
  }

  /** The other seat answers a take-back request. */
  async answerTakeback(accept) {
    try {
      await api.post(`/games/${encodeURIComponent(this.gameId)}/takeback/answer`, { token: this.token, accept });
      this.accept(await api.view(this.gameId, this.token), false);
    } catch (e) {
      toast(refusal(e), 'error');
    }
  }

  /** A take-back asked or declined, from the stream. */
  takebackNews(m) {
    if (m.version !== this.version) return;
    this.takebackReq = m.status === 'asked' ? m.takeback || null : null;
    if (m.status === 'declined') toast('The take-back was declined: the move stands.');
    this.renderTakeback();
  }

  renderTakeback() {
    const v = this.view;
    this.takebackBtn.hidden = this.mySeat === null || !!v?.outcome;
    const req = this.takebackReq;
    const el = this.takebackEl;
    if (!req || !v || v.outcome) {
      el.hidden = true;
      replace(el);
      return;
    }
    el.hidden = false;
    const mine = req.seat === String(this.mySeat);
    const who = this.names.shortSeat(req.seat);
    if (mine || this.mySeat === null) {
      replace(el, `${who} asked to take the last move back; waiting for the answer.`);
    } else {
      replace(el, `${who} asks to take the last move back.`,
        h('button', { class: 'small primary', 'data-testid': 'takeback-accept', onclick: () => this.answerTakeback(true) }, 'Accept'),
        h('button', { class: 'small', 'data-testid': 'takeback-decline', onclick: () => this.answerTakeback(false) }, 'Decline'));
    }
  }

  // ---- measuring ---------------------------------------------------------------------

  /** Turns the measuring tool on or off (it never changes the game). */
  toggleMeasure(on = !this.measuring) {
    this.measuring = on ? { a: null, b: null, result: null, seq: 0 } : null;
    this.measureBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
    this.measureBtn.classList.toggle('active', on);
    if (on && this.sel) this.deselect();
    else if (this.view) this.render();
  }

  /** A click while measuring: the first end, the second (then the distance), or a new start. */
  async measureAt(mark) {
    const m = this.measuring;
    if (!m) return;
    if (!m.a || m.b) {
      Object.assign(m, { a: mark, b: null, result: null });
      this.render();
      return;
    }
    m.b = mark;
    const seq = ++m.seq;
    let result;
    if ('x' in m.a && 'x' in mark) {
      result = { distance: Math.hypot(mark.x - m.a.x, mark.y - m.a.y), from: m.a, to: mark };
    } else {
      // A card is measured by the engine: nearest edges and markers, as the rules do.
      try {
        result = await this.query({ kind: 'measure', from: m.a, to: mark });
      } catch (e) {
        toast(e.message, 'error');
        return;
      }
    }
    if (this.measuring !== m || m.seq !== seq) return;
    m.result = result;
    this.render();
  }

  measureText() {
    const m = this.measuring;
    const name = (mark) => ('unit' in mark ? this.names.unit(mark.unit) : `(${mark.x.toFixed(1)}, ${mark.y.toFixed(1)})`);
    if (m.result) return h('span', { 'data-testid': 'measure-readout', 'data-distance': String(m.result.distance) }, `${name(m.a)} → ${name(m.b)}: ${m.result.distance.toFixed(2)} DU. Click again to measure anew; Esc ends.`);
    if (m.a && m.b) return 'Measuring…';
    if (m.a) return `From ${name(m.a)}: click or tap a second point or card.`;
    return 'Measuring: click or tap a point or a card (Esc ends).';
  }

  // ---- deployment --------------------------------------------------------------------

  pickReserve(id) {
    const me = this.me();
    const r = me?.reserve?.find((x) => x.id === id);
    if (!r) return;
    const zone = zonesOf(this.view).find((z) => z.seat === this.mySeat);
    const size = sizeOf(r.card);
    const heading = FACING[zone?.edge] ?? 0;
    const pose = freeSpot(this.view, zone, size, heading);
    this.sel = { unit: id, mode: 'deploy', options: null, formation: '', extendLeft: false, extendRight: false };
    this.ghost = { kind: 'deploy', unit: id, origin: pose, pose, size, state: 'free', extended: {} };
    this.render();
    this.table.svg.focus({ preventScroll: true });
  }

  /** T&F VI "Deployment": a siege engine of the attacker's (a ram, a siege tower) taken from
   *  the deployment panel, its ghost the tile where the battlefield lays it. */
  pickEngine(id) {
    const st = (this.view.terrain?.structures || []).find((x) => x.id === id);
    const z = st?.zones?.[0];
    if (!z) return;
    const pose = { centre: { x: z.centre[0], y: z.centre[1] }, heading: round(((z.angle || 0) * Math.PI) / 180, 10000) };
    const size = { width: z.size[0], depth: z.size[1] };
    this.sel = { unit: null, engine: id, mode: 'deploy', options: null, formation: '', extendLeft: false, extendRight: false };
    this.ghost = { kind: 'deploy', engine: id, unit: null, origin: pose, pose, size, state: 'checking', extended: {} };
    this.render();
    this.table.svg.focus({ preventScroll: true });
  }

  engineAction(g) {
    return {
      action: 'place_siege_engine', structure: g.engine,
      pose: { centre: { x: round(g.pose.centre.x), y: round(g.pose.centre.y) }, heading: g.pose.heading },
    };
  }

  /** The engine's verdict on the engine's ghost where it stands now (`check_action`): no
   *  rule is judged here. */
  async checkEngine(g) {
    const action = this.engineAction(g);
    const key = JSON.stringify(action.pose);
    if (g.checked === key) return;
    g.checked = key;
    g.state = 'checking';
    let verdict;
    try {
      verdict = await this.query({ kind: 'check_action', action });
    } catch (e) {
      verdict = { ok: false, error: refusal(e) };
    }
    if (this.ghost !== g || g.checked !== key) return;
    g.verdict = verdict;
    g.state = verdict?.ok ? 'ok' : 'bad';
    this.renderGhost();
    renderPanel(this, this.panelEl);
  }

  async commitDeploy() {
    const g = this.ghost;
    const sel = this.sel;
    if (!g || g.kind !== 'deploy') return;
    if (g.engine) {
      if (await this.act(this.engineAction(g))) this.deselect();
      return;
    }
    const action = {
      action: 'deploy', unit: g.unit,
      pose: { centre: { x: round(g.pose.centre.x), y: round(g.pose.centre.y) }, heading: g.pose.heading },
      formation: sel.formation || null, extend_left: !!sel.extendLeft, extend_right: !!sel.extendRight,
    };
    if (await this.act(action)) this.deselect();
  }

  async placeGeneral(general, unit) {
    if (await this.act({ action: 'place_general', general, unit })) this.deselect();
  }

  // ---- charges, shots, fights ----------------------------------------------------------

  async pickCharge(index) {
    const sel = this.sel;
    const opt = sel?.options?.charges?.[index];
    if (!opt) return;
    // The charge exactly as the engine accepted it (unit_options), with the envelopment
    // choices it accepts; nothing of it is decided here.
    const choices = opt.envelop || [];
    const keep = choices.includes(sel.charge?.envelop) ? sel.charge.envelop : choices[0];
    sel.charge = { ...opt, index, choices, envelop: keep, check: null, odds: null };
    const u = this.unit(sel.unit);
    this.ghost = {
      kind: 'charge', unit: u.id, origin: u.pose, size: u.size, steps: opt.steps, pose: applySteps(u.pose, u.size, opt.steps),
      path: null, state: 'checking', extended: { left: u.state?.extended_left, right: u.state?.extended_right },
      label: `charge ${this.names.unit(opt.target)}…`,
    };
    this.render();
    await this.refreshCharge();
  }

  chargeSpec() {
    const c = this.sel?.charge;
    if (!c) return null;
    return { ...c.charge, envelop: c.envelop ?? c.charge.envelop };
  }

  async refreshCharge() {
    const sel = this.sel;
    const c = sel?.charge;
    if (!c) return;
    const spec = this.chargeSpec();
    const [check, odds] = await Promise.allSettled([
      this.query({ kind: 'check_charge', unit: sel.unit, charge: spec }),
      this.query({ kind: 'odds', action: { action: 'charge', unit: sel.unit, charge: spec } }),
    ]);
    if (this.sel !== sel || sel.charge !== c) return;
    c.check = check.status === 'fulfilled' ? check.value : { ok: false, error: check.reason.message };
    c.odds = odds.status === 'fulfilled' ? odds.value : { error: odds.reason.message };
    const g = this.ghost;
    if (g?.kind === 'charge') {
      g.state = c.check.ok ? 'ok' : 'bad';
      if (c.check.ok && (c.check.aligned || c.check.contact)) g.pose = c.check.aligned || c.check.contact;
      g.label = c.check.ok ? `charge: ${c.check.dice ?? c.dice_with_envelopment} dice${c.check.cost !== undefined ? ` · ${num(c.check.cost)} DU` : ''}` : c.check.error;
    }
    this.render();
  }

  async commitCharge() {
    const sel = this.sel;
    const spec = this.chargeSpec();
    if (!spec) return;
    const id = sel.unit;
    if (await this.act({ action: 'charge', unit: id, charge: spec })) {
      this.ghost = null;
      this.sel = { unit: id, mode: 'info', options: null };
      this.refreshOptions();
    }
  }

  async pickShot(target) {
    const sel = this.sel;
    if (!sel) return;
    sel.shot = target;
    sel.shotOdds = null;
    this.render();
    try {
      sel.shotOdds = await this.query({ kind: 'odds', action: { action: 'shoot', shooter: sel.unit, target } });
    } catch (e) {
      sel.shotOdds = { error: e.message };
    }
    if (this.sel === sel) this.render();
  }

  async commitShot() {
    const sel = this.sel;
    if (!sel || sel.shot === undefined || sel.shot === null) return;
    const id = sel.unit;
    if (await this.act({ action: 'shoot', shooter: id, target: sel.shot })) {
      this.sel = { unit: id, mode: 'info', options: null };
      this.refreshOptions();
    }
  }

  async pickFight(enemy, own) {
    if (own !== undefined && (!this.sel || this.sel.unit !== own)) this.select(own);
    const sel = this.sel;
    if (!sel) return;
    sel.fight = enemy;
    sel.fightOdds = null;
    this.render();
    try {
      sel.fightOdds = await this.query({ kind: 'odds', action: { action: 'fight', attacker: sel.unit, defender: enemy } });
    } catch (e) {
      sel.fightOdds = { error: e.message };
    }
    if (this.sel === sel) this.render();
  }

  async commitFight() {
    const sel = this.sel;
    if (!sel?.fight) return;
    if (await this.act({ action: 'fight', attacker: sel.unit, defender: sel.fight })) {
      sel.fight = null;
      this.render();
    }
  }

  // ---- orders ------------------------------------------------------------------------

  startOrder(card) {
    this.deselect();
    this.order = { card, units: new Set(), reorganise: new Set(), cards: new Set(), to: null };
    if (this.page.dataset.sheet !== 'panel') this.showSheet('panel');
    this.render();
  }

  toggleOrderUnit(id) {
    const o = this.order;
    if (!o) return;
    if (o.units.has(id)) {
      o.units.delete(id);
      o.reorganise.delete(id);
    } else {
      o.units.add(id);
      if (this.unit(id)?.state?.broken) o.reorganise.add(id);
    }
    this.render();
  }

  cancelOrder() {
    this.order = null;
    this.render();
  }

  // ---- advancing in line (XII-A) -------------------------------------------------------

  startLine() {
    this.deselect();
    this.order = null;
    this.line = { units: new Set(), cards: new Set() };
    this.render();
  }

  toggleLineUnit(id) {
    const l = this.line;
    if (!l) return;
    if (l.units.has(id)) l.units.delete(id);
    else l.units.add(id);
    this.render();
  }

  cancelLine() {
    this.line = null;
    this.render();
  }

  async commitLine() {
    const l = this.line;
    if (!l) return;
    const action = { action: 'advance_in_line', discard: [...l.cards], units: [...l.units] };
    if (await this.act(action)) this.line = null;
    this.render();
  }

  async commitOrder() {
    const o = this.order;
    if (!o) return;
    const action = {
      action: 'play_order', card: o.card, units: [...o.units], reorganise: [...o.reorganise].filter((u) => o.units.has(u)),
      cards: [...o.cards], to: o.to,
    };
    if (await this.act(action)) this.order = null;
    this.render();
  }
}

function isZeroStep(st) {
  if ('Advance' in st) return Math.abs(st.Advance) < 1e-6;
  if ('Slide' in st) return Math.abs(st.Slide.right) < 1e-6 && Math.abs(st.Slide.forward) < 1e-6;
  if ('Turn' in st) return Math.abs(st.Turn) < 1e-6;
  if ('Wheel' in st) return st.Wheel.angle < 1e-6;
  return false;
}

function snapAngle(a) {
  const step = 5 * DEG;
  return round(Math.round(a / step) * step, 10000);
}

export function sizeOf(card) {
  if (Array.isArray(card?.size) && card.size[0] > 0 && card.size[1] > 0) return { width: card.size[0], depth: card.size[1] };
  return { width: 2, depth: 1.2 };
}

/** A place in the zone that no unit covers, scanning rows from the front of the zone. */
function freeSpot(view, zone, size, heading) {
  if (!zone) return { centre: { x: view.width / 2, y: 3.5 }, heading };
  const box = (cs) => ({ x0: Math.min(...cs.map((c) => c.x)), x1: Math.max(...cs.map((c) => c.x)), y0: Math.min(...cs.map((c) => c.y)), y1: Math.max(...cs.map((c) => c.y)) });
  // Clear of the units and of the structures standing (a first place to suggest, not a
  // rule: the engine judges the deployment).
  const standing = (view.terrain?.structures || []).filter((st) => !view.structures?.[st.id]?.collapsed);
  const boxes = [
    ...view.units.map((u) => box(corners(u.pose, u.size))),
    ...standing.flatMap((st) => (st.zones || []).map((z) => box(corners(
      { centre: { x: z.centre[0], y: z.centre[1] }, heading: ((z.angle || 0) * Math.PI) / 180 }, { width: z.size[0], depth: z.size[1] })))),
  ];
  const quarter = Math.abs(Math.sin(heading)) > 0.7;
  const hw = (quarter ? size.depth : size.width) / 2 + 0.05;
  const hd = (quarter ? size.width : size.depth) / 2 + 0.05;
  const frontFirst = zone.edge === 'South' ? -1 : 1;
  const ys = [];
  for (let y = zone.y0 + hd; y <= zone.y1 - hd + 1e-9; y += 0.1) ys.push(y);
  if (frontFirst < 0) ys.reverse();
  for (const y of ys) {
    for (let x = zone.x0 + hw; x <= zone.x1 - hw + 1e-9; x += 0.1) {
      const free = boxes.every((b) => x + hw <= b.x0 || x - hw >= b.x1 || y + hd <= b.y0 || y - hd >= b.y1);
      if (free) return { centre: { x: round(x, 20), y: round(y, 20) }, heading };
    }
  }
  return { centre: { x: (zone.x0 + zone.x1) / 2, y: (zone.y0 + zone.y1) / 2 }, heading };
}

export { toLocal, toWorld };
