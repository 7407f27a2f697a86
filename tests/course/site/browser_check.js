// Load every page of the built course site in headless Chromium and check what a reader gets.
//
//   node tests/course/site/browser_check.js --site site --base http://127.0.0.1:PORT [--shots DIR]
//
// Fails (exit 1) when a page
//   * requests anything that is not the local server (or file:// for the file:// pass),
//   * gets an HTTP error for a local file, or throws a JavaScript error,
//   * shows a raw Mermaid source block (or the text fallback) instead of a rendered diagram,
//   * is a notebook page with code cells but no executed output,
//   * has a code block, table or notebook cell that runs past the content column (or makes the
//     page scroll sideways), text cut off by a box that hides its overflow, or output text
//     (error messages, notebook outputs) that scrolls instead of wrapping -- at desktop and
//     phone widths, in the light and the dark palette;
//   * is hard to read there: a diagram label smaller than MIN_LABEL_PX after the diagram is scaled
//     to its box, a drawing (a `drawing` block, or any block with box-drawing characters) whose
//     lines wrap, an identifier in inline code split inside a word ("before_ag" / "ent");
//   * has a title that lost words: the page title or its entry in the navigation, against the
//     notebook's first heading, and each table-of-contents entry against its heading (words in
//     `code` must stay);
// and when a search for a word of a lesson finds nothing, over http:// and from file://.
// Run by .ci/site-check.sh, which installs Chromium and playwright-core and serves the site.
// Options: --pages a.html,b.html (only these), --search no (skip the search and file:// checks:
// for a fixture site, see test_site_browser.py).
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// A word that appears in a lesson and nowhere else, and the page search must find it on.
const SEARCH = { word: 'adapter', page: 'days/day00-welcome.html' };
// The same in each translated edition (zh/, mkdocs.zh.yml), searched from its own home page: a
// word jieba cuts out of the page's Chinese at build time.
const EDITION_SEARCHES = [{ home: 'zh/index.html', word: '插头', page: 'zh/days/day00-welcome.html' }];
const SHOTS = [['welcome', 'index.html'], ['lesson', 'days/day00-welcome.html'],
  ['hooks', 'days/day13-create-agent.html'], ['capstone', 'days/day15-capstone.html'],
  ['welcome-zh', 'zh/index.html'], ['lesson-zh', 'zh/days/day00-welcome.html'],
  ['notebook-zh', 'zh/notebooks/day00_welcome.html'], ['map-zh', 'zh/map.html']];
// Phone widths the overflow check runs at besides the desktop one, each in one palette (the layout
// does not depend on it), so both palettes are covered.
const NARROW = [[390, 'dark'], [320, 'light']];
// The smallest diagram label a reader gets, in CSS px after the diagram is scaled to its box.
// Body text is 16px; mermaid draws labels at 16px and diagram-fit.js lets them shrink to 80%.
const MIN_LABEL_PX = 12;
// Box drawing and block elements (U+2500-U+259F): a block holding them is a drawing.
const BOX_DRAWING = '[\\u2500-\\u259f]';

function args() {
  const out = { site: 'site', base: null, shots: null, chromium: '/usr/bin/chromium', pages: null, search: 'yes', full: 'no' };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!out.base) throw new Error('--base http://127.0.0.1:PORT is required');
  out.site = path.resolve(out.site);
  return out;
}

function pages(site) {
  const found = [];
  (function walk(dir) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(site, full).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (!['assets', 'search'].includes(entry.name)) walk(full); // zh/assets too
      } else if (rel.endsWith('.html') && rel !== '404.html') {
        found.push(rel);
      }
    }
  })(site);
  return found.sort();
}

function read(site, rel) {
  return fs.readFileSync(path.join(site, rel), 'utf8');
}

