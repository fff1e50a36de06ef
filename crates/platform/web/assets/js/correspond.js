// Correspondence play on a game page, whatever its system: the game's chat, and a browser
// notification when it becomes this page's move while the page is in the background.
//
// The server says who may act (`actors`, with every message) and sends the chat (in each
// `sync` and as `chat` messages, through GameSocket's `onChat`); nothing here decides whose
// turn it is. A page builds one `Correspondence`, puts its `topbarItems()` in its top bar,
// calls `accept(msg)` with every message that has a view and `chat(messages)` with the
// socket's chat.
//
// The chat is table talk: every seat and every spectator of the game reads it; only the
// players (a seat's token) write in it. A message is text: it is shown with `textContent`,
// never as markup. Replays do not show it: it is no part of the game's record.

import { systemApi, ApiError } from './api.js';
import { h, s, replace, toast } from './dom.js';

const NOTIFY_KEY = 'acies.notify';
const READ_KEY = 'acies.chat.read.';
/** What the tab's title starts with when it became this page's move in the background. */
export const YOUR_MOVE = '(Your move) ';
/** The longest message the server takes (its `Limits::chat_max_chars` by default). */
const MAX_CHARS = 500;

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // A browser that keeps nothing: the setting lasts as long as the page.
  }
}

const icon = (...paths) => s('svg', { class: 'icon', viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' },
  paths.map((d) => s('path', { d })));
const BELL = ['M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z', 'M10 20.5a2 2 0 0 0 4 0'];
const BUBBLE = ['M4 5h16v11H9l-4 3.5V16H4z'];

/** The browser's notifications, if it has them (looked up when used: tests may stub them). */
function notifications() {
  return typeof window.Notification === 'function' ? window.Notification : null;
}

export class Correspondence {
  /**
   * `token()`: the token the page writes with (null: a spectator); `seats()`: the seats this
   * page plays (hotseat: every seat this browser holds); `seatLabel(seat)`: the system's name
   * for a seat; `title`: what the notification names the game by.
   */
  constructor({ system, gameId, token, seats, seatLabel = (seat) => seat, title = '' }) {
    this.api = systemApi(system);
    this.gameId = gameId;
    this.token = token;
    this.seats = seats;
    this.seatLabel = seatLabel;
    this.title = title || `game ${gameId.slice(0, 8)}`;
    this.messages = new Map();
    this.names = new Map();
    this.myMove = undefined;
    this.read = Number(stored(READ_KEY + gameId)) || 0;

    // The toggle is in the top bar and in the chat's head (a phone's top bar has room for
    // the chat's button only).
    const toggle = (cls, testid) => h('button', {
      type: 'button', class: `small corr-btn ${cls}`, 'data-testid': testid, 'aria-pressed': 'false',
      title: 'Tell me when it becomes my move while this page is in the background',
      onclick: () => this.toggleNotify(),
    }, icon(...BELL), h('span', { class: 'corr-label' }, 'Notify me'));
    this.notifyBtn = toggle('ghost-btn corr-notify', 'notify-toggle');
    this.notifyInChat = toggle('', 'chat-notify-toggle');
    this.unreadEl = h('span', { class: 'chat-unread', 'data-testid': 'chat-unread', hidden: true });
    this.chatBtn = h('button', {
      type: 'button', class: 'small ghost-btn corr-btn', 'data-testid': 'chat-toggle', 'aria-expanded': 'false',
      'aria-controls': `chat-${gameId}`, title: 'The chat of this game', onclick: () => this.toggleChat(),
    }, icon(...BUBBLE), h('span', { class: 'corr-label' }, 'Chat'), this.unreadEl);

    this.list = h('ol', { class: 'chat-list', 'data-testid': 'chat-log', 'aria-live': 'polite' });
    this.input = h('input', {
      type: 'text', maxlength: String(MAX_CHARS), 'data-testid': 'chat-input', 'aria-label': 'A message to the table',
      placeholder: 'A short message to the table', autocomplete: 'off',
    });
    this.form = h('form', { class: 'chat-form' }, this.input,
      h('button', { type: 'submit', class: 'small primary', 'data-testid': 'chat-send' }, 'Send'));
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.send();
    });
    this.readOnly = h('p', { class: 'muted chat-readonly', 'data-testid': 'chat-readonly' },
      'Spectators read the chat; the players write in it.');
    this.panel = h('section', { class: 'chat-panel', id: `chat-${gameId}`, 'data-testid': 'chat', 'aria-label': 'Chat', hidden: true },
      h('header', { class: 'chat-head' }, h('h2', {}, 'Chat'), h('span', { class: 'spacer' }), this.notifyInChat,
        h('button', { type: 'button', class: 'small ghost-btn', 'aria-label': 'Close the chat', 'data-testid': 'chat-close', onclick: () => this.toggleChat(false) }, '×')),
      h('p', { class: 'muted chat-note' }, 'Seen by the players and the spectators of this game.'),
      this.list,
      h('p', { class: 'muted chat-empty', 'data-testid': 'chat-empty' }, 'No message yet.'),
      this.form, this.readOnly);
    document.body.append(this.panel);
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) this.seen();
    });
    window.addEventListener('focus', () => this.seen());
    this.renderNotify();
    this.renderWriter();
  }

  /** The buttons of the page's top bar: the notification toggle and the chat. */
  topbarItems() {
    return [this.notifyBtn, this.chatBtn];
  }

  // ---- whose move ------------------------------------------------------------------------

  /** A message from the server (view, sync, update): who may act now, and who plays what. */
  accept(msg) {
    for (const seat of msg.seats || []) this.names.set(seat.seat, seat.name);
    const mine = this.seats() || [];
    const actors = msg.outcome || msg.view?.outcome ? [] : (msg.actors || []);
    const now = actors.some((a) => mine.includes(a));
    const before = this.myMove;
    this.myMove = now;
    this.notifyBtn.dataset.myMove = String(now);
    for (const b of [this.notifyBtn, this.notifyInChat]) b.hidden = mine.length === 0;
    this.renderWriter();
    // The page's first message is where the game stands, not news.
    if (before === false && now && document.hidden) {
      this.tell(actors.find((a) => mine.includes(a)));
    }
    if (!now) this.untitle();
  }

  /** It became `seat`'s move in the background: the tab's title, and a notification. */
  tell(seat) {
    if (!document.title.startsWith(YOUR_MOVE)) document.title = YOUR_MOVE + document.title;
    const N = notifications();
    if (!this.notifyOn() || !N || N.permission !== 'granted') return;
    const body = `${this.title}: ${this.seatLabel(seat)} to play.`;
    try {
      const n = new N('Your move', { body, tag: `acies-${this.gameId}`, renotify: true });
      n.onclick = () => {
        window.focus();
        n.close?.();
      };
    } catch (e) {
      // Some browsers show notifications from a service worker only: the title says it.
      console.warn(`no notification: ${e.message}`);
    }
  }

  untitle() {
    if (document.title.startsWith(YOUR_MOVE)) document.title = document.title.slice(YOUR_MOVE.length);
  }

  /** The page is looked at again. */
  seen() {
    this.untitle();
    if (!this.panel.hidden) this.markRead();
  }

  notifyOn() {
    return stored(NOTIFY_KEY) === 'on';
  }

  renderNotify() {
    const N = notifications();
    const on = this.notifyOn() && !!N && N.permission === 'granted';
    for (const b of [this.notifyBtn, this.notifyInChat]) {
      b.setAttribute('aria-pressed', String(on));
      b.classList.toggle('on', on);
      replace(b.querySelector('.corr-label'), on ? 'Notifying' : 'Notify me');
    }
  }

  /** The toggle (a click: browsers ask for the permission only from a user's gesture). */
  async toggleNotify() {
    const N = notifications();
    const fallback = 'the tab\'s title will say "(Your move)" instead';
    if (this.notifyOn() && N?.permission === 'granted') {
      store(NOTIFY_KEY, 'off');
    } else if (!N) {
      toast(`This browser shows no notifications: ${fallback}.`);
    } else {
      let permission = N.permission;
      if (permission === 'default') {
        try {
          permission = await N.requestPermission();
        } catch {
          permission = 'denied';
        }
      }
      if (permission === 'granted') {
        store(NOTIFY_KEY, 'on');
        toast('You will be notified when it becomes your move while this page is in the background.');
      } else {
        toast(`Notifications are blocked for this site: ${fallback}.`, 'error');
      }
    }
    this.renderNotify();
  }

  // ---- chat ------------------------------------------------------------------------------

  /** Messages from the server (a sync's, a `chat` message's, the answer to a send). */
  chat(messages) {
    let added = false;
    for (const m of messages || []) {
      if (this.messages.has(m.seq)) continue;
      this.messages.set(m.seq, m);
      added = true;
    }
    if (added) this.renderChat();
  }

  who(m) {
    const label = this.seatLabel(m.seat);
    return m.name && m.name !== m.seat && !String(label).includes(m.name) ? `${m.name} (${label})` : String(label);
  }

  renderChat() {
    const mine = this.seats() || [];
    const all = [...this.messages.values()].sort((a, b) => a.seq - b.seq);
    replace(this.list, all.map((m) => h('li', {
      class: ['chat-msg', mine.includes(m.seat) && 'mine'], 'data-testid': 'chat-message', 'data-seat': m.seat, 'data-seq': String(m.seq),
    },
    h('div', { class: 'chat-meta' }, h('b', { class: 'chat-who' }, this.who(m)),
      h('time', { datetime: new Date(m.at).toISOString(), title: new Date(m.at).toLocaleString() },
        new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }))),
    // Text, never markup.
    h('p', { class: 'chat-text', text: m.text }))));
    this.panel.querySelector('.chat-empty').hidden = all.length > 0;
    if (!this.panel.hidden) {
      this.list.scrollTop = this.list.scrollHeight;
      if (!document.hidden) this.markRead();
    }
    this.renderUnread();
  }

  /** Messages of the other seats not seen yet. */
  unread() {
    const mine = this.seats() || [];
    return [...this.messages.values()].filter((m) => m.seq > this.read && !mine.includes(m.seat)).length;
  }

  renderUnread() {
    const n = this.unread();
    this.unreadEl.hidden = n === 0;
    replace(this.unreadEl, n ? String(n) : '');
    this.chatBtn.title = n ? `The chat of this game: ${n} new message${n > 1 ? 's' : ''}` : 'The chat of this game';
  }

  markRead() {
    const last = Math.max(0, ...this.messages.keys());
    if (last > this.read) {
      this.read = last;
      store(READ_KEY + this.gameId, String(last));
    }
    this.renderUnread();
  }

  toggleChat(open = this.panel.hidden) {
    this.panel.hidden = !open;
    this.chatBtn.setAttribute('aria-expanded', String(open));
    if (open) {
      this.renderWriter();
      this.list.scrollTop = this.list.scrollHeight;
      this.markRead();
      if (!this.form.hidden) this.input.focus();
    }
  }

  /** Players write; spectators read. */
  renderWriter() {
    const writer = !!this.token();
    this.form.hidden = !writer;
    this.readOnly.hidden = writer;
  }

  async send() {
    const text = this.input.value.trim();
    const token = this.token();
    if (!text || !token || this.sending) return;
    this.sending = true;
    try {
      const r = await this.api.chat(this.gameId, token, text);
      this.input.value = '';
      this.chat(r.chat);
    } catch (e) {
      toast(e instanceof ApiError ? e.describe() : e.message, 'error', 6000);
    } finally {
      this.sending = false;
    }
  }
}
