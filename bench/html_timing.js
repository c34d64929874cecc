#!/usr/bin/env node
// Helper of bench_html.py: opens pages in headless Chromium (Debian's,
// through tests/browser/node_modules/playwright-core) and prints JSON.
//   node html_timing.js html PAGE RUNS PATTERN...  -> first draw and search times
//   node html_timing.js svg PAGE RUNS              -> load time of an SVG
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '..', 'tests', 'browser', 'node_modules', 'playwright-core'));

const [mode, file, runsText, ...patterns] = process.argv.slice(2);
const runs = Number(runsText || 3);
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.FG_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const result = { runs: [] };
  for (let r = 0; r < runs; r++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto('file://' + path.resolve(file), { timeout: 600000 });
    if (mode === 'html') {
      await page.waitForFunction(() => window.fgPage && window.fgPage.timings.painted, null, { timeout: 600000 });
      const t = await page.evaluate(() => Object.assign({ nodes: fgPage.tree().n - 1 }, fgPage.timings));
      t.search = {};
      for (const p of patterns) t.search[p] = await page.evaluate((p) => { fgPage.search(''); return fgPage.search(p); }, p);
      t.matched = await page.evaluate(() => document.getElementById('matched').textContent);
      result.runs.push(t);
    } else {
      const t = await page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd);
      result.runs.push({ load: t });
    }
    await page.close();
  }
  if (mode === 'html') {
    result.nodes = result.runs[0].nodes;
    for (const k of ['parsed', 'built', 'firstDraw', 'painted']) result[k] = median(result.runs.map((t) => t[k]));
    result.search = {};
    for (const p of patterns) result.search[p] = median(result.runs.map((t) => t.search[p]));
  } else {
    result.load = median(result.runs.map((t) => t.load));
  }
  console.log(JSON.stringify(result));
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
