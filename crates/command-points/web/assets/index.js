// The Command Points square-grid table module of the acies web shell (the interface:
// crates/platform/web/README.md).

import { Game } from './js/game.js';
import { newGameForm } from './js/newgame.js';
import { Board } from './js/board.js';
import { describeEvent, QUIET, seatLabel } from './js/words.js';

/** The read-only grid of the replay viewer. */
async function replayBoard(container, { onKey }) {
  const board = new Board(container, { onKey });
  let view = null;
  return {
    quiet: QUIET,
    render(v) {
      view = v;
      board.render(v, { flipped: false });
    },
    describe: (event) => describeEvent(event, view),
    caption: (v) => (v.stage.stage === 'deploy' ? 'deployment'
      : v.stage.stage === 'over' ? 'the battle is over'
        : `turn ${v.turn}, ${seatLabel(v, v.active)}'s phase`),
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
