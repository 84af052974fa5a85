import { AnimClip, type AnimCurve } from '../../src/anim/index.js';

/**
 * A deterministic rig clip "rig": per joint a translation (w 0), a rotation (unit, turning about a
 * joint-specific axis, with a q/−q flip every seventh key) and a scale (w 0) uniform curve;
 * `keyCount` keys at 30 Hz, cycling. `seed` varies the motion.
 */
export function makeRig(joints: number, keyCount: number, seed: number): AnimClip {
  const curves: AnimCurve[] = [];
  for (let j = 0; j < joints; j++) {
    const t = new Float32Array(4 * keyCount);
    const r = new Float32Array(4 * keyCount);
    const s = new Float32Array(4 * keyCount);
    const axis = [Math.sin(seed + j), Math.cos(seed * 2 + j), 0.5];
    const len = Math.hypot(...axis);
    for (let k = 0; k < keyCount; k++) {
      const a = seed + j + (k / keyCount) * 2 * Math.PI;
      t.set([Math.sin(a), Math.cos(a) * 0.5, j * 0.1, 0], 4 * k);
      const half = Math.sin(a) * 0.8;
      const sign = k % 7 === 3 ? -1 : 1;
      r.set([(axis[0]! / len) * Math.sin(half) * sign, (axis[1]! / len) * Math.sin(half) * sign, (axis[2]! / len) * Math.sin(half) * sign, Math.cos(half) * sign], 4 * k);
      s.set([1 + 0.1 * Math.sin(a), 1, 1 + 0.1 * Math.cos(a), 0], 4 * k);
    }
    for (const [curveType, values] of [
      ['translation', t],
      ['rotation', r],
      ['scale', s],
    ] as const) {
      curves.push({ curveType, active: true, target: { joint: `j${j}`, property: curveType }, keys: { encoding: 'uniform', values } });
    }
  }
  return new AnimClip({ name: 'rig', curves, keyCount, keyDuration: 1 / 30, preInfinity: 'cycle', postInfinity: 'cycle' });
}
