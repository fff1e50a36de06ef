// ONUS!'s part of the server's API: its games under /api/onus, and its catalog.

import { systemApi } from '/assets/js/api.js';

/** ONUS!'s system id. */
export const SYSTEM = 'onus';

/** The API of ONUS! games. */
export const api = systemApi(SYSTEM);

let catalogPromise = null;
/** The catalog (`GET /api/onus/catalog`), fetched once per page. */
export function catalog() {
  if (!catalogPromise) {
    catalogPromise = api.get('/catalog').catch((e) => {
      catalogPromise = null;
      throw e;
    });
  }
  return catalogPromise;
}
