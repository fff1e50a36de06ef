// Small DOM helpers: element builders for HTML and SVG, formatting, toasts.

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2).toLowerCase(), v);
    } else if (k === 'class') {
      el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    } else if (k === 'text') {
      el.textContent = v;
    } else if (k === 'style' && typeof v === 'object') {
      Object.assign(el.style, v);
    } else if (k === 'value' && 'value' in el) {
      el.value = v;
    } else if (k === 'checked' || k === 'disabled' || k === 'selected' || k === 'open') {
      el[k] = Boolean(v);
      if (v) el.setAttribute(k, '');
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** An HTML element: h('button', {class: 'x', onclick: f, 'data-testid': 't'}, 'text'). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

export function clear(el) {
  // A focused element inside is blurred first: removing it would fire its blur handler in the
  // middle of the removal, and a handler that draws `el` again would take away the very node
  // being removed (Chrome: "The node to be removed is no longer a child of this node").
  const active = document.activeElement;
  if (active && active !== el && el.contains(active) && typeof active.blur === 'function') active.blur();
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

/** A number for people: at most `digits` decimals, no trailing zeros. */
export function num(x, digits = 2) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  const f = Number(x).toFixed(digits);
  return f.includes('.') ? f.replace(/\.?0+$/, '') : f;
}

export function pct(p) {
  if (p === null || p === undefined) return '–';
  const v = p * 100;
  if (v > 0 && v < 0.1) return '<0.1%';
  if (v < 100 && v > 99.9) return '>99.9%';
  return `${v.toFixed(1)}%`;
}

export function signed(n) {
  return n >= 0 ? `+${n}` : `${n}`;
}

/** Turns snake_case or an identifier into words: "wall_of_shields" -> "wall of shields". */
export function words(id) {
  return String(id ?? '').replace(/_/g, ' ');
}

let toastBox = null;

/**
 * Keeps the messages above everything: with a modal dialog open, the box goes inside the
 * topmost one (the rest of the page is then under its backdrop and inert, so a message left
 * there could be neither seen nor read by a screen reader); otherwise at the end of the page.
 * `modal` calls this when a dialog opens.
 */
export function raiseToasts() {
  if (!toastBox) return;
  const open = [...document.querySelectorAll('dialog[open]')].filter((d) => d.matches(':modal'));
  const host = open[open.length - 1] || document.body;
  if (toastBox.parentNode !== host) host.append(toastBox);
}

/** Removes every message shown (a hotseat hand-over: the next player may not read them). */
export function clearToasts() {
  if (toastBox) clear(toastBox);
}

/** A short message at the bottom of the screen (role=status, or alert for errors); `message`
 * is a text or an element (a refusal with the link to its rule). */
export function toast(message, kind = 'info', ms = 4500) {
  if (!toastBox) toastBox = h('div', { class: 'toasts', 'aria-live': 'polite', 'data-testid': 'toasts' });
  raiseToasts();
  const text = message instanceof Node ? message.textContent : String(message);
  for (const old of toastBox.children) if (old.textContent === text) old.remove();
  const t = h('div', { class: ['toast', kind], role: kind === 'error' ? 'alert' : 'status', 'data-testid': `toast-${kind}` }, message);
  toastBox.append(t);
  setTimeout(() => t.remove(), ms);
  return t;
}

/** Calls `fn` once `ms` after the last call. */
export function debounce(fn, ms) {
  let timer = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  wrapped.cancel = () => clearTimeout(timer);
  return wrapped;
}

/** Copies text to the clipboard, falling back to a prompt. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast('Copied to the clipboard');
  } catch {
    window.prompt('Copy this:', text);
  }
}
