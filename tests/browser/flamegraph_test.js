#!/usr/bin/env node
// Browser tests of fg-convert --to html: each case writes a page from a
// sample, opens it in headless Chromium (Debian's, through playwright-core)
// and checks what a user sees and does: tooltips, zoom, history, search,
// views, the URL fragment, escaping. Expected values are computed here from
// the profile itself (fg-convert --to collapsed), not read from the page.
// Each case saves a screenshot, CASE.png, in the output directory.
//
// usage: node flamegraph_test.js --fg-convert BIN --samples DIR --out DIR
//                                [--inputs TESTS_DIR] [--chromium PATH] CASE
// (--inputs: the source tree's tests/, for the inputs of other formats)
// A missing Chromium or playwright-core is a failure, never a skip.
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const { fail, parseArgs, loadChromium } = require('./harness');

const args = parseArgs(['fg-convert', 'samples', 'out', 'case'], __filename, 'case');
const chromium = loadChromium(args);
fs.mkdirSync(args.out, { recursive: true });

function check(condition, message) {
  if (!condition) throw new Error(message);
}

// ---- the profile, read independently of the page ----------------------------

function generate(name, sample, extra = []) {
  const out = path.join(args.out, name + '.html');
  execFileSync(args['fg-convert'], ['--to', 'html', ...extra, path.join(args.samples, sample), '-o', out]);
  return out;
}

function collapsed(sample, dir = args.samples) {
  const text = execFileSync(args['fg-convert'], ['--to', 'collapsed', path.join(dir, sample)]).toString();
  return text.split('\n').filter((l) => l).map((l) => {
    const space = l.lastIndexOf(' ');
    return { frames: l.slice(0, space).split(';'), count: Number(l.slice(space + 1)) };
  });
}

const sum = (lines) => lines.reduce((s, l) => s + l.count, 0);
const pct = (v, all) => (100 * v / all).toFixed(2) + '%';
const startsWith = (frames, prefix) => prefix.every((f, i) => frames[i] === f);
// Each sample once, however many of its frames match.
const matchedBy = (lines, re) => sum(lines.filter((l) => l.frames.some((f) => re.test(f))));

// ---- the page ----------------------------------------------------------------

let current = null;  // the open page, for the screenshot and the cleanup

