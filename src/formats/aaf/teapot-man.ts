import type { AafAnimationObject, AafKeys } from './animation.js';
import { aafHeader } from './header.js';
import type { AafSceneObject, AafSurface } from './scene.js';
import { aafText } from './text.js';
import { writeAafAnimation } from './write-animation.js';
import { writeAafScene } from './write-scene.js';

/**
 * The "teapot man", the post's own test case (seed 002, spec aaf.md §4), generated with the
 * project's writers: a torso under the scene root carrying a head, upper arms → forearms → wrists
 * and thighs → shins → feet, each a small box mesh, and a looping 40-frame walk (30 fps) with a
 * waving right wrist. The animation covers every channel kind and keying case the sampler has:
 * keys at irregular times (feet), a step (equal neighbouring times, right wrist), a single key
 * (left wrist), a scale channel (head) and a scene object without channels (the right forearm keeps its rest
 * pose).
 * Deterministic: the same bytes on every run.
 * @returns the scene file (roots/indices variant) and the animation file (per-channel variant)
 */
export function makeTeapotMan(): { scene: Uint8Array; animation: Uint8Array } {
  const service = aafText('animcore example: teapot man (spec aaf.md §4)');
  return {
    scene: writeAafScene({ header: aafHeader(service), objects: SCENE }),
    animation: writeAafAnimation({ header: aafHeader(service), animLength: LENGTH, objects: walk() }),
  };
}

/** Frames of the loop (30 fps by default, spec aaf.md §2.2). */
const LENGTH = 40;

type V3 = [number, number, number];

/** One part: name, parent index, local position, box size and box centre (joint-local). */
const PARTS: readonly [string, number, V3, V3, V3][] = [
  ['torso', -1, [0, 1, 0], [0.4, 0.6, 0.25], [0, 0.3, 0]],
  ['head', 0, [0, 0.65, 0], [0.25, 0.25, 0.25], [0, 0.15, 0]],
  ['upperArm.L', 0, [0.27, 0.55, 0], [0.12, 0.3, 0.12], [0, -0.15, 0]],
  ['forearm.L', 2, [0, -0.3, 0], [0.1, 0.28, 0.1], [0, -0.14, 0]],
  ['wrist.L', 3, [0, -0.28, 0], [0.08, 0.1, 0.06], [0, -0.05, 0]],
  ['upperArm.R', 0, [-0.27, 0.55, 0], [0.12, 0.3, 0.12], [0, -0.15, 0]],
  ['forearm.R', 5, [0, -0.3, 0], [0.1, 0.28, 0.1], [0, -0.14, 0]],
  ['wrist.R', 6, [0, -0.28, 0], [0.08, 0.1, 0.06], [0, -0.05, 0]],
  ['thigh.L', 0, [0.11, 0, 0], [0.15, 0.45, 0.15], [0, -0.225, 0]],
  ['shin.L', 8, [0, -0.45, 0], [0.12, 0.45, 0.12], [0, -0.225, 0]],
  ['foot.L', 9, [0, -0.45, 0], [0.12, 0.06, 0.25], [0, -0.03, 0.06]],
  ['thigh.R', 0, [-0.11, 0, 0], [0.15, 0.45, 0.15], [0, -0.225, 0]],
  ['shin.R', 11, [0, -0.45, 0], [0.12, 0.45, 0.12], [0, -0.225, 0]],
  ['foot.R', 12, [0, -0.45, 0], [0.12, 0.06, 0.25], [0, -0.03, 0.06]],
];

const SCENE: AafSceneObject[] = PARTS.map(([name, parent, position, size, centre]) => ({
  name: aafText(name),
  parent,
  position,
  rotation: [0, 0, 0, 1],
  scale: [1, 1, 1],
  surfaces: [box(size, centre)],
}));

