// Headless Chromium for the browser tests and the browser benchmark: Debian's /usr/bin/chromium
// (never a browser downloaded by npm) driven by playwright-core, and a static file server bound
// to 127.0.0.1.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.ANIMCORE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Whether Chromium is installed. When it is not: under CI=true an Error; otherwise false after
 * printing why the caller skips.
 */
export function haveChromium(what = 'browser tests') {
  if (existsSync(CHROMIUM)) return true;
  const reason = `${CHROMIUM} not found (apt-get install chromium; .ci/run installs it)`;
  if (process.env.CI === 'true') throw new Error(reason);
  console.warn(`skipping ${what}: ${reason}`);
  return false;
}

const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches headless Chromium with the project's flags plus `extraArgs` (e.g. `--js-flags=…`). */
export function launchChromium(extraArgs = []) {
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extraArgs] });
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

/**
 * Serves directories on 127.0.0.1 at a free port: `mounts` maps URL prefixes (`/`, `/fixtures/`)
 * to folders; the longest matching prefix wins; `/` → `index.html`. Resolves to `{ url, close() }`.
 */
export function serveStatic(mounts) {
  const entries = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const mount = entries.find(([prefix]) => path.startsWith(prefix));
    if (!mount) return void res.writeHead(404).end();
    const root = normalize(mount[1]);
    let file = normalize(join(root, path.slice(mount[0].length)));
    if (file !== root && !file.startsWith(root + sep)) return void res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r(undefined))) });
    });
  });
}
