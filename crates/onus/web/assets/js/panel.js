// The side panel (the selected unit and what it can do now, the order being played, the
// deployment reserve) and the decision dialogs of the game page.

import { h, replace, num, pct, words } from '/assets/js/dom.js';
import { ruleLink, withRule } from '/assets/js/rules.js';
import { seatColour } from './cards.js';
import { describeStep } from './geom.js';
import { cardView } from './hand.js';
import { modal } from '/assets/js/dialogs.js';
import { valueText } from '/assets/js/dicelog.js';

// ---- exact odds ----------------------------------------------------------------------

function sideOdds(label, s, names, unitId) {
  if (!s) return null;
  const st = s.states || {};
  const order = ['unbroken', 'broken', 'fleeing', 'eliminated'];
  const bar = h('div', { class: 'odds-bar', role: 'img', 'aria-label': order.map((k) => `${k} ${pct(st[k] || 0)}`).join(', ') },
    order.map((k) => h('span', { class: `seg seg-${k}`, style: { width: `${(st[k] || 0) * 100}%` }, title: `${k}: ${pct(st[k] || 0)}` })));
  const needs = s.needs ? Object.entries(s.needs).map(([k, v]) => `${k} ${v}${k === 'dice' ? '' : '+'}`).join(' · ') : '';
  return h('div', { class: 'odds-side' },
    h('div', { class: 'odds-who' }, h('b', {}, label), ` ${unitId !== undefined ? names.unit(unitId) : ''}`),
    bar,
    h('div', { class: 'odds-nums' },
      order.map((k) => h('span', { class: `k-${k}` }, `${k} ${pct(st[k] || 0)}`)),
      h('span', {}, `expected wounds ${num(s.expected_wounds)}`)),
    needs ? h('div', { class: 'odds-needs' }, `rolls: ${needs}`) : null,
    s.values?.length ? h('details', { class: 'odds-values' }, h('summary', {}, 'values'), h('ul', {}, s.values.map((v) => h('li', {}, typeof v === 'string' ? v : valueText(v))))) : null);
}

/** The exact odds of a fight (onus-server `odds` answer). */
/** What the terrain did to a move, as the engine priced it (Terrain & Fortresses II-III). */
function groundNote(ground) {
  if (!ground) return '';
  const parts = [];
  if (ground.difficult) parts.push(`${ground.difficult}: difficult terrain, +${num(ground.extra_cost)} DU (double cost)`);
  if (ground.climbs) parts.push(`climbing ${ground.climbs}: limited movement`);
  if (ground.crosses) parts.push(`crossing ${ground.crosses}: limited movement, section markers`);
  return parts.length ? `; ${parts.join('; ')}` : '';
}

export function oddsView(r, names, title = 'Exact odds') {
  if (!r) return h('div', { class: 'odds loading', 'data-testid': 'odds' }, 'Computing the exact odds…');
  if (r.error) return h('div', { class: 'odds error', 'data-testid': 'odds' }, `Odds: ${r.error}`);
  return h('div', { class: 'odds', 'data-testid': 'odds' },
    h('div', { class: 'odds-title' }, title, r.dice !== undefined ? ` · ${r.dice} dice` : '', r.method?.exact ? ' · exact' : ''),
    sideOdds('Attacker', r.attacker, names, r.attacker_unit),
    sideOdds('Defender', r.defender, names, r.defender_unit),
    r.kind_reasons?.length ? h('div', { class: 'odds-reasons' }, r.kind_reasons.join('; ')) : null,
    r.events ? h('div', { class: 'odds-note' }, `Events ${r.events}`) : null);
}

// ---- the unit card -------------------------------------------------------------------

const stat = (k, v) => h('span', { class: 'stat' }, h('span', { class: 'k' }, k), ' ', h('b', {}, v));

function unitCard(game, u) {
  if (u.hidden) {
    return h('div', { class: 'unit-info', 'data-testid': 'unit-info' },
      h('h3', {}, `Face-down unit #${u.id}`),
      h('p', { class: 'muted' }, `${game.names.shortSeat(u.owner)}: the card is face down, only its place is known.`));
  }
  const c = u.card;
  const st = u.state || {};
  // Each marker with its hover help (the catalog's `help`, written on the server).
  const help = game.catalog?.help || {};
  const mh = help.markers || {};
  const markers = [];
  const mark = (text, key) => markers.push([text, mh[key] || null]);
  if (st.wounds) mark(`${st.wounds} wound${st.wounds > 1 ? 's' : ''}`, 'wound');
  if (st.fleeing) mark('fleeing', 'fleeing');
  else if (st.broken) mark('broken', 'broken');
  if (st.marching) mark('marching', 'marching');
  if (st.formation) mark(words(st.formation), `formation_${st.formation}`);
  if (st.extended_left) mark('extended left', 'extended');
  if (st.extended_right) mark('extended right', 'extended');
  if (st.hero) mark('hero', 'hero');
  if (st.no_officer) mark('no officer', 'no_officer');
  if (st.rank && st.rank !== 'regular') mark(st.rank, st.rank);
  if (u.turn?.activated) mark('activated', 'active');
  if (u.turn?.moved) markers.push(['moved', 'It has moved this turn.']);
  // T&F V "Assaulting fortresses": the Climbing marker, as the engine's view has it.
  if (u.climb) {
    const top = u.climb.climbed >= u.climb.height;
    markers.push([top ? `climbed ${u.climb.structure}` : `climbing ${u.climb.structure} (${u.climb.climbed}/${u.climb.height})`,
      top ? 'At the top of the structure: it may fight the defenders there (T&F V Assaulting fortresses).'
        : 'One level a turn, at the start of its side\'s turn, without activation (T&F V Assaulting fortresses).']);
  }
  const general = game.view.players.flatMap((p) => p.generals).find((g) => g.unit === u.id);
  if (general) mark(`General ${general.card.name}`, 'general');
  const chief = commanderOf(game, u);
  return h('div', { class: 'unit-info', 'data-testid': 'unit-info', 'data-unit': u.id },
    h('h3', { style: { color: seatColour(u.owner) } }, `${c.name} #${u.id}`),
    h('div', { class: 'muted' }, `${game.names.faction(c.faction)} · ${words(c.kind)} · ${c.value} pts · ${game.names.shortSeat(u.owner)}`),
    h('div', { class: 'stats', 'data-testid': 'unit-stats' },
      stat('Attack', `${c.attack.hit}/${c.attack.damage}`), stat('Defense', `${c.defense.dodge}/${c.defense.armor}`),
      stat('Morale', String(c.morale)), stat('Health', `${c.health - (st.wounds || 0)}/${c.health}`),
      stat('Move', `${num(c.movement)} DU`), c.ranged ? stat('Ranged', `${c.ranged.power} · ${num(c.ranged.range)} DU`) : null),
    c.abilities?.length ? h('div', { class: 'tags', 'data-testid': 'unit-abilities' }, c.abilities.map((a) => [h('span', {
      class: 'tag has-help', tabindex: '0', title: help.abilities?.[a] || '', 'data-testid': `ability-${a}`,
    }, words(a)), ruleLink(help.rules?.abilities?.[a], { label: '§', className: 'tag-rule' })])) : null,
    c.formations?.length ? h('div', { class: 'tags' }, 'Formations: ', c.formations.map((a) => [h('span', {
      class: 'tag blue has-help', tabindex: '0', title: help.formations?.[a] || '', 'data-testid': `formation-${a}`,
    }, words(a)), ruleLink(help.rules?.formations?.[a], { label: '§', className: 'tag-rule' })])) : null,
    markers.length ? h('div', { class: 'markers', 'data-testid': 'unit-markers' }, markers.map(([text, more], i) => [
      i ? ' · ' : null,
      h('span', { class: more ? 'has-help' : null, title: more || '', tabindex: more ? '0' : null, 'data-testid': 'unit-marker' }, text)])) : null,
    chief ? h('div', { class: 'muted', 'data-testid': 'unit-commander', 'data-general': chief.card.id },
      `Contingent of ${chief.card.name} (area of influence ${num(chief.card.area_of_influence)} DU${chief.unit === null || chief.unit === undefined ? '' : `, with ${game.names.unit(chief.unit)}`}${chief.status === 'healthy' ? '' : `, ${words(chief.status)}`}; XII-A several generals)`) : null);
}

/** XII-A "Several generals": the General whose contingent `u` belongs to (`commands` of the
 * view; none when the army has a single General commanding every unit). */
export function commanderOf(game, u) {
  const owner = game.view.players.find((p) => p.seat === u.owner);
  return owner?.generals.find((g) => g.commands?.includes(u.id)) || null;
}

// ---- per-phase actions ---------------------------------------------------------------

function why(options, what) {
  const w = options?.why_not?.[what];
  if (!w) return null;
  return withRule(w.error, w.rule);
}

