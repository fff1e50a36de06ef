// The server's HTTP and WebSocket API (crates/platform/server/README.md): the systems it hosts,
// and each system's games under /api/{system}.

import { applyPatch } from './patch.js';

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || 'http_error';
    this.rule = body?.rule || null;
    this.version = body?.version ?? null;
  }

  /** "message [rule]" as the engine worded it. */
  describe() {
    const rule = this.rule && !this.message.includes(this.rule) ? ` [${this.rule}]` : '';
    return `${this.message}${rule}`;
  }
}

/** One JSON request; rejects with an ApiError carrying the server's code and rule. */
export async function request(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new ApiError(0, { error: `network error: ${e.message}`, code: 'network' });
  }
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { error: text || res.statusText };
  }
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}

const enc = encodeURIComponent;
const tokenQuery = (token) => (token ? `?token=${enc(token)}` : '');

/** The rule systems the server hosts (`GET /api/systems`). */
export const listSystems = () => request('GET', '/api/systems');

/** The most seat tokens one "my games" request may carry (the server's `max_tokens`). */
export const MY_GAMES_TOKENS = 32;

/**
 * "My games" of every system (`POST /api/my-games`): the games in which `tokens` hold seats,
 * each with its system, `my_seats`, who may act (`actors`, `to_act`) and `my_move`; asked in
 * as many requests as the tokens need.
 */
export async function myGames(tokens) {
  const games = [];
  for (let i = 0; i < tokens.length; i += MY_GAMES_TOKENS) {
    const r = await request('POST', '/api/my-games', { tokens: tokens.slice(i, i + MY_GAMES_TOKENS) });
    games.push(...r.games);
  }
  return games;
}

/** The API of one rule system: its games under `/api/{system}/games`, its own routes by `get`. */
export function systemApi(system) {
  const base = `/api/${enc(system)}`;
  const games = `${base}/games`;
  return {
    system,
    /** `GET /api/{system}{path}`: a route of the system's own (a catalog...). */
    get: (path) => request('GET', `${base}${path}`),
    /** `POST /api/{system}{path}` with a JSON body: a route of the system's own. */
    post: (path, body) => request('POST', `${base}${path}`, body),
    createGame: (body) => request('POST', games, body),
    listGames: (tokens, limit = 50) =>
      request('GET', `${games}?tokens=${tokens.map(enc).join(',')}&limit=${limit}`),
    view: (id, token) => request('GET', `${games}/${enc(id)}/view${tokenQuery(token)}`),
    act: (id, token, version, action) =>
      request('POST', `${games}/${enc(id)}/actions`, { token, version, action }),
    replay: (id, token) => request('GET', `${games}/${enc(id)}/replay${tokenQuery(token)}`),
    replayStep: (id, token, step) =>
      request('GET', `${games}/${enc(id)}/replay?${token ? `token=${enc(token)}&` : ''}step=${step}`),
    /** Writes `text` in the game's chat as the token's seat; the server's `chat` message. */
    chat: (id, token, text) => request('POST', `${games}/${enc(id)}/chat`, { token, text }),
    /** The game's chat as kept (anyone may read it). */
    chatLog: (id, token) => request('GET', `${games}/${enc(id)}/chat${tokenQuery(token)}`),
    query: async (id, token, query) => {
      const body = { query };
      if (token) body.token = token;
      const r = await request('POST', `${games}/${enc(id)}/query`, body);
      return r.result;
    },
  };
}

/**
 * A game's WebSocket: sync on connect (with `since` = the version we have), updates after
 * every action, actions sent with an id and answered by ack or error. Reconnects by itself
 * with a growing delay when the connection drops. The game's chat comes the same way: the
 * messages the sync carries (those after the last one we have, `chat=`), then each `chat`
 * message, handed to `onChat(messages)`.
 *
 * After the first view the server sends only what changed (events, and a patch of the view
 * from `base` to `version`); the socket keeps the view and hands `onSync`/`onUpdate` the
 * message with the whole `view` rebuilt. Set `version` and `view` together before
 * connecting to resume from a view obtained elsewhere.
 */
