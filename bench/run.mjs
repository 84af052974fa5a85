// Runs every benchmark suite with tinybench, prints a table per case and writes
// bench/results.json as { "<case>": { "<contender>": <units per second (median)> } }.
// `npm run bench -- --quick` uses short runs (every case in under a minute); `--only <prefix>` runs
// the cases whose name starts with the prefix and prints them without writing the results files.
// Each suite runs in a process of its own (`--suite <name>`, its figures handed back as JSON):
// run one after another in one process, three.js's contenders measured up to 2× slower in the
// later suites than alone (CesiumMan three.js-25 1.48 M in a full run, 3.40 M alone minutes
// later; session 9), which flattered every ratio against them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { AnimCore } from '../dist/index.js';

/** The suites (bench/suites/<name>.mjs), in the order they run; a child imports only its own. */
const SUITES = ['sample-uniform', 'sample-quantized', 'sample-many', 'blend-layers', 'sample-keyed', 'mrtk', 'meteor', 'resample-batch', 'gltf-playback', 'gltf-resample', 'reduce-batch', 'crowd-cold', 'memory', 'browser-sample-many', 'browser-gltf-playback', 'batch-walk'];

const quick = process.argv.includes('--quick');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt < 0 ? null : process.argv[onlyAt + 1];
const suiteAt = process.argv.indexOf('--suite');

