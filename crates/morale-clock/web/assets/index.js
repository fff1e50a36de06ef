// The Morale Clock system's table module of the acies web shell (the interface:
// crates/platform/web/README.md).

import { Game } from './js/game.js';
import { newGameForm } from './js/newgame.js';
import { TableView } from './js/table.js';
import { describeEvent, QUIET } from './js/events.js';
import { sideName } from './js/api.js';

const PHASES = { missiles: 'Missile Fire', orders: 'Moves (orders)', adjust: 'Moves (adjustments)', over: 'the end' };

/** The read-only table of the replay viewer. */
async function replayBoard(container) {
  const table = new TableView(container);
  let battle = null;
  return {
    quiet: QUIET,
    render(view) {
      battle = view.battle;
      table.render(battle);
    },
    describe: (event) => describeEvent(event, battle),
    caption: (view) => `turn ${Math.min(view.battle.turn, view.battle.scenario.turn_limit)}, ${sideName(view.battle.side)}, ${PHASES[view.battle.phase] || view.battle.phase}; Morale Clocks ${view.battle.armies[0].clock} – ${view.battle.armies[1].clock}`,
  };
}

export default {
  stylesheets: ['css/table.css'],
  newGameForm,
  mountGame(root, { gameId, token }) {
    new Game(root, gameId, token).start();
  },
  replayBoard,
};
