/**
 * Formats that share the `.nax3` extension or its magic but not its layout (spec nebula.md §2.5).
 * `readNax3` refuses them by name instead of misreading them.
 */

/** Magic bytes on disk, both byte orders, of the oryol-tools 'NAH0' header and its 'NAC0' key files. */
const FOREIGN_MAGICS: Record<string, string> = {
  '0HAN': "the 'NAH0' .nax3 variant (floooh/oryol-tools NAX3Loader: keys live in separate 'NAC0' .nac files, spec §2.5)",
  NAH0: "the 'NAH0' .nax3 variant (floooh/oryol-tools NAX3Loader: keys live in separate 'NAC0' .nac files, spec §2.5)",
  '0CAN': "an oryol-tools 'NAC0' .nac clip key file (companion of a 'NAH0' .nax3, spec §2.5)",
  NAC0: "an oryol-tools 'NAC0' .nac clip key file (companion of a 'NAH0' .nax3, spec §2.5)",
};

/** A description of the foreign format these magic bytes announce, or `null`. */
export function foreignNax3Magic(magic: string): string | null {
  return FOREIGN_MAGICS[magic] ?? null;
}

/**
 * Whether the bytes have the shape of the 2023+ gscept/nebula 'NA01' layout (spec §2.5):
 * u32 magic, u16 numAnimations, then per animation a packed 14-byte Nax3Anim
 * {u16 numClips, numCurves, numEvents; u32 numKeys, numIntervals}, 11-byte curves, 64-byte events,
 * 64-byte clips, 20-byte intervals and `numKeys` float32 values. Plausible means at least one
 * animation and that walking those sizes ends exactly at the end of the file. Little-endian only
 * (gscept targets PC). Cost: O(numAnimations), never allocates.
 */
export function looksLikeGscept2023(bytes: Uint8Array): boolean {
  if (bytes.length < 6) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const numAnimations = view.getUint16(4, true);
  if (numAnimations < 1) return false;
  let offset = 6;
  for (let a = 0; a < numAnimations; a++) {
    if (offset + 14 > bytes.length) return false;
    const numClips = view.getUint16(offset, true);
    const numCurves = view.getUint16(offset + 2, true);
    const numEvents = view.getUint16(offset + 4, true);
    const numKeys = view.getUint32(offset + 6, true);
    const numIntervals = view.getUint32(offset + 10, true);
    offset += 14 + 11 * numCurves + 64 * numEvents + 64 * numClips + 20 * numIntervals + 4 * numKeys;
    if (offset > bytes.length) return false;
  }
  return offset === bytes.length;
}