// Watch one page: every request, local HTTP errors, script errors.
// Requests to anywhere else are recorded and aborted, so the check itself never sends traffic out.
async function watch(page, allowed) {
  const seen = { outside: [], httpErrors: [], scriptErrors: [] };
  const ok = (url) => allowed(url) || /^(data|blob|about):/.test(url);
  const outside = (url) => { if (!seen.outside.includes(url)) seen.outside.push(url); };
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (ok(url)) return route.continue();
    outside(url);
    return route.abort('blockedbyclient');
  });
  page.on('request', (r) => { if (!ok(r.url())) outside(r.url()); });
  page.on('response', (r) => { if (r.status() >= 400) seen.httpErrors.push(`${r.status()} ${r.url()}`); });
  page.on('requestfailed', (r) => {
    if (ok(r.url())) seen.httpErrors.push(`failed ${r.url()}: ${r.failure() && r.failure().errorText}`);
  });
  page.on('pageerror', (e) => seen.scriptErrors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') seen.scriptErrors.push(`console: ${m.text()}`); });
  return seen;
}

// Material replaces each <pre class="mermaid"> by a <div class="mermaid"> whose svg lives in a
// closed shadow root. Every diagram of the HTML file must end up rendered: a diagram left as
// source (Mermaid missing or failing; Material drops the class first) or shown as the no-Node
// text fallback counts as raw.
async function diagrams(page, html) {
  const expected = (html.match(/<pre class="mermaid">/g) || []).length;
  const fallback = (html.match(/class="ma-diagram-text"/g) || []).length;
  const rendered = () => page.evaluate(() => document.querySelectorAll('div.mermaid').length);
  const deadline = Date.now() + 15000;
  while ((await rendered()) < expected && Date.now() < deadline) await page.waitForTimeout(200);
  const done = await rendered();
  return { rendered: done, raw: Math.max(expected - done, 0) + fallback };
}

async function notebookOutputs(page) {
  return page.evaluate(() => ({
    code: document.querySelectorAll('.jp-CodeCell').length,
    outputs: document.querySelectorAll('.jp-OutputArea-output').length,
  }));
}

// What a reader would see run off the content column. A block that scrolls (overflow auto) may be
// as wide as it likes inside its box; the box itself must fit. The column is .md-content: Material
// lets some blocks use its padding on phones (margin: -0.8rem). Hidden elements (other tabs,
// closed details) have no box and are skipped. Also: a box that hides its overflow must not cut
// off text (more than half a character: inline code's padding may touch the edge). Output text
// (```text blocks: errors, reports; notebook outputs) wraps: none of it may hide behind a scroll;
// a drawing (class ma-drawing) scrolls instead.
// Material's scripts reshape code blocks just after load (a block may briefly measure wider than
// it ends up), so what is found is measured again until it settles (at most 2 s).
async function overflows(page) {
  let result = await measureOverflow(page);
  for (let i = 0; i < 4 && result.found.length; i += 1) {
    await page.waitForTimeout(500);
    result = await measureOverflow(page);
  }
  return result;
}

function measureOverflow(page) {
  return page.evaluate(() => {
    const column = document.querySelector('.md-content');
    if (!column) return { measured: 0, found: [] };
    const edge = column.getBoundingClientRect().right + 1; // 1px: subpixel rounding
    const found = [];
    let measured = 0;
    const name = (el) => {
      const cls = [...el.classList].slice(0, 2).map((c) => `.${c}`).join('');
      const text = el.textContent.trim().replace(/\s+/g, ' ').slice(0, 60);
      return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
    };
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) {
      found.push(`the page scrolls sideways by ${root.scrollWidth - root.clientWidth}px`);
    }
    const blocks = 'pre, code, table, .jp-InputArea, .jp-OutputArea-output';
    for (const el of column.querySelectorAll(blocks)) {
      const box = el.getBoundingClientRect();
      if (!box.width) continue;
      measured += 1;
      const own = getComputedStyle(el).overflowX;
      let end = own === 'visible' ? Math.max(box.right, box.left + el.scrollWidth) : box.right;
      for (let up = el.parentElement; up && up !== column; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') end = Math.min(end, up.getBoundingClientRect().right);
      }
      if (end > edge) found.push(`${name(el)} runs ${Math.round(end - edge)}px past the content column`);
    }
    const output = '.language-text:not(.ma-drawing) > pre:not(.ma-drawing) > code, .jp-OutputArea-output pre:not(.ma-drawing)';
    for (const el of column.querySelectorAll(output)) {
      if (el.scrollWidth > el.clientWidth + 1) {
        found.push(`${name(el)} is output text and scrolls sideways instead of wrapping`);
      }
    }
    for (const el of column.querySelectorAll('*')) {
      const style = getComputedStyle(el);
      if (!['hidden', 'clip'].includes(style.overflowX) || !el.clientWidth) continue;
      if (el.scrollWidth - el.clientWidth > parseFloat(style.fontSize) / 2) {
        found.push(`${name(el)} cuts off ${el.scrollWidth - el.clientWidth}px of its content`);
      }
    }
    return { measured, found };
  });
}

