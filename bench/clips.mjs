// Synthetic clips for the benchmarks: a rig of `joints` joints with T, R, S uniform curves, smooth
// random motion, rotation keys with the sign flips real data has. Also the same clip as a
// three.js AnimationClip, so every contender plays identical keys.
import { AnimClip } from '../dist/index.js';

/** A deterministic pseudo-random generator (mulberry32), so every run benchmarks the same data. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `joints` × (translation, rotation, scale) uniform curves, `keyCount` keys at `fps`, cycling. */
export function makeRigClip({ joints = 64, keyCount = 61, fps = 30, seed = 1, name = 'rig' } = {}) {
  const rnd = random(seed);
  const curves = [];
  for (let j = 0; j < joints; j++) {
    const t = new Float32Array(4 * keyCount);
    const r = new Float32Array(4 * keyCount);
    const s = new Float32Array(4 * keyCount);
    const phase = rnd() * 6.28;
    const axis = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const len = Math.hypot(...axis);
    for (let k = 0; k < keyCount; k++) {
      const a = phase + (k / keyCount) * 6.28;
      // Element writes, not .set([…]): the crowd suites build 500 clips of 300 keys.
      const o = 4 * k;
      t[o] = Math.sin(a);
      t[o + 1] = Math.cos(a) * 0.5;
      t[o + 2] = j * 0.1;
      const half = Math.sin(a) * 0.8;
      const sign = k % 7 === 3 ? -1 : 1; // real data stores q and −q for neighbouring keys
      const sh = Math.sin(half) * sign;
      r[o] = (axis[0] / len) * sh;
      r[o + 1] = (axis[1] / len) * sh;
      r[o + 2] = (axis[2] / len) * sh;
      r[o + 3] = Math.cos(half) * sign;
      s[o] = 1 + 0.1 * Math.sin(a);
      s[o + 1] = 1;
      s[o + 2] = 1 + 0.1 * Math.cos(a);
    }
    const target = (property) => ({ joint: `j${j}`, property });
    curves.push({ curveType: 'translation', active: true, target: target('translation'), keys: { encoding: 'uniform', values: t } });
    curves.push({ curveType: 'rotation', active: true, target: target('rotation'), keys: { encoding: 'uniform', values: r } });
    curves.push({ curveType: 'scale', active: true, target: target('scale'), keys: { encoding: 'uniform', values: s } });
  }
  return new AnimClip({ name, curves, keyCount, keyDuration: 1 / fps, preInfinity: 'cycle', postInfinity: 'cycle' });
}

/** The same keys as a THREE.AnimationClip whose tracks drive objects named after the joints. */
export function toThreeClip(THREE, clip) {
  const n = clip.keyCount;
  // three.js needs the closing key explicitly to loop back to key 0 like a cycling Nebula clip.
  const times = Float32Array.from({ length: n + 1 }, (_, k) => k * clip.keyDuration);
  const tracks = clip.curves.map((c) => {
    const v = c.keys.values;
    const width = c.curveType === 'rotation' ? 4 : 3;
    const values = new Float32Array(width * (n + 1));
    for (let k = 0; k <= n; k++) for (let i = 0; i < width; i++) values[width * k + i] = v[4 * (k % n) + i];
    const name = `${c.target.joint}.${{ translation: 'position', rotation: 'quaternion', scale: 'scale' }[c.curveType]}`;
    return c.curveType === 'rotation'
      ? new THREE.QuaternionKeyframeTrack(name, times, values)
      : new THREE.VectorKeyframeTrack(name, times, values);
  });
  return new THREE.AnimationClip(clip.name, n * clip.keyDuration, tracks);
}

/** A root with one child Object3D per joint, named after it. */
export function makeThreeRig(THREE, joints) {
  const root = new THREE.Object3D();
  for (let j = 0; j < joints; j++) {
    const bone = new THREE.Object3D();
    bone.name = `j${j}`;
    root.add(bone);
  }
  return root;
}

/** The rig's skeleton: joints `j0 … j<joints−1>`, each the child of the one before within chains of 8. */
export function makeRigSkeleton(Skeleton, joints = 64) {
  return new Skeleton(
    Array.from({ length: joints }, (_, j) => ({
      name: `j${j}`,
      parent: j % 8 === 0 ? -1 : j - 1,
      rest: { translation: [0, 0.1, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
    })),
  );
}

/**
 * A three.js contender over `count` characters (one AnimationMixer each, as a page with that many
 * characters has), playing `threeClips` with equal weights: a function advancing every mixer by
 * `frame` seconds. Issue 16: three.js's best case is 25 characters (its mixers and rigs stay in
 * cache), so the cases run it at 25 too (contender `threejs-25`, its units in `unitsPerRunOf`).
 */
export function threeContender(THREE, threeClips, { joints, count, frame, offset = (i) => i * 0.0137 }) {
  const mixers = Array.from({ length: count }, (_, i) => {
    const mixer = new THREE.AnimationMixer(makeThreeRig(THREE, joints));
    for (const c of threeClips) mixer.clipAction(c).setEffectiveWeight(1 / threeClips.length).play();
    mixer.setTime(offset(i));
    return mixer;
  });
  return () => {
    for (const m of mixers) m.update(frame);
  };
}
