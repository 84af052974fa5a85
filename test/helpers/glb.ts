/**
 * A `.glb` of a JSON document and an optional binary chunk (glTF 2.0 §4.4), for tests that need
 * byte-exact control over what a writer library would never produce (strides, bad counts, NaNs).
 */
export function packGlb(json: unknown, bin?: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = (text.length + 3) & ~3;
  const binLength = bin === undefined ? 0 : (bin.length + 3) & ~3;
  const total = 12 + 8 + jsonLength + (bin === undefined ? 0 : 8 + binLength);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(text, 20);
  if (bin !== undefined) {
    const at = 20 + jsonLength;
    view.setUint32(at, binLength, true);
    view.setUint32(at + 4, 0x004e4942, true);
    out.set(bin, at + 8);
  }
  return out;
}

/** `parts` laid end to end in one buffer, each at a 4-aligned offset (glTF 2.0 §3.6.2.4 alignment). */
export function concatAligned(parts: readonly Uint8Array[]): { bin: Uint8Array; offsets: number[] } {
  const offsets: number[] = [];
  let length = 0;
  for (const p of parts) {
    offsets.push(length);
    length += (p.length + 3) & ~3;
  }
  const bin = new Uint8Array(length);
  parts.forEach((p, i) => bin.set(p, offsets[i]));
  return { bin, offsets };
}

/** The JSON document and BIN chunk of a `.glb` made by `packGlb` or any writer. */
export function unpackGlb(glb: Uint8Array): { json: any; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const at = 20 + jsonLength;
  const bin = at < glb.length ? glb.slice(at + 8, at + 8 + view.getUint32(at, true)) : new Uint8Array(0);
  return { json, bin };
}

/** Little-endian bytes of float32 values. */
export function f32Bytes(values: readonly number[]): Uint8Array {
  return new Uint8Array(Float32Array.from(values).buffer);
}
