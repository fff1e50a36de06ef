// The rules reader, the same for every system. A rule the engine cites — a roll's rule in the
// dice log, a refusal's rule, an ability's, a marker's or a card's section — is shown as a link
// (`ruleLink`); clicked, a side panel (a sheet from the bottom on a phone) shows what the
// server answers for that citation (`GET /api/{system}/rules?section=...`): the section's
// title and our own summary, and the passage of the player's own copy of the rulebook when the
// server was given one (`acies serve --rules-text`). The page resolves nothing itself.

import { h, replace } from './dom.js';
import { request } from './api.js';

let pageSystem = null;
let reader = null;
let opener = null;
const answers = new Map();

/** The system whose rules the links of this page cite (a game page sets it). */
export function setRuleSystem(system) {
  pageSystem = system;
}

/**
 * A link to a citation as the engine wrote it ("VII-2.C Charging"); `label` is its text
 * (the citation by default), `system` the rules it cites (the page's by default).
 */
export function ruleLink(citation, { label, system, className } = {}) {
  if (!citation) return null;
  const text = String(citation);
  return h('button', {
    type: 'button',
    class: ['rule-link', className],
    'data-testid': 'rule-link',
    'data-rule': text,
    title: `Read the rule: ${text}`,
    onclick: (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      openRule(text, { system, from: ev.currentTarget });
    },
  }, label ?? text);
}

/** A message that ends with its rule: the message, then the rule as a link. */
export function withRule(message, rule, opts = {}) {
  if (!rule) return message;
  const plain = String(message);
  const cited = `[${rule}]`;
  const text = plain.includes(cited) ? plain.replace(cited, '').trimEnd() : plain;
  return h('span', { class: 'with-rule' }, text, ' ', ruleLink(rule, { ...opts, label: cited }));
}

/** What a refused request says: an engine's refusal with its rule as a link, else its
 * message. */
export function refusal(e) {
  if (e && e.rule) return withRule(e.message, e.rule);
  return e?.describe ? e.describe() : String(e?.message ?? e);
}

/** Where the reader goes: inside the topmost open modal dialog (the rest of the page is inert
 * under it), else at the end of the page. */
function host() {
  const open = [...document.querySelectorAll('dialog[open]')].filter((d) => d.matches(':modal'));
  return open[open.length - 1] || document.body;
}

function panel() {
  if (!reader) {
    const body = h('div', { class: 'rule-body', 'data-testid': 'rule-body' });
    const close = h('button', {
      type: 'button', class: 'small ghost-btn rule-close', 'data-testid': 'rule-reader-close',
      'aria-label': 'Close the rules', onclick: () => closeRule(),
    }, '✕');
    const el = h('aside', {
      class: 'rule-reader', 'data-testid': 'rule-reader', role: 'dialog', 'aria-modal': 'false',
      'aria-labelledby': 'rule-reader-title', tabindex: '-1', hidden: true,
      onkeydown: (ev) => { if (ev.key === 'Escape') { ev.stopPropagation(); closeRule(); } },
    },
    h('header', { class: 'rule-head' }, h('h2', { id: 'rule-reader-title' }, 'Rules'), close),
    body);
    reader = { el, body, close };
  }
  const where = host();
  if (reader.el.parentNode !== where) where.append(reader.el);
  return reader;
}

/** Closes the reader and gives the focus back to the link that opened it. */
export function closeRule() {
  if (!reader || reader.el.hidden) return;
  reader.el.hidden = true;
  opener?.classList?.remove('rule-open');
  if (opener?.isConnected) opener.focus();
  opener = null;
}

async function lookUp(system, citation) {
  const key = `${system}\n${citation}`;
  if (!answers.has(key)) {
    const url = `/api/${encodeURIComponent(system)}/rules?section=${encodeURIComponent(citation)}`;
    answers.set(key, request('GET', url).catch((e) => { answers.delete(key); throw e; }));
  }
  return answers.get(key);
}

function sectionView(s) {
  return h('article', { class: 'rule-section', 'data-testid': 'rule-section', 'data-cite': s.cite },
    h('h3', {}, s.number ? h('span', { class: 'rule-number' }, `${s.number} `) : null, s.title),
    s.summary ? h('p', { class: 'rule-summary', 'data-testid': 'rule-summary' }, s.summary) : null,
    s.text ? h('details', { class: 'rule-text', open: true },
      h('summary', {}, `Your copy${s.source ? ` (${s.source})` : ''}`),
      h('div', { class: 'rule-passage', 'data-testid': 'rule-text' }, s.text)) : null);
}

/** Opens the reader on a citation; `from` is the element to give the focus back to. */
export async function openRule(citation, { system, from } = {}) {
  const sys = system || pageSystem;
  const r = panel();
  opener?.classList?.remove('rule-open');
  opener = from || document.activeElement;
  // The link that was followed stays marked while its rule is shown.
  if (opener?.classList?.contains('rule-link')) opener.classList.add('rule-open');
  r.el.hidden = false;
  r.el.dataset.rule = citation;
  replace(r.body, h('p', { class: 'loading' }, `Looking up ${citation}…`));
  r.close.focus();
  if (!sys) {
    replace(r.body, h('p', { class: 'muted' }, 'No rules to read on this page.'));
    return;
  }
  try {
    const a = await lookUp(sys, citation);
    if (r.el.dataset.rule !== citation) return;
    replace(r.body,
      h('p', { class: 'rule-cited muted' }, 'Cited: ', h('q', {}, citation)),
      (a.sections || []).map(sectionView),
      h('p', { class: 'rule-notice', 'data-testid': 'rule-notice' }, a.notice || ''),
      a.own_text ? null : h('p', { class: 'rule-notice muted' }, 'Your own copy of the rulebook can be shown here: start the server with --rules-text.'));
  } catch (e) {
    if (r.el.dataset.rule !== citation) return;
    replace(r.body, h('p', { class: 'rule-missing', 'data-testid': 'rule-missing' },
      e.status === 404 ? `No section of these rules is known as “${citation}”.` : `The rules could not be read: ${e.message}`));
  }
}
