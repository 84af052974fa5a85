import { UsageError } from '../../errors.js';
import { ByteWriter } from '../binary.js';
import { AAF_CHANNELS, AAF_KNOWN_FLAGS, type AafAnimationInit, type AafAnimationVariant, type AafKeys } from './animation.js';
import { writeAafHeader } from './header.js';
import { writeAafText } from './text.js';
import { writeU16Count } from './write-count.js';

/**
 * Controller types the `controller` variant writes when a channel has none: the post names only
 * 1 = Position_XYZ; 2 and 3 for rotation and scale are this project's choice.
 */
const DEFAULT_CONTROLLER = { position: 1, rotation: 2, scale: 3 } as const;

/**
 * Writes an ABTOMAT AAF animation file (spec aaf.md §2) in `doc.variant` (default `per-channel`,
 * §2.1). Files read by `readAafAnimation` are written back byte for byte in the variant they were
 * read in. Values are written as float32.
 * @throws UsageError when the flags have unknown bits or disagree with the channels present, a
 *   channel's times and values disagree in length, times decrease, a count does not fit its u16,
 *   a controller type does not fit its u8, or (`shared-count`) an object's channels have different key counts
 */
export function writeAafAnimation(doc: AafAnimationInit & { readonly variant?: AafAnimationVariant }): Uint8Array {
  const variant = doc.variant ?? 'per-channel';
  const w = new ByteWriter();
  writeAafHeader(w, doc.header);
  writeU16Count(w, doc.animLength, 'animation length');
  writeU16Count(w, doc.objects.length, 'object count');
  doc.objects.forEach((o, i) => {
    writeAafText(w, o.name, `object ${i} name`);
    if ((o.flags & ~AAF_KNOWN_FLAGS) !== 0) throw new UsageError(`AAF: object ${i} flags 0x${o.flags.toString(16)} have unknown bits`);
    w.u8(o.flags);
    const channels = AAF_CHANNELS.filter((ch) => {
      const flagged = (o.flags & ch.flag) !== 0;
      if (flagged !== (o[ch.name] !== undefined)) {
        throw new UsageError(`AAF: object ${i} ${ch.name} channel ${flagged ? 'is flagged but missing' : 'is present but not flagged'}`);
      }
      return flagged;
    });
    if (variant === 'shared-count' && channels.length > 0) {
      const n = o[channels[0]!.name]!.times.length;
      if (channels.some((ch) => o[ch.name]!.times.length !== n)) {
        throw new UsageError(`AAF: object ${i}: the shared-count variant needs the same key count on every channel`);
      }
      writeU16Count(w, n, `object ${i} key count`);
    }
    for (const ch of channels) {
      const keys = o[ch.name]!;
      const what = `object ${i} ${ch.name}`;
      if (variant === 'controller') {
        const c = keys.controller ?? DEFAULT_CONTROLLER[ch.name];
        if (!Number.isInteger(c) || c < 0 || c > 0xff) throw new UsageError(`AAF: ${what} controller type ${c} does not fit in a u8`);
        w.u8(c);
      }
      if (variant !== 'shared-count') writeU16Count(w, keys.times.length, `${what} key count`);
      writeKeys(w, keys, ch.size, what);
    }
  });
  return w.finish();
}

function writeKeys(w: ByteWriter, keys: AafKeys, size: number, what: string): void {
  const n = keys.times.length;
  if (keys.values.length !== size * n) throw new UsageError(`AAF: ${what}: ${n} times need ${size * n} values, got ${keys.values.length}`);
  for (let k = 0; k < n; k++) {
    if (k > 0 && keys.times[k]! < keys.times[k - 1]!) throw new UsageError(`AAF: ${what} key ${k} time decreases`);
    w.f32(keys.times[k]!);
    for (let c = 0; c < size; c++) w.f32(keys.values[size * k + c]!);
  }
}
