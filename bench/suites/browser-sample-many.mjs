// browser-sample-many (issue 8): headless Chromium, 1,000 instances of the 64-joint rig per frame
// with skinning matrices; joint samples per second for animcore-simd, animcore-scalar and threejs
// (mixer + skeleton.update()), all measured in the same page (viewer/bench.html, see
// viewer/src/bench.ts). Skipped with a message when Chromium is not installed.
import { existsSync } from 'node:fs';
import { CHROMIUM } from '../../scripts/browser.mjs';
import { runBenchPage } from '../browser-page.mjs';

export default function browserSampleMany({ quick }) {
  if (!existsSync(CHROMIUM)) {
    console.warn(`\nbrowser-sample-many skipped: ${CHROMIUM} not found (apt-get install chromium)`);
    return [];
  }
  return [{ name: 'browser-sample-many', unit: 'joint samples/s', measure: () => runBenchPage('bench.html', { quick }) }];
}
