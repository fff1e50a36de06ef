// The O/THW Ancients table module of the acies web shell (the interface:
// crates/platform/web/README.md).

import { Game } from './js/game.js';
import { newGameForm } from './js/newgame.js';
import { Board } from './js/board.js';
import { describeEvent, QUIET, sideLabel } from './js/words.js';

/** The read-only grid of the replay viewer. */
async function replayBoard(container, { onKey }) {
  const board = new Board(container, { onKey });
  return {
    quiet: QUIET,
    render: (v) => board.render(v),
    // The shell gives the step's view with each event.
    describe: describeEvent,
    caption: (v) => (v.outcome ? 'the battle is over' : `turn ${v.turn}, ${sideLabel(v, v.active)}'s phase`),
  };
}

export default {
  stylesheets: ['/assets/css/grid.css', 'css/table.css'],
  newGameForm,
  mountGame(root, { gameId, token, info }) {
    new Game(root, { gameId, token, info }).start();
  },
  replayBoard,
};
