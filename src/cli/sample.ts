import { type AnimResource, bindJoints, type RotationMode } from '../anim/index.js';
import { type AnimCore, LocalToModelJob } from '../core/index.js';
import { UsageError } from '../errors.js';

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
