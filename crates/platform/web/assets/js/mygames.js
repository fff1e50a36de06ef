// "My games": the seats (tokens) this browser holds, of every system, kept in localStorage.
// An entry is {game_id, system, seats: [{seat, token}], mode, created}; entries kept before
// there were several systems have no `system` (they are the server's first system's).

const KEY = 'acies.onus.games';

export function loadGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function save(list) {
  localStorage.setItem(KEY, JSON.stringify(list));
}

/**
 * Remembers a game: `seats` = [{seat, token}]; `extra` = {system, mode: hotseat | online |
 * computer | link}.
 */
export function rememberGame(gameId, seats, extra = {}) {
  const list = loadGames();
  let g = list.find((x) => x.game_id === gameId);
  if (!g) {
    g = { game_id: gameId, seats: [], created: Date.now(), ...extra };
    list.unshift(g);
  } else {
    Object.assign(g, extra);
  }
  for (const s of seats) {
    if (!s.token) continue;
    const known = g.seats.find((x) => x.seat === s.seat);
    if (known) known.token = s.token;
    else g.seats.push({ seat: s.seat, token: s.token });
  }
  g.seats.sort((a, b) => String(a.seat).localeCompare(String(b.seat)));
  save(list);
  return g;
}

export function forgetGame(gameId) {
  save(loadGames().filter((g) => g.game_id !== gameId));
}

export function gameEntry(gameId) {
  return loadGames().find((g) => g.game_id === gameId) || null;
}

/** seat id ("0") -> token for a game, from what this browser holds. */
export function tokensFor(gameId) {
  const g = gameEntry(gameId);
  const map = new Map();
  for (const s of g?.seats || []) map.set(String(s.seat), s.token);
  return map;
}
