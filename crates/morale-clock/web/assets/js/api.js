// The Morale Clock system's part of the server's API: its games under /api/morale-clock, its
// catalog, and the engine's answers to the table's questions.

import { systemApi } from '/assets/js/api.js';

/** The system's id. */
export const SYSTEM = 'morale-clock';

/** The API of its games. */
export const api = systemApi(SYSTEM);

let catalogPromise = null;
/** The catalog (`GET /api/morale-clock/catalog`): armies, scenarios, rules; fetched once. */
export function catalog() {
  if (!catalogPromise) {
    catalogPromise = api.get('/catalog').catch((e) => {
      catalogPromise = null;
      throw e;
    });
  }
  return catalogPromise;
}

/** The seat ids of the two sides. */
export const SEATS = ['a', 'b'];
export const sideName = (s) => (s === 'a' ? 'side A' : s === 'b' ? 'side B' : String(s));
