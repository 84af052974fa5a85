// Generators of valid MRTK2 input-animation recordings (spec mrtk.md §2; versions 1.0 and 1.1)
// and ABTOMAT AAF animation and scene files (spec aaf.md §2–§3; the first layout variants).
import { FieldWriter } from './fields.js';
import type { FuzzFile, Generator, Params } from './input.js';

const JOINTS = 27;
const TIME_EXTREMES = [0, -0, -1, 1e-45, 1e30, 3.4e38, -3.4e38];

/** One Unity curve: wrap modes, count and keys (28-byte full keys in 1.0, 8-byte time/value otherwise). */
function mrtkCurve(w: FieldWriter, p: Params, layout: 'full' | 'simple' | 'bool', keys: number, quaternionLane?: number[]): void {
  w.i32(p.int(8, 8, [0, 1, 2, 4, -1, 99]), 'flag');
  w.i32(p.int(8, 8, [0, 1, 2, 4, -1, 99]), 'flag');
  w.i32(keys, 'count');
  let t = p.real(0, 0.5, [-0.5, -1e30], 3);
  for (let k = 0; k < keys; k++) {
    t += p.real(0.01, 0.1, [0, 1e30], 4);
    w.f32(p.pick([t], TIME_EXTREMES), 'time');
    w.f32(layout === 'bool' ? p.rng.int(0, 1) : quaternionLane ? quaternionLane[k]! : p.real(-1, 1), 'value');
    if (layout === 'full') {
      w.f32(p.real(0, 0, [Infinity, -Infinity, 1e30]), 'value');
      w.f32(p.real(0, 0, [Infinity, -Infinity, 1e30]), 'value');
      w.f32(p.real(0, 0, [1, 0.5, 1e30]), 'value');
      w.f32(p.real(0, 0, [1, 0.5, 1e30]), 'value');
      w.i32(p.int(3, 3, [0, 1, 2, 4, -1]), 'flag');
    }
  }
}

function mrtkPose(w: FieldWriter, p: Params, layout: 'full' | 'simple'): void {
  const keys = p.rng.chance(0.3) ? 0 : p.int(1, 3, [0, 1, 200]);
  for (let a = 0; a < 3; a++) mrtkCurve(w, p, layout, keys);
  const q = Array.from({ length: keys }, () => p.quaternion());
  for (let a = 0; a < 4; a++) mrtkCurve(w, p, layout, keys, q.map((x) => x[a]!));
}

const mrtkTarget =
  (minor: 0 | 1): Generator =>
  (p) => {
    const w = new FieldWriter(true);
    w.bytes([0xc6, 0x42, 0x9e, 0x0f, 0x6e, 0xaf, 0x8f, 0x6a]);
    w.i32(1, 'flag');
    w.i32(minor, 'flag');
    const layout = minor === 1 ? 'simple' : 'full';
    const camera = minor === 0 || p.rng.chance(0.8);
    const hands = minor === 0 || p.rng.chance(0.8);
    const gaze = minor === 1 && p.rng.chance(0.6);
    if (minor === 1) for (const f of [camera, hands, gaze]) w.u8(f ? 1 : 0, 'flag');
    if (camera) mrtkPose(w, p, layout);
    if (hands) {
      for (let b = 0; b < 4; b++) mrtkCurve(w, p, 'bool', p.int(0, 3));
      // Most joints of a real recording are empty; a few carry keys.
      for (let j = 0; j < 2 * JOINTS; j++) {
        if (p.rng.chance(0.85)) for (let c = 0; c < 7; c++) mrtkCurve(w, p, layout, 0);
        else mrtkPose(w, p, layout);
      }
    }
    if (gaze) for (let c = 0; c < 6; c++) mrtkCurve(w, p, 'simple', p.int(0, 3));
    const markers = p.int(0, 2, [0, 40]);
    w.i32(markers, 'count');
    for (let m = 0; m < markers; m++) {
      w.f32(p.real(0, 1), 'time');
      w.u8(4, 'count');
      w.text('mark');
    }
    return { main: { name: 'fuzz.bin', bytes: w.finish(), fields: w.fields }, companions: {}, mutated: 'main' };
  };

