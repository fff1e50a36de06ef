// The browser driver of the acies browser tests: one headless Chromium (Debian's, through
// playwright-core), commanded by the Rust harness with one JSON object per line on stdin and
// answered with one per line on stdout: {"id", "ok": true, "value"} or {"id", "ok": false,
// "error"}. Targets are {"testid": "x"} (data-testid) or {"css": "..."}, with "nth" to pick
// one of several. Nothing here decides anything about the game: it clicks, types and reads.
import { chromium } from 'playwright-core';
import { createInterface } from 'node:readline';

const options = JSON.parse(process.argv[2] ?? '{}');
const browser = await chromium.launch({
  executablePath: options.executablePath ?? '/usr/bin/chromium',
  headless: true,
  // A fresh temporary profile comes with every launch (playwright's own --user-data-dir).
  args: options.args ?? [],
  timeout: 60_000,
});

const contexts = new Map();
const pages = new Map();
const problems = new Map();
let nextId = 1;

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

function target(page, t) {
  if (!t) throw new Error('no target: give {"testid": ...} or {"css": ...}');
  let loc = t.testid !== undefined ? page.getByTestId(t.testid) : page.locator(t.css);
  if (t.nth !== undefined) loc = loc.nth(t.nth);
  else if (t.first) loc = loc.first();
  return loc;
}

function asExpression(src, async) {
  if (!/\breturn\b/.test(src)) return src;
  return async ? `(async () => { ${src} })()` : `(() => { ${src} })()`;
}

function pageOf(msg) {
  const p = pages.get(msg.page);
  if (!p) throw new Error(`no page ${msg.page}`);
  return p;
}

const commands = {
  async new_context(m) {
    const ctx = await browser.newContext({ viewport: m.viewport ?? { width: 1400, height: 900 } });
    ctx.setDefaultTimeout(m.timeout ?? 10_000);
    const id = nextId++;
    contexts.set(id, ctx);
    return id;
  },
  async new_page(m) {
    const ctx = contexts.get(m.context);
    if (!ctx) throw new Error(`no context ${m.context}`);
    const page = await ctx.newPage();
    const id = nextId++;
    pages.set(id, page);
    const seen = [];
    problems.set(id, seen);
    page.on('pageerror', (e) => seen.push(`page error: ${e.message}`));
    page.on('console', (c) => { if (c.type() === 'error') seen.push(`console error: ${c.text()}`); });
    if (m.url) await page.goto(m.url);
    return id;
  },
  async goto(m) { await pageOf(m).goto(m.url); return pageOf(m).url(); },
  async url(m) { return pageOf(m).url(); },
  async click(m) { await target(pageOf(m), m.target).click({ timeout: m.timeout }); return null; },
  async fill(m) { await target(pageOf(m), m.target).fill(m.text, { timeout: m.timeout }); return null; },
  async press(m) { await target(pageOf(m), m.target).press(m.key, { timeout: m.timeout }); return null; },
  async select(m) { return await target(pageOf(m), m.target).selectOption(m.value, { timeout: m.timeout }); },
  async wait_for(m) {
    await target(pageOf(m), m.target).waitFor({ state: m.state ?? 'visible', timeout: m.timeout });
    return null;
  },
  async text(m) { return await target(pageOf(m), m.target).innerText({ timeout: m.timeout }); },
  async attribute(m) { return await target(pageOf(m), m.target).getAttribute(m.name, { timeout: m.timeout }); },
  async count(m) { return await target(pageOf(m), m.target).count(); },
  async visible(m) { return await target(pageOf(m), m.target).isVisible(); },
  async eval(m) {
    // An expression, or a function body when it contains "return"; awaited either way.
    // Evaluated as a string through the DevTools protocol, so the page's CSP (no eval) holds
    // for the page and does not stop the test.
    return await pageOf(m).evaluate(asExpression(m.js, true));
  },
  async wait_until(m) {
    // Polled from here with the same DevTools evaluation as `eval` (an exception counts as
    // "not yet"): playwright's waitForFunction builds its predicate with `new Function` in
    // the page, which the UI's Content-Security-Policy (no eval) rightly refuses.
    const page = pageOf(m);
    const timeout = m.timeout ?? 10_000;
    const polling = m.polling ?? 100;
    const body = /\breturn\b/.test(m.js) ? m.js : `return (${m.js});`;
    const expr = `(async () => { try { ${body} } catch (e) { return { __acies_error: String(e && e.message || e) }; } })()`;
    const deadline = Date.now() + timeout;
    let last = null;
    for (;;) {
      const value = await page.evaluate(expr);
      if (value && typeof value === 'object' && '__acies_error' in value) last = value.__acies_error;
      else if (value) return value;
      else last = null;
      if (Date.now() >= deadline) {
        throw new Error(`timed out after ${timeout} ms waiting until ${m.js}${last ? ` (last error: ${last})` : ''}`);
      }
      await new Promise((r) => setTimeout(r, polling));
    }
  },
  async screenshot(m) { await pageOf(m).screenshot({ path: m.path, fullPage: !!m.full_page }); return m.path; },
  async problems(m) { return problems.get(m.page) ?? []; },
  async close_page(m) { await pageOf(m).close(); pages.delete(m.page); return null; },
  async close_context(m) { const c = contexts.get(m.context); if (c) await c.close(); contexts.delete(m.context); return null; },
  async version() { return browser.version(); },
};

send({ id: 0, ok: true, value: { ready: true, version: browser.version() } });

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  let msg;
  try { msg = JSON.parse(line); } catch (e) { send({ id: null, ok: false, error: `bad JSON: ${e.message}` }); continue; }
  if (msg.cmd === 'quit') break;
  const run = commands[msg.cmd];
  if (!run) { send({ id: msg.id, ok: false, error: `unknown command ${msg.cmd}` }); continue; }
  try {
    const value = await run(msg);
    send({ id: msg.id, ok: true, value: value ?? null });
  } catch (e) {
    send({ id: msg.id, ok: false, error: String(e && e.message ? e.message : e) });
  }
}
await browser.close();
process.exit(0);
