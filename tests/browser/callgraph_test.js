#!/usr/bin/env node
// Browser test of fg-convert --to callgraph-svg: the SVG opened on its own
// in headless Chromium fits the window, zooms with the wheel around the
// cursor and pans with a drag, and asks for nothing over the network.
//
// usage: node callgraph_test.js --fg-convert BIN --samples DIR --out DIR [--chromium PATH]
// A missing Chromium or playwright-core is a failure, never a skip.
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const { fail, parseArgs, loadChromium } = require('./harness');

const args = parseArgs(['fg-convert', 'samples', 'out'], __filename);
const chromium = loadChromium(args);
fs.mkdirSync(args.out, { recursive: true });

function check(condition, message) {
  if (!condition) throw new Error(message);
}

// The drawing's box on screen and the viewport group's transform.
const box = (page) => page.evaluate(() => {
  const r = document.getElementById('graph0').getBoundingClientRect(), view = document.getElementById('fg-viewport');
  return { x: r.x, y: r.y, w: r.width, h: r.height, transform: view ? view.getAttribute('transform') : null };
});

// The drawing's own coordinates of screen point (x, y).
const inner = (page, x, y) => page.evaluate(([x, y]) => {
  const g = document.getElementById('graph0'), p = g.ownerSVGElement.createSVGPoint();
  p.x = x;
  p.y = y;
  const q = p.matrixTransform(g.getScreenCTM().inverse());
  return { x: q.x, y: q.y };
}, [x, y]);

(async () => {
  const file = path.join(args.out, 'callgraph.svg');
  execFileSync(args['fg-convert'], ['--to', 'callgraph-svg', path.join(args.samples, 'go-cpu.folded'), '-o', file]);
  const browser = await chromium.launch({ executablePath: args.chromium, args: ['--no-sandbox'] });
  const problems = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on('pageerror', (e) => problems.push('script error: ' + e.message));
    page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
    page.on('request', (r) => { if (!r.url().startsWith('file:')) problems.push('network request: ' + r.url()); });
    await page.goto('file://' + path.resolve(file));

    // Fits: the whole drawing inside the window, as wide or as tall as it.
    const fit = await box(page);
    check(fit.x >= -0.5 && fit.y >= -0.5 && fit.x + fit.w <= 1000.5 && fit.y + fit.h <= 700.5, 'the graph does not fit the window: ' + JSON.stringify(fit));
    check(fit.w > 990 || fit.h > 690, 'the graph does not fill the window: ' + JSON.stringify(fit));

    // Wheel zoom around the cursor: bigger, and the point under the cursor stays.
    const cx = Math.round(fit.x + fit.w * 0.3), cy = Math.round(fit.y + fit.h * 0.4);  // events carry whole pixels
    const before = await inner(page, cx, cy);
    await page.mouse.move(cx, cy);
    await page.mouse.wheel(0, -400);
    await page.waitForFunction((t) => document.getElementById('fg-viewport').getAttribute('transform') !== t, fit.transform);
    await page.waitForTimeout(300);  // any later wheel events of the gesture
    const zoomed = await box(page);
    check(zoomed.w > fit.w * 1.5, 'the wheel did not zoom in: ' + JSON.stringify(zoomed));
    // within a pixel of the window before the zoom, in the drawing's units
    const after = await inner(page, cx, cy), pixel = (await inner(page, cx + 1, cy)).x - after.x;
    check(Math.abs(after.x - before.x) < pixel * zoomed.w / fit.w && Math.abs(after.y - before.y) < pixel * zoomed.w / fit.w,
          'the point under the cursor moved: ' + JSON.stringify(before) + ' -> ' + JSON.stringify(after));

    // Drag to pan: the drawing moves with the pointer.
    await page.mouse.move(500, 350);
    await page.mouse.down();
    await page.mouse.move(600, 400, { steps: 5 });
    await page.mouse.up();
    const panned = await box(page);
    check(panned.transform !== zoomed.transform, 'the drag did not change the transform');
    check(Math.abs(panned.x - zoomed.x - 100) < 1 && Math.abs(panned.y - zoomed.y - 50) < 1,
          'the drag moved the graph by ' + (panned.x - zoomed.x) + ',' + (panned.y - zoomed.y) + ', not 100,50');
    await page.screenshot({ path: path.join(args.out, 'callgraph.png') });
    check(problems.length === 0, problems.join('; '));
  } catch (e) {
    fail('callgraph: ' + (e && e.stack || e));
  } finally {
    await browser.close();
  }
  console.log('ok: callgraph');
})().catch((e) => fail(String(e && e.stack || e)));