/** The AAF header: 10-byte format name, u16 version 2, u16-length service string. */
function aafHeader(w: FieldWriter): void {
  w.text('ABTOMATAAF');
  w.u16(2, 'flag');
  w.u16(4, 'count');
  w.text('fuzz');
}

function aafName(w: FieldWriter, name: string): void {
  w.u16(name.length, 'count');
  w.text(name);
}

/** An AAF animation, per-channel layout: objects with position (3), rotation (4), scale (3) keys. */
function aafAnimation(p: Params, names: string[]): { bytes: Uint8Array; fields: import('./fields.js').Field[] } {
  const w = new FieldWriter(true);
  aafHeader(w);
  w.u16(p.int(10, 100, [0, 65535]), 'time');
  w.u16(names.length, 'count');
  for (const name of names) {
    aafName(w, name);
    const flags = p.rng.int(0, 7) << 1;
    w.u8(flags, 'flag');
    for (const [flag, size] of [[2, 3], [4, 4], [8, 3]] as const) {
      if ((flags & flag) === 0) continue;
      const keys = p.int(1, 4, [0, 1, 300]);
      w.u16(keys, 'count');
      let t = p.real(0, 5, [-5, -1e30], 1);
      for (let k = 0; k < keys; k++) {
        t += p.real(0, 10, [0, 1e30], 1);
        w.f32(t, 'time');
        const v = size === 4 ? p.quaternion() : [0, 0, 0].map(() => (flag === 8 ? p.real(0.5, 2) : p.real(-10, 10)));
        for (const x of v) w.f32(x);
      }
    }
  }
  return { bytes: w.finish(), fields: w.fields };
}

/** An AAF scene (roots count, index count in indices): a pre-order tree of objects with surfaces. */
function aafScene(p: Params, names: string[]): { bytes: Uint8Array; fields: import('./fields.js').Field[] } {
  const w = new FieldWriter(true);
  aafHeader(w);
  // A chain keeps the tree valid whatever the count: each object has the next as its only child.
  w.u16(names.length === 0 ? 0 : 1, 'count');
  names.forEach((name, i) => {
    w.u16(i + 1 < names.length ? 1 : 0, 'count');
    aafName(w, name);
    const surfaces = p.rng.chance(0.3) ? 1 : 0;
    w.u16(surfaces, 'count');
    for (let a = 0; a < 3; a++) w.f32(p.real(-10, 10));
    for (const v of p.quaternion()) w.f32(v);
    for (let a = 0; a < 3; a++) w.f32(p.real(0.5, 2));
    for (let s = 0; s < surfaces; s++) {
      const vertices = p.int(3, 6, [0, 1]);
      const triangles = vertices === 0 ? 0 : p.int(1, 3);
      w.u32(vertices, 'count');
      w.u32(3 * triangles, 'count');
      for (let v = 0; v < vertices; v++) for (let f = 0; f < 9; f++) w.f32(p.real(-1, 1));
      for (let k = 0; k < 3 * triangles; k++) w.u32(p.rng.int(0, vertices - 1), 'index');
    }
  });
  return { bytes: w.finish(), fields: w.fields };
}

const aafTarget =
  (file: 'scene' | 'animation'): Generator =>
  (p) => {
    const names = Array.from({ length: p.int(1, 4, [0, 1, 60]) }, (_, i) => `object_${i}`);
    const animation = { name: 'fuzz.anim.aaf', ...aafAnimation(p, names) };
    if (file === 'animation' && p.rng.chance(0.5)) return { main: animation, companions: {}, mutated: 'main' };
    const scene = { name: 'fuzz.scene.aaf', ...aafScene(p, names) };
    const companions: Record<string, FuzzFile> = file === 'animation' || p.rng.chance(0.7) ? { animation } : {};
    return { main: scene, companions, mutated: file === 'scene' ? 'main' : 'animation' };
  };

export const MRTK_AAF_TARGETS: Record<string, Generator> = {
  'mrtk-1.0': mrtkTarget(0),
  'mrtk-1.1': mrtkTarget(1),
  'aaf-scene': aafTarget('scene'),
  'aaf-animation': aafTarget('animation'),
};
