#!/usr/bin/env node
// Runs before `npm test`: the Debian packages the tests use as real servers (nginx-light: its limit_req rate
// limiter is a server nobody here wrote). Installed with apt-get when missing and this runs as root (CI, a
// fresh machine); otherwise it says what to install, and the tests that need it fail with the same words.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');

const PACKAGES = [{ name: 'nginx-light', binary: ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'] }];
const missing = PACKAGES.filter((p) => !p.binary.some((b) => existsSync(b)));
if (missing.length === 0) process.exit(0);
const names = missing.map((p) => p.name);
if (typeof process.getuid === 'function' && process.getuid() === 0) {
  console.log(`test set-up: installing Debian packages: ${names.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...names], { stdio: 'inherit', env });
} else {
  console.warn(
    `test set-up: missing Debian packages ${names.join(' ')}: run apt-get install -y ${names.join(' ')} as root`,
  );
}
