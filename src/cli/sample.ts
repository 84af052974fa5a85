import { Command, Option } from 'commander';
import { type AnimResource, bindJoints, type RotationMode } from '../anim/index.js';
import { AnimCore, LocalToModelJob } from '../core/index.js';
import { UsageError } from '../errors.js';
import { addCompanionOptions, addFormatOption, addInputLimitOption, companionsOf, formatIdsHelp, maxInputBytes } from './common-options.js';
import { reportFileError } from './errors.js';
import { openFile } from './open-file.js';

/** `animcore sample --json` for one time (documented in the README). */
export interface SampleJson {
  format: string;
  clip: string;
  /** Seconds. */
  time: number;
  curves: {
    type: string;
    target: { joint: string | null; property: string };
    count: number;
    /** x, y, z, w (quaternions x y z w). */
    value: [number, number, number, number];
  }[];
  /** With `--model-space`: model-space 4×4 matrices, column-major, in skeleton order. */
  model?: { joint: string; matrix: number[] }[];
}

/**
 * Samples `clip` of `resource` at each time (seconds) with one sample buffer; with `modelSpace`,
 * also composes the skeleton's model-space matrices (`LocalToModelJob`).
 * @throws UsageError when `modelSpace` is asked of a resource without a skeleton
 */
export function sampleJson(
  core: AnimCore,
  resource: AnimResource,
  clipName: string,
  times: number[],
  rotation: RotationMode,
  modelSpace = false,
): SampleJson[] {
  const clip = resource.clip(clipName);
  const skeleton = resource.skeleton;
  if (modelSpace && !skeleton) throw new UsageError(`--model-space needs a skeleton; this ${resource.format} file has none`);
  core.load(resource);
  const buffer = core.createSampleBuffer(clip);
  const job = modelSpace && skeleton ? new LocalToModelJob(core, bindJoints(clip.curves, skeleton)) : null;
  try {
    return times.map((time) => {
      core.sampler.sample(clip, time, buffer, { rotation });
      const counts = buffer.counts;
      let model: SampleJson['model'];
      if (job && skeleton) {
        job.run(buffer);
        const m = job.matrices;
        model = skeleton.joints.map((j, i) => ({ joint: j.name, matrix: Array.from(m.subarray(16 * i, 16 * i + 16)) }));
      }
      return {
        format: resource.format,
        clip: clip.name,
        time,
        curves: clip.curves.map((c, i) => ({
          type: c.curveType,
          target: { joint: c.target.joint, property: c.target.property },
          count: counts[i]!,
          value: buffer.sampleOf(i),
        })),
        ...(model ? { model } : {}),
      };
    });
  } finally {
    buffer.dispose();
    job?.dispose();
  }
}

export function sampleText(s: SampleJson): string {
  const lines = [`${s.format} clip ${s.clip} at ${s.time} s`];
  for (const c of s.curves) {
    const v = c.value.map((x) => x.toFixed(6).padStart(12)).join(' ');
    lines.push(`  ${`${c.target.joint ?? '-'}.${c.target.property}`.padEnd(32)} ${c.type.padEnd(11)} n=${c.count} ${v}`);
  }
  for (const m of s.model ?? []) {
    const [x, y, z] = [m.matrix[12]!, m.matrix[13]!, m.matrix[14]!];
    lines.push(`  model ${m.joint.padEnd(26)} position ${[x, y, z].map((v) => v.toFixed(6).padStart(12)).join(' ')}`);
  }
  return lines.join('\n');
}

/** The times of `--time`: seconds, or a comma-separated list (negative times are values). @throws UsageError */
function parseTimes(spec: string): number[] {
  const parts = spec.split(',').map((s) => s.trim());
  const times = parts.map(Number);
  if (parts.some((s) => s === '') || times.some((t) => !Number.isFinite(t))) {
    throw new UsageError(`--time takes seconds or a comma-separated list of seconds (e.g. 0.5 or -0.5,0,1.25), got "${spec}"`);
  }
  return times;
}

/** `animcore sample`: declared here with its options. */
export function sampleCommand(): Command {
  const command = new Command('sample')
    .description('Sample one clip of a file at one or more times and print each curve\'s value')
    .argument('<file>', 'animation file (format detected by content)')
    .option('--clip <name>', 'clip name or index', '0')
    .requiredOption('--time <seconds>', 'seconds, or a comma-separated list (required; times outside the clip follow its pre-/post-infinity)', parseTimes)
    .addOption(new Option('--rotation <mode>', 'rotation blending between keys').choices(['nlerp', 'slerp', 'raw']).default('nlerp'))
    .option('--model-space', "add the skeleton's model-space matrices (column-major 4×4)")
    .option('--json', 'print JSON (one object, or an array for several times)');
  addFormatOption(command);
  addCompanionOptions(command);
  addInputLimitOption(command);
  command.addHelpText('after', `\n${formatIdsHelp()}\n\nExamples:\n  animcore sample walk.nax3 --time 0.5\n  animcore sample walk.nax3 --clip run --time -0.5,0,1.25 --json\n  animcore sample p0.amb --clip pose3 --time 0.1 --model-space`);
  return command.action(async (file: string, options: { clip: string; time: number[]; rotation: RotationMode; modelSpace?: boolean; json?: boolean; format?: string } & Record<string, unknown>) => {
    let samples: SampleJson[];
    try {
      const opened = await openFile(file, { companions: companionsOf(options), ...(options.format !== undefined && { format: options.format }), maxInputBytes: maxInputBytes(options) });
      samples = sampleJson(await AnimCore.create(), opened.resource, options.clip, options.time, options.rotation, options.modelSpace === true);
    } catch (e) {
      reportFileError(e, file);
      return;
    }
    if (options.json) console.log(JSON.stringify(samples.length === 1 ? samples[0] : samples, null, 2));
    else console.log(samples.map(sampleText).join('\n\n'));
  });
}
