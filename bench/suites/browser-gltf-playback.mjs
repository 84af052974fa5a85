// browser-gltf-playback (issue 15): gltf-playback's cases in headless Chromium, every contender in
// the same page (viewer/bench-gltf.html, see viewer/src/bench-gltf.ts): CesiumMan (when the
// fixtures are there) and the 64-joint CUBICSPLINE rig, 100 and 1,000 instances, against three.js
// at 25. One page run serves the four cases. Skipped with a message when Chromium is not installed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM } from '../../scripts/browser.mjs';
import { runBenchPage } from '../browser-page.mjs';
import { FIXTURES } from '../fixtures.mjs';

const INSTANCES = [100, 1000];

export default function browserGltfPlayback({ quick }) {
  if (!existsSync(CHROMIUM)) {
    console.warn(`\nbrowser-gltf-playback skipped: ${CHROMIUM} not found (apt-get install chromium)`);
    return [];
  }
  const files = [...(existsSync(join(FIXTURES, 'gltf', 'CesiumMan.glb')) ? ['cesium-man'] : []), 'rig64-cubic'];
  let page;
  const results = () => (page ??= runBenchPage('bench-gltf.html', { quick, mounts: { '/fixtures/': FIXTURES } }));
  return files.flatMap((file) =>
    INSTANCES.map((instances) => ({
      name: `browser-gltf-playback-${file}-${instances}`,
      unit: 'joint samples/s',
      measure: async () => (await results())[`${file}-${instances}`],
    })),
  );
}
browserGltfPlayback.cases = ['browser-gltf-playback'];
