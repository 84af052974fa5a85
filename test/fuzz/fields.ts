/** A numeric field of a generated binary file, so a mutator can set it to an extreme value. */
export interface Field {
  offset: number;
  type: 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'f32';
  /** What the field holds: counts and indices get integer extremes, values float ones. */
  role: 'count' | 'index' | 'value' | 'time' | 'flag';
  littleEndian: boolean;
}

/**
 * A growable binary writer for the fuzz generators that records where each numeric field went.
 * The generators write valid files with it (the size equations hold); the mutators then change
 * one recorded field.
 */
export class FieldWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;
  readonly fields: Field[] = [];

  constructor(public littleEndian = true) {}

  private reserve(n: number): number {
    if (this.length + n > this.buf.length) {
      const next = new Uint8Array(Math.max(2 * this.buf.length, this.length + n));
      next.set(this.buf);
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    const at = this.length;
    this.length += n;
    return at;
  }

  private field(type: Field['type'], role: Field['role'], size: number): number {
    const at = this.reserve(size);
    this.fields.push({ offset: at, type, role, littleEndian: this.littleEndian });
    return at;
  }

  u8(v: number, role: Field['role'] = 'value'): void {
    const at = this.field('u8', role, 1);
    this.view.setUint8(at, v);
  }
  i16(v: number, role: Field['role'] = 'value'): void {
    const at = this.field('i16', role, 2);
    this.view.setInt16(at, v, this.littleEndian);
  }
  u16(v: number, role: Field['role'] = 'value'): void {
    const at = this.field('u16', role, 2);
    this.view.setUint16(at, v, this.littleEndian);
  }
  i32(v: number, role: Field['role'] = 'value'): void {
    const at = this.field('i32', role, 4);
    this.view.setInt32(at, v, this.littleEndian);
  }
  u32(v: number, role: Field['role'] = 'value'): void {
    const at = this.field('u32', role, 4);
    this.view.setUint32(at, v, this.littleEndian);
  }
  f32(v: number, role: Field['role'] = 'value'): void {
    const at = this.field('f32', role, 4);
    this.view.setFloat32(at, v, this.littleEndian);
  }
  /** Raw bytes (magic, names): not a field. */
  bytes(b: ArrayLike<number>): void {
    const at = this.reserve(b.length);
    this.buf.set(b, at);
  }
  /** Latin-1 text, NUL-padded to `size` bytes when given. */
  text(s: string, size?: number): void {
    const b = Array.from(s, (c) => c.charCodeAt(0) & 0xff);
    this.bytes(size === undefined ? b : [...b.slice(0, size - 1), ...new Array(size - Math.min(b.length, size - 1)).fill(0)]);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