// What makes a page hard to read although nothing overflows: see the header. Material draws each
// diagram into a closed shadow root; the check opens it (openShadowRoots) to measure the labels.
async function legibility(page, opts) {
  return page.evaluate(({ minLabel, box, titles }) => {
    const found = [];
    const column = document.querySelector('.md-content');
    if (!column) return found;
    const BOX = new RegExp(box);
    const shown = (el) => el.getBoundingClientRect().width > 0;
    const short = (text) => text.trim().replace(/\s+/g, ' ').slice(0, 50);

    // 1. diagram labels: font size times the scale the diagram is drawn at
    column.querySelectorAll('div.mermaid, .ma-diagram-svg').forEach((host, n) => {
      if (!shown(host)) return;
      const svg = (host.shadowRoot || host).querySelector('svg');
      if (!svg) return;
      let smallest = Infinity;
      let label = '';
      for (const el of svg.querySelectorAll('text, tspan, foreignObject *')) {
        if (![...el.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) continue;
        const tag = el.tagName.toLowerCase();
        const ref = tag === 'text' || tag === 'tspan' ? el : el.closest('foreignObject');
        const m = ref && ref.getScreenCTM && ref.getScreenCTM();
        if (!m) continue;
        const px = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b);
        if (px < smallest) { smallest = px; label = el.textContent; }
      }
      if (smallest < minLabel) {
        found.push(`diagram ${n + 1} is too small to read: its label "${short(label)}" is ${smallest.toFixed(1)}px (at least ${minLabel}px)`);
      }
    });

    // 2. drawings keep their lines: no more lines on screen than in the text
    for (const pre of column.querySelectorAll('pre')) {
      if (pre.classList.contains('mermaid') || !shown(pre)) continue;
      if (!pre.closest('.ma-drawing') && !BOX.test(pre.textContent)) continue;
      const code = pre.querySelector('code') || pre;
      const lines = code.textContent.replace(/\n+$/, '').split('\n').length;
      const range = document.createRange();
      range.selectNodeContents(code);
      const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top).sort((a, b) => a - b);
      let rows = 0;
      let last = -Infinity;
      for (const top of tops) if (top - last > 3) { rows += 1; last = top; }
      if (rows > lines) {
        found.push(`drawing "${short(code.textContent)}" wraps: its ${lines} lines take ${rows} lines on screen`);
      }
    }

    // 3. identifiers (inline code) break at a space, "-", "/", "." or "_", never between two letters
    // (Chinese text breaks between any two characters: a break next to 汉字 is not a split word)
    const wordChar = /[\p{L}\p{N}]/u;
    const han = /\p{Script=Han}/u;
    for (const el of column.querySelectorAll('code')) {
      if (el.closest('pre') || el.getClientRects().length < 2) continue;
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      let prev = null;
      let offset = 0;
      for (let node = walk.nextNode(); node; offset += node.length, node = walk.nextNode()) {
        for (let i = 0; i < node.length; i += 1) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const r = range.getClientRects()[0];
          if (!r || !r.height) continue;
          const ch = node.data[i];
          if (prev && r.top > prev.top + r.height / 2 && wordChar.test(prev.ch) && wordChar.test(ch)
              && !han.test(prev.ch) && !han.test(ch)) {
            const text = el.textContent;
            found.push(`identifier split inside a word: \`${text.slice(0, prev.at + 1)}\` / \`${text.slice(prev.at + 1)}\``);
          }
          prev = { ch, top: r.top, at: offset + i };
        }
      }
    }

    // 4. titles keep every word of their heading (mkdocs-jupyter drops the words in `code`)
    if (titles) {
      const words = (text) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || [];
      const lost = (heading, title) => { // counted: "messages" twice in the heading needs it twice
        const have = new Map();
        for (const w of words(title)) have.set(w, (have.get(w) || 0) + 1);
        return words(heading).filter((w) => {
          if (!have.get(w)) return true;
          have.set(w, have.get(w) - 1);
          return false;
        });
      };
      const headingText = (h) => {
        const copy = h.cloneNode(true);
        copy.querySelectorAll('.headerlink, .anchor-link').forEach((a) => a.remove());
        return copy.textContent.replace(/\u00b6/g, '').trim();
      };
      for (const a of document.querySelectorAll('.md-nav--secondary a.md-nav__link[href^="#"]')) {
        const id = decodeURIComponent(a.getAttribute('href').slice(1));
        const h = document.getElementById(id);
        if (!h) {
          found.push(`table of contents entry "${short(a.textContent)}" links to #${id}, which is not on the page`);
          continue;
        }
        const missing = lost(headingText(h), a.textContent);
        if (missing.length) {
          found.push(`title lost words: table of contents entry "${short(a.textContent)}" for the heading "${short(headingText(h))}" (missing: ${missing.join(', ')})`);
        }
      }
      const h1 = column.querySelector('.jupyter-wrapper h1');
      if (h1) { // a notebook page: its first heading is its title
        const heading = headingText(h1);
        const active = document.querySelector('.md-nav--primary .md-nav__link--active');
        const named = [['page title', document.title]];
        if (active) named.push(['navigation entry', active.textContent]);
        for (const [what, title] of named) {
          const missing = lost(heading, title);
          if (missing.length) {
            found.push(`title lost words: ${what} "${short(title)}" for the notebook heading "${short(heading)}" (missing: ${missing.join(', ')})`);
          }
        }
      }
    }
    return found;
  }, { minLabel: MIN_LABEL_PX, box: BOX_DRAWING, titles: !!(opts && opts.titles) });
}

