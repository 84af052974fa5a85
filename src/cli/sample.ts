import { Command, Option } from 'commander';
import { type AnimCurve, type AnimResource, bindJoints, type RotationMode } from '../anim/index.js';
import { AnimCore, type AnimSampleBuffer, LocalToModelJob } from '../core/index.js';
import { loadSequence, PoseLayout } from '../sequencer/index.js';
import { UsageError } from '../errors.js';
import { addCompanionOptions, addFormatOption, addInputLimitOption, companionsOf, formatIdsHelp, maxInputBytes } from './common-options.js';
import { reportFileError } from './errors.js';
import { openFile } from './open-file.js';
import { inSequenceFile, readSequenceFile } from './sequence-option.js';

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
 * @param rotation overrides the clip's own default (`AnimClip.rotation`: slerp for glTF, Appendix C)
 * @throws UsageError when `modelSpace` is asked of a resource without a skeleton
 */
export function sampleJson(
  core: AnimCore,
  resource: AnimResource,
  clipName: string,
  times: number[],
  rotation: RotationMode | undefined,
  modelSpace = false,
): SampleJson[] {
  const clip = resource.clip(clipName);
  core.load(resource);
  const buffer = core.createSampleBuffer(clip);
  const pose = new PoseWriter(core, resource, clip.curves, modelSpace);
  try {
    return times.map((time) => {
      core.sampler.sample(clip, time, buffer, { rotation });
      return pose.json(clip.name, time, buffer);
    });
  } finally {
    buffer.dispose();
    pose.dispose();
  }
}

/**
 * `sample --sequence`: the sequence's result at each time (a fresh sequencer per time, so times
 * may come in any order), in the shape `sampleJson` prints for one clip, over the pose layout
 * (spec sequencer.md §0) and with the clip named `sequence`.
 * @param rotation overrides the file's `rotation`
 * @throws UsageError for a bad sequence file (naming the JSON path) or `modelSpace` without a skeleton
 */
export function sequenceSampleJson(
  core: AnimCore,
  resource: AnimResource,
  sequence: string,
  times: number[],
  rotation: 'nlerp' | 'slerp' | undefined,
  modelSpace = false,
): SampleJson[] {
  const layout = new PoseLayout(resource);
  const targets = layout.curves.map((c) => ({ curveType: c.curveType, target: { joint: c.joint, property: c.property } }));
  const pose = new PoseWriter(core, resource, targets, modelSpace, true);
  try {
    return times.map((time) => {
      const sequencer = loadSequence(core, resource, sequence, rotation === undefined ? {} : { rotation });
      try {
        return pose.json('sequence', time, sequencer.update(time));
      } finally {
        sequencer.dispose();
      }
    });
  } finally {
    pose.dispose();
  }
}

/** Turns a sample buffer of `targets` into `SampleJson`, with model-space matrices when asked. */
class PoseWriter {
  private readonly job: LocalToModelJob | null;

  constructor(
    core: AnimCore,
    private readonly resource: AnimResource,
    private readonly targets: readonly Pick<AnimCurve, 'curveType' | 'target'>[],
    modelSpace: boolean,
    /** Buffers are blend results (`LocalToModelJob.run`'s `blended`). */
    private readonly blended = false,
  ) {
    const skeleton = resource.skeleton;
    if (modelSpace && !skeleton) throw new UsageError(`--model-space needs a skeleton; this ${resource.format} file has none`);
    this.job = modelSpace && skeleton ? new LocalToModelJob(core, bindJoints(targets, skeleton)) : null;
  }

  json(clip: string, time: number, buffer: AnimSampleBuffer): SampleJson {
    const counts = buffer.counts;
    let model: SampleJson['model'];
    const skeleton = this.resource.skeleton;
    if (this.job && skeleton) {
      this.job.run(buffer, { blended: this.blended });
      const m = this.job.matrices;
      model = skeleton.joints.map((j, i) => ({ joint: j.name, matrix: Array.from(m.subarray(16 * i, 16 * i + 16)) }));
    }
    return {
      format: this.resource.format,
      clip,
      time,
      curves: this.targets.map((c, i) => ({
        type: c.curveType,
        target: { joint: c.target.joint, property: c.target.property },
        count: counts[i]!,
        value: buffer.sampleOf(i),
      })),
      ...(model ? { model } : {}),
    };
  }

  dispose(): void {
    this.job?.dispose();
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
    .option('--sequence <file>', 'play a sequence file (layered jobs with fades, masks, additive layers) instead of one clip; --rotation overrides its rotation')
    .requiredOption('--time <seconds>', 'seconds, or a comma-separated list (required; times outside the clip follow its pre-/post-infinity)', parseTimes)
    .addOption(new Option('--rotation <mode>', 'rotation blending between keys (default: the format\'s, slerp for glTF (Appendix C), else nlerp; with --sequence, the file\'s, else the format\'s)').choices(['nlerp', 'slerp', 'raw']))
    .option('--model-space', "add the skeleton's model-space matrices (column-major 4×4)")
    .option('--json', 'print JSON (one object, or an array for several times)');
  addFormatOption(command);
  addCompanionOptions(command);
  addInputLimitOption(command);
  command.addHelpText('after', `\n${formatIdsHelp()}\n\nExamples:\n  animcore sample walk.nax3 --time 0.5\n  animcore sample walk.nax3 --clip run --time -0.5,0,1.25 --json\n  animcore sample p0.amb --clip pose3 --time 0.1 --model-space\n  animcore sample Unit_Footman.nax3 --sequence walk-to-run.json --time 0,1.2 --json`);
  return command.action(
    async (
      file: string,
      options: { clip: string; sequence?: string; time: number[]; rotation?: RotationMode; modelSpace?: boolean; json?: boolean; format?: string } & Record<string, unknown>,
    ) => {
      let samples: SampleJson[];
      try {
        const sequence = options.sequence === undefined ? null : readSequenceFile(options.sequence);
        const opened = await openFile(file, { companions: companionsOf(options), ...(options.format !== undefined && { format: options.format }), maxInputBytes: maxInputBytes(options) });
        const core = await AnimCore.create();
        const modelSpace = options.modelSpace === true;
        if (sequence === null) samples = sampleJson(core, opened.resource, options.clip, options.time, options.rotation, modelSpace);
        else {
          const rotation = options.rotation;
          if (rotation === 'raw') throw new UsageError("--rotation raw does not apply to a sequence (its blend takes nlerp or slerp)");
          samples = inSequenceFile(options.sequence!, () => sequenceSampleJson(core, opened.resource, sequence, options.time, rotation, modelSpace));
        }
      } catch (e) {
        reportFileError(e, file);
        return;
      }
      if (options.json) console.log(JSON.stringify(samples.length === 1 ? samples[0] : samples, null, 2));
      else console.log(samples.map(sampleText).join('\n\n'));
    },
  );
}
