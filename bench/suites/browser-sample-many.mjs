// browser-sample-many (issue 8): headless Chromium, 1,000 instances of the 64-joint rig per frame
// with skinning matrices; joint samples per second for animcore-simd, animcore-scalar and threejs
// (mixer + skeleton.update()), all measured in the same page (viewer/bench.html, see
// viewer/src/bench.ts). Skipped with a message when Chromium is not installed.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, launchChromium, serveStatic } from '../../scripts/browser.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

export default function browserSampleMany({ quick }) {
  if (!existsSync(CHROMIUM)) {
    console.warn(`\nbrowser-sample-many skipped: ${CHROMIUM} not found (apt-get install chromium)`);
    return [];
  }
  return [
    {
      name: 'browser-sample-many',
      unit: 'joint samples/s',
      /** Builds the viewer, serves it on 127.0.0.1 and reads the page's results. */
      async measure() {
        execSync('npx vite build viewer --logLevel warn', { cwd: root, stdio: 'inherit' });
        const server = await serveStatic({ '/': `${root}viewer/dist` });
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          await page.goto(`${server.url}/bench.html${quick ? '?quick' : ''}`);
          await page.waitForFunction(() => window.__bench || window.__benchError, null, { timeout: 300_000 });
          const error = await page.evaluate(() => window.__benchError);
          if (error) throw new Error(`browser bench failed: ${error}`);
          return await page.evaluate(() => window.__bench);
        } finally {
          await browser.close();
          await server.close();
        }
      },
    },
  ];
}