async function open(file, hash = '') {
  const browser = await chromium.launch({ executablePath: args.chromium, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on('dialog', (d) => { problems.push('a dialog opened: ' + d.message()); d.dismiss(); });
  page.on('pageerror', (e) => problems.push('script error: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
  page.on('request', (r) => { if (!r.url().startsWith('file:')) problems.push('network request: ' + r.url()); });
  await page.goto('file://' + path.resolve(file) + hash);
  current = { browser, page, problems };
  await page.waitForFunction(() => window.fgPage && window.fgPage.timings.firstDraw);
  return current;
}

// The widest node called `name` in the current view.
const widest = (page, name) => page.evaluate((name) => {
  const t = fgPage.tree();
  return fgPage.nodesNamed(name).reduce((best, i) => (best < 0 || t.total[i] > t.total[best] ? i : best), -1);
}, name);

async function pointAt(page, node, fx = 0.5) {
  const r = await page.evaluate((i) => fgPage.rectOf(i), node);
  check(r, 'node ' + node + ' is not in view');
  // the canvas can be taller than the window: bring the row to the middle
  await page.evaluate((y) => {
    window.scrollBy(0, document.getElementById('flame').getBoundingClientRect().top + y - window.innerHeight / 2);
  }, r.y);
  const box = await page.locator('#flame').boundingBox();
  return { x: box.x + r.x + r.w * fx, y: box.y + r.y + r.h / 2, rect: r, box };
}

async function hover(page, node, fx = 0.5) {
  const p = await pointAt(page, node, fx);
  await page.mouse.move(p.x, p.y);
  return page.locator('#tooltip').textContent();
}

async function pixel(page, node) {
  const r = await page.evaluate((i) => fgPage.rectOf(i), node);
  return page.evaluate(([x, y]) => {
    const c = document.getElementById('flame'), dpr = window.devicePixelRatio || 1;
    return Array.from(c.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data.slice(0, 3));
  }, [r.x + 1, r.y + r.h / 2]);
}

const state = (page) => page.evaluate(() => Object.assign({}, fgPage.state));
const matchedText = (page) => page.locator('#matched').textContent();

async function typeSearch(page, text) {
  await page.locator('#flame').focus();
  await page.keyboard.press('/');
  check(await page.evaluate(() => document.activeElement.id) === 'search', '/ does not focus the search box');
  await page.keyboard.type(text);
}

// ---- cases -------------------------------------------------------------------

const cases = {
  // Tooltip of a known frame: name, kind, total and self with the unit and
  // the percentage of the whole profile.
  async 'tooltip'() {
    const lines = collapsed('go-cpu.folded'), all = sum(lines);
    const { browser, page, problems } = await open(generate('tooltip', 'go-cpu.folded'));
    const node = await widest(page, 'main.fibWorker');
    const pathNames = await page.evaluate((i) => fgPage.pathOf(i), node);
    const total = sum(lines.filter((l) => startsWith(l.frames, pathNames)));
    const self = sum(lines.filter((l) => l.frames.length === pathNames.length && startsWith(l.frames, pathNames)));
    const text = await hover(page, node);
    check(text.startsWith('main.fibWorker\n'), 'tooltip does not start with the name: ' + text);
    check(text.includes('kind: native'), 'tooltip lacks the kind: ' + text);
    const expected = 'total: ' + total.toLocaleString('en-US') + ' samples, ' + pct(total, all) + ' of all';
    check(text.includes(expected), 'tooltip lacks "' + expected + '": ' + text);
    check(text.includes('self: ' + self.toLocaleString('en-US') + ' samples'), 'tooltip has the wrong self: ' + text);
    // the colour is the SVG's: flamegraph.pl's palette from a hash of the name
    const svg = execFileSync(args['fg-convert'], ['--to', 'svg', path.join(args.samples, 'go-cpu.folded')]).toString();
    const fill = svg.split('<title>main.fibWorker (')[1].match(/fill="rgb\((\d+),(\d+),(\d+)\)"/).slice(1).join();
    check((await pixel(page, node)).join() === fill, 'colour ' + (await pixel(page, node)) + ', the SVG has ' + fill);
    check((await page.locator('#meta').textContent()).includes('samples/go-cpu.folded'), 'header lacks the source file');
    check((await page.locator('#meta').textContent()).includes('samples (count)'), 'header lacks the value type and unit');
    return { browser, page, problems };
  },

  // Click to zoom: the frame spans the canvas (hovering both edges finds
  // it), its percentage of the zoomed frame is 100%, and back/forward step
  // through the zooms.
  async 'zoom'() {
    const { browser, page, problems } = await open(generate('zoom', 'go-cpu.folded'));
    const worker = await widest(page, 'main.dataWorker');
    let p = await pointAt(page, worker);
    await page.mouse.click(p.x, p.y);
    check((await state(page)).zoom === worker, 'click did not zoom to main.dataWorker');
    const r = await page.evaluate((i) => fgPage.rectOf(i), worker);
    const width = await page.evaluate(() => document.getElementById('flame').getBoundingClientRect().width);
    check(Math.abs(r.x) < 0.5 && Math.abs(r.x + r.w - width) < 0.5, 'zoomed frame does not fill the width: ' + JSON.stringify(r) + ' of ' + width);
    for (const fx of [0.002, 0.998]) {
      const text = await hover(page, worker, fx);
      check(text.startsWith('main.dataWorker\n') && text.includes('100.00% of the zoomed frame'), 'edge ' + fx + ' of the row shows: ' + text);
    }
    check(await page.locator('#reset').isEnabled(), 'Reset zoom is not enabled when zoomed');
    const sort = await widest(page, 'main.quicksort');
    p = await pointAt(page, sort);
    await page.mouse.click(p.x, p.y);
    check((await state(page)).zoom === sort, 'second click did not zoom to main.quicksort');
    await page.goBack();
    check((await state(page)).zoom === worker, 'back did not return to main.dataWorker');
    await page.goBack();
    check((await state(page)).zoom === 0, 'back did not return to the whole graph');
    await page.goForward();
    check((await state(page)).zoom === worker, 'forward did not return to main.dataWorker');
    await page.click('#reset');
    check((await state(page)).zoom === 0, 'Reset zoom did not reset');
    await page.goBack();
    await page.mouse.move(5, 5);
    return { browser, page, problems };
  },

  // Regex search: the matched percentage counts each sample once, however
  // many nested matches it holds, including frames narrower than a pixel;
  // the ignore-case switch; a bad pattern matches nothing.
  async 'search'() {
    const lines = collapsed('go-cpu.folded'), all = sum(lines);
    const { browser, page, problems } = await open(generate('search', 'go-cpu.folded'));
    const pattern = 'main\\.(fib|isEven)|memmove';
    await typeSearch(page, pattern);
    const expected = 'Matched: ' + pct(matchedBy(lines, new RegExp(pattern)), all);
    check((await matchedText(page)) === expected, 'matched "' + (await matchedText(page)) + '", expected "' + expected + '"');
    // the expected value counts every frame: some matched ones are drawn merged
    const narrow = await page.evaluate(() => fgPage.nodesNamed('runtime.memmove').filter((i) => fgPage.rectOf(i).w < 1).length);
    check(narrow > 0, 'no matched frame is narrower than a pixel: the case no longer tests merged frames');
    const magenta = await pixel(page, await widest(page, 'main.fib'));
    check(magenta.join() === '230,0,230', 'a matched frame is not magenta: ' + magenta);
    check((await state(page)).search === pattern && decodeURIComponent(await page.evaluate(() => location.hash)).includes('search=' + pattern),
          'the search is not in the URL fragment');
    await page.fill('#search', 'MAIN\\.FIB');
    check((await matchedText(page)) === 'Matched: 0.00%', 'case-sensitive search matched: ' + (await matchedText(page)));
    await page.check('#ignorecase');
    const expectedIc = 'Matched: ' + pct(matchedBy(lines, /MAIN\.FIB/i), all);
    check((await matchedText(page)) === expectedIc, 'ignore-case: "' + (await matchedText(page)) + '", expected "' + expectedIc + '"');
    await page.fill('#search', 'main.(');
    check(await page.locator('#search.bad').count() === 1 && (await matchedText(page)) === '', 'a bad pattern is not flagged');
    const ms = await page.evaluate((p) => fgPage.search(p), pattern);
    check(ms < 200, 'search took ' + ms + ' ms');
    await page.mouse.move(5, 5);
    return { browser, page, problems };
  },

  // Icicle toggle, then zoom and search, then a reload of the same URL
  // shows the same view.
  async 'fragment'() {
    const lines = collapsed('go-cpu.folded'), all = sum(lines);
    const { browser, page, problems } = await open(generate('fragment', 'go-cpu.folded'));
    await page.check('#icicle');
    let root = await page.evaluate(() => fgPage.rectOf(0));
    check(root.y === 0, 'icicle view does not put the root at the top: ' + JSON.stringify(root));
    const node = await widest(page, 'main.hashWorker');
    const p = await pointAt(page, node);
    await page.mouse.click(p.x, p.y);
    await typeSearch(page, 'sha256');
    const before = await state(page), text = await matchedText(page);
    const url = page.url();
    check(url.includes('icicle=1') && url.includes('zoom=' + node) && url.includes('search=sha256'), 'URL lacks the view: ' + url);
    await page.reload();
    await page.waitForFunction(() => window.fgPage && window.fgPage.timings.firstDraw);
    const after = await state(page);
    check(JSON.stringify(after) === JSON.stringify(before), 'reload changed the view: ' + JSON.stringify(before) + ' -> ' + JSON.stringify(after));
    check((await matchedText(page)) === text, 'reload changed the match: ' + (await matchedText(page)));
    check(text.startsWith('Matched: ' + pct(matchedBy(lines, /sha256/), all)), 'matched: ' + text);
    check(await page.isChecked('#icicle') && (await page.inputValue('#search')) === 'sha256', 'controls do not show the restored view');
    root = await page.evaluate(() => fgPage.rectOf(0));
    check(root.y === 0, 'the restored view is not an icicle');
    return { browser, page, problems };
  },

  // Reversed (callee-rooted) view, toggled in the page: the root's
  // children are the leaf functions, each as wide as its self value.
  async 'reversed'() {
    const lines = collapsed('go-cpu.folded'), all = sum(lines);
    const { browser, page, problems } = await open(generate('reversed', 'go-cpu.folded'));
    await page.check('#reversed');
    const node = await page.evaluate(() => fgPage.nodesNamed('runtime.memmove').find((i) => fgPage.tree().depth[i] === 1));
    check(node !== undefined, 'runtime.memmove is not a root child of the reversed view');
    const leafSelf = sum(lines.filter((l) => l.frames[l.frames.length - 1] === 'runtime.memmove'));
    const text = await hover(page, node);
    check(text.includes('total: ' + leafSelf.toLocaleString('en-US') + ' samples, ' + pct(leafSelf, all)), 'reversed memmove: ' + text);
    check(page.url().includes('rev=1'), 'the reversed view is not in the URL');
    await page.mouse.move(5, 5);
    return { browser, page, problems };
  },

  // Reversing a chain 15,000 deep with a self value on every frame would
  // spell out 1+2+...+15000 = 112,507,500 frames (over 1e8, and 7,500 per
  // call path, over 256): the page refuses as fg-convert --reverse does,
  // with a note, and stays on the forward view, quickly and drawn.
  async 'reversed-bound'() {
    const depth = 15000, rows = [{ profile_location_str: 'root', node_id: 'r', parent_node_id: '-1', self_value: 0, total_value: depth }];
    for (let i = 0; i < depth; i++) {
      rows.push({ profile_location_str: 'f' + i, node_id: 'n' + i, parent_node_id: i ? 'n' + (i - 1) : 'r', self_value: 1, total_value: depth - i });
    }
    const input = path.join(args.out, 'chain.json'), out = path.join(args.out, 'reversed-bound.html');
    fs.writeFileSync(input, JSON.stringify({ OPT_STATUS: 'SUCCESS', DESCRIPTION: '', result: rows }));
    execFileSync(args['fg-convert'], ['--to', 'html', input, '-o', out]);
    const { browser, page, problems } = await open(out);
    check(await page.locator('#notice').isHidden(), 'a note shows before reversing');
    const t0 = Date.now();
    await page.click('#reversed');
    await page.waitForFunction(() => !document.getElementById('notice').hidden, null, { timeout: 10000 });
    check(Date.now() - t0 < 10000, 'refusing took ' + (Date.now() - t0) + ' ms');
    const note = await page.locator('#notice').textContent();
    check(note.includes('112,507,500 frames for 15,000 call paths') && note.includes('refusing past 100,000,000 frames and 256 per call path'),
          'the note: ' + note);
    check(!(await state(page)).rev && !(await page.isChecked('#reversed')) && await page.isDisabled('#reversed'),
          'the reversed view is still on or can be asked for again');
    check(!page.url().includes('rev=1'), 'the refused view is in the URL: ' + page.url());
    check(await page.evaluate(() => fgPage.tree().n) === depth + 1, 'not the forward tree of ' + (depth + 1) + ' nodes');
    // and a link that asks for it directly is refused the same way
    const again = await browser.newPage();
    again.on('pageerror', (e) => problems.push('script error: ' + e.message));
    await again.goto('file://' + path.resolve(out) + '#rev=1');
    await again.waitForFunction(() => window.fgPage && window.fgPage.timings.firstDraw, null, { timeout: 10000 });
    check(!(await state(again)).rev && (await again.locator('#notice').textContent()) === note, '#rev=1 is not refused');
    await again.close();
    // The screenshot shows the note: a full page of 15,000 rows takes a minute.
    await page.evaluate(() => { document.getElementById('chart').hidden = true; });
    return { browser, page, problems };
  },

  // Names and a title made of markup show as text; nothing runs.
  async 'xss'() {
    const title = '</title><script>alert(1)</script>';
    const { browser, page, problems } = await open(generate('xss', 'xss.folded', ['--title=' + title]));
    check((await page.locator('h1').textContent()) === title, 'the title is not shown as text');
    check(await page.title() === title, 'document.title differs');
    check(await page.evaluate(() => document.scripts.length) === 2 && await page.locator('img, svg').count() === 0,
          'the profile added elements to the page');
    const name = '</script><img src=x onerror=alert(1)>';
    const node = await widest(page, name);
    check(node > 0, 'the injection frame is missing');
    const text = await hover(page, node);
    check(text.split('\n')[0] === name, 'tooltip does not show the name as text: ' + text);
    for (const n of ['"><script>alert(1)</script>', 'a&b<c>\'d"', ']]><script>alert(2)</script><![CDATA[', '&amp &lt &#60 &#x3c'])
      check((await widest(page, n)) > 0, 'frame missing: ' + n);
    await page.check('#tableview');
    const cells = await page.locator('#table td.name').allTextContents();
    check(cells.includes(name), 'the table does not show the name as text');
    await page.uncheck('#tableview');
    await hover(page, node);
    await page.waitForTimeout(300);  // any onerror would have fired by now
    return { browser, page, problems };
  },

  // Differential colouring from base and new columns, and its legend.
  async 'diff'() {
    const { browser, page, problems } = await open(generate('diff', 'go-cpu-diff.folded'));
    const legend = await page.locator('#legend').textContent();
    check(legend.includes('grew') && legend.includes('shrank'), 'diff legend: ' + legend);
    const [grew, shrank] = await page.evaluate(() => {
      const t = fgPage.tree();
      let g = 1, s = 1;
      for (let i = 1; i < t.n; i++) {
        const d = t.self[i] - t.base[i];
        if (t.total[i] * 1240 / t.total[0] < 4) continue;
        if (d > t.self[g] - t.base[g]) g = i;
        if (d < t.self[s] - t.base[s]) s = i;
      }
      return [g, s];
    });
    const red = await pixel(page, grew), blue = await pixel(page, shrank);
    check(red[0] === 255 && red[1] < 255, 'a frame that grew is not red: ' + red);
    check(blue[2] === 255 && blue[0] < 255, 'a frame that shrank is not blue: ' + blue);
    const text = await hover(page, grew);
    check(text.includes('base total:') && text.includes('self change: +'), 'diff tooltip: ' + text);
    return { browser, page, problems };
  },

  // Frame-kind palette and legend, keyboard use and the top table.
  async 'java'() {
    const lines = collapsed('java-annotated.folded');
    const { browser, page, problems } = await open(generate('java', 'java-annotated.folded'));
    const legend = await page.locator('#legend').textContent();
    for (const k of ['Java (JIT-compiled)', 'inlined', 'kernel', 'C++', 'native'])
      check(legend.includes(k), 'legend lacks ' + k + ': ' + legend);
    const kernel = await widest(page, 'do_syscall_64');
    check((await hover(page, kernel)).includes('kind: kernel'), 'do_syscall_64 is not a kernel frame');
    const svg = execFileSync(args['fg-convert'], ['--to', 'svg', '--colors=java', path.join(args.samples, 'java-annotated.folded')]).toString();
    const fill = svg.split('<title>do_syscall_64 (')[1].match(/fill="rgb\((\d+),(\d+),(\d+)\)"/).slice(1).join();
    check((await pixel(page, kernel)).join() === fill, 'kernel colour ' + (await pixel(page, kernel)) + ', the SVG has ' + fill);
    const jit = await widest(page, 'java/lang/Thread.run');
    const green = await pixel(page, jit);
    check(green[1] > green[0] && green[1] > green[2], 'a JIT frame is not green: ' + green);
    check((await hover(page, jit)).includes('kind: jit'), 'Thread.run is not a JIT frame');
    // keyboard: Ctrl+F searches, Enter zooms the hovered frame, Escape resets
    await page.keyboard.press('Control+f');
    check(await page.evaluate(() => document.activeElement.id) === 'search', 'Ctrl+F does not focus the search box');
    await page.keyboard.type('hashCode');
    check((await matchedText(page)) !== '', 'no match shown for hashCode');
    await page.locator('#flame').focus();
    await hover(page, jit);
    await page.keyboard.press('Enter');
    check((await state(page)).zoom === jit, 'Enter does not zoom the hovered frame');
    await page.keyboard.press('Escape');
    const s = await state(page);
    check(s.zoom === 0 && s.search === '', 'Escape does not reset: ' + JSON.stringify(s));
    // the table's first row is the function with the largest self value
    const selfOf = {};
    for (const l of lines) {
      const leaf = l.frames[l.frames.length - 1].replace(/_\[[kjiw]\]$/, '');
      selfOf[leaf] = (selfOf[leaf] || 0) + l.count;
    }
    const top = Object.keys(selfOf).sort((a, b) => selfOf[b] - selfOf[a])[0];
    await page.check('#tableview');
    const first = await page.locator('#table tbody tr').first().locator('td').allTextContents();
    check(first[5] === top && first[0] === selfOf[top].toLocaleString('en-US'), 'table row 1: ' + first + ', expected ' + top);
    check(!(await page.locator('#flame').isVisible()), 'the canvas is still shown beside the table');
    await page.screenshot({ path: path.join(args.out, 'java-table.png'), fullPage: true });
    await page.uncheck('#tableview');
    await hover(page, await widest(page, 'tcp_sendmsg'));
    return { browser, page, problems };
  },

  // "Reset" does what its tooltip says (and Escape does): it resets the
  // zoom and the search, and it is enabled whenever either is set.
  async 'reset'() {
    const { browser, page, problems } = await open(generate('reset', 'go-cpu.folded'));
    const reset = page.locator('#reset');
    check((await reset.getAttribute('title')) === 'Reset zoom and search (Escape)', 'tooltip: ' + (await reset.getAttribute('title')));
    check(!(await reset.isEnabled()), 'Reset is enabled with nothing to reset');
    await typeSearch(page, 'main\\.fib');
    check(await reset.isEnabled(), 'Reset is not enabled while a search is set');
    await reset.click();
    let s = await state(page);
    check(s.search === '' && (await page.locator('#search').inputValue()) === '', 'Reset left the search "' + s.search + '"');
    check(!(await reset.isEnabled()), 'Reset is still enabled with nothing left to reset');
    const worker = await widest(page, 'main.dataWorker');
    const p = await pointAt(page, worker);
    await page.mouse.click(p.x, p.y);
    check(await reset.isEnabled(), 'Reset is not enabled when zoomed');
    await typeSearch(page, 'memmove');
    await reset.click();
    s = await state(page);
    check(s.zoom === 0 && s.search === '', 'Reset left zoom ' + s.zoom + ' and search "' + s.search + '"');
    check(!(await reset.isEnabled()), 'Reset is still enabled after resetting both');
    return { browser, page, problems };
  },

  // The root frame reads as in the SVG, flamegraph.pl's "all", for an
  // input of every format (a DeepFlow tree names its root node "cpuwork").
  async 'root'() {
    check(args.inputs, 'missing --inputs');
    const inputs = [['golden/inputs/basic.folded'], ['golden/inputs/heap.pb.gz'], ['golden/inputs/lock.jfr.gz', '--lock'],
                    ['data/deepflow/process_cpuwork_golang.json'], ['golden/inputs/jeprof-m1.dot']];
    let session = null;
    for (const [file, ...extra] of inputs) {
      if (session) await session.browser.close();
      const input = path.join(args.inputs, file), quiet = { stdio: ['ignore', 'pipe', 'ignore'] };
      const out = path.join(args.out, 'root-' + path.basename(file) + '.html');
      execFileSync(args['fg-convert'], ['--to', 'html', ...extra, input, '-o', out], quiet);
      const svg = execFileSync(args['fg-convert'], ['--to', 'svg', ...extra, input], quiet).toString();
      const svgRoot = svg.slice(svg.indexOf('<g id="frames"')).match(/<title>(.*?) \(/)[1];
      check(svgRoot === 'all', file + ': the SVG labels the root "' + svgRoot + '"');
      session = await open(out);
      const text = await hover(session.page, 0);
      check(text.split('\n')[0] === svgRoot, file + ': the page labels the root "' + text.split('\n')[0] + '"');
      check((await session.page.evaluate(() => fgPage.label(0))) === svgRoot, file + ': fgPage.label(0) differs');
    }
    return session;
  },

  // Fractional counts (a;b 0.5) are shown exactly, as the collapsed
  // output writes them back, not rounded to whole samples.
  async 'fractions'() {
    check(args.inputs, 'missing --inputs');
    const input = path.join(args.inputs, 'golden/inputs/fractions.folded');
    const lines = collapsed('golden/inputs/fractions.folded', args.inputs);
    const all = sum(lines), b = sum(lines.filter((l) => l.frames[1] === 'b'));
    check(all % 1 !== 0 && b % 1 !== 0, 'the input no longer has fractional sums: ' + JSON.stringify(lines));
    const out = path.join(args.out, 'fractions.html');
    execFileSync(args['fg-convert'], ['--to', 'html', input, '-o', out]);
    const session = await open(out);
    const root = await hover(session.page, 0);
    check(root.includes('total: ' + all.toLocaleString('en-US') + ' samples, 100.00% of all'), 'root: ' + root);
    const leaf = await hover(session.page, await widest(session.page, 'b'));
    check(leaf.includes('total: ' + b.toLocaleString('en-US') + ' samples, ' + pct(b, all)), 'a;b: ' + leaf);
    return session;
  },
};

(async () => {
  const run = cases[args.case];
  if (!run) fail('unknown case ' + args.case + '; cases: ' + Object.keys(cases).join(', '));
  let session;
  try {
    await run();
    session = current;
    await session.page.screenshot({ path: path.join(args.out, args.case + '.png'), fullPage: true });
    check(session.problems.length === 0, session.problems.join('; '));
  } catch (e) {
    session = current;
    if (session && session.page) await session.page.screenshot({ path: path.join(args.out, args.case + '.png'), fullPage: true }).catch(() => {});
    fail(args.case + ': ' + (e && e.stack || e));
  } finally {
    if (session) await session.browser.close();
  }
  console.log('ok: ' + args.case + ' (screenshot ' + path.join(args.out, args.case + '.png') + ')');
})().catch((e) => fail(String(e && e.stack || e)));