function moveSection(game) {
  const g = game.ghost;
  const opts = game.sel.options;
  const u = game.unit(game.sel.unit);
  const out = [h('h4', {}, game.view.phase === 'skirmishers' ? 'Skirmish move' : 'Move')];
  if (opts?.allowance) {
    const a = opts.allowance;
    out.push(h('div', { class: 'muted', 'data-testid': 'allowance' },
      `Left ${num(opts.left)} DU · regular ${num(a.regular)} · reduced ${num(a.reduced)} · forced march ${num(a.forced_march)}`));
  }
  if (!g || g.kind !== 'move') return out;
  const v = g.verdict;
  out.push(h('ol', { class: 'steps', 'data-testid': 'move-steps' }, g.steps.length ? g.steps.map((st) => h('li', {}, describeStep(st))) : h('li', { class: 'muted' }, 'Drag the ghost, or W/A/S/D and Q/E.')));
  out.push(h('div', { class: ['verdict', g.state], 'data-testid': 'move-verdict', 'data-state': g.state, role: 'status' },
    g.state === 'checking' ? 'Checking with the engine…'
      : v?.ok ? `Legal: ${words(String(v.kind || '').toLowerCase())}, costs ${num(v.cost)} of ${num(v.budget)} DU, ${num(v.left)} DU left${groundNote(v.ground)}${v.consequences && v.consequences.may_charge === false ? '; no charge after it' : ''}`
        : v ? `Illegal: ${v.error}` : ''));
  out.push(h('button', {
    class: 'primary', disabled: !(v?.ok) || game.busy, onclick: () => game.commitMove(), 'data-testid': 'commit-move',
  }, `Move here${v?.ok ? ` (${num(v.cost)} DU)` : ''}`));
  // T&F II "Overlapping", IV "Walls": ending over friends inside their fortress, the player
  // chooses which unit stays on top (the engine says whom the move overlaps).
  const over = v?.ok ? (v.consequences?.overlaps || []) : [];
  if (over.length || g.beneath) {
    out.push(h('label', { title: 'Terrain & Fortresses IV "Walls": choose which unit stays on top' },
      h('input', { type: 'checkbox', checked: !!g.beneath, 'data-testid': 'move-beneath', onchange: (e) => { g.beneath = e.target.checked; game.setSteps(g.steps); } }),
      ` end beneath ${over.map((id) => `#${id}`).join(', ') || 'the friends it overlaps'}`));
  }
  if (opts?.facing) {
    out.push(h('label', { title: 'Terrain & Fortresses II "Facing": a unit in contact faces it at no cost' },
      h('input', { type: 'checkbox', checked: !!g.face, 'data-testid': 'face-terrain', onchange: (e) => game.setFacing(e.target.checked) }),
      ` first face ${opts.facing.piece} (free)`));
  }
  const ranged = !!u?.card?.ranged;
  out.push(h('div', { class: 'row wrap' },
    h('label', {}, h('input', { type: 'checkbox', checked: g.forcedMarch, 'data-testid': 'forced-march', onchange: (e) => { g.forcedMarch = e.target.checked; game.setSteps(g.steps); } }), ' forced march'),
    ranged ? h('label', {}, h('input', { type: 'checkbox', checked: g.willShoot, 'data-testid': 'will-shoot', onchange: (e) => { g.willShoot = e.target.checked; game.setSteps(g.steps); } }), ' will shoot') : null,
    h('button', { class: 'small', 'aria-pressed': game.pivotMode === 'centre' ? 'true' : 'false', onclick: () => game.togglePivot(), 'data-testid': 'pivot-mode' },
      `Rotate about: ${{ corner: 'front corner', rear: 'rear corner', centre: 'centre' }[game.pivotMode]} (R)`)));
  out.push(h('div', { class: 'row' },
    h('button', { class: 'small', onclick: () => game.rotateGhost(15), 'aria-label': 'Rotate left 15 degrees', 'data-testid': 'rotate-left' }, '⟲ Q'),
    h('button', { class: 'small', onclick: () => game.rotateGhost(-15), 'aria-label': 'Rotate right 15 degrees', 'data-testid': 'rotate-right' }, 'E ⟳'),
    h('button', { class: 'small', onclick: () => game.nudgeGhost(0, 0.25), 'aria-label': 'Forward 0.25 DU', 'data-testid': 'nudge-forward' }, '↑ W'),
    h('button', { class: 'small', onclick: () => game.undoStep(), disabled: !g.steps.length, 'data-testid': 'undo-step' }, 'Undo step'),
    h('button', { class: 'small', onclick: () => game.resetGhost(), disabled: !g.steps.length, 'data-testid': 'reset-move' }, 'Reset')));
  return out;
}

function chargeSection(game) {
  const opts = game.sel.options;
  if (!opts) return [];
  const phase = game.view.phase;
  if (phase !== 'movement' && phase !== 'skirmishers') return [];
  const out = [h('h4', {}, 'Charge')];
  if (!opts.may_charge) {
    out.push(h('div', { class: 'muted', 'data-testid': 'no-charge' }, why(opts, 'charge') || 'This unit cannot charge now.'));
    return out;
  }
  if (!opts.charges?.length) {
    out.push(h('div', { class: 'muted' }, 'No enemy within reach of a charge.'));
    return out;
  }
  const chosen = game.sel.charge;
  out.push(h('ul', { class: 'options', 'data-testid': 'charge-options' }, opts.charges.map((c, i) => h('li', {},
    h('button', {
      class: ['option', chosen?.index === i && 'chosen'], onclick: () => game.pickCharge(i), 'data-testid': `charge-${c.target}-${String(c.side || 'markers').toLowerCase()}`,
      'aria-pressed': chosen?.index === i ? 'true' : 'false',
      'data-side': c.side ?? '',
    }, `${game.names.unit(c.target)} — ${c.side ? `${words(String(c.side).toLowerCase())} side` : 'its markers'}, ${c.direct} direct / ${c.dice_with_envelopment} with envelopment, ${num(c.cost)} DU`)))));
  if (chosen) {
    const ck = chosen.check;
    // Only the envelopment choices the engine accepts for this charge (unit_options).
    const labels = { Max: 'with every free section', None: 'none' };
    const choices = chosen.choices || [];
    if (choices.length > 1) {
      out.push(h('label', {}, 'Envelopment: ',
        h('select', {
          'data-testid': 'envelop-choice', onchange: (e) => { chosen.envelop = e.target.value; chosen.check = null; chosen.odds = null; game.refreshCharge(); game.render(); },
        }, choices.map((x) => h('option', { value: x, selected: chosen.envelop === x }, labels[x] || words(String(x).toLowerCase()))))));
    } else if (choices.length === 1) {
      out.push(h('div', { class: 'muted', 'data-testid': 'envelop-only' }, `Envelopment: ${labels[choices[0]] || words(String(choices[0]).toLowerCase())} (the only choice the rules leave)`));
    }
    out.push(h('div', { class: ['verdict', ck ? (ck.ok ? 'ok' : 'bad') : 'checking'], 'data-testid': 'charge-verdict' },
      !ck ? 'Checking the charge…' : ck.ok ? `Contact on the ${words(String(ck.side || chosen.side || 'marker').toLowerCase())} side, ${ck.dice} dice${ck.also_engaged?.length ? `, also engages ${ck.also_engaged.map((x) => game.names.unit(x)).join(', ')}` : ''}${ck.swept_wounds ? `, ${ck.swept_wounds} wounds swept` : ''}` : `Illegal: ${ck.error}`));
    out.push(oddsView(chosen.odds, game.names, 'Exact odds of the melee after the charge'));
    out.push(h('div', { class: 'row' },
      h('button', { class: 'primary danger', disabled: !ck?.ok || game.busy, onclick: () => game.commitCharge(), 'data-testid': 'commit-charge' }, 'Charge!'),
      h('button', { class: 'small', onclick: () => game.resetGhost(), 'data-testid': 'cancel-charge' }, 'Back to moving')));
  }
  return out;
}

/** The engine's reason for a refused verdict (`{ok: false, error, rule}`), with its rule as a
 * link to the rules reader. */
function reasonOf(v) {
  if (!v || v.ok) return '';
  return withRule(v.error, v.rule);
}

const SLOT_NAMES = { ExtendedLeft: 'left extended marker', ExtendedRight: 'right extended marker' };
function slotName(slot) {
  if (typeof slot === 'string') return SLOT_NAMES[slot] || words(slot);
  if (slot && slot.Card !== undefined) return `front section ${slot.Card + 1}`;
  return JSON.stringify(slot);
}

/**
 * VII-2.D: what an activated unit engaged in combat may do, as `unit_options.engaged_actions`
 * says: each legal action is a button; the refused ones are listed with the engine's reason.
 */
function engagedSection(game) {
  const sel = game.sel;
  const ea = sel.options?.engaged_actions;
  if (!ea || game.view.phase !== 'movement') return [];
  const n = game.names;
  const unit = sel.unit;
  const offered = [];
  const refused = [];
  const add = (v, label, make, testid) => {
    if (!v) return;
    if (v.ok) offered.push(make());
    else refused.push(h('li', { 'data-testid': `refused-${testid}` }, h('b', {}, `${label}: `), reasonOf(v)));
  };
  for (const e of ea.envelop || []) {
    add(e, `Envelop ${n.unit(e.target)}`, () => h('button', {
      class: 'small', 'data-testid': `envelop-${e.target}`, disabled: game.busy,
      onclick: () => game.act({ action: 'envelop', unit, target: e.target, choice: 'Max' }),
    }, `Envelop ${n.unit(e.target)}`), `envelop-${e.target}`);
  }
  for (const r of ea.reduce || []) {
    add(r, `Reduce (${String(r.flank).toLowerCase()})`, () => h('button', {
      class: 'small', 'data-testid': `reduce-${String(r.flank).toLowerCase()}`, disabled: game.busy,
      onclick: () => game.act({ action: 'reduce', unit, flank: r.flank }),
    }, `Reduce: remove the ${String(r.flank).toLowerCase()} extended marker (free attack if in contact)`), `reduce-${String(r.flank).toLowerCase()}`);
  }
  for (const m of ea.remove_enveloping || []) {
    const key = `${m.enemy}-${typeof m.slot === 'string' ? m.slot : `card${m.slot.Card}`}`;
    add(m, `Remove the marker of ${slotName(m.slot)} on ${n.unit(m.enemy)}`, () => h('button', {
      class: 'small', 'data-testid': `remove-enveloping-${key}`, disabled: game.busy,
      onclick: () => game.act({ action: 'remove_enveloping', unit, enemy: m.enemy, slots: [m.slot] }),
    }, `Remove the enveloping marker of ${slotName(m.slot)} on ${n.unit(m.enemy)} (1 free attack die each)`), `remove-enveloping-${key}`);
  }
  for (const r of ea.reposition90 || []) {
    add(r, `Quarter turn ${r.turn}`, () => h('button', {
      class: 'small', 'data-testid': `reposition-90-${r.turn}`, disabled: game.busy,
      onmouseenter: () => game.previewPose(r.pose), onfocus: () => game.previewPose(r.pose),
      onmouseleave: () => game.previewPose(null), onblur: () => game.previewPose(null),
      onclick: () => game.act({ action: 'reposition90', unit, pose: r.pose }),
    }, `Reposition 90° (${r.turn})`), `reposition-90-${r.turn}`);
  }
  add(ea.reposition180, 'Turn about (180°)', () => h('button', {
    class: 'small', 'data-testid': 'reposition-180', disabled: game.busy,
    onclick: () => game.act({ action: 'reposition180', unit }),
  }, 'Turn about (180°, free attacks for own markers)'), 'reposition-180');
  const w = ea.withdraw;
  add(w, 'Withdraw', () => {
    const input = h('input', {
      type: 'number', min: 0.25, step: 0.25, max: w.max_distance, value: w.max_distance, 'data-testid': 'withdraw-distance',
      'aria-label': 'Withdrawal distance in DU', class: 'num',
    });
    return h('span', { class: 'row' }, h('label', {}, 'Withdraw ', input, ` DU (at most ${num(w.max_distance)})`),
      h('button', {
        class: 'small', 'data-testid': 'withdraw', disabled: game.busy,
        onclick: () => game.act({ action: 'withdraw', unit, distance: Number(input.value) }),
      }, 'Withdraw'));
  }, 'withdraw');
  add(ea.retreat, 'Retreat', () => h('button', {
    class: 'small', 'data-testid': 'retreat', disabled: game.busy,
    onclick: () => game.act({ action: 'retreat', unit }),
  }, 'Retreat (free attacks)'), 'retreat');
  const out = [h('h4', {}, 'Engaged unit (VII-2.D)')];
  out.push(offered.length ? h('div', { class: 'row wrap', 'data-testid': 'engaged-actions' }, offered)
    : h('p', { class: 'muted', 'data-testid': 'no-engaged-action' }, 'No action of VII-2.D is possible for this unit now.'));
  if (refused.length) out.push(h('details', { class: 'refused', 'data-testid': 'engaged-refused' }, h('summary', {}, `Not possible now (${refused.length})`), h('ul', {}, refused)));
  return out;
}

/**
 * Terrain & Fortresses IV–V: what the unit may do to the battlefield's structures now (remove
 * a trench, barricade or caltrops; occupy a village; shoot at, set fire to or put out a
 * structure), each a button for an action the engine lists in `unit_options.structure_actions`.
 */
function structureSection(game) {
  const opts = game.sel.options;
  const acts = opts?.structure_actions || [];
  if (!acts.length) return [];
  const key = (a) => [a.action, a.structure, a.half, a.incendiary].filter((x) => x !== undefined).join('-');
  const button = (o) => h('button', {
    class: 'small', 'data-testid': `structure-action-${key(o.action)}`, disabled: game.busy,
    onclick: () => game.act(o.action),
  }, o.label);
  const attacks = acts.filter((o) => STRUCTURE_ATTACKS.has(o.action.action));
  const others = acts.filter((o) => !STRUCTURE_ATTACKS.has(o.action.action));
  return [h('h4', {}, 'Structures (Terrain & Fortresses)'),
    others.length ? h('div', { class: 'row wrap', 'data-testid': 'structure-actions' }, others.map(button)) : null,
    attacks.length ? h('ul', { class: 'options structure-odds', 'data-testid': 'structure-odds' }, attacks.map((o) => h('li', { 'data-testid': `structure-odds-${key(o.action)}` },
      button(o), ' ', h('span', { class: 'muted' }, structureOddsText(oddsOf(game, opts, o.action), game.names))))) : null];
}

/** The actions that roll an attack on a structure (T&F V), whose exact odds the server gives. */
const STRUCTURE_ATTACKS = new Set(['shoot_structure', 'set_on_fire', 'batter']);

/**
 * T&F V: the exact odds of an attack on a structure the unit may make, as the server's `odds`
 * query answers them (the attack the game would roll): asked once per `unit_options` answer
 * (kept on it, so a new answer after an action asks again); `null` until it comes.
 */
function oddsOf(game, opts, action) {
  opts.structureOdds ||= {};
  const cache = opts.structureOdds;
  const k = JSON.stringify(action);
  if (!(k in cache)) {
    cache[k] = null;
    const done = (r) => { cache[k] = r; if (game.sel?.options === opts) game.render(); };
    game.query({ kind: 'odds', action }).then(done, (e) => done({ error: e.message }));
  }
  return cache[k];
}

/** One line of a structure attack's exact odds (onus-server `odds`, `"fight": "structure"`). */
function structureOddsText(r, names) {
  if (!r) return 'computing the exact odds…';
  if (r.error) return `odds: ${r.error}`;
  const parts = [`${r.needs.dice} dice, ${r.needs.hit}+ to hit, ${r.needs.damage}+ to damage`,
    `expected ${r.fire ? 'Fire markers' : 'damage'} ${num(r.expected_damage, 1)}`];
  if (!r.fire || r.collapses > 0) parts.push(`collapses ${pct(r.collapses)}`);
  if (r.gate_falls > 0) parts.push(`gate falls ${pct(r.gate_falls)}`);
  if (r.misfires?.length > 1) parts.push(`misfires ${pct(1 - r.misfires[0])}`);
  if (r.occupant_unit !== undefined && r.occupant_unit !== null) {
    const wounds = (r.occupant_wounds || []).reduce((s, p, i) => s + p * i, 0);
    const hurt = [`expected wounds ${num(wounds, 1)}`, `morale check ${pct(r.occupant_morale_check)}`];
    if (r.occupant_destroyed > 0) hurt.push(`destroyed ${pct(r.occupant_destroyed)}`);
    parts.push(`${names.unit(r.occupant_unit)} inside: ${hurt.join(', ')}`);
  }
  return `${parts.join(' · ')} (damage so far ${r.damage_before}/${r.durability}; events not included)`;
}

/** VII-1 / VII-6: a unit that recovered from flight turns to face where its player wants. */
function reorientSection(game) {
  const r = game.sel.options?.reorient;
  if (!r) return [];
  const out = [h('h4', {}, 'Face a new direction (VII-6)')];
  if (!r.verdict?.ok) {
    out.push(h('div', { class: 'muted', 'data-testid': 'no-reorient' }, reasonOf(r.verdict)));
    return out;
  }
  const unit = game.sel.unit;
  const turn = (a) => game.act({ action: 'reorient', unit, heading: r.heading + a });
  out.push(h('div', { class: 'row wrap' },
    h('button', { class: 'small', 'data-testid': 'reorient-left', onclick: () => turn(Math.PI / 2) }, 'Face left (90°)'),
    h('button', { class: 'small', 'data-testid': 'reorient-right', onclick: () => turn(-Math.PI / 2) }, 'Face right (90°)'),
    h('button', { class: 'small', 'data-testid': 'reorient-about', onclick: () => turn(Math.PI) }, 'About face (180°)')));
  return out;
}

function shootSection(game) {
  const sel = game.sel;
  const opts = sel.options;
  if (!opts?.shots || game.view.phase !== 'ranged_attack') return [];
  const out = [h('h4', {}, 'Ranged attack')];
  if (!opts.may_shoot) out.push(h('div', { class: 'muted', 'data-testid': 'no-shoot' }, why(opts, 'shoot') || 'This unit cannot shoot now.'));
  if (sel.shot !== undefined && sel.shot !== null) {
    out.push(h('button', { class: 'primary danger', disabled: game.busy || !opts.may_shoot, onclick: () => game.commitShot(), 'data-testid': 'commit-shoot' }, `Shoot ${game.names.unit(sel.shot)}`));
    out.push(oddsView(sel.shotOdds, game.names, 'Exact odds of the shot'));
  }
  out.push(h('label', { class: 'small-label' }, h('input', { type: 'checkbox', checked: !!sel.showRange, 'data-testid': 'show-range', onchange: (e) => { sel.showRange = e.target.checked; game.render(); } }), ' show range rings'));
  out.push(h('ul', { class: 'options', 'data-testid': 'shot-options' }, opts.shots.map((s) => h('li', {},
    s.ok
      ? h('button', {
        class: ['option', sel.shot === s.target && 'chosen'], disabled: !opts.may_shoot, onclick: () => game.pickShot(s.target), 'data-testid': `shoot-${s.target}`,
      }, `${game.names.unit(s.target)} — ${num(s.distance)} DU, ${String(s.band).toLowerCase()} range, ${s.dice} dice${s.los_blocked ? ', line of sight blocked' : ''}${s.in_the_way?.length ? ` (in the way: ${s.in_the_way.map((x) => game.names.unit(x)).join(', ')})` : ''}`)
      : h('div', { class: 'option no', 'data-testid': `no-shot-${s.target}` }, `${game.names.unit(s.target)}: ${s.error}`)))));
  return out;
}

function fightSection(game) {
  const sel = game.sel;
  if (game.view.phase !== 'melee') return [];
  const enemies = game.engagedWith(sel.unit);
  if (!enemies.length) return [];
  const out = [h('h4', {}, 'Melee')];
  out.push(h('ul', { class: 'options' }, enemies.map((e) => h('li', {},
    h('button', { class: ['option', sel.fight === e && 'chosen'], onclick: () => game.pickFight(e), 'data-testid': `fight-${e}` }, `Fight ${game.names.unit(e)}`)))));
  if (sel.fight) {
    out.push(oddsView(sel.fightOdds, game.names, 'Exact odds of the melee'));
    out.push(h('button', { class: 'primary danger', disabled: game.busy, onclick: () => game.commitFight(), 'data-testid': 'commit-fight' }, `Resolve the melee with ${game.names.unit(sel.fight)}`));
  }
  return out;
}

function selectedSection(game) {
  const sel = game.sel;
  const u = game.unit(sel.unit);
  if (!u) return [];
  const out = [unitCard(game, u)];
  const mine = u.owner === game.mySeat;
  if (!mine || !game.myTurnToAct || game.view.pending) return out;
  if (game.view.phase === 'deployment') {
    if (game.view.deployment?.generals) out.push(...generalButtons(game, u.id));
    return out;
  }
  if (sel.optionsError) out.push(h('div', { class: 'muted' }, sel.optionsError));
  if (!sel.options) {
    out.push(h('div', { class: 'muted', 'data-testid': 'options-loading' }, 'Asking the engine what this unit can do…'));
    return out;
  }
  const phase = game.view.phase;
  if (phase === 'movement' || phase === 'skirmishers') {
    const charge = chargeSection(game);
    if (sel.charge) out.push(...charge);
    if (sel.options.may_move || (phase === 'skirmishers' && sel.options.left > 0)) {
      if (!sel.charge) out.push(...moveSection(game));
    } else out.push(h('div', { class: 'muted', 'data-testid': 'no-move' }, why(sel.options, 'move') || 'This unit cannot move now.'));
    if (!sel.charge) out.push(...charge);
    out.push(...engagedSection(game));
  }
  out.push(...reorientSection(game));
  out.push(...structureSection(game));
  out.push(...shootSection(game));
  out.push(...fightSection(game));
  if (phase === 'flight' && u.state?.fleeing) {
    out.push(h('button', { class: 'primary', onclick: () => game.act({ action: 'flight_check', unit: u.id }), 'data-testid': `panel-flight-check-${u.id}` }, 'Flight check'));
  }
  return out;
}

function generalButtons(game, unitId) {
  const me = game.me();
  return (me?.generals || []).map((g, i) => g.unit === null || g.unit === undefined
    ? h('button', { class: 'primary', onclick: () => game.placeGeneral(i, unitId), 'data-testid': `place-general-${i}` }, `Place ${g.card.name} with this unit`)
    : null);
}

/** T&F VI "Deployment": a zone to choose in words, its number and the side it attacks from
 *  (the table edge the engine says the choice would make the player's, `zone_choice_edges`). */
export function zoneChoiceName(choice, edge, capital = false) {
  return `${capital ? 'Zone' : 'zone'} ${choice + 1}${edge ? ` (${String(edge).toLowerCase()} side)` : ''}`;
}

function deploymentSection(game) {
  const v = game.view;
  const me = game.me();
  const out = [];
  if (!me) return out;
  const choices = me.zone_choices || [];
  if (v.deployment?.units && choices.length) {
    // T&F VI "Deployment": the attacker chooses its zone among those the engine lists.
    out.push(h('h3', {}, 'Deployment'));
    out.push(h('p', { class: 'muted' }, 'The defender has deployed: choose the zone you attack from (T&F VI Deployment).'));
    // Pointing at a choice (or focusing it) brings out its zone on the table.
    const mark = (i, on) => document.querySelector(`[data-testid=zone-${me.seat}-choice-${i}]`)?.classList.toggle('pointed', on);
    out.push(h('ul', { class: 'options', 'data-testid': 'zone-choices' }, choices.map((z, i) => h('li', {},
      h('button', {
        class: 'option', disabled: !game.myTurnToAct || game.busy, onclick: () => game.act({ action: 'choose_zone', zone: i }), 'data-testid': `choose-zone-${i}`,
        onmouseenter: () => mark(i, true), onmouseleave: () => mark(i, false), onfocus: () => mark(i, true), onblur: () => mark(i, false),
      }, `${zoneChoiceName(i, me.zone_choice_edges?.[i], true)}: x ${z.x0}–${z.x1}, y ${z.y0}–${z.y1}`)))));
  } else if (v.deployment?.units) {
    out.push(h('h3', {}, 'Deployment'));
    out.push(h('p', { class: 'muted' }, 'Place your units face down in your zone, one at a time in turn (VI).'));
    const sel = game.sel?.mode === 'deploy' ? game.sel : null;
    out.push(h('ul', { class: 'options', 'data-testid': 'reserve' }, (me.reserve || []).map((r) => h('li', {},
      h('button', {
        class: ['option', sel?.unit === r.id && 'chosen'], disabled: !game.myTurnToAct, onclick: () => game.pickReserve(r.id), 'data-testid': `reserve-${r.id}`,
        'aria-pressed': sel?.unit === r.id ? 'true' : 'false',
      }, `${r.card.name} #${r.id}${r.rank && r.rank !== 'regular' ? ` (${r.rank})` : ''} — ${r.card.attack.hit}/${r.card.attack.damage}, ${r.card.defense.dodge}/${r.card.defense.armor}, M${r.card.morale}`)))));
    // T&F VI "Deployment": the attacker's siege units' markers, placed as it deploys: the
    // engine lists those this seat may place (`siege_engines`) and judges each place.
    const placeable = new Set(v.siege_engines || []);
    const engines = (v.terrain?.structures || []).filter((st) => placeable.has(st.id));
    if (engines.length) {
      out.push(h('h4', {}, 'Siege engines'));
      out.push(h('p', { class: 'muted' }, 'Place your rams and siege towers in your zone as you deploy (T&F VI Deployment); those you leave stay where the battlefield lays them.'));
      out.push(h('ul', { class: 'options', 'data-testid': 'siege-engines' }, engines.map((st) => h('li', {},
        h('button', {
          class: ['option', sel?.engine === st.id && 'chosen'], disabled: !game.myTurnToAct, onclick: () => game.pickEngine(st.id), 'data-testid': `engine-${st.id}`,
          'aria-pressed': sel?.engine === st.id ? 'true' : 'false',
        }, `${st.name || words(st.kind)} (${words(st.kind)})`)))));
    }
    if (sel?.engine) {
      out.push(h('div', { class: 'row' },
        h('button', { class: 'small', onclick: () => game.rotateGhost(15), 'data-testid': 'deploy-rotate-left', 'aria-label': 'Rotate left 15 degrees' }, '⟲ Q'),
        h('button', { class: 'small', onclick: () => game.rotateGhost(-15), 'data-testid': 'deploy-rotate-right', 'aria-label': 'Rotate right 15 degrees' }, 'E ⟳'),
        h('button', { class: 'primary', disabled: !game.myTurnToAct || game.busy || !game.ghost?.verdict?.ok, onclick: () => game.commitDeploy(), 'data-testid': 'commit-engine' }, 'Place here')));
    } else if (sel) {
      const r = me.reserve.find((x) => x.id === sel.unit);
      out.push(h('div', { class: 'row wrap' },
        r?.card?.formations?.length ? h('label', {}, 'Formation ', h('select', {
          'data-testid': 'deploy-formation', onchange: (e) => { sel.formation = e.target.value; },
        }, h('option', { value: '' }, 'none'), r.card.formations.map((f) => h('option', { value: f, selected: sel.formation === f }, words(f))))) : null,
        h('label', {}, h('input', { type: 'checkbox', checked: sel.extendLeft, 'data-testid': 'deploy-extend-left', onchange: (e) => { sel.extendLeft = e.target.checked; game.ghost.extended.left = e.target.checked; game.renderGhost(); } }), ' extend left'),
        h('label', {}, h('input', { type: 'checkbox', checked: sel.extendRight, 'data-testid': 'deploy-extend-right', onchange: (e) => { sel.extendRight = e.target.checked; game.ghost.extended.right = e.target.checked; game.renderGhost(); } }), ' extend right')));
      out.push(h('div', { class: 'row' },
        h('button', { class: 'small', onclick: () => game.rotateGhost(15), 'data-testid': 'deploy-rotate-left', 'aria-label': 'Rotate left 15 degrees' }, '⟲ Q'),
        h('button', { class: 'small', onclick: () => game.rotateGhost(-15), 'data-testid': 'deploy-rotate-right', 'aria-label': 'Rotate right 15 degrees' }, 'E ⟳'),
        h('button', { class: 'primary', disabled: !game.myTurnToAct || game.busy, onclick: () => game.commitDeploy(), 'data-testid': 'commit-deploy' }, 'Deploy here')));
    }
  } else if (v.deployment?.generals) {
    out.push(h('h3', {}, 'Generals'));
    const waiting = (me.generals || []).filter((g) => g.unit === null || g.unit === undefined);
    out.push(h('p', { class: 'muted' }, waiting.length ? 'Select the unit that carries your General (IV), then place it.' : 'Your Generals are placed.'));
  }
  return out;
}

function orderSection(game) {
  const o = game.order;
  const card = game.names.card(o.card);
  const type = card?.order?.type;
  const id = card?.order?.id || '';
  const text = `${card?.order?.text || ''}`.toLowerCase();
  const wantsUnits = ['activation', 'morale', 'health'].includes(type) || id.includes('general');
  const wantsCards = /discard|cards? from your hand/.test(text) && !/draw \d cards\.$/.test(text);
  const wantsTo = id.includes('transfer');
  const myUnits = game.view.units.filter((u) => u.owner === game.mySeat);
  const me = game.me();
  const out = [h('h3', {}, `Play “${card?.order?.title || o.card}”`), h('p', { class: 'order-text' }, card?.order?.text || '')];
  if (wantsUnits) {
    out.push(h('p', { class: 'muted' }, `Click your units on the table, or tick them (${o.units.size} chosen):`));
    out.push(h('ul', { class: 'checks', 'data-testid': 'order-units' }, myUnits.map((u) => h('li', {},
      h('label', {}, h('input', {
        type: 'checkbox', checked: o.units.has(u.id), 'data-testid': `order-unit-${u.id}`, onchange: () => game.toggleOrderUnit(u.id),
      }), ` ${game.names.unit(u.id)}${u.state?.fleeing ? ' (fleeing)' : u.state?.broken ? ' (broken)' : ''}${u.turn?.activated ? ' (active)' : ''}`),
      u.state?.broken && o.units.has(u.id) ? h('label', { class: 'sub' }, h('input', {
        type: 'checkbox', checked: o.reorganise.has(u.id), 'data-testid': `order-reorganise-${u.id}`,
        onchange: (e) => { if (e.target.checked) o.reorganise.add(u.id); else o.reorganise.delete(u.id); },
      }), ' try to reorganise (morale check)') : null))));
  }
  if (wantsTo) {
    out.push(h('label', {}, 'Transfer the General to ', h('select', { 'data-testid': 'order-to', onchange: (e) => { o.to = e.target.value === '' ? null : Number(e.target.value); } },
      h('option', { value: '' }, '—'), myUnits.map((u) => h('option', { value: u.id, selected: o.to === u.id }, game.names.unit(u.id))))));
  }
  if (wantsCards) {
    out.push(h('p', { class: 'muted' }, 'Cards for this order:'));
    out.push(h('ul', { class: 'checks', 'data-testid': 'order-cards' }, (me?.hand || []).filter((c) => c !== o.card).map((c) => h('li', {},
      h('label', {}, h('input', { type: 'checkbox', checked: o.cards.has(c), onchange: (e) => { if (e.target.checked) o.cards.add(c); else o.cards.delete(c); } }),
        ` ${game.names.orderTitle(c)} / ${game.names.eventTitle(c)}`)))));
  }
  out.push(h('div', { class: 'row' },
    h('button', { class: 'primary', disabled: game.busy, onclick: () => game.commitOrder(), 'data-testid': 'commit-order' }, 'Play the order'),
    h('button', { onclick: () => game.cancelOrder(), 'data-testid': 'cancel-order' }, 'Cancel')));
  return out;
}

/**
 * XII-A "Advancing in line": discard 2 cards to activate a line of units (the engine checks
 * the line: same facing, side by side; its refusal is shown as it says).
 */
function lineSection(game) {
  const l = game.line;
  const me = game.me();
  const myUnits = game.view.units.filter((u) => u.owner === game.mySeat);
  const out = [h('h3', {}, 'Advance in line (XII-A)'),
    h('p', { class: 'muted' }, `Discard 2 cards (${l.cards.size} chosen) to activate a line of units (${l.units.size} chosen); the line moves as far as its slowest unit.`)];
  out.push(h('ul', { class: 'checks', 'data-testid': 'line-units' }, myUnits.map((u) => h('li', {},
    h('label', {}, h('input', {
      type: 'checkbox', checked: l.units.has(u.id), 'data-testid': `line-unit-${u.id}`, onchange: () => game.toggleLineUnit(u.id),
    }), ` ${game.names.unit(u.id)}`)))));
  out.push(h('p', { class: 'muted' }, 'Cards to discard:'));
  out.push(h('ul', { class: 'checks', 'data-testid': 'line-cards' }, (me?.hand || []).map((c) => h('li', {},
    h('label', {}, h('input', {
      type: 'checkbox', checked: l.cards.has(c), 'data-testid': `line-card-${c}`,
      onchange: (e) => { if (e.target.checked) l.cards.add(c); else l.cards.delete(c); game.render(); },
    }), ` ${game.names.orderTitle(c)} / ${game.names.eventTitle(c)}`)))));
  out.push(h('div', { class: 'row' },
    h('button', { class: 'primary', disabled: game.busy || l.cards.size !== 2 || !l.units.size, onclick: () => game.commitLine(), 'data-testid': 'commit-line' }, 'Advance in line'),
    h('button', { onclick: () => game.cancelLine(), 'data-testid': 'cancel-line' }, 'Cancel')));
  return out;
}

/**
 * XII-A "Always-active general": the one additional unit a General with the always-active
 * ability activates each turn, while the view says it is still open (`free_activation`);
 * offered only for the units `check_action` accepts (asked once per version of the game).
 */
function freeActivationSection(game) {
  const fa = game.freeActivation;
  if (!fa || fa.version !== game.version) {
    const version = game.version;
    game.freeActivation = { version, offered: null };
    const mine = game.view.units.filter((u) => u.owner === game.mySeat && !u.turn?.activated);
    Promise.all(mine.map((u) => game.query({ kind: 'check_action', action: { action: 'free_activation', unit: u.id, reorganise: false } })
      .then((r) => (r.ok ? u.id : null), () => null)))
      .then((ids) => {
        if (game.freeActivation?.version !== version) return;
        const offered = ids.filter((x) => x !== null);
        game.freeActivation = { version, offered, unit: offered[0] ?? null };
        if (offered.length) game.render();
      });
    return [];
  }
  if (!fa.offered?.length) return [];
  const chosen = game.unit(fa.unit);
  const reorganise = { on: !!chosen?.state?.broken };
  return [h('h3', {}, 'Always-active General (XII-A)'),
    h('p', { class: 'muted' }, 'Your General activates one additional unit this turn, without an order.'),
    h('div', { class: 'row wrap', 'data-testid': 'free-activation' },
      h('select', {
        'data-testid': 'free-unit', 'aria-label': 'The additional unit',
        onchange: (e) => { fa.unit = Number(e.target.value); game.render(); },
      }, fa.offered.map((id) => h('option', { value: id, selected: id === fa.unit }, game.names.unit(id)))),
      chosen?.state?.broken ? h('label', {}, h('input', { type: 'checkbox', checked: true, 'data-testid': 'free-reorganise', onchange: (e) => { reorganise.on = e.target.checked; } }), ' try to reorganise') : null,
      h('button', {
        class: 'primary', disabled: game.busy, 'data-testid': 'free-activate',
        onclick: () => game.act({ action: 'free_activation', unit: fa.unit, reorganise: reorganise.on }),
      }, 'Activate this unit'))];
}

/** Lists for when nothing is selected: fights to resolve, fleeing units, units to pick. */
function overview(game) {
  const v = game.view;
  const out = [];
  const mine = v.units.filter((u) => u.owner === game.mySeat);
  // The melees are the active side's to resolve (VII-5), not the defender's answering events.
  if (game.myTurnToAct && v.phase === 'melee' && !v.pending && (v.group?.length ? v.group : [v.active]).includes(game.mySeat)) {
    const fights = [];
    for (const e of v.engagements || []) {
      const a = game.unit(e.a);
      const b = game.unit(e.b);
      if (!a || !b) continue;
      const own = a.owner === game.mySeat ? a : b.owner === game.mySeat ? b : null;
      const enemy = own === a ? b : a;
      if (own) fights.push([own, enemy]);
    }
    // Fights already resolved in this Melee Phase (the engine refuses them again).
    const log = v.log || [];
    let start = 0;
    for (let i = log.length - 1; i >= 0; i--) if (log[i].event === 'phase_started') { start = i; break; }
    const done = new Set(log.slice(start).filter((e) => e.event === 'fight_resolved').map((e) => `${e.attacker}-${e.defender}`));
    const open = fights.filter(([a, b]) => !done.has(`${a.id}-${b.id}`));
    out.push(h('h3', {}, 'Melees to resolve'));
    out.push(open.length
      ? h('ul', { class: 'options', 'data-testid': 'fight-list' }, open.map(([a, b]) => h('li', {},
        h('button', { class: 'option', onclick: () => game.pickFight(b.id, a.id), 'data-testid': `fight-pair-${a.id}-${b.id}` }, `${game.names.unit(a.id)} vs ${game.names.unit(b.id)}`))))
      : h('p', { class: 'muted', 'data-testid': 'no-fights' }, fights.length ? 'Every melee is resolved: end the phase.' : 'No melee: end the phase.'));
  }
  if (game.myTurnToAct && v.phase === 'activation' && v.options?.advancing_in_line && (game.me()?.hand || []).length >= 2) {
    out.push(h('h3', {}, 'Optional rule'));
    out.push(h('button', { class: 'option', onclick: () => game.startLine(), 'data-testid': 'start-line' }, 'Advance in line: discard 2 cards to activate a line (XII-A)'));
  }
  if (game.myTurnToAct && v.phase === 'activation' && v.free_activation) out.push(...freeActivationSection(game));
  if (game.myTurnToAct && v.phase === 'flight') {
    const fleeing = mine.filter((u) => u.state?.fleeing);
    out.push(h('h3', {}, 'Fleeing units'));
    out.push(fleeing.length
      ? h('ul', { class: 'options' }, fleeing.map((u) => h('li', {},
        h('button', { class: 'option', onclick: () => game.act({ action: 'flight_check', unit: u.id }), 'data-testid': `panel-flight-check-${u.id}` }, `Flight check: ${game.names.unit(u.id)}`))))
      : h('p', { class: 'muted' }, 'None of your units is fleeing.'));
  }
  if (!game.spectator && mine.length) {
    out.push(h('h3', {}, 'Your units'));
    out.push(h('ul', { class: 'unit-list', 'data-testid': 'my-units' }, mine.map((u) => h('li', {},
      h('button', { class: 'linkish', onclick: () => game.select(u.id), 'data-testid': `select-${u.id}` },
        `${game.names.unit(u.id)}${u.turn?.activated ? ' · active' : ''}${u.state?.fleeing ? ' · fleeing' : u.state?.broken ? ' · broken' : ''}${u.state?.wounds ? ` · ${u.state.wounds}w` : ''}`)))));
  }
  if (game.spectator) out.push(h('p', { class: 'muted', 'data-testid': 'spectator-note' }, 'You are a spectator: face-down cards and hands stay hidden.'));
  return out;
}

export function renderPanel(game, el) {
  const v = game.view;
  if (!v) return;
  let parts;
  if (game.order) parts = orderSection(game);
  else if (game.line) parts = lineSection(game);
  else if (v.phase === 'deployment' && !game.spectator && (game.sel?.mode === 'deploy' || !game.sel)) parts = [...deploymentSection(game), ...(game.sel ? [] : overview(game))];
  else if (game.sel) parts = [h('button', { class: 'small close-sel', onclick: () => game.deselect(), 'aria-label': 'Clear the selection', 'data-testid': 'deselect' }, '×'), ...selectedSection(game)];
  else parts = overview(game);
  const scroll = el.scrollTop;
  replace(el, parts);
  el.scrollTop = scroll;
}

// ---- decision dialogs ----------------------------------------------------------------

function randomEventOf(pending) {
  const r = pending.random;
  if (!r || r === 'none') return null;
  if (r.drawn !== undefined) return r.drawn;
  if (r.redrawn) return r.redrawn.replacement;
  if (r.elite_draw_two) return r.elite_draw_two.drawn?.[r.elite_draw_two.chosen ?? 0] ?? null;
  return null;
}

function fightTitle(game, f) {
  const k = f.kind;
  if (k.structure) return `Attack on ${k.structure.name}: ${game.names.unit(k.structure.attacker)}`;
  if (k.ranged) return `Shot: ${game.names.unit(k.ranged.shooter)} → ${game.names.unit(k.ranged.target)}`;
  if (k.melee) return `Melee: ${game.names.unit(k.melee.attacker)} → ${game.names.unit(k.melee.defender)}${k.melee.charge ? ' (charge)' : ''}`;
  return 'Fight';
}

/** XI "Elite": the elite side drew two random events and keeps one of them. */
function eliteKeepDialog(game, f) {
  const first = f.random?.drawn;
  const second = f.elite_second;
  const keep = async (card) => { await game.act({ action: 'keep_random_event', card }); };
  const option = (c, i) => h('div', { class: 'elite-option' },
    cardView(game.names.card(c), c, { testid: `elite-card-${c}` }),
    h('button', { class: 'primary', 'data-testid': `keep-event-${i}`, 'data-card': c, onclick: () => keep(c) }, `Keep “${game.names.eventTitle(c)}”`));
  return {
    title: `${fightTitle(game, f)}: keep one random event (XI Elite)`,
    testid: 'elite-dialog',
    body: [
      h('p', {}, 'Your elite unit drew two random events: keep one, the other is set aside.'),
      h('div', { class: 'hand-row' }, option(first, 0), option(second, 1)),
    ],
  };
}

/**
 * A fight's events for the seat whose stage it is. Every control is one the engine accepts
 * now (the `choices` query): the cards it would accept played, voluntary flight, the
 * veteran's redraw and the elite's second event only when open; a combination of cards is
 * checked with `check_action` before it can be sent.
 */
function eventsDialog(game, f) {
  const picked = new Set();
  const flee = { on: false };
  const redraw = { on: false };
  const random = randomEventOf(f);
  const role = f.stage === 'attacker_events' ? 'attacker' : 'defender';
  const oddsBox = h('div', {}, oddsView(null, game.names));
  const eliteBox = h('div', { class: 'row' });
  const handBox = h('div', { 'data-testid': 'event-choices' }, h('p', { class: 'muted' }, 'Asking the rules which choices are open…'));
  const optionsBox = h('div', { class: 'row wrap' });
  const verdict = h('div', { class: 'verdict', 'data-testid': 'events-verdict', role: 'status' });
  const play = h('button', { class: 'primary', disabled: true, onclick: () => submit(false), 'data-testid': 'play-events' }, 'Play the chosen events');
  const action = (none) => ({ action: 'play_events', cards: none ? [] : [...picked], redraw: redraw.on, flee_if_wounded: flee.on });
  let asked = 0;
  const check = () => {
    play.disabled = true;
    if (!picked.size && !redraw.on && !flee.on) { replace(verdict, ''); verdict.className = 'verdict'; return; }
    const n = ++asked;
    game.query({ kind: 'check_action', action: action(false) }).then((v) => {
      if (n !== asked) return;
      verdict.className = `verdict ${v.ok ? 'ok' : 'bad'}`;
      replace(verdict, v.ok ? 'The rules accept this choice.' : reasonOf(v));
      play.disabled = !v.ok;
    }, (e) => replace(verdict, e.message));
  };
  game.query({ kind: 'choices' }).then((c) => {
    if (c.decision !== 'events') { replace(handBox, h('p', { class: 'muted' }, 'Nothing to choose now.')); return; }
    const ok = (x) => x?.verdict?.ok === true;
    if (ok(c.elite_draw_two)) {
      replace(eliteBox, h('button', {
        'data-testid': 'elite-draw-two', onclick: () => game.act({ action: 'elite_draw_two' }),
      }, 'Draw a second random event and keep one (elite, XI)'));
    }
    const playable = (c.cards || []).filter(ok).map((x) => x.action.cards[0]);
    const refused = (c.cards || []).filter((x) => !ok(x));
    replace(handBox,
      playable.length
        ? h('div', { class: 'hand-row picks' }, playable.map((id) => cardView(game.names.card(id), id, {
          selectable: true, testid: `event-card-${id}`, onToggle: (card, on) => { if (on) picked.add(card); else picked.delete(card); check(); },
        })))
        : h('p', { class: 'muted', 'data-testid': 'no-playable-event' }, 'No card of your hand can be played in this fight.'),
      refused.length
        ? h('details', { class: 'muted' }, h('summary', {}, `Not playable here (${refused.length})`),
          h('ul', {}, refused.map((x) => h('li', { 'data-testid': `event-refused-${x.action.cards[0]}` }, `${game.names.eventTitle(x.action.cards[0])}: `, reasonOf(x.verdict)))))
        : null);
    replace(optionsBox,
      ok(c.flee_if_wounded) ? h('label', {}, h('input', { type: 'checkbox', 'data-testid': 'flee-if-wounded', onchange: (e) => { flee.on = e.target.checked; check(); } }), ' flee voluntarily if wounded (VII-5)') : null,
      ok(c.redraw) ? h('label', {}, h('input', { type: 'checkbox', 'data-testid': 'redraw', onchange: (e) => { redraw.on = e.target.checked; check(); } }), ' redraw the random event (veterans, XI)') : null);
  }, (e) => replace(handBox, h('p', { class: 'bad' }, e.message)));
  if (f.kind.structure) {
    replace(oddsBox, h('p', { class: 'muted' }, 'An attack on a structure: the defender plays no event, and only what acts on your roll applies (T&F V "Events").'));
  } else {
    game.query({ kind: 'odds', pending: true }).then((r) => replace(oddsBox, oddsView(r, game.names, 'Exact odds of this fight')),
      (e) => replace(oddsBox, oddsView({ error: e.message }, game.names)));
  }
  const submit = async (none) => {
    if (await game.act(action(none))) game.closeDialog();
  };
  return {
    title: fightTitle(game, f),
    testid: 'events-dialog',
    body: [
      h('p', {}, `You are the ${role}. ${f.no_random ? 'No random event in this fight.' : ''}`),
      random !== null ? h('div', { class: 'random-event', 'data-testid': 'random-event' }, h('b', {}, 'Random event: '), `${game.names.eventTitle(random)} — ${game.names.card(random)?.event?.text || ''}`) : null,
      f.attacker_cards?.length && role === 'defender' ? h('div', {}, h('b', {}, 'The attacker played: '), f.attacker_cards.map((c) => game.names.eventTitle(c)).join(', ')) : null,
      eliteBox,
      oddsBox,
      h('h3', {}, 'Events from your hand'),
      handBox,
      optionsBox,
      verdict,
      h('div', { class: 'row' },
        play,
        h('button', { onclick: () => submit(true), 'data-testid': 'no-events' }, 'No event')),
    ],
  };
}

function sideDialog(game, f) {
  const sides = f.kind.ranged?.sides || [];
  return {
    title: 'Which side do the shots come from?',
    testid: 'side-dialog',
    body: [
      h('p', {}, `${fightTitle(game, f)}. Both sides are as near: you decide (VII-3).`),
      h('div', { class: 'row' }, sides.map((s) => h('button', {
        class: 'primary', 'data-testid': `side-${s}`, onclick: async () => { if (await game.act({ action: 'choose_side', side: s })) game.closeDialog(); },
      }, `${s} side`))),
    ],
  };
}

function handLimitDialog(game, p) {
  const me = game.me();
  const picked = new Set();
  const count = h('span', { 'data-testid': 'discard-count' }, `0 / ${p.excess}`);
  return {
    title: `Discard ${p.excess} card${p.excess === 1 ? '' : 's'}`,
    testid: 'hand-limit-dialog',
    body: [
      h('p', {}, 'Your hand is over your General\'s leadership (V, VII-7).'),
      h('div', { class: 'hand-row picks' }, (me?.hand || []).map((c) => cardView(game.names.card(c), c, {
        selectable: true, testid: `discard-card-${c}`,
        onToggle: (id, on) => { if (on) picked.add(id); else picked.delete(id); replace(count, `${picked.size} / ${p.excess}`); },
      }))),
      h('div', { class: 'row' }, count, h('button', {
        class: 'primary', 'data-testid': 'discard-excess',
        onclick: async () => { if (await game.act({ action: 'discard_excess', cards: [...picked] })) game.closeDialog(); },
      }, 'Discard')),
    ],
  };
}

/** VII-7: the end-of-turn draw; only the draws the engine accepts now (`choices`). */
function drawDialog(game) {
  const me = game.me();
  const picked = new Set();
  const send = async (choice) => { if (await game.act({ action: 'draw', choice })) game.closeDialog(); };
  const box = h('div', { 'data-testid': 'draw-choices' }, h('p', { class: 'muted' }, 'Asking the rules which draws are open…'));
  game.query({ kind: 'choices' }).then((c) => {
    if (c.decision !== 'draw') { replace(box, h('p', { class: 'muted' }, 'Nothing to draw now.')); return; }
    const ok = (x) => x?.verdict?.ok === true;
    const played = ok(c.order_played);
    replace(box,
      h('p', {}, played ? 'You played an order this turn: draw 1 card (VII-7).' : 'You played no order this turn: draw 3, or discard any cards and draw as many plus 1 (VII-7).'),
      h('div', { class: 'row wrap' },
        played ? h('button', { class: 'primary', 'data-testid': 'draw-order-played', onclick: () => send('order_played') }, 'Draw 1') : null,
        ok(c.draw_three) ? h('button', { class: 'primary', 'data-testid': 'draw-three', onclick: () => send('draw_three') }, 'Draw 3') : null,
        ok(c.discard) ? h('button', { 'data-testid': 'draw-discard', onclick: () => send({ discard: [...picked] }) }, 'Discard the chosen cards, draw as many + 1') : null),
      ok(c.discard) ? h('div', { class: 'hand-row picks' }, (me?.hand || []).map((id) => cardView(game.names.card(id), id, {
        selectable: true, testid: `draw-discard-${id}`, onToggle: (card, on) => (on ? picked.add(card) : picked.delete(card)),
      }))) : null);
  }, (e) => replace(box, h('p', { class: 'bad' }, e.message)));
  return {
    title: 'End of turn: draw',
    testid: 'draw-dialog',
    body: [box],
  };
}

/**
 * VII-7 / XII-B: after the draw, a player with team-mates in the battle gives them cards
 * (any number, as often as wanted), then finishes the turn; the hand limits are checked
 * after. The giving controls appear only when `check_action` says a gift is possible now;
 * each choice is checked again before Give is enabled.
 */
function giveDialog(game) {
  const me = game.me();
  const hand = me?.hand || [];
  const mates = game.view.players.filter((p) => p.seat !== game.mySeat && p.team === me?.team && !p.defeated);
  const picked = new Set();
  const choice = { to: mates[0]?.seat ?? null };
  const box = h('div', { 'data-testid': 'give-box' });
  const verdict = h('div', { class: 'verdict', 'data-testid': 'give-verdict', role: 'status' }, 'Choose the cards to give.');
  const give = h('button', {
    class: 'primary', disabled: true, 'data-testid': 'give-cards',
    onclick: async () => { if (await game.act({ action: 'give_cards', to: choice.to, cards: [...picked] })) game.closeDialog(); },
  }, 'Give');
  let asked = 0;
  const check = () => {
    give.disabled = true;
    if (!picked.size) { replace(verdict, 'Choose the cards to give.'); verdict.className = 'verdict'; return; }
    const n = ++asked;
    game.query({ kind: 'check_action', action: { action: 'give_cards', to: choice.to, cards: [...picked] } }).then((v) => {
      if (n !== asked) return;
      verdict.className = `verdict ${v.ok ? 'ok' : 'bad'}`;
      replace(verdict, v.ok ? `${game.names.shortSeat(choice.to)} receives ${picked.size} card${picked.size === 1 ? '' : 's'}.` : reasonOf(v));
      give.disabled = !v.ok;
    }, (e) => replace(verdict, e.message));
  };
  if (mates.length && hand.length) {
    game.query({ kind: 'check_action', action: { action: 'give_cards', to: mates[0].seat, cards: [hand[0]] } }).then((v) => {
      if (!v.ok) return;
      replace(box,
        h('label', {}, 'Give to ', h('select', {
          'data-testid': 'give-to', onchange: (e) => { choice.to = Number(e.target.value); check(); },
        }, mates.map((p) => h('option', { value: p.seat }, `${game.names.shortSeat(p.seat)} (${p.hand_count} card${p.hand_count === 1 ? '' : 's'}, limit ${p.leadership})`)))),
        h('div', { class: 'hand-row picks' }, hand.map((c) => cardView(game.names.card(c), c, {
          selectable: true, testid: `give-card-${c}`, onToggle: (id, on) => { if (on) picked.add(id); else picked.delete(id); check(); },
        }))),
        verdict, h('div', { class: 'row' }, give));
    }, () => {});
  }
  return {
    title: 'End of turn: give cards to your team-mates',
    testid: 'give-dialog',
    body: [
      h('p', {}, 'You may give action cards to your team-mates (VII-7, XII-B); then finish the turn. The hand limits are checked after: the receiver discards any excess.'),
      box,
      h('div', { class: 'row' }, h('button', {
        'data-testid': 'give-done', onclick: async () => { if (await game.act({ action: 'end_phase' })) game.closeDialog(); },
      }, 'Finish the turn')),
    ],
  };
}

/** Own fleeing units still due a recovery check in this Flight Phase (VII-6), from the log. */
export function flightDue(game) {
  const v = game.view;
  if (v.phase !== 'flight') return [];
  const log = v.log || [];
  let start = 0;
  for (let i = log.length - 1; i >= 0; i--) if (log[i].event === 'phase_started') { start = i; break; }
  const done = new Set();
  for (const e of log.slice(start)) {
    if (['morale_check', 'unit_rallied', 'flight_move', 'flight_blocked', 'unit_removed'].includes(e.event)) done.add(e.unit);
  }
  return v.units.filter((u) => u.owner === game.mySeat && u.state?.fleeing && !u.turn?.fled_this_turn && !done.has(u.id));
}

function flightDialog(game, due) {
  return {
    title: 'Flight phase: recovery checks (VII-6)',
    testid: 'flight-dialog',
    body: [
      h('p', {}, 'Each of your fleeing units makes a morale check, in the order you choose: passed, it stops fleeing and may face where you want; failed, it flees on towards your edge.'),
      h('ul', { class: 'options' }, due.map((u) => h('li', {}, h('button', {
        class: 'option', 'data-testid': `flight-check-${u.id}`,
        onclick: () => game.act({ action: 'flight_check', unit: u.id }),
      }, `Recovery check: ${game.names.unit(u.id)} (morale ${u.card.morale}, ${u.state.wounds} wound${u.state.wounds === 1 ? '' : 's'})`)))),
      h('div', { class: 'row' }, h('button', { 'data-testid': 'flight-end-phase', onclick: () => { game.closeDialog(); game.endPhase(); } }, 'End the flight phase')),
    ],
  };
}

/**
 * T&F V "Events": an attack on a structure waiting for its attacker's events, shown as the
 * attacker's stage of a fight (the same dialogs; the engine's `choices` say what is open).
 */
function structureEventsDialog(game, d) {
  const a = d.attack;
  const f = {
    stage: 'attacker_events',
    random: a.random,
    elite_second: a.elite_second,
    no_random: a.random === 'none',
    kind: { structure: { attacker: a.attacker, name: a.setup?.target?.name || a.structure } },
  };
  return a.elite_second != null ? eliteKeepDialog(game, f) : eventsDialog(game, f);
}

/**
 * T&F V "Artillery", "Fail": the enemy's artillery misfired and several of its own units
 * stand within 2 DU: this seat chooses the one struck (the units the engine accepts).
 */
function misfireDialog(game, d) {
  const box = h('div', { class: 'row wrap', 'data-testid': 'misfire-choices' }, h('p', { class: 'muted' }, 'Asking the rules…'));
  game.query({ kind: 'choices' }).then((c) => {
    const units = (c.units || []).filter((x) => x?.verdict?.ok === true).map((x) => x.action.unit);
    replace(box, units.map((u) => h('button', {
      class: 'primary', 'data-testid': `misfire-victim-${u}`,
      onclick: async () => { if (await game.act({ action: 'choose_misfire_victim', unit: u })) game.closeDialog(); },
    }, game.names.unit(u))));
  }, (e) => replace(box, h('p', { class: 'bad' }, e.message)));
  return {
    title: `${game.names.unit(d.shooter)} misfired`,
    testid: 'decision-dialog',
    body: [
      h('p', {}, `${d.misfires} misfire${d.misfires === 1 ? '' : 's'}: choose which of its friendly units within 2 DU is struck (T&F V "Artillery").`),
      box,
    ],
  };
}

/**
 * T&F V "Razing structures": a burning structure collapsed and its Fire markers did not
 * divide evenly: the defender names where the leftovers go, one on each (checked with the
 * engine before it is sent).
 */
function placeFireDialog(game, d) {
  const picked = new Set();
  const verdict = h('div', { class: 'verdict', 'data-testid': 'place-fire-verdict', role: 'status' });
  const send = h('button', { class: 'primary', disabled: true, 'data-testid': 'place-fire' }, 'Place the fire');
  const action = () => ({ action: 'place_fire', structures: [...picked] });
  const check = () => {
    send.disabled = true;
    game.query({ kind: 'check_action', action: action() }).then((v) => {
      verdict.className = `verdict ${v.ok ? 'ok' : 'bad'}`;
      replace(verdict, v.ok ? 'The rules accept this choice.' : reasonOf(v));
      send.disabled = !v.ok;
    }, (e) => replace(verdict, e.message));
  };
  send.onclick = async () => { if (await game.act(action())) game.closeDialog(); };
  const boxes = (d.neighbours || []).map((id) => h('label', {},
    h('input', { type: 'checkbox', 'data-testid': `place-fire-${id}`, onchange: (e) => { if (e.target.checked) picked.add(id); else picked.delete(id); check(); } }),
    ` ${id}`));
  return {
    title: `${d.from} collapsed: place ${d.leftover} Fire marker${d.leftover === 1 ? '' : 's'}`,
    testid: 'decision-dialog',
    body: [
      h('p', {}, 'Its Fire markers spread evenly to the structures in contact; you choose where the leftovers go, one on each (T&F V "Razing structures").'),
      h('div', { class: 'row wrap' }, boxes),
      verdict,
      h('div', { class: 'row' }, send),
    ],
  };
}

function decisionDialog(game, d) {
  if (d.decision === 'structure_events') return structureEventsDialog(game, d);
  if (d.decision === 'place_fire') return placeFireDialog(game, d);
  if (d.decision === 'misfire_victim') return misfireDialog(game, d);
  const n = game.names;
  if (d.decision === 'withdrawal') {
    const send = async (keep) => { if (await game.act({ action: 'answer_withdrawal', keep_contact: keep })) game.closeDialog(); };
    return {
      title: 'An enemy withdraws (VII-2.D)',
      testid: 'decision-dialog',
      body: [h('p', {}, `${n.unit(d.unit)} withdraws ${num(d.distance)} DU. Does your unit hold its position or keep contact?`),
        h('div', { class: 'row' },
          h('button', { class: 'primary', 'data-testid': 'withdrawal-keep', onclick: () => send(true) }, 'Keep contact'),
          h('button', { 'data-testid': 'withdrawal-hold', onclick: () => send(false) }, 'Hold'))],
    };
  }
  if (d.decision === 'lunge_follow_up') {
    const input = h('input', { type: 'number', min: 0.25, step: 0.25, value: 0.5, class: 'num', 'data-testid': 'lunge-distance', 'aria-label': 'Follow-up advance in DU' });
    const verdict = h('div', { class: 'verdict', 'data-testid': 'lunge-verdict', role: 'status' });
    const order = () => ({ steps: [{ Advance: Number(input.value) }], forced_march: false, will_shoot: false, separate: false });
    const check = () => game.query({ kind: 'check_action', action: { action: 'lunge_follow_up', order: order() } })
      .then((v) => { replace(verdict, ...(v.ok ? [`Legal: ${num(Number(input.value))} DU straight ahead`] : ['Illegal: ', reasonOf(v)])); verdict.dataset.state = v.ok ? 'ok' : 'bad'; },
        (e) => replace(verdict, e.message));
    input.addEventListener('input', check);
    check();
    const send = async (follow) => { if (await game.act({ action: 'lunge_follow_up', order: follow ? order() : null })) game.closeDialog(); };
    return {
      title: 'Lunge: follow up? (IX)',
      testid: 'decision-dialog',
      body: [h('p', {}, `The enemy of ${n.unit(d.unit)} fled or was eliminated: it may advance up to half its movement, without charging.`),
        h('label', {}, 'Advance ', input, ' DU'), verdict,
        h('div', { class: 'row' },
          h('button', { class: 'primary', 'data-testid': 'lunge-follow', onclick: () => send(true) }, 'Follow up'),
          h('button', { 'data-testid': 'lunge-decline', onclick: () => send(false) }, 'Stay'))],
    };
  }
  if (d.decision === 'fight_elephants') {
    const victim = d.victims?.[d.declined ?? 0];
    const send = async (fight) => { if (await game.act({ action: 'fight_elephants', fight })) game.closeDialog(); };
    return {
      title: 'Fleeing elephants (VII-6)',
      testid: 'decision-dialog',
      body: [h('p', {}, `The fleeing ${n.unit(d.elephants)} would trample ${n.unit(victim)}. Fight them instead?`),
        h('div', { class: 'row' },
          h('button', { class: 'primary', 'data-testid': 'elephants-fight', onclick: () => send(true) }, 'Fight the elephants'),
          h('button', { 'data-testid': 'elephants-trampled', onclick: () => send(false) }, 'Let them pass (trampled)'))],
    };
  }
  if (d.decision === 'drivers') {
    const send = async (kill) => { if (await game.act({ action: 'kill_elephants', kill })) game.closeDialog(); };
    return {
      title: "Drivers' option (VII-6)",
      testid: 'decision-dialog',
      body: [h('p', {}, `The recovery roll of ${n.unit(d.unit)} equalled its morale exactly: the drivers may kill the animals (the unit is eliminated).`),
        h('div', { class: 'row' },
          h('button', { class: 'danger', 'data-testid': 'drivers-kill', onclick: () => send(true) }, 'Kill the elephants'),
          h('button', { class: 'primary', 'data-testid': 'drivers-spare', onclick: () => send(false) }, 'Keep them'))],
    };
  }
  return {
    title: 'A decision is waiting',
    testid: 'decision-dialog',
    body: [h('p', {}, `${words(d.decision)}: this page does not know this decision.`), h('pre', {}, JSON.stringify(d, null, 1))],
  };
}

/** Opens (or keeps, or closes) the dialog of the decision this seat must take now. */
export function renderDecisions(game) {
  const v = game.view;
  let key = null;
  let make = null;
  const me = game.mySeat;
  if (me !== null && !v.outcome) {
    const p = v.pending;
    if (p?.fight) {
      const f = p.fight;
      if (f.stage === 'choose_side' && f.defender_seat === me) {
        key = `side:${JSON.stringify(f.kind)}`;
        make = () => sideDialog(game, f);
      } else if (f.elite_second !== undefined && f.elite_second !== null && ((f.stage === 'attacker_events' && f.attacker_seat === me) || (f.stage === 'defender_events' && f.defender_seat === me))) {
        key = `elite:${f.stage}:${JSON.stringify(f.kind)}:${f.elite_second}`;
        make = () => eliteKeepDialog(game, f);
      } else if ((f.stage === 'attacker_events' && f.attacker_seat === me) || (f.stage === 'defender_events' && f.defender_seat === me)) {
        key = `events:${f.stage}:${JSON.stringify(f.kind)}:${JSON.stringify(f.random)}:${(me && game.me()?.hand || []).join(',')}`;
        make = () => eventsDialog(game, f);
      }
    } else if (p?.hand_limit && p.hand_limit.seat === me) {
      key = `limit:${p.hand_limit.excess}:${game.version}`;
      make = () => handLimitDialog(game, p.hand_limit);
    } else if (v.decisions?.length && v.to_act === me) {
      key = `decision:${JSON.stringify(v.decisions[0])}`;
      make = () => decisionDialog(game, v.decisions[0]);
    } else if (v.phase === 'flight' && v.to_act === me && flightDue(game).length) {
      const due = flightDue(game);
      key = `flight:${v.turn}:${due.map((u) => u.id).join(',')}`;
      make = () => flightDialog(game, due);
    } else if (v.phase === 'end_of_turn' && v.to_act === me && v.giving === me) {
      key = `give:${v.turn}:${(game.me()?.hand || []).join(',')}`;
      make = () => giveDialog(game);
    } else if (v.phase === 'end_of_turn' && v.to_act === me) {
      key = `draw:${v.turn}`;
      make = () => drawDialog(game);
    }
  }
  if (key === game.dialogKey) return;
  game.closeDialog();
  if (!make) return;
  const spec = make();
  game.dialogKey = key;
  game.dialog = modal({ ...spec, wide: true, dismissable: false });
}
