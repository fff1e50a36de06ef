// What every table page of a game does whatever its system: open the game (its record, then
// the live stream), keep the newest view, hand a hotseat device over, send actions, share the
// links, say when the battle is over, the game's chat and the notification of one's move
// (`correspond.js`). A system's page extends `GamePage` and supplies the
// board, the panels and the words (the hooks below); the server decides everything.

import { GameSocket, ApiError, systemApi } from './api.js';
import { h, replace, toast, copyText } from './dom.js';
import { DiceLog } from './dicelog.js';
import { ThinkingSign } from './computer.js';
import { Correspondence } from './correspond.js';
import { modal } from './dialogs.js';
import { rememberGame, tokensFor, gameEntry } from './mygames.js';
import { gamePath } from './systems.js';
import { refusal, setRuleSystem } from './rules.js';

/** The seat of a viewer as the server sends it (`{"seat": "a"}` or `"spectator"`). */
export function viewerSeat(viewer) {
  return viewer && typeof viewer === 'object' && 'seat' in viewer ? viewer.seat : null;
}

/**
 * The page of one seat (or a spectator). Hooks: `layout()` builds the page (`frame()`),
 * `render()` draws everything, `fresh()` forgets
 * what was asked about the previous version, `ask()` asks the engine about the new one;
 * `seatLabel(seat)`, `seatName(seat)`, `seatColour(seat)`, `outcomeText(outcome)` are the
 * system's words; `handoverNote`, `spectatorNote` and `watchingNote` its sentences.
 */
export class GamePage {
  constructor(root, { system, gameId, token, info }) {
    this.root = root;
    this.system = system;
    this.api = systemApi(system);
    this.gameId = gameId;
    this.token = token || null;
    this.info = info;
    this.tokens = tokensFor(gameId);
    this.pendingRemember = !!token;
    this.view = null;
    this.viewer = null;
    this.version = null;
    this.toAct = null;
    this.thinking = new ThinkingSign();
    this.corr = new Correspondence({
      system, gameId, title: `${info?.name || system} game ${gameId.slice(0, 8)}`,
      token: () => this.token,
      seats: () => (this.hotseat ? [...this.tokens.keys()] : this.mySeat !== null ? [this.mySeat] : []),
      seatLabel: (seat) => this.seatLabel(seat),
    });
    this.events = [];
    this.sel = null;
    this.busy = false;
    this.seq = 0;
    this.handoverNote = 'Hotseat: pass the device.';
    this.spectatorNote = 'Spectators see what both players may see.';
    this.watchingNote = 'You are watching this battle.';
    window.__acies = this;
    setRuleSystem(system);
  }

  get mySeat() { return viewerSeat(this.viewer); }

  get myTurn() { return !!this.view && !this.view.outcome && this.mySeat !== null && this.toAct === this.mySeat; }

  get hotseat() { return this.tokens.size > 1; }

  seatLabel(seat) { return seat; }

  seatName(seat) { return seat; }

  seatColour() { return ''; }

  outcomeText(o) { return o.reason || JSON.stringify(o); }

  fresh() {}

  render() {}

  ask() {}

