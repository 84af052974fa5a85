import { ByteReader } from '../binary.js';
import { describeBadValue, isFileValue } from '../value-range.js';
import {
  AAF_ANIMATION_VARIANTS,
  AAF_CHANNELS,
  AAF_KNOWN_FLAGS,
  type AafAnimation,
  type AafAnimationObject,
  type AafAnimationVariant,
  type AafKeys,
} from './animation.js';
import { readFittingVariant } from './fitting-variant.js';
import { readAafHeader } from './header.js';
import { readAafText } from './text.js';

/** The `format` of AAF animation resources and of their `FormatError`s. */
export const AAF_ANIMATION_FORMAT = 'aaf-animation';

/** Options of `readAafAnimation`. */
export interface ReadAafAnimationOptions {
  /** Read this layout only instead of trying all three (spec aaf.md §2.1). */
  variant?: AafAnimationVariant;
}

/** Smallest object: a u16 name length and the u8 flags. */
const MIN_OBJECT_BYTES = 3;

/**
 * Reads an ABTOMAT AAF animation file (spec aaf.md §2): the header, the u16 animation length and
 * object count, then each object's name, flags and channels. The layout variants of §2.1 are
 * tried in order and the first that consumes the file exactly is taken (`variant`;
 * `alsoMatches` lists later variants that fit too). Key times stay raw (file units).
 * @throws FormatError with the byte offset: `truncated`, `bad-version`, `bad-count` (a count
 *   promising more than the file holds), `bad-flags` (bits other than 2, 4, 8), `bad-controller`
 *   (a position channel whose controller is not 1), `bad-time` (a key time that is not finite or
 *   beyond ±1e38), `bad-value` (such a key value; value-range.ts),
 *   `decreasing-time`, `trailing-bytes`; when no variant fits, one error naming where each stopped
 */
export function readAafAnimation(bytes: Uint8Array, options: ReadAafAnimationOptions = {}): AafAnimation {
  const r = new ByteReader(bytes, AAF_ANIMATION_FORMAT);
  const header = readAafHeader(r);
  const variants = options.variant ? [options.variant] : AAF_ANIMATION_VARIANTS;
  const match = readFittingVariant(
    bytes,
    AAF_ANIMATION_FORMAT,
    r.offset,
    variants.map((variant) => ({ variant, parse: (v: ByteReader) => readBody(v, variant) })),
    (v) => v,
  );
  return { header, ...match.value, variant: match.variant, alsoMatches: match.alsoMatches };
}

function readBody(r: ByteReader, variant: AafAnimationVariant): { animLength: number; objects: AafAnimationObject[] } {
  const animLength = r.u16('animation length');
  const count = r.u16('object count');
  r.needItems(count, MIN_OBJECT_BYTES, 'objects');
  const objects: AafAnimationObject[] = [];
  for (let i = 0; i < count; i++) objects.push(readObject(r, variant, i));
  return { animLength, objects };
}

function readObject(r: ByteReader, variant: AafAnimationVariant, i: number): AafAnimationObject {
  const name = readAafText(r, `object ${i} name`);
  const flagsAt = r.offset;
  const flags = r.u8(`object ${i} flags`);
  if ((flags & ~AAF_KNOWN_FLAGS) !== 0) {
    r.fail('bad-flags', `object ${i} flags 0x${flags.toString(16)} have bits other than 2, 4, 8`, flagsAt);
  }
  const shared = variant === 'shared-count' && flags !== 0 ? r.u16(`object ${i} key count`) : 0;
  const object: { -readonly [K in keyof AafAnimationObject]: AafAnimationObject[K] } = { name, flags };
  for (const ch of AAF_CHANNELS) {
    if ((flags & ch.flag) === 0) continue;
    const what = `object ${i} ${ch.name}`;
    let controller: number | undefined;
    if (variant === 'controller') {
      const at = r.offset;
      controller = r.u8(`${what} controller type`);
      if (ch.name === 'position' && controller !== 1) {
        r.fail('bad-controller', `${what} controller type is ${controller}, expected 1 (Position_XYZ)`, at);
      }
    }
    const n = variant === 'shared-count' ? shared : r.u16(`${what} key count`);
    object[ch.name] = readKeys(r, n, ch.size, what, controller);
  }
  return object;
}

function readKeys(r: ByteReader, n: number, size: number, what: string, controller: number | undefined): AafKeys {
  r.needItems(n, 4 * (1 + size), `${what} keys`);
  const times = new Float32Array(n);
  const values = new Float32Array(size * n);
  for (let k = 0; k < n; k++) {
    const at = r.offset;
    const t = r.f32(`${what} key ${k} time`);
    if (!isFileValue(t)) r.fail('bad-time', `${what} key ${k} time: ${describeBadValue(t)}`, at);
    if (k > 0 && t < times[k - 1]!) {
      r.fail('decreasing-time', `${what} key ${k} time ${t} is before the previous key's ${times[k - 1]}`, at);
    }
    times[k] = t;
    for (let c = 0; c < size; c++) values[size * k + c] = r.value(`${what} key ${k} value`);
  }
  return controller === undefined ? { times, values } : { times, values, controller };
}
