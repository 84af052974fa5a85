import { UsageError } from '../../errors.js';
import { AnimResource, CurveType, InfinityType, type AnimClip } from '../../anim/index.js';
import type { Nax3Clip, Nax3Curve, Nax3Document, Nax3Event } from './nax3-document.js';

/** Options of `nax3FromResource`. */
export interface Nax3FromResourceOptions {
  /** Byte order `writeNax3` will use by default; `little` (PC, magic bytes "10AN") unless told. */
  byteOrder?: 'little' | 'big';
}

/**
 * nax3 CurveType codes (2009+ SDK, spec nebula.md §2.2). Float curves (blend-shape weights from
 * Nebula2) go out as Float4 with the value in x; Bool has none.
 */
const CODES: Partial<Record<CurveType, number>> = {
  [CurveType.Translation]: 0,
  [CurveType.Scale]: 1,
  [CurveType.Rotation]: 2,
  [CurveType.Color]: 3,
  [CurveType.Velocity]: 4,
  [CurveType.Float4]: 5,
  [CurveType.Float]: 5,
};

/** Seconds tolerated between a key duration or event time and the nearest whole millisecond. */
const TICK_TOLERANCE = 1e-6;

/**
 * Builds a `.nax3` document (2009 'NA01', spec nebula.md §2.2) from clips whose curves are all
 * `uniform` or `static`, for `writeNax3`. Per clip: `keyDuration` = the clip's key duration in
 * whole milliseconds (ticks); static curves are stored static (no pool keys); the pool is laid out
 * the way N3's AnimBuilderSaver does it: clip by clip, key-major — for each key index one float4 per
 * non-static curve in curve order — so `firstKeyIndex = clipBase + rank among non-static curves`
 * and `keyStride = number of non-static curves`. Event times become key indices
 * (`time / keyDuration`). `clip.metadata.startKey` is kept when it is a u16; clip `duration` is not
 * stored (N3 derives it as `numKeys × keyDuration`). Non-static curves get a zero `staticKey`.
 *
 * Throws `UsageError` when a curve has another key encoding, a curve type without a nax3 code
 * (`bool`), a key duration that is not whole milliseconds within 1e-6 s (or is 0 or above
 * 65535 ms with keys), an event time that is not a whole key index within 1e-6 s, a name that does
 * not fit its field (49 / 46 / 14 latin-1 characters), or counts beyond the u16/u32 fields.
 */
export function nax3FromResource(source: AnimResource | readonly AnimClip[], options: Nax3FromResourceOptions = {}): Nax3Document {
  const clips = source instanceof AnimResource ? source.clips : source;
  const out: Nax3Clip[] = [];
  const chunks: Float32Array[] = [];
  let poolKeys = 0;
  let offset = 12;
  clips.forEach((clip, c) => {
    const what = `clip ${c} ("${clip.name}")`;
    checkName(clip.name, 50, `${what} name`);
    const uniform = clip.curves.filter((curve) => curve.keys.encoding !== 'static');
    for (const curve of uniform) {
      if (curve.keys.encoding !== 'uniform') throw new UsageError(`nax3: ${what} has a ${(curve.keys as { encoding: string }).encoding} curve; resample it to uniform keys first`);
    }
    const ticks = Math.round(clip.keyDuration * 1000);
    if (Math.abs(clip.keyDuration - ticks / 1000) > TICK_TOLERANCE) {
      throw new UsageError(`nax3: ${what} key duration ${clip.keyDuration} s is not a whole number of milliseconds (ticks); resample at 1000/n keys/s (25, 40, 50, 100 …)`);
    }
    if (uniform.length > 0 && (ticks < 1 || ticks > 0xffff)) {
      throw new UsageError(`nax3: ${what} key duration ${ticks} ms does not fit the u16 tick field (1..65535)`);
    }
    const numKeys = clip.keyCount;
    u16(numKeys, `${what} key count`);
    u16(clip.curves.length, `${what} curve count`);
    u16(uniform.length, `${what} non-static curve count`);
    u16(clip.events.length, `${what} event count`);
    const startKey = clip.metadata['startKey'];

    const events: Nax3Event[] = clip.events.map((e, i) => {
      checkName(e.name, 47, `${what} event ${i} name`);
      checkName(e.category, 15, `${what} event ${i} category`);
      const keyIndex = ticks > 0 ? Math.round((e.time * 1000) / ticks) : 0;
      if (Math.abs(e.time - (keyIndex * ticks) / 1000) > TICK_TOLERANCE || keyIndex < 0 || keyIndex > 0xffff) {
        throw new UsageError(`nax3: ${what} event "${e.name}" at ${e.time} s is not a whole key index (key duration ${ticks} ms); move it to a key, or resample at a rate whose keys meet it`);
      }
      return { name: e.name, category: e.category, keyIndex, offset: offset + 64 + 64 * i };
    });

    let rank = 0;
    const curves: Nax3Curve[] = clip.curves.map((curve, i) => {
      const code = CODES[curve.curveType];
      if (code === undefined) throw new UsageError(`nax3: ${what} curve ${i} is a ${curve.curveType} curve, which nax3 has no code for`);
      const isStatic = curve.keys.encoding === 'static';
      return {
        firstKeyIndex: isStatic ? 0 : poolKeys + rank++,
        isActive: curve.active ? 1 : 0,
        isStatic: isStatic ? 1 : 0,
        curveType: code,
        padding: 0,
        staticKey: curve.keys.encoding === 'static' ? Float32Array.from(curve.keys.value) : new Float32Array(4),
        offset: offset + 64 + 64 * events.length + 24 * i,
      };
    });

    const stride = uniform.length;
    const chunk = new Float32Array(4 * stride * numKeys);
    uniform.forEach((curve, r) => {
      if (curve.keys.encoding !== 'uniform') return;
      const values = curve.keys.values;
      for (let k = 0; k < numKeys; k++) chunk.set(values.subarray(4 * k, 4 * k + 4), 4 * (k * stride + r));
    });
    chunks.push(chunk);

    out.push({
      name: clip.name,
      startKeyIndex: typeof startKey === 'number' && Number.isInteger(startKey) && startKey >= 0 && startKey <= 0xffff ? startKey : 0,
      numKeys,
      keyStride: stride,
      keyDuration: ticks,
      preInfinityType: clip.preInfinity === InfinityType.Cycle ? 1 : 0,
      postInfinityType: clip.postInfinity === InfinityType.Cycle ? 1 : 0,
      events,
      curves,
      offset,
    });
    poolKeys += stride * numKeys;
    offset += 64 + 64 * events.length + 24 * curves.length;
  });
  if (poolKeys > 0xffffffff) throw new UsageError(`nax3: ${poolKeys} keys do not fit the u32 numKeys field`);
  const pool = new Float32Array(4 * poolKeys);
  let at = 0;
  for (const chunk of chunks) {
    pool.set(chunk, at);
    at += chunk.length;
  }
  return { byteOrder: options.byteOrder ?? 'little', numKeys: poolKeys, keyDataOffset: offset, clips: out, pool };
}

function u16(v: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new UsageError(`nax3: ${what} ${v} does not fit a u16 field`);
}

function checkName(s: string, size: number, what: string): void {
  if (s.length >= size) throw new UsageError(`nax3: ${what} "${s}" is longer than the ${size - 1} characters its field holds`);
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code === 0 || code > 0xff) throw new UsageError(`nax3: ${what} "${s}" has a character that is not latin-1 (or is NUL)`);
  }
}
