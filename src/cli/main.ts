#!/usr/bin/env node
// The `animcore` command: info, sample and resample over every format in the registry.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cac } from 'cac';
import type { RotationMode } from '../anim/index.js';
import { AnimCore } from '../core/index.js';
import { AnimcoreError, UsageError } from '../errors.js';
import { bundledExamples } from '../examples/index.js';
import { infoJson, infoText } from './info.js';
import { openFile } from './open-file.js';
import { sampleJson, sampleText } from './sample.js';
import { summaryText } from './batch-summary.js';
import { resampleOptions, runResample } from './resample.js';

/** Roles of companion files that may be named explicitly; each becomes `--<role> <path>`. */
const COMPANION_ROLES = ['skeleton', 'bnc', 'pos', 'skc', 'characterAmb', 'scene', 'animation'] as const;

interface CommonOptions {
  json?: boolean;
  format?: string;
  [role: string]: unknown;
}

function companionsOf(options: CommonOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const role of COMPANION_ROLES) {
    const v = options[role];
    if (typeof v === 'string') out[role] = v;
  }
  return out;
}

function parseTimes(spec: unknown): number[] {
  const times = String(spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(Number);
  if (times.length === 0 || times.some((t) => !Number.isFinite(t))) {
    throw new UsageError(`--time takes seconds or a comma-separated list of seconds, got "${spec}"`);
  }
  return times;
}

function parseRotation(v: unknown): RotationMode {
  const r = String(v ?? 'nlerp');
  if (r !== 'nlerp' && r !== 'slerp' && r !== 'raw') throw new UsageError(`--rotation takes nlerp, slerp or raw, got "${r}"`);
  return r;
}

const cli = cac('animcore');

function withCommon<T extends ReturnType<typeof cli.command>>(command: T): T {
  command.option('--json', 'Print JSON for scripts').option('--format <id>', 'Skip detection and read as this format');
  return withCompanions(command);
}

function withCompanions<T extends ReturnType<typeof cli.command>>(command: T): T {
  command.option('--skeleton <file>', 'Nebula skeleton (.n2 or .constants)');
  command.option('--bnc <file>', 'Meteor skeleton').option('--pos <file>', 'Meteor pose list').option('--skc <file>', 'Meteor skinned mesh');
  command.option('--character-amb <file>', 'Meteor character.amb');
  command.option('--scene <file>', 'AAF scene').option('--animation <file>', 'AAF animation');
  return command;
}

withCommon(cli.command('info <...paths>', 'Format, clips, durations, curves, keys, skeleton and warnings of each file')).action(
  (paths: string[], options: CommonOptions) => {
    const results = paths.map((p) => {
      const opened = openFile(p, companionsOf(options), options.format);
      return infoJson(p, opened.resource);
    });
    if (options.json) console.log(JSON.stringify(results.length === 1 ? results[0] : results, null, 2));
    else console.log(results.map(infoText).join('\n\n'));
  },
);

withCommon(cli.command('sample <path>', 'Sample one clip at one or more times'))
  .option('--clip <name>', 'Clip name or index', { default: '0' })
  .option('--time <seconds>', 'Seconds, or a comma-separated list')
  .option('--rotation <mode>', 'nlerp (default), slerp or raw')
  .option('--model-space', 'Add model-space matrices of the skeleton (column-major 4×4)')
  .action(async (path: string, options: CommonOptions & { clip: unknown; time: unknown; rotation: unknown; modelSpace?: boolean }) => {
    const times = parseTimes(options.time);
    const rotation = parseRotation(options.rotation);
    const opened = openFile(path, companionsOf(options), options.format);
    const core = await AnimCore.create();
    const samples = sampleJson(core, opened.resource, String(options.clip), times, rotation, options.modelSpace === true);
    if (options.json) console.log(JSON.stringify(samples.length === 1 ? samples[0] : samples, null, 2));
    else console.log(samples.map(sampleText).join('\n\n'));
  });

withCompanions(cli.command('resample <...paths>', 'Resample files, folders (recursive) or globs to a uniform rate and write glb, gltf, nax3 or json'))
  .option('--fps <n>', 'Keys per second of the output')
  .option('--to <target>', 'glb (default), gltf, nax3 or json', { default: 'glb' })
  .option('--out <dir>', 'Output folder (input sub-folders are mirrored)')
  .option('--jobs <n>', 'Worker threads', { default: 1 })
  .option('--force', 'Replace existing outputs')
  .option('--format <id>', 'Skip detection and read every file as this format')
  .action(async (paths: string[], raw: Record<string, unknown>) => {
    const summary = await runResample(paths, { ...resampleOptions(raw), companions: companionsOf(raw) });
    console.log(summaryText(summary));
    if (summary.failures.length > 0) process.exitCode = 1;
  });

cli.command('examples <dir>', 'Write the bundled example files (generated by the project\'s writers) into a folder').action((dir: string) => {
  for (const example of bundledExamples()) {
    const path = join(dir, example.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, example.bytes);
    console.log(`wrote ${path} (${example.bytes.byteLength} bytes)`);
  }
});

cli.help();

async function main(): Promise<void> {
  try {
    cli.parse(process.argv, { run: false });
    if (!cli.matchedCommand) {
      cli.outputHelp();
      process.exitCode = cli.args.length > 0 || process.argv.length > 2 ? 2 : 0;
      return;
    }
    await cli.runMatchedCommand();
  } catch (e) {
    if (e instanceof AnimcoreError || (e instanceof Error && e.name === 'CACError')) {
      console.error(`animcore: ${e.message}`);
      process.exitCode = e instanceof UsageError || e.name === 'CACError' ? 2 : 1;
    } else if (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string') {
      // File-system errors (missing file, a folder where a file was expected): say which, no stack.
      console.error(`animcore: ${e.message}`);
      process.exitCode = 1;
    } else {
      throw e;
    }
  }
}

void main();
