// What the browser bench pages share: timing a frame function in rounds and handing the results
// to the Node side (bench/browser-page.mjs reads `window.__bench` or `window.__benchError`).

/** Units per second: the median of the rounds and their spread (median absolute deviation / median). */
export interface Rate {
  median: number;
  spread: number;
}

const quick = new URLSearchParams(location.search).has('quick');
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 100 : 600;

const medianOf = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Units per second of `frame`, which does `unitsPerFrame` units (e.g. joints × instances), over
 * 7 rounds of 600 ms (3 of 100 ms with `?quick`) after a warm-up round.
 */
export function measure(frame: () => void, unitsPerFrame: number): Rate {
  const rates: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    let frames = 0;
    const start = performance.now();
    let now = start;
    while (now - start < ROUND_MS) {
      frame();
      frames++;
      now = performance.now();
    }
    if (round >= 0) rates.push((frames * unitsPerFrame * 1000) / (now - start));
  }
  const median = medianOf(rates);
  return { median, spread: medianOf(rates.map((r) => Math.abs(r - median))) / median };
}

/** Shows the page's results and leaves them (or the error) where the Node side reads them. */
export function publish(results: Promise<unknown>): void {
  results.then(
    (r) => {
      (window as unknown as { __bench: unknown }).__bench = r;
      document.getElementById('out')!.textContent = JSON.stringify(r, null, 2);
    },
    (e: unknown) => {
      (window as unknown as { __benchError: string }).__benchError = String(e);
    },
  );
}
