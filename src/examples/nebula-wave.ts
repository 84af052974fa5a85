import { AnimClip, type AnimCurve, AnimResource, type AnimEvent } from '../anim/index.js';
import { nax3FromResource, writeNax3 } from '../formats/nebula/index.js';

/** 25 keys per second, as every Nebula file seen uses (40 ms ticks). */
const KEY_DURATION = 0.04;
const KEYS = 50;

function rotationZ(angle: number): number[] {
  return [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
}

/**
 * A three-joint arm (shoulder, elbow, wrist) waving for 2 s at 25 keys/s, cycling, written as a
 * little-endian `.nax3` by the project's own writer: per joint Translation (static), Rotation
 * (uniform) and Scale (static), plus a `wave` event at the top of the swing.
 */
export function makeNebulaWave(): Uint8Array {
  const curves: AnimCurve[] = [];
  const joints = ['shoulder', 'elbow', 'wrist'];
  joints.forEach((joint, j) => {
    const rotation = new Float32Array(4 * KEYS);
    for (let k = 0; k < KEYS; k++) {
      const phase = (2 * Math.PI * k) / KEYS;
      rotation.set(rotationZ((0.6 + 0.3 * j) * Math.sin(phase - 0.5 * j)), 4 * k);
    }
    curves.push(
      { curveType: 'translation', active: true, target: { joint, property: 'translation' }, keys: { encoding: 'static', value: Float32Array.of(j === 0 ? 0 : 1, 0, 0, 0) } },
      { curveType: 'rotation', active: true, target: { joint, property: 'rotation' }, keys: { encoding: 'uniform', values: rotation } },
      { curveType: 'scale', active: true, target: { joint, property: 'scale' }, keys: { encoding: 'static', value: Float32Array.of(1, 1, 1, 0) } },
    );
  });
  const events: AnimEvent[] = [{ name: 'wave', category: 'gesture', time: 12 * KEY_DURATION }];
  const clip = new AnimClip({ name: 'wave', curves, keyCount: KEYS, keyDuration: KEY_DURATION, preInfinity: 'cycle', postInfinity: 'cycle', events });
  return writeNax3(nax3FromResource(new AnimResource({ format: 'nax3', clips: [clip] })));
}
