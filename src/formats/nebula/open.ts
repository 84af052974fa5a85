import { FormatError, UsageError } from '../../errors.js';
import type { AnimResource } from '../../anim/index.js';
import { latin1 } from '../binary.js';
import { readConstantsSkeleton, type ConstantsSkeleton } from './read-constants-skeleton.js';
import { readN2Skeleton, type N2Skeleton } from './read-n2-skeleton.js';
import type { Nax2Curves } from './blend-shapes.js';
import { isNbinscript } from './n2-script.js';
import { readNanim2 } from './read-nanim2.js';
import { readNax2 } from './read-nax2.js';
import { readNax3 } from './read-nax3.js';
import { type Nax2ResourceOptions, nax2ToResource, nax3ToResource } from './to-resource.js';

/** What `detectNebulaFormat` recognises. `nax3` includes the variants `readNax3` refuses by name. */
export type NebulaFormat = 'nax2' | 'nax3' | 'nanim2';

/** The first bytes that tell the format: magic bytes on disk (spec nebula.md §1.2, §2.2, §2.5). */
const MAGICS: Record<string, NebulaFormat> = {
  '2XAN': 'nax2',
  '3XAN': 'nax2',
  '10AN': 'nax3',
  NA01: 'nax3',
  '0HAN': 'nax3',
  NAH0: 'nax3',
  '0CAN': 'nax3',
  NAC0: 'nax3',
};

/**
 * Tells a Nebula animation file by content: `.nax2` magic "2XAN"/"3XAN", `.nax3` magic
 * "10AN"/"NA01" (and the 'NAH0'/'NAC0' variants), or `.nanim2` text whose first line that is not
 * blank or a `#` comment is `type nanim2`. Returns `null` for anything else. Never throws.
 */
export function detectNebulaFormat(bytes: Uint8Array): NebulaFormat | null {
  if (bytes.length >= 4) {
    const magic = MAGICS[latin1(bytes.subarray(0, 4))];
    if (magic) return magic;
  }
  return isNanim2Text(decodeText(bytes.subarray(0, 64 * 1024))) ? 'nanim2' : null;
}

/** Whether the first line that is not blank or a `#` comment is `type nanim2`. */
function isNanim2Text(text: string): boolean {
  for (const line of text.split(/\r\n|\n|\r/)) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    return /^type\s+nanim2$/.test(t);
  }
  return false;
}

/** Options of `openNebula`. */
export interface OpenNebulaOptions {
  /** The animation's format when already detected (`detectNebulaFormat`); detected again otherwise. */
  format?: NebulaFormat;
  /**
   * What a `.nax2` / `.nanim2`'s curves are: joint transforms or blend-shape weights
   * (`nax2CurveKind`); decided from the `.n2` skeleton companion when not given.
   */
  curves?: Nax2Curves;
  /** The animation's file name or path, to find the `.n2` blend-shape animator that plays it. */
  name?: string;
}

/** What `openNebula` reads: an animation's bytes and, optionally, its skeleton. */
export interface OpenNebulaInput {
  /** The animation file: `.nax2`, `.nax3` or `.nanim2`, told apart by content. */
  animation: Uint8Array;
  /**
   * Optional skeleton companion, bytes or text: a Nebula3 `.constants` XML file (starts with `<`)
   * or a Nebula2 `.n2` script (anything else; also names nax2 clips via `.setclip`).
   */
  skeleton?: Uint8Array | string;
}

/**
 * Opens a Nebula animation (and optional skeleton) into an `AnimResource`, detecting both by
 * content (`detectNebulaFormat`; XML vs `.n2` script for the skeleton), then applying
 * `nax2ToResource` or `nax3ToResource`.
 *
 * A `.nax2` / `.nanim2` is read as blend-shape weights when `options.curves` says so or when the
 * skeleton is an `.n2` script whose `nblendshapeanimator` plays it (`options.name`; see
 * `nax2CurveKind`), else as joint transforms.
 *
 * Throws `FormatError` from the readers, or with format `nebula` and code `unknown-format` (offset
 * 0) when the animation is none of the three formats; `UsageError` when `animation` is not a
 * `Uint8Array` or `curves`/`name` are not what they should be.
 */
export function openNebula(input: OpenNebulaInput, options: OpenNebulaOptions = {}): AnimResource {
  if (!(input?.animation instanceof Uint8Array)) throw new UsageError('openNebula: `animation` must be a Uint8Array');
  const skeleton = input.skeleton === undefined ? undefined : readNebulaSkeleton(input.skeleton);
  const format = options.format ?? detectNebulaFormat(input.animation);
  switch (format) {
    case 'nax2':
      return nax2ToResource(readNax2(input.animation), skeleton, nax2Options(options));
    case 'nax3':
      return nax3ToResource(readNax3(input.animation), skeleton);
    case 'nanim2':
      return nax2ToResource(readNanim2(decodeText(input.animation)), skeleton, nax2Options(options));
    default:
      throw new FormatError(
        'nebula',
        'unknown-format',
        { offset: 0 },
        'expected a .nax2 (magic "2XAN"/"3XAN"), .nax3 (magic "10AN"/"NA01") or .nanim2 ("type nanim2") file',
      );
  }
}

function nax2Options(options: OpenNebulaOptions): Nax2ResourceOptions {
  if (options.curves !== undefined && options.curves !== 'transform' && options.curves !== 'blend-shape') {
    throw new UsageError(`openNebula: curves must be 'transform' or 'blend-shape', not ${JSON.stringify(options.curves)}`);
  }
  if (options.name !== undefined && typeof options.name !== 'string') throw new UsageError('openNebula: name must be a string');
  return { ...(options.curves !== undefined && { curves: options.curves }), ...(options.name !== undefined && { name: options.name }) };
}

/**
 * Reads a skeleton companion by content: a binary nbinscript (bytes starting "0BON") or a text
 * `.n2` script → `readN2Skeleton`, XML (first non-blank character `<`) → `readConstantsSkeleton`.
 * Throws their `FormatError`s.
 */
export function readNebulaSkeleton(source: Uint8Array | string): N2Skeleton | ConstantsSkeleton {
  if (typeof source !== 'string' && !(source instanceof Uint8Array)) throw new UsageError('skeleton must be a Uint8Array or a string');
  if (typeof source !== 'string' && isNbinscript(source)) return readN2Skeleton(source);
  const text = typeof source === 'string' ? source : decodeText(source);
  const body = text.replace(/^\uFEFF/, '');
  return body.trimStart().startsWith('<') ? readConstantsSkeleton(body) : readN2Skeleton(body);
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}
