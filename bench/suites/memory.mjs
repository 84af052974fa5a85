// bytes-per-key (issue 16): wasm bytes per T/R/S key of a 64-joint rig of 300 keys (10 s at 30 Hz),
// everything its blocks hold (header, tables, keys) over its 64 × 3 × 300 keys; contenders are the
// encodings: `uniform` (float4 keys), `keyed` (the same keys at their own times), `quantized`
// (loaded with `compression`). memory-growth: wasm memory grown per byte of blocks while eight such
// clips are loaded one after another into a fresh core (1.00 = memory grows by exactly what the
// blocks use). Measured, not timed.
import { AnimClip, AnimCore, AnimResource } from '../../dist/index.js';
import { makeRigClip } from '../clips.mjs';
import { CROWD_COMPRESSION } from './crowd-cold.mjs';

const JOINTS = 64;
const KEYS = 300;

/** The rig's curves as keyed curves: key k at k / 30 s. */
function keyedCopy(clip) {
  const times = Float32Array.from({ length: clip.keyCount }, (_, k) => k * clip.keyDuration);
  const curves = clip.curves.map((c) => ({ ...c, keys: { encoding: 'keyed', times, values: c.keys.values } }));
  return new AnimClip({ name: `${clip.name}-keyed`, curves, duration: clip.duration, preInfinity: clip.preInfinity, postInfinity: clip.postInfinity });
}

export default async function memory() {
  const core = await AnimCore.create({ build: 'simd' });
  const keys = JOINTS * 3 * KEYS;
  const perKey = (clip, options) => {
    core.load(new AnimResource({ format: 'bench', clips: [clip] }), options);
    const { encoding, bytes } = core.loadedSize(clip);
    return { encoding, value: bytes / keys };
  };
  const uniform = perKey(makeRigClip({ joints: JOINTS, keyCount: KEYS, seed: 1 }));
  const keyed = perKey(keyedCopy(makeRigClip({ joints: JOINTS, keyCount: KEYS, seed: 1 })));
  const quantized = perKey(makeRigClip({ joints: JOINTS, keyCount: KEYS, seed: 1 }), { compression: CROWD_COMPRESSION });
  for (const [name, r] of Object.entries({ uniform, keyed, quantized })) {
    if (r.encoding !== name) throw new Error(`bytes-per-key: the ${name} contender loaded as ${r.encoding}`);
  }

  const fresh = await AnimCore.create({ build: 'simd' });
  const before = fresh.memory.buffer.byteLength;
  let used = 0;
  for (let i = 0; i < 8; i++) {
    const clip = makeRigClip({ joints: JOINTS, keyCount: KEYS, seed: 10 + i });
    fresh.load(new AnimResource({ format: 'bench', clips: [clip] }));
    used += fresh.loadedSize(clip).bytes;
  }
  const growth = (fresh.memory.buffer.byteLength - before) / used;

  return [
    { name: 'bytes-per-key', unit: 'wasm bytes per T/R/S key', values: { uniform: uniform.value, keyed: keyed.value, quantized: quantized.value } },
    { name: 'memory-growth', unit: 'memory grown per byte loaded', values: { 'animcore-simd': growth } },
  ];
}
memory.cases = ['bytes-per-key', 'memory-growth'];
