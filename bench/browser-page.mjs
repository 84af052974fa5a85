// Runs one page of the built viewer (viewer/dist) in headless Chromium and returns what the page
// leaves on `window.__bench` (its error on `window.__benchError` fails the case). The viewer is
// built once per bench process; `mounts` serves more folders beside it (e.g. the fixtures).
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launchChromium, serveStatic } from '../scripts/browser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
let built = false;

/** `page`: the HTML file in viewer/ (`bench.html`); `quick` adds `?quick` (short rounds). */
export async function runBenchPage(page, { quick, mounts = {} }) {
  if (!built) {
    execSync('npx vite build viewer --logLevel warn', { cwd: root, stdio: 'inherit' });
    built = true;
  }
  const server = await serveStatic({ '/': `${root}viewer/dist`, ...mounts });
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    await tab.goto(`${server.url}/${page}${quick ? '?quick' : ''}`);
    await tab.waitForFunction(() => window.__bench || window.__benchError, null, { timeout: 600_000 });
    const error = await tab.evaluate(() => window.__benchError);
    if (error) throw new Error(`browser bench ${page} failed: ${error}`);
    return await tab.evaluate(() => window.__bench);
  } finally {
    await browser.close();
    await server.close();
  }
}