// Material attaches each rendered diagram in a closed shadow root; open it for the measurements.
async function openShadowRoots(context) {
  await context.addInitScript(() => {
    const attach = Element.prototype.attachShadow;
    Element.prototype.attachShadow = function (init) {
      return attach.call(this, { ...init, mode: 'open' });
    };
  });
}

async function search(page, word) {
  const input = page.locator('input.md-search__input');
  if (!(await input.isVisible().catch(() => false))) {
    await page.locator('label.md-search__icon, label[for="__search"]').first().click().catch(() => {});
  }
  try {
    await input.click({ timeout: 5000 });
  } catch (e) {
    return null; // Material hides the search box when its worker cannot start
  }
  await input.fill('');
  await page.keyboard.type(word, { delay: 30 });
  // Chinese is typed through an input method, whose commit ends in a key release; Playwright
  // inserts such characters as text with no key events, which Material's search may not see.
  await input.dispatchEvent('keyup');
  await page.waitForSelector('.md-search-result__item', { timeout: 10000 }).catch(() => {});
  return page.$$eval('.md-search-result__item a', (links) => links.map((a) => a.getAttribute('href') || ''));
}

// Pages are independent and most of a page's time is waiting (rendering, late requests), so a
// few are checked at once; what is printed and failed keeps the pages' order.
const AT_ONCE = 3;

async function eachAtOnce(items, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
}

