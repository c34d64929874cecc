#!/usr/bin/env node
// Browser test of fg-report's site: writes a report over a mixed corpus
// (tests/report/inputs/mixed) and opens it in headless Chromium. The index
// loads with no script error and no network request, sorting and filtering
// work, every link of the index and of each profile page resolves to a file
// of the site, and each page's flame graph draws. Expected values come from
// summary.json, which report.mixed checks against fg-convert and fg-top.
//
// usage: node report_test.js --fg-report BIN --inputs DIR --out DIR [--chromium PATH]
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const { fail, parseArgs, loadChromium } = require('./harness');

const args = parseArgs(['fg-report', 'inputs', 'out'], __filename);
const chromium = loadChromium(args);

const problems = [];
function check(condition, message) {
  if (!condition) problems.push(message);
}

// With manifests (tests/report/inputs/manifest): the group column sorts and
// filters, label columns filter, and a group's page and flame graph draw.
async function checkGroups(browser) {
  const manifests = path.join(args.inputs, '..', 'manifest');
  const site = path.resolve(args.out, 'report-groups');
  fs.rmSync(site, { recursive: true, force: true });
  const run = spawnSync(args['fg-report'], ['-q', '--manifest', path.join(manifests, 'hosts.tsv'), '--manifest',
                                            path.join(manifests, 'more.json'), '-o', site]);
  check(run.status === 0, 'groups: fg-report exit status ' + run.status);
  const summary = JSON.parse(fs.readFileSync(path.join(site, 'summary.json'), 'utf8'));
  const page = await browser.newPage();
  page.on('pageerror', (e) => problems.push('groups: script error: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push('groups: console error: ' + m.text()); });
  page.on('request', (r) => { if (!r.url().startsWith('file:')) problems.push('network request: ' + r.url()); });
  await page.goto('file://' + path.join(site, 'index.html'));
  const profiles = 'table:not(#groups) tbody tr';
  const names = async () => page.locator(profiles + ' td:first-child').allTextContents();
  const group = page.locator('table:not(#groups) th', { hasText: /^group$/ });
  await group.click();
  const byGroup = summary.profiles.slice().sort((a, b) => (a.group || '').localeCompare(b.group || ''));
  const firstGrouped = (await names()).filter((n) => summary.profiles.find((p) => p.name === n).group);
  check(JSON.stringify(firstGrouped) === JSON.stringify(byGroup.filter((p) => p.group).map((p) => p.name)),
        'sorted by group: ' + (await names()));
  await page.fill('#filter', 'host-b');
  check(JSON.stringify(await names()) === JSON.stringify(['web-2']), 'filtered by a label: ' + (await names()));
  await page.fill('#filter', 'db');
  check(JSON.stringify(await names()) === JSON.stringify(['db-1', 'db-2']), 'filtered by group: ' + (await names()));
  const groupLinks = await page.locator('#groups a').evaluateAll((as) => as.map((a) => a.href));
  check(groupLinks.length === summary.groups.length, 'a link per group');
  for (const link of groupLinks) {
    await page.goto(link);
    const flame = await page.locator('a', { hasText: 'flame graph' }).evaluateAll((as) => as.map((a) => a.href));
    check(flame.length === 1, 'a group page links its flame graph: ' + link);
    for (const l of flame) {
      await page.goto(l);
      check(await page.locator('svg g, svg rect, canvas').count() > 0, 'the group flame graph draws nothing: ' + l);
    }
  }
  await page.goto('file://' + path.join(site, summary.profiles.find((p) => p.name === 'web-2').page));
  const facts = await page.locator('#manifest').textContent();
  check(facts === 'group: web; host: host-b; service: front', 'a page names its group and labels: ' + facts);
  await page.close();
}

// A JFR recording of several kinds of event (tests/parity's JDK
// cpu-recursion: samples, alloc, lock) with a baseline of another run:
// the page lists its kinds, each kind's section links views that exist,
// and every kind's flame graph draws.
async function checkKinds(browser) {
  const recordings = path.join(args.inputs, '..', '..', '..', 'parity', 'jfr', 'recordings');
  const site = path.resolve(args.out, 'report-kinds');
  fs.rmSync(site, { recursive: true, force: true });
  const run = spawnSync(args['fg-report'], ['-q', '--baseline', path.join(recordings, 'cpu-recursion-mixB.jdk.jfr.gz'),
                                            path.join(recordings, 'cpu-recursion.jdk.jfr.gz'), '-o', site]);
  check(run.status === 0, 'kinds: fg-report exit status ' + run.status);
  const summary = JSON.parse(fs.readFileSync(path.join(site, 'summary.json'), 'utf8'));
  const page = await browser.newPage();
  page.on('pageerror', (e) => problems.push('kinds: script error: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push('kinds: console error: ' + m.text()); });
  page.on('request', (r) => { if (!r.url().startsWith('file:')) problems.push('network request: ' + r.url()); });
  await page.goto('file://' + path.join(site, 'index.html'));
  const kinds = await page.locator('tbody tr td:nth-child(4)').allTextContents();
  check(JSON.stringify(kinds) === JSON.stringify(['samples, alloc, lock']), 'kinds: the index column: ' + kinds);
  await page.goto('file://' + path.join(site, summary.profiles[0].page));
  const nav = await page.locator('#kinds').textContent();
  check(nav === 'kinds of event: samples (above), alloc, lock', 'kinds: the page lists them: ' + nav);
  await page.locator('#kinds a', { hasText: 'alloc' }).click();
  check(await page.locator('h2#kind-alloc').isVisible(), 'kinds: the alloc section');
  const links = await page.locator('a').evaluateAll((as) => as.map((a) => a.href));
  for (const l of links) check(fs.existsSync(decodeURI(new URL(l).pathname)), 'kinds: a link to a missing file: ' + l);
  const flames = links.filter((l) => /flame-\d+\.html$/.test(l));
  check(flames.length === 5 && flames.filter((l) => /\/alloc\/flame-/.test(l)).length === 2,
        'kinds: a flame graph per column of each kind: ' + flames);
  check(links.some((l) => l.endsWith('/alloc/diff.svg')), 'kinds: the alloc comparison links its diff');
  for (const l of flames) {
    await page.goto(l);
    check(await page.locator('svg g, svg rect, canvas').count() > 0, 'kinds: the flame graph draws nothing: ' + l);
  }
  await page.close();
}

(async () => {
  fs.mkdirSync(args.out, { recursive: true });
  const site = path.resolve(args.out, 'report-site');
  fs.rmSync(site, { recursive: true, force: true });
  const run = spawnSync(args['fg-report'], ['-q', args.inputs, '-o', site]);
  check(run.status === 1, 'fg-report exit status ' + run.status + ', expected 1 (a truncated input)');
  const summary = JSON.parse(fs.readFileSync(path.join(site, 'summary.json'), 'utf8'));
  const browser = await chromium.launch({ executablePath: args.chromium, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => problems.push('script error: ' + e.message));
    page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
    page.on('request', (r) => { if (!r.url().startsWith('file:')) problems.push('network request: ' + r.url()); });
    page.on('dialog', (d) => { problems.push('a dialog opened: ' + d.message()); d.dismiss(); });
    await page.goto('file://' + path.join(site, 'index.html'));
    const rows = page.locator('tbody tr');
    check(await rows.count() === summary.profiles.length, 'one row per profile');
    const names = async () => page.locator('tbody tr td:first-child').allTextContents();
    check(JSON.stringify(await names()) === JSON.stringify(summary.profiles.map((p) => p.name).sort((a, b) => a.localeCompare(b))),
          'sorted by name at first: ' + (await names()));
    // Sort by samples, largest first (two clicks), then filter by format.
    const samples = page.locator('th', { hasText: 'samples' });
    await samples.click();
    await samples.click();
    const most = summary.profiles.filter((p) => p.samples !== undefined).sort((a, b) => b.samples - a.samples)[0];
    check((await names())[0] === most.name, 'sorted by samples: ' + (await names())[0] + ', expected ' + most.name);
    await page.fill('#filter', 'jemalloc');
    const jemalloc = summary.profiles.filter((p) => p.format === 'jemalloc').map((p) => p.name);
    check(JSON.stringify(await names()) === JSON.stringify(jemalloc), 'filtered to ' + jemalloc + ': ' + (await names()));
    await page.fill('#filter', '');
    // Every link resolves; each profile page's links too, and its flame graphs draw.
    const links = await page.locator('a').evaluateAll((as) => as.map((a) => a.href));
    check(links.length === summary.profiles.filter((p) => p.page).length, 'a link per page');
    for (const link of links) {
      const file = decodeURI(new URL(link).pathname);
      check(fs.existsSync(file), 'index link to a missing file: ' + link);
      await page.goto(link);
      const pageLinks = await page.locator('a').evaluateAll((as) => as.map((a) => a.href));
      for (const l of pageLinks) check(fs.existsSync(decodeURI(new URL(l).pathname)), 'page link to a missing file: ' + l);
      for (const l of pageLinks.filter((l) => /flame-\d+\.html$/.test(l))) {
        await page.goto(l);
        const frames = await page.locator('svg g, svg rect, canvas').count();
        check(frames > 0, 'the flame graph draws nothing: ' + l);
      }
    }
    const xss = summary.profiles.find((p) => p.name === 'xss');
    await page.goto('file://' + path.join(site, xss.page));
    const top = await page.locator('li').allTextContents();
    check(top[0] === xss.top[0].name + ': ' + xss.top[0].self, 'a hostile name shown as text: ' + top[0]);
    await checkGroups(browser);
    await checkKinds(browser);
  } finally {
    await browser.close();
  }
  if (problems.length) fail(problems.join('\n'));
  console.log('ok');
})().catch((e) => fail(e.stack));