const results = {};
const details = {};
// Wall-clock seconds per suite (set-up included), so a slow `--quick` run shows where its time goes.
const seconds = {};
if (suiteAt >= 0) {
  // A child: one suite, its figures written to the file after the name.
  const suite = (await import(`./suites/${process.argv[suiteAt + 1]}.mjs`)).default;
  // A suite that is slow to set up names its cases (`suite.cases`), so `--only` can skip it whole.
  if (only === null || !suite.cases || suite.cases.some((name) => name.startsWith(only))) await runSuite(suite);
  writeFileSync(process.argv[suiteAt + 2], JSON.stringify({ results, details, seconds }));
  process.exit(0);
}
const scratch = mkdtempSync(join(tmpdir(), 'animcore-bench-'));
try {
  for (const name of SUITES) {
    const out = join(scratch, `${name}.json`);
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--suite', name, out, ...process.argv.slice(2)], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`bench: suite ${name} failed (${child.signal ?? `exit status ${child.status}`})`);
    const figures = JSON.parse(readFileSync(out, 'utf8'));
    Object.assign(results, figures.results);
    Object.assign(details, figures.details);
    Object.assign(seconds, figures.seconds);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (only !== null) process.exit(0);
writeFileSync(new URL('./results.json', import.meta.url), JSON.stringify(results, null, 2) + '\n');
writeFileSync(new URL('./results-detail.json', import.meta.url), JSON.stringify({ node: process.version, quick, seconds, details }, null, 2) + '\n');
console.log('\nwrote bench/results.json');

/** Runs `suite`'s cases (those `--only` selects) with the two builds, into `results`, `details` and `seconds`. */
async function runSuite(suite) {
  const cores = {
    'animcore-simd': await AnimCore.create({ build: 'simd' }),
    'animcore-scalar': await AnimCore.create({ build: 'scalar' }),
  };
  const suiteStarted = performance.now();
  let ran = false;
  // A suite returns its cases (or a Promise of them, when it reads files first).
  const suiteCases = new Map(); // timed cases run so far, for `sameRunsAs`
  for (const c of await suite({ cores, quick })) {
    if (only !== null && !c.name.startsWith(only)) continue;
    ran = true;
    if (c.values) {
      // Measured, not timed (sizes): one exact value per contender.
      results[c.name] = Object.fromEntries(Object.entries(c.values).map(([k, v]) => [k, Math.round(v * 1000) / 1000]));
      details[c.name] = Object.fromEntries(Object.entries(c.values).map(([k, v]) => [k, { value: v, spread: 0 }]));
      console.log(`\n${c.name} (${c.unit}, measured)`);
      console.table(Object.entries(c.values).map(([contender, v]) => ({ contender, [c.unit]: v.toFixed(3) })));
      continue;
    }
    if (c.measure) {
      // Measured by the case itself (a browser page, child processes; contenders interleaved): the case reports its own { median, spread } per contender.
      details[c.name] = await c.measure();
      results[c.name] = Object.fromEntries(Object.entries(details[c.name]).map(([k, v]) => [k, Math.round(v.median)]));
      console.log(`\n${c.name} (${c.unit}, ${quick ? 'quick' : 'full'} run, ${c.where ?? 'headless Chromium'})`);
      console.table(
        Object.entries(details[c.name]).map(([contender, v]) => ({
          contender,
          [`median ${c.unit}`]: c.show ? c.show(v.median) : `${(v.median / 1e6).toFixed(2)} M`,
          spread: `±${(100 * v.spread).toFixed(1)}%`,
          ...Object.fromEntries(
            [['× three.js', 'threejs'], ['× three.js-25', 'threejs-25']]
              .filter(([, base]) => results[c.name][base])
              .map(([column, base]) => [column, (v.median / results[c.name][base]).toFixed(1)]),
          ),
        })),
      );
      continue;
    }
    if (c.sameRunsAs && suiteCases.has(c.sameRunsAs)) {
      // The same contenders doing the same work as an earlier case of the suite, counted in
      // other units: its runs, rescaled (one measurement instead of two; the spread is the same).
      // Timed itself when `--only` left that case out.
      const base = suiteCases.get(c.sameRunsAs);
      const scale = c.unitsPerRun / base.unitsPerRun;
      details[c.name] = Object.fromEntries(Object.entries(details[c.sameRunsAs]).map(([k, v]) => [k, { ...v, median: v.median * scale }]));
      results[c.name] = Object.fromEntries(Object.entries(details[c.name]).map(([k, v]) => [k, c.unit === 'MB/s' ? Math.round(v.median * 10) / 10 : Math.round(v.median)]));
      console.log(`\n${c.name} (${c.unit}, the runs of ${c.sameRunsAs})`);
      console.table(Object.entries(details[c.name]).map(([contender, v]) => ({ contender, [`median ${c.unit}`]: c.unit === 'MB/s' ? v.median.toFixed(1) : `${(v.median / 1e6).toFixed(2)} M` })));
      continue;
    }
    suiteCases.set(c.name, c);
    // Slow cases (a whole batch per run) set fewer `iterations` than tinybench's default.
    // A run lasts at least `time` ms and `iterations` runs (tinybench's default 64); --quick keeps
    // slow contenders (the plain-TypeScript reference, whole-file batches) to a few runs.
    const iterations = c.iterations ? (quick ? Math.min(2, c.iterations) : c.iterations) : quick ? 10 : 64;
    const bench = new Bench({ name: c.name, time: quick ? 200 : 2000, warmupTime: quick ? 50 : 500, iterations, ...((quick || c.iterations) && { warmupIterations: c.iterations ? 1 : 2 }) });
    for (const [name, fn] of Object.entries(c.contenders)) bench.add(name, fn);
    await bench.run();
    results[c.name] = {};
    details[c.name] = {};
    const rows = [];
    for (const task of bench.tasks) {
      const lat = task.result.latency; // milliseconds per run
      // A case may count another number of units for some contenders (e.g. three.js posing fewer characters).
      const median = ((c.unitsPerRunOf?.[task.name] ?? c.unitsPerRun) * 1000) / lat.p50;
      results[c.name][task.name] = c.unit === 'MB/s' ? Math.round(median * 10) / 10 : Math.round(median);
      // Spread: the median absolute deviation of the latency, as a share of the median.
      const spread = lat.mad / lat.p50;
      const runs = task.runs;
      details[c.name][task.name] = { median, spread, runs };
      const shown = c.unit === 'MB/s' ? median.toFixed(1) : `${(median / 1e6).toFixed(2)} M`;
      rows.push({ contender: task.name, [`median ${c.unit}`]: shown, spread: `±${(100 * spread).toFixed(1)}%`, runs });
    }
    // Ratios against each baseline the case has, in the same run (three.js, three.js at its best
    // case of 25 characters, the reference, and a case's own `baseline` such as gltfpack).
    const columns = [['threejs', '× three.js'], ['threejs-25', '× three.js-25'], ['reference-ts', '× reference']];
    if (c.baseline && !columns.some(([base]) => base === c.baseline)) columns.unshift([c.baseline, `× ${c.baseline}`]);
    for (const [base, column] of columns) {
      if (!results[c.name][base]) continue;
      for (const r of rows) r[column] = (results[c.name][r.contender] / results[c.name][base]).toFixed(1);
    }
    console.log(`\n${c.name} (${c.unit}, ${quick ? 'quick' : 'full'} run, Node ${process.version})`);
    console.table(rows);
  }
  if (!ran) return;
  seconds[suite.name] = Math.round((performance.now() - suiteStarted) / 100) / 10;
  console.log(`(${suite.name}: ${seconds[suite.name]} s)`);
}