async function main() {
  const opt = args();
  let list = pages(opt.site); // both editions: English, and zh/
  if (opt.pages) {
    const wanted = opt.pages.split(',');
    list = list.filter((p) => wanted.includes(p));
  }
  const browser = await chromium.launch({ executablePath: opt.chromium, headless: true, args: FLAGS });
  const failures = [];
  const fail = (where, what) => failures.push(`${where}: ${what}`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await openShadowRoots(context);
  let diagramCount = 0;
  let measured = 0; // code blocks, tables and notebook cells the overflow check looked at

  // 1. every page over http://127.0.0.1, visited once: at the desktop width in the light palette,
  // then resized to each phone width and switched to its palette (as a reader's own palette choice
  // does: the body's data-md-color-* attributes, captured from a first visit in that palette).
  const palettes = {};
  for (const [, scheme] of NARROW) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
    const page = await ctx.newPage();
    await page.goto(`${opt.base}/${list[0]}`, { waitUntil: 'load' });
    palettes[scheme] = await page.evaluate(() => Object.fromEntries([...document.body.attributes]
      .filter((a) => a.name.startsWith('data-md-color-')).map((a) => [a.name, a.value])));
    await ctx.close();
  }
  const local = (url) => url.startsWith(opt.base + '/');
  const notes = [];
  const narrow = NARROW.map(() => []);
  await eachAtOnce(list, async (rel, index) => {
    const found = [];
    const page = await context.newPage();
    const seen = await watch(page, local);
    await page.goto(`${opt.base}/${rel}`, { waitUntil: 'load' });
    const d = await diagrams(page, read(opt.site, rel));
    diagramCount += d.rendered;
    if (d.raw) found.push(`${d.raw} diagram(s) shown as source text, ${d.rendered} rendered`);
    if (rel.startsWith('notebooks/') && rel !== 'notebooks/index.html') {
      const nb = await notebookOutputs(page);
      if (!nb.code) found.push('notebook page without code cells');
      else if (!nb.outputs) found.push(`notebook has ${nb.code} code cells and no executed output`);
    }
    const wide = await overflows(page);
    measured += wide.measured;
    wide.found.forEach((o) => found.push(`1280px: ${o}`));
    const hard = await legibility(page, { titles: true });
    hard.forEach((o) => found.push(`1280px: ${o}`));
    // 1b. the same page at phone widths: nothing may run past the column there either
    for (const [n, [width, scheme]] of NARROW.entries()) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate((attrs) => { for (const [k, v] of Object.entries(attrs)) document.body.setAttribute(k, v); }, palettes[scheme]);
      await page.setViewportSize({ width, height: 800 });
      narrow[n][index] = [rel, (await overflows(page)).found.concat(await legibility(page))];
    }
    seen.outside.forEach((u) => found.push(`request leaves the machine: ${u}`));
    seen.httpErrors.forEach((e) => found.push(`local request failed: ${e}`));
    seen.scriptErrors.forEach((e) => found.push(`script error: ${e}`));
    notes[index] = [rel, found, `page ${rel}: diagrams ${d.rendered} rendered / ${d.raw} raw, outside requests ${seen.outside.length}, ${wide.measured} blocks measured, ${wide.found.length} too wide, ${hard.length} hard to read`];
    await page.close();
  });
  for (const [rel, found, line] of notes) {
    found.forEach((what) => fail(rel, what));
    console.log(line);
  }
  for (const [n, [width, scheme]] of NARROW.entries()) {
    for (const [rel, found] of narrow[n]) found.forEach((o) => fail(rel, `${width}px ${scheme}: ${o}`));
    console.log(`${width}px (${scheme} palette): ${list.length} pages checked for overflow`);
  }

  // 2. search over http:// and from file://
  const searches = [{ home: 'index.html', ...SEARCH }, ...EDITION_SEARCHES.filter((e) => fs.existsSync(path.join(opt.site, e.home)))];
  const targets = opt.search === 'no' ? [] : searches.flatMap((q) => [
    ['http', `${opt.base}/${q.home}`, local, q],
    ['file', 'file://' + path.join(opt.site, q.home), (u) => u.startsWith('file://'), q],
  ]);
  for (const [scheme, url, allowed, q] of targets) {
    const page = await context.newPage();
    const seen = await watch(page, allowed);
    await page.goto(url, { waitUntil: 'load' });
    const hrefs = (await search(page, q.word)) || [];
    // a result's href is relative to the page searched from (zh/index.html: days/..., not zh/days/...)
    const at = path.posix.dirname(q.home);
    const hit = hrefs.some((h) => path.posix.normalize(path.posix.join(at, h.split('#')[0].split('?')[0])).endsWith(q.page));
    console.log(`search (${scheme}) "${q.word}" from ${q.home}: ${hrefs.length} result(s)${hit ? `, including ${q.page}` : ''}`);
    if (!hit) fail(`search ${scheme}`, `"${q.word}" does not find ${q.page} from ${q.home} (results: ${hrefs.join(', ') || 'none'})`);
    seen.outside.forEach((u) => fail(`search ${scheme}`, `request leaves the machine: ${u}`));
    seen.scriptErrors.forEach((e) => fail(`search ${scheme}`, `script error: ${e}`));
    if (opt.shots) await page.screenshot({ path: path.join(opt.shots, `search-${scheme}.png`) });
    await page.close();
  }

  // 3. diagrams from file:// too (Mermaid is loaded as a plain script, no fetch)
  if (opt.search !== 'no') {
    const page = await context.newPage();
    const seen = await watch(page, (u) => u.startsWith('file://'));
    await page.goto('file://' + path.join(opt.site, SEARCH.page), { waitUntil: 'load' });
    const d = await diagrams(page, read(opt.site, SEARCH.page));
    console.log(`file:// ${SEARCH.page}: diagrams ${d.rendered} rendered / ${d.raw} raw`);
    if (d.raw) fail(`file ${SEARCH.page}`, `${d.raw} diagram(s) shown as source text`);
    seen.outside.forEach((u) => fail(`file ${SEARCH.page}`, `request leaves the machine: ${u}`));
    await page.close();
  }

  // 4. screenshots, light and dark (the palette follows prefers-color-scheme on a first visit)
  const notebook = list.find((p) => p.startsWith('notebooks/') && p !== 'notebooks/index.html');
  const shots = notebook ? [...SHOTS, ['notebook', notebook]] : SHOTS;
  if (opt.shots) {
    fs.mkdirSync(opt.shots, { recursive: true });
    for (const [width, scheme] of NARROW) {
      const ctx = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
      await openShadowRoots(ctx);
      await eachAtOnce(shots.filter(([, r]) => list.includes(r)), async ([name, rel]) => {
        const page = await ctx.newPage();
        await page.goto(`${opt.base}/${rel}`, { waitUntil: 'load' });
        await diagrams(page, read(opt.site, rel));
        await page.screenshot({ path: path.join(opt.shots, `${name}-${scheme}-${width}.png`) });
        await page.close();
      });
      await ctx.close();
    }
    for (const scheme of ['light', 'dark']) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
      for (const [name, rel] of shots.filter(([, r]) => list.includes(r))) {
        const page = await ctx.newPage();
        await page.goto(`${opt.base}/${rel}`, { waitUntil: 'load' });
        await diagrams(page, read(opt.site, rel));
        (await overflows(page)).found.forEach((o) => fail(rel, `1280px ${scheme}: ${o}`));
        await page.screenshot({ path: path.join(opt.shots, `${name}-${scheme}.png`) });
        if (opt.full === 'yes') await page.screenshot({ path: path.join(opt.shots, `${name}-${scheme}-full.png`), fullPage: true });
        await page.close();
      }
      await ctx.close();
    }
    console.log(`screenshots in ${opt.shots}`);
  }

  await browser.close();
  if (!diagramCount) fail('site', 'no rendered diagram on any page (the check would not notice raw ones)');
  if (!measured) fail('site', 'no code block, table or notebook cell measured (the overflow check would not notice)');
  if (failures.length) {
    console.log(`\nsite check FAILED (${failures.length} problem(s)):`);
    failures.forEach((f) => console.log(`  - ${f}`));
    process.exit(1);
  }
  console.log(`\nsite check OK: ${list.length} pages, ${diagramCount} diagrams rendered, nothing wider than its column, diagram labels at least ${MIN_LABEL_PX}px, drawings unwrapped, no identifier split inside a word, titles with all their words, ${opt.search === 'no' ? 'search not checked' : 'search works over http:// and file://'}, nothing requested from outside 127.0.0.1`);
}

main().catch((e) => { console.error('site check crashed:', e); process.exit(2); });