/** An axis-aligned box: 4 vertices per face (own normals and uvs), 12 triangles. */
function box(size: V3, centre: V3): AafSurface {
  const vertices: number[] = [];
  const indices: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [1, -1]) {
      const u = (axis + 1) % 3;
      const v = (axis + 2) % 3;
      const base = vertices.length / 9;
      for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]] as const) {
        const p: V3 = [0, 0, 0];
        p[axis] = sign;
        p[u] = a * sign;
        p[v] = b;
        const n: V3 = [0, 0, 0];
        n[axis] = sign;
        vertices.push(...p.map((c, i) => centre[i]! + (c * size[i]!) / 2), (a + 1) / 2, (b + 1) / 2, 0, ...n);
      }
      indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    }
  }
  return { vertices: Float32Array.from(vertices), indices: Uint32Array.from(indices) };
}

/** A rotation of `degrees` about the x axis (qx qy qz qw). */
const aboutX = (degrees: number): number[] => [Math.sin((degrees * Math.PI) / 360), 0, 0, Math.cos((degrees * Math.PI) / 360)];
/** A rotation of `degrees` about the z axis. */
const aboutZ = (degrees: number): number[] => [0, 0, Math.sin((degrees * Math.PI) / 360), Math.cos((degrees * Math.PI) / 360)];

/** Keys at `frames`, values from `at(phase)` with phase = frame / LENGTH in [0, 1]. */
function keys(frames: readonly number[], at: (phase: number) => number[]): AafKeys {
  return { times: Float32Array.from(frames), values: Float32Array.from(frames.flatMap((f) => at(f / LENGTH))) };
}

const EVERY_5 = [0, 5, 10, 15, 20, 25, 30, 35, 40];
const swing = (amplitude: number, shift: number) => (phase: number) => aboutX(amplitude * Math.sin(2 * Math.PI * (phase + shift)));

function walk(): AafAnimationObject[] {
  const object = (name: string, channels: Omit<AafAnimationObject, 'name' | 'flags'>): AafAnimationObject => ({
    name: aafText(name),
    flags: (channels.position ? 2 : 0) | (channels.rotation ? 4 : 0) | (channels.scale ? 8 : 0),
    ...channels,
  });
  const bend = (shift: number) => (phase: number) => aboutX(20 + 20 * Math.sin(2 * Math.PI * (phase + shift)));
  return [
    object('torso', {
      position: keys(EVERY_5, (phase) => [0, 1 + 0.03 * Math.abs(Math.sin(2 * Math.PI * phase)), 0]),
      rotation: keys([0, 10, 20, 30, 40], (phase) => aboutZ(3 * Math.sin(2 * Math.PI * phase))),
    }),
    object('head', { scale: keys([0, 20, 40], (phase) => [1, 1 + 0.05 * Math.sin(Math.PI * phase), 1]) }),
    object('upperArm.L', { rotation: keys(EVERY_5, swing(-20, 0)) }),
    object('forearm.L', { rotation: keys([0, 20, 40], bend(0)) }),
    object('wrist.L', { rotation: keys([0], () => aboutX(-10)) }),
    object('upperArm.R', { rotation: keys(EVERY_5, (phase) => aboutZ(-150 + 10 * Math.sin(2 * Math.PI * phase))) }),
    // The wave, a sawtooth: the wrist swings one way and snaps back at frame 20 (two keys at the same time).
    object('wrist.R', { rotation: { times: Float32Array.of(0, 10, 20, 20, 30, 40), values: Float32Array.from([-30, 0, 30, -30, 0, 30].flatMap(aboutZ)) } }),
    object('thigh.L', { rotation: keys(EVERY_5, swing(25, 0)) }),
    object('shin.L', { rotation: keys(EVERY_5, (phase) => aboutX(-20 - 20 * Math.sin(2 * Math.PI * (phase + 0.25)))) }),
    object('foot.L', { rotation: keys([0, 7, 13, 27, 40], swing(10, 0.1)) }),
    object('thigh.R', { rotation: keys(EVERY_5, swing(25, 0.5)) }),
    object('shin.R', { rotation: keys(EVERY_5, (phase) => aboutX(-20 - 20 * Math.sin(2 * Math.PI * (phase + 0.75)))) }),
    object('foot.R', { rotation: keys([0, 7, 13, 27, 40], swing(10, 0.6)) }),
  ];
}
