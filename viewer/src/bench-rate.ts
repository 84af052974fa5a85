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

/** A contender's frame function and the units it does per frame (e.g. joints × instances). */
export type Frame = [frame: () => void, unitsPerFrame: number];

/** Units per second of `frame` over one round of `ms` milliseconds. */
function round([frame, unitsPerFrame]: Frame, ms: number): number {
  let frames = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    frame();
    frames++;
    now = performance.now();
  }
  return (frames * unitsPerFrame * 1000) / (now - start);
}

/**
 * Units per second of each contender: a warm-up round each, then 7 rounds of 600 ms (3 of 100 ms
 * with `?quick`), interleaved — every contender's round r before anyone's round r + 1, the order
 * reversed every other round — so that a change in the machine's load during the case weighs on
 * every contender alike (one contender's rounds after another's had put 23.5–33.8× between the
 * same code's ratios). Rounds of hundreds of frames: the page's coarse clock (100 µs when not
 * cross-origin isolated) is ≈ 0.02 % of a round.
 */
export function measureEach(frames: Record<string, Frame>): Record<string, Rate> {
  const names = Object.keys(frames);
  for (const name of names) round(frames[name]!, ROUND_MS);
  const rates: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) rates[name]!.push(round(frames[name]!, ROUND_MS));
  }
  return Object.fromEntries(
    names.map((name) => {
      const median = medianOf(rates[name]!);
      return [name, { median, spread: medianOf(rates[name]!.map((r) => Math.abs(r - median))) / median }];
    }),
  );
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
