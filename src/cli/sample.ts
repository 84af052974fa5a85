import type { AnimResource, RotationMode } from '../anim/index.js';
import type { AnimCore } from '../core/index.js';

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
}

/** Samples `clip` of `resource` at each time (seconds) with one sample buffer. */
export function sampleJson(core: AnimCore, resource: AnimResource, clipName: string, times: number[], rotation: RotationMode): SampleJson[] {
  const clip = resource.clip(clipName);
  core.load(resource);
  const buffer = core.createSampleBuffer(clip);
  try {
    return times.map((time) => {
      core.sampler.sample(clip, time, buffer, { rotation });
      const counts = buffer.counts;
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
      };
    });
  } finally {
    buffer.dispose();
  }
}

export function sampleText(s: SampleJson): string {
  const lines = [`${s.format} clip ${s.clip} at ${s.time} s`];
  for (const c of s.curves) {
    const v = c.value.map((x) => x.toFixed(6).padStart(12)).join(' ');
    lines.push(`  ${`${c.target.joint ?? '-'}.${c.target.property}`.padEnd(32)} ${c.type.padEnd(11)} n=${c.count} ${v}`);
  }
  return lines.join('\n');
}