  /** The game's record (every step's events) and view, then the live stream. */
  async start() {
    this.layout();
    let r;
    try {
      r = await this.api.replay(this.gameId, this.token);
    } catch (e) {
      replace(this.boardBox, h('div', { class: 'fatal', role: 'alert', 'data-testid': 'game-error' },
        e instanceof ApiError ? `This game cannot be opened: ${e.describe()}` : String(e), h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))));
      return;
    }
    this.events = (r.steps || []).flatMap((st) => st.events || []);
    this.accept({ ...r, steps: undefined });
    this.connect();
  }

  connect() {
    if (this.socket) this.socket.close();
    this.socket = new GameSocket(this.system, this.gameId, this.token, {
      onSync: (m) => this.accept(m),
      onUpdate: (m) => this.accept(m),
      onStatus: (st) => { replace(this.connEl, st); this.connEl.dataset.state = st; },
      onChat: (messages) => this.corr.chat(messages),
    });
    this.socket.version = this.version;
    this.socket.view = this.view;
    this.socket.connect();
  }

  /** A message with a view (replay, sync, update, the answer to an action). */
  accept(msg) {
    if (this.version !== null && msg.version < this.version) return;
    // The same version again (the socket's first sync after a view): nothing new to ask.
    const same = this.version !== null && msg.version === this.version;
    for (const st of msg.steps || []) this.events.push(...(st.events || []));
    if (msg.events && !same) this.events.push(...msg.events);
    this.version = msg.version;
    this.view = msg.view;
    if (msg.viewer !== undefined) this.viewer = msg.viewer;
    this.toAct = msg.to_act ?? null;
    this.thinking.accept(msg);
    if (this.pendingRemember && this.mySeat !== null) {
      this.pendingRemember = false;
      rememberGame(this.gameId, [{ seat: this.mySeat, token: this.token }], { system: this.system, mode: gameEntry(this.gameId)?.mode || 'link' });
      this.tokens = tokensFor(this.gameId);
    }
    this.corr.accept(msg);
    if (this.flipped === undefined) this.flipped = this.mySeat === 'north';
    if (same) {
      this.render();
      return;
    }
    this.fresh();
    this.render();
    if (this.handover()) return;
    this.ask();
  }

  /** Hotseat: when another seat this browser holds is to act, the device is handed over. */
  handover() {
    const v = this.view;
    if (!this.hotseat || v.outcome || !this.toAct || this.toAct === this.mySeat) return false;
    const token = this.tokens.get(this.toAct);
    if (!token) return false;
    if (this.cover) return true;
    const seat = this.toAct;
    this.cover = modal({
      title: `${this.seatLabel(seat)} to play`, testid: 'handover', dismissable: false, opaque: true,
      onClose: () => { this.cover = null; },
      body: [h('p', {}, this.handoverNote),
        h('button', { class: 'primary', 'data-testid': 'handover-continue', autofocus: true, onclick: () => { this.cover.close(); this.switchTo(seat, token); } }, `I am ${this.seatName(seat)}: continue`)],
    });
    return true;
  }

  async switchTo(seat, token) {
    // The previous seat's stream stops first: a late message of its would make it the
    // viewer again.
    if (this.socket) this.socket.close();
    this.socket = null;
    this.token = token;
    this.sel = null;
    this.flipped = seat === 'north';
    const url = new URL(location.href);
    url.searchParams.set('token', token);
    history.replaceState(null, '', url);
    try {
      const m = await this.api.view(this.gameId, token);
      this.version = null;
      this.accept(m);
      this.connect();
    } catch (e) {
      toast(e.message, 'error');
    }
  }

  /** Sends `action`; whether the server took it (a refusal is shown). */
  async act(action) {
    if (this.busy) return false;
    this.busy = true;
    this.render();
    try {
      if (this.socket?.open) await this.socket.send(this.version, action);
      else this.accept(await this.api.act(this.gameId, this.token, this.version, action));
      return true;
    } catch (e) {
      toast(refusal(e), 'error', 7000);
      return false;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /**
   * The page's frame: the top bar, the status bar, the board's box with the system's strip
   * under it (`strip`: its class and test id), the panel and the log (`describe(event)` says
   * each event; `quiet` kinds dimmed). `prefix` starts the system's class names.
   */
  frame({ prefix, title, panelLabel, strip: [stripClass, stripId], describe, quiet }) {
    this.statusEl = h('nav', { class: `phasebar ${prefix}-status`, 'data-testid': 'status' });
    this.boardBox = h('div', { class: `table-box ${prefix}-board-box` });
    this.panelEl = h('section', { class: `panel ${prefix}-panel`, 'data-testid': 'panel', 'aria-label': panelLabel });
    this.logEl = h('section', { class: 'logbox', 'aria-label': 'Log and dice' });
    this.stripEl = h('section', { class: stripClass, 'data-testid': stripId });
    replace(this.root, h('div', { class: `game-page ${prefix}-page` },
      this.topbar(title),
      this.statusEl,
      h('div', { class: 'game-main' },
        h('div', { class: 'table-col' }, this.boardBox, this.stripEl),
        h('aside', { class: 'side' }, this.panelEl, this.logEl))));
    this.log = new DiceLog(this.logEl, { describe, quiet });
  }

  /**
   * What the panel says when this seat has nothing to choose now: that it watches, whom it
   * waits for, or that the engine is asked (`asked`: its answer has come); else null.
   */
  waitingNote(asked) {
    if (this.mySeat === null) return h('p', { class: 'muted' }, this.watchingNote);
    if (!this.myTurn) {
      if (this.view.outcome) return null;
      return h('p', { class: 'muted', 'data-testid': 'waiting' }, this.toAct ? `Waiting for ${this.seatLabel(this.toAct)}…` : 'Waiting…');
    }
    return asked ? null : h('p', { class: 'loading' }, 'Asking the engine for your choices…');
  }

  /** The page's top bar: the brand with `title`, the game, the seat, share, turn, replay. */
  topbar(title) {
    this.connEl = h('span', { class: 'conn', 'data-testid': 'conn-status', role: 'status' }, 'connecting…');
    this.seatEl = h('span', { class: 'seat-label', 'data-testid': 'seat-label' });
    return h('header', { class: 'topbar' },
      h('a', { class: 'brand', href: '/', 'data-testid': 'to-lobby' }, 'acies', h('span', {}, ` · ${title}`)),
      h('span', { class: 'game-id', title: this.gameId }, `game ${this.gameId.slice(0, 8)}`),
      this.seatEl, this.thinking.el, h('span', { class: 'spacer' }),
      h('button', { class: 'small ghost-btn', 'data-testid': 'share', onclick: () => this.share() }, 'Share'),
      h('button', { class: 'small ghost-btn', 'data-testid': 'flip', onclick: () => { this.flipped = !this.flipped; this.render(); } }, 'Turn the table'),
      h('a', { class: 'button small ghost-btn', 'data-testid': 'open-replay', href: gamePath(this.system, this.gameId, { token: this.token, replay: true }) }, 'Replay'),
      ...this.corr.topbarItems(),
      this.connEl);
  }

  /** The seat label of the top bar. */
  renderSeat() {
    const me = this.mySeat;
    replace(this.seatEl, me === null ? 'Spectator' : `You: ${this.seatLabel(me)}${this.hotseat ? ' · hotseat' : ''}`);
    this.seatEl.style.color = me ? this.seatColour(me) : '';
  }

  share() {
    const base = `${location.origin}${gamePath(this.system, this.gameId)}`;
    const rows = [h('p', {}, this.spectatorNote),
      h('div', { class: 'link-row' }, h('code', { 'data-testid': 'spectator-link' }, base), h('button', { class: 'small', onclick: () => copyText(base) }, 'Copy'))];
    for (const [seat, token] of this.tokens) {
      const link = `${base}?token=${encodeURIComponent(token)}`;
      rows.push(h('div', { class: 'link-row' }, h('span', {}, `${this.seatName(seat)} (secret): `), h('code', {}, link), h('button', { class: 'small', onclick: () => copyText(link) }, 'Copy')));
    }
    const d = modal({ title: 'Links to this game', testid: 'share-dialog', body: [...rows, h('button', { onclick: () => d.close() }, 'Close')] });
  }

  /** The end of the battle, once: the outcome, the replay, the lobby. */
  renderEnd() {
    const o = this.view.outcome;
    if (!o || this.endShown) return;
    this.endShown = true;
    const d = modal({
      title: 'The battle is over', testid: 'game-over',
      body: [h('p', { 'data-testid': 'outcome' }, this.outcomeText(o)),
        h('div', { class: 'row' }, h('a', { class: 'button', href: gamePath(this.system, this.gameId, { token: this.token, replay: true }) }, 'Replay'),
          h('a', { class: 'button', href: '/' }, 'Lobby'), h('button', { onclick: () => d.close(), 'data-testid': 'game-over-close' }, 'Close'))],
    });
  }
}
