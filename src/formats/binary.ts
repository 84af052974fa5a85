import { FormatError, UsageError } from '../errors.js';
import { describeBadValue, firstBadValue, isFileValue } from './value-range.js';

/**
 * A bounds-checked cursor over bytes. Every read checks the remaining length first and throws a
 * `FormatError` naming the offset and what was being read, so readers never see a bare
 * `RangeError`. `littleEndian` applies to every multi-byte read and may be changed after a magic
 * tells the byte order.
 */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly format: string;
  littleEndian: boolean;
  offset = 0;

  constructor(bytes: Uint8Array, format: string, littleEndian = true) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.format = format;
    this.littleEndian = littleEndian;
  }

  get length(): number {
    return this.bytes.byteLength;
  }

  get remaining(): number {
    return this.bytes.byteLength - this.offset;
  }

  /** Throws a `FormatError` at the current offset. */
  fail(code: string, message: string, offset = this.offset): never {
    throw new FormatError(this.format, code, { offset }, message);
  }

  /** Checks that `n` more bytes exist before reading `what`. */
  need(n: number, what: string): void {
    if (n > this.remaining) {
      this.fail('truncated', `expected ${what} (${n} bytes) but only ${this.remaining} remain`);
    }
  }

  /**
   * Checks that `count` items of `itemSize` bytes can still follow, before allocating for them:
   * the guard against counts that promise more than the file holds.
   */
  needItems(count: number, itemSize: number, what: string): void {
    if (count < 0 || count * itemSize > this.remaining) {
      this.fail('bad-count', `${what}: count ${count} × ${itemSize} bytes exceeds the ${this.remaining} bytes left`);
    }
  }

  seek(offset: number, what: string): void {
    if (offset < 0 || offset > this.length) this.fail('bad-offset', `${what} offset ${offset} is outside the file`);
    this.offset = offset;
  }

  skip(n: number, what: string): void {
    this.need(n, what);
    this.offset += n;
  }

  u8(what: string): number {
    this.need(1, what);
    return this.view.getUint8(this.offset++);
  }

  i8(what: string): number {
    this.need(1, what);
    return this.view.getInt8(this.offset++);
  }

  u16(what: string): number {
    this.need(2, what);
    const v = this.view.getUint16(this.offset, this.littleEndian);
    this.offset += 2;
    return v;
  }

  i16(what: string): number {
    this.need(2, what);
    const v = this.view.getInt16(this.offset, this.littleEndian);
    this.offset += 2;
    return v;
  }

  u32(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.offset, this.littleEndian);
    this.offset += 4;
    return v;
  }

  i32(what: string): number {
    this.need(4, what);
    const v = this.view.getInt32(this.offset, this.littleEndian);
    this.offset += 4;
    return v;
  }

  f32(what: string): number {
    this.need(4, what);
    const v = this.view.getFloat32(this.offset, this.littleEndian);
    this.offset += 4;
    return v;
  }

  f64(what: string): number {
    this.need(8, what);
    const v = this.view.getFloat64(this.offset, this.littleEndian);
    this.offset += 8;
    return v;
  }

  /** A float32 that must be a file value (finite, within ±1e38; `value-range.ts`). */
  value(what: string): number {
    const at = this.offset;
    const v = this.f32(what);
    if (!isFileValue(v)) this.fail('bad-value', `${what}: ${describeBadValue(v)}`, at);
    return v;
  }

  /** `count` float32 values (`f32Array`), each a file value; the error names the first bad one's offset. */
  values(count: number, what: string): Float32Array {
    const at = this.offset;
    const out = this.f32Array(count, what);
    checkValues(out, this.format, at, what);
    return out;
  }

  /** `n` raw bytes as a subarray (no copy). */
  raw(n: number, what: string): Uint8Array {
    this.need(n, what);
    const v = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }

  /**
   * `count` float32 values copied into a new array (copying also handles offsets that are not
   * 4-aligned and big-endian data).
   */
  f32Array(count: number, what: string): Float32Array {
    this.needItems(count, 4, what);
    const out = new Float32Array(count);
    const start = this.offset;
    if (this.littleEndian && (this.bytes.byteOffset + start) % 4 === 0) {
      out.set(new Float32Array(this.bytes.buffer, this.bytes.byteOffset + start, count));
    } else {
      for (let i = 0; i < count; i++) out[i] = this.view.getFloat32(start + 4 * i, this.littleEndian);
    }
    this.offset += 4 * count;
    return out;
  }

  /** A fixed-size char field, cut at the first NUL (bytes after it are often garbage). */
  fixedString(n: number, what: string): string {
    const b = this.raw(n, what);
    const end = b.indexOf(0);
    return latin1(end < 0 ? b : b.subarray(0, end));
  }

  /** Throws unless the whole input was consumed: readers must account for every byte. */
  expectEnd(what: string): void {
    if (this.remaining !== 0) {
      this.fail('trailing-bytes', `expected the end of the file after ${what}, found ${this.remaining} more bytes`);
    }
  }
}