export class GameSocket {
  constructor(system, gameId, token, { onSync, onUpdate, onStatus, onTakeback, onChat }) {
    this.system = system;
    this.gameId = gameId;
    this.token = token;
    this.onSync = onSync;
    this.onUpdate = onUpdate;
    // A take-back asked or declined (no new version; a take-back done comes as an update).
    this.onTakeback = onTakeback || (() => {});
    this.onStatus = onStatus || (() => {});
    // Chat messages ([{seq, seat, name, text, at}]); `chatSeq` is the last one received.
    this.onChat = onChat || (() => {});
    this.chatSeq = null;
    this.version = null;
    this.view = null;
    this.ws = null;
    this.pending = new Map();
    this.nextId = 1;
    this.closed = false;
    this.retry = 0;
    this.timer = null;
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = new URLSearchParams();
    if (this.token) q.set('token', this.token);
    if (this.version !== null) q.set('since', String(this.version));
    if (this.chatSeq !== null) q.set('chat', String(this.chatSeq));
    const qs = q.toString();
    return `${proto}//${location.host}/api/${enc(this.system)}/games/${enc(this.gameId)}/ws${qs ? `?${qs}` : ''}`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus(this.version === null ? 'connecting' : 'reconnecting');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onmessage = (ev) => {
      if (this.ws === ws && !this.closed) this.receive(ev.data);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pending.values()) {
        p.reject(Object.assign(new Error('connection lost before the answer'), { code: 'network' }));
      }
      this.pending.clear();
      if (this.closed) return;
      if (ev.code === 4403 || ev.code === 1008) {
        this.onStatus('refused');
        return;
      }
      this.onStatus('offline');
      const delay = Math.min(500 * 2 ** this.retry, 8000);
      this.retry += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => {};
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === 'sync') {
      if (!this.rebuild(msg)) return;
      this.retry = 0;
      this.onStatus('online');
      this.onSync(msg);
      this.chat(msg.chat);
    } else if (msg.type === 'chat') {
      this.chat(msg.chat);
    } else if (msg.type === 'update') {
      if (this.version !== null && msg.version <= this.version) return;
      if (!this.rebuild(msg)) return;
      this.onUpdate(msg);
    } else if (msg.type === 'takeback') {
      this.onTakeback(msg);
    } else if (msg.type === 'ack') {
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        p.resolve(msg);
      }
    } else if (msg.type === 'error') {
      const p = msg.id !== undefined ? this.pending.get(msg.id) : null;
      const err = new ApiError(msg.status || 422, msg);
      if (p) {
        this.pending.delete(msg.id);
        p.reject(err);
      }
    }
  }

  /** Hands new chat messages on, remembering the last one's number. */
  chat(messages) {
    if (!Array.isArray(messages) || !messages.length) return;
    this.chatSeq = Math.max(this.chatSeq ?? 0, ...messages.map((m) => m.seq));
    this.onChat(messages);
  }

  /**
   * Brings the kept view to `msg.version` (the whole view, or the patches from the version
   * we have) and puts it in `msg.view`. A patch that does not apply (a view we lack) means
   * a fresh start: reconnect without `since`.
   */
  rebuild(msg) {
    try {
      if (msg.view !== undefined) {
        this.view = msg.view;
      } else {
        const patches = msg.patches || (msg.patch ? [{ base: msg.base, version: msg.version, ops: msg.patch }] : []);
        let view = this.view;
        let at = this.version;
        for (const p of patches) {
          if (p.base !== at) throw new Error(`a patch from version ${p.base}, the view is at ${at}`);
          view = applyPatch(view, p.ops);
          at = p.version;
        }
        if (view === null) throw new Error('no view to patch');
        this.view = view;
      }
      this.version = msg.version;
      // The page gets its own copy: whatever it does with it, the next patch applies to
      // the view the server sent.
      msg.view = structuredClone(this.view);
      return true;
    } catch (e) {
      console.warn(`resyncing: ${e.message}`);
      this.version = null;
      this.view = null;
      if (this.ws) this.ws.close(4001, 'resync');
      return false;
    }
  }

  get open() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends an action at `version`; resolves on ack, rejects with the engine's error. */
  send(version, action) {
    if (!this.open) return Promise.reject(new ApiError(0, { error: 'not connected', code: 'network' }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ type: 'action', version, action, id }));
    });
  }

  /** Drops the connection as a network failure would (tests use it); it comes back by itself. */
  drop() {
    if (this.ws) this.ws.close(4000, 'dropped');
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000, 'bye');
    this.ws = null;
  }
}
