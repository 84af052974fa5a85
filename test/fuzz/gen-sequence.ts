// Generator of sequence files (issue 19, spec sequencer.md §7) over a generated glTF character:
// the `.glb` stays intact and the sequence is the file the mutators damage. Jobs draw every field
// of spec §1 (tracks, `at`, delays, loops and explicit durations with 0 = infinite, fades longer
// than the job, weights above 1, time factors 0 and negative, offsets, additive jobs with their
// reference time, every enqueue mode), masks by joints and by curves, and the `names` mapping.
import { glb, gltfAsset } from './gen-gltf.js';
import { type Generator, type Params, textFile } from './input.js';

/** Extremes a job's numbers sometimes take: each is allowed by spec §1 or refused there. */
const TIME_EXTREMES = [0, 1e-300, 1e-9, 1e9, 1e30, 1e300, -1, -0];

function sequenceText(p: Params, json: Record<string, unknown>): string {
  const animations = json.animations as Record<string, unknown>[];
  const nodes = (json.nodes as { name: string }[]).map((n) => n.name);
  const clips: (string | number)[] = [...animations.map((a, i) => (typeof a.name === 'string' && a.name !== '' ? a.name : `animation${i}`)), 0, animations.length - 1];
  // Curves a mask may name: those the first animation drives (the pose layout's).
  const driven = (animations[0]!.channels as { target: { node: number; path: string } }[]).filter((c) => c.target.path !== 'weights').map((c) => `${nodes[c.target.node]}.${c.target.path}`);
  const masks: Record<string, unknown> = {};
  if (p.rng.chance(0.5)) masks.upper = { joints: [p.rng.pick(nodes)], ...(p.rng.chance(0.5) && { children: true }), ...(p.rng.chance(0.3) && { weight: p.real(0, 1, [0, 1]) }) };
  if (p.rng.chance(0.3) && driven.length > 0) masks.some = { curves: { [p.rng.pick(driven)]: p.real(0, 1, [0, 1]) } };
  const names = p.rng.chance(0.3) ? { walk: p.rng.pick(clips) } : undefined;
  const num = (min: number, max: number) => p.real(min, max, TIME_EXTREMES, 3);
  const jobs = Array.from({ length: p.int(0, 4, [8, 20]) }, () => {
    const job: Record<string, unknown> = { clip: names && p.rng.chance(0.5) ? 'walk' : p.rng.pick(clips) };
    const maybe = (key: string, value: () => unknown) => {
      if (p.rng.chance(0.4)) job[key] = value();
    };
    // Infinite jobs on tracks 2 and 3, appends on tracks 0 and 1: a valid file never appends behind an infinite job (spec §2).
    const track = p.int(0, 3, [0, 100, 2 ** 31]);
    if (track !== 0 || p.rng.chance(0.5)) job.track = track;
    maybe('at', () => num(0, 2));
    maybe('start', () => num(0, 1));
    const infinite = track >= 2 ? [0] : [];
    maybe('loops', () => p.pick([...infinite, 1, 2, 0.5, 3.25], [0, 1e9, 1e-9]));
    maybe('duration', () => p.pick([...infinite, 0.5, 1, 2.5], [0, 1e-9, 1e9]));
    maybe('fadeIn', () => num(0, 1));
    maybe('fadeOut', () => num(0, 1));
    maybe('weight', () => p.real(0, 2, [0, 1e9, 1e-9]));
    maybe('timeFactor', () => p.real(-2, 2, [0, -1, 1e9, -1e9, 1e300]));
    maybe('timeOffset', () => p.real(-1, 1, [1e9, -1e9, 1e300]));
    maybe('enqueue', () => p.pick(track < 2 ? ['intercept', 'append', 'ignoreIfSameClipActive'] : ['intercept', 'ignoreIfSameClipActive'], ['append']));
    if (p.rng.chance(0.25)) {
      job.mode = 'additive';
      maybe('reference', () => p.real(0, 1, TIME_EXTREMES));
    }
    if (Object.keys(masks).length > 0 && p.rng.chance(0.3)) job.mask = p.rng.pick(Object.keys(masks));
    return job;
  });
  const file = {
    ...(p.rng.chance(0.5) && { rule: p.rng.pick(['priority', 'weighted']) }),
    ...(p.rng.chance(0.5) && { rotation: p.rng.pick(['nlerp', 'slerp']) }),
    ...(p.rng.chance(0.3) && { threshold: p.real(0, 1, [0, 1e9]) }),
    ...(names && { names }),
    ...(Object.keys(masks).length > 0 && { masks }),
    jobs,
  };
  return JSON.stringify(file, null, 1);
}

export const SEQUENCE_TARGETS: Record<string, Generator> = {
  sequence: (p) => {
    const { json, bin } = gltfAsset(p);
    const text = sequenceText(p, json);
    return { main: { name: 'character.glb', bytes: glb(json, bin).bytes }, companions: { sequence: textFile('fuzz.sequence.json', text) }, mutated: 'sequence' };
  },
};