/**
 * Throws a `FormatError` (code `bad-value`) at the offset of the first of `values` that is not a
 * file value (`value-range.ts`); `values` were read as float32s from byte `offset` on.
 */
export function checkValues(values: ArrayLike<number>, format: string, offset: number, what: string): void {
  const i = firstBadValue(values);
  if (i >= 0) throw new FormatError(format, 'bad-value', { offset: offset + 4 * i }, `${what} (value ${i}): ${describeBadValue(values[i]!)}`);
}

/**
 * Decodes bytes one to one as ISO-8859-1 (every byte is a char; never throws): widened to UTF-16
 * code units, which a native decoder turns into the string at once. (A string built char by char
 * took 14 s for a 37 MB text file; `TextDecoder('latin1')` is windows-1252, which maps 0x80–0x9f
 * elsewhere.)
 */
export function latin1(b: Uint8Array): string {
  return utf16.decode(new Uint16Array(b));
}

// Uint16Array elements are in the host's byte order.
const utf16 = new TextDecoder(new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 'utf-16le' : 'utf-16be');

/**
 * A growable little/big-endian byte writer for the format writers.
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  littleEndian: boolean;
  length = 0;

  constructor(littleEndian = true, initialSize = 1024) {
    this.buf = new Uint8Array(initialSize);
    this.view = new DataView(this.buf.buffer);
    this.littleEndian = littleEndian;
  }

  /**
   * Reserves `n` bytes and returns their offset. It may replace `buf` and `view`, so callers
   * take `this.view` only after calling it.
   */
  private ensure(n: number): number {
    const at = this.length;
    if (at + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, at + n));
      next.set(this.buf.subarray(0, at));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    this.length += n;
    return at;
  }

  u8(v: number): void {
    const at = this.ensure(1);
    this.view.setUint8(at, v);
  }
  i8(v: number): void {
    const at = this.ensure(1);
    this.view.setInt8(at, v);
  }
  u16(v: number): void {
    const at = this.ensure(2);
    this.view.setUint16(at, v, this.littleEndian);
  }
  i16(v: number): void {
    const at = this.ensure(2);
    this.view.setInt16(at, v, this.littleEndian);
  }
  u32(v: number): void {
    const at = this.ensure(4);
    this.view.setUint32(at, v, this.littleEndian);
  }
  i32(v: number): void {
    const at = this.ensure(4);
    this.view.setInt32(at, v, this.littleEndian);
  }
  f32(v: number): void {
    const at = this.ensure(4);
    this.view.setFloat32(at, v, this.littleEndian);
  }
  f64(v: number): void {
    const at = this.ensure(8);
    this.view.setFloat64(at, v, this.littleEndian);
  }
  bytes(b: Uint8Array): void {
    const at = this.ensure(b.length);
    this.buf.set(b, at);
  }
  f32Array(a: ArrayLike<number>): void {
    for (let i = 0; i < a.length; i++) this.f32(a[i]!);
  }
  /** A fixed-size char field: the string's bytes (latin-1), NUL-padded; throws if it does not fit. */
  fixedString(s: string, n: number): void {
    const at = this.ensure(n);
    if (s.length >= n) throw new UsageError(`string "${s}" does not fit in ${n} bytes with its NUL`);
    for (let i = 0; i < s.length; i++) this.buf[at + i] = s.charCodeAt(i) & 0xff;
  }

  /** The written bytes (a copy, exactly `length` long). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
