// What every browser test starts with: its arguments, the failure exit,
// and Debian's Chromium through playwright-core. A missing Chromium or
// playwright-core is a failure, never a skip.
'use strict';

const fs = require('fs');

/** Prints FAIL: message and exits 1. */
function fail(message) {
  console.error('FAIL: ' + message);
  process.exit(1);
}

/**
 * The options (--name VALUE) of process.argv, with --chromium defaulting to
 * Debian's; a bare word is `positional`'s value. Fails when one of
 * `required` is missing, naming `script` for its usage.
 */
function parseArgs(required, script, positional) {
  const args = { chromium: '/usr/bin/chromium' };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) args[argv[i].slice(2)] = argv[++i];
    else if (positional) args[positional] = argv[i];
  }
  for (const k of required) if (!args[k]) fail('missing ' + k + ' (see the usage at the top of ' + script + ')');
  return args;
}

/** playwright-core's chromium, once args.chromium is known to exist. */
function loadChromium(args) {
  if (!fs.existsSync(args.chromium)) fail(args.chromium + ' not found: install Debian\'s chromium (scripts/install-deps.sh)');
  try {
    return require('playwright-core').chromium;
  } catch (e) {
    fail('playwright-core is not installed in ' + __dirname + '/node_modules: run scripts/install-deps.sh (npm ci)');
  }
}

module.exports = { fail, parseArgs, loadChromium };
