import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { aafHeader } from '../../src/formats/aaf/header.js';
import { readAafAnimation } from '../../src/formats/aaf/read-animation.js';
import { readAafScene } from '../../src/formats/aaf/read-scene.js';
import { makeTeapotMan } from '../../src/formats/aaf/teapot-man.js';
import { aafText } from '../../src/formats/aaf/text.js';
import { writeAafAnimation } from '../../src/formats/aaf/write-animation.js';
import { writeAafScene } from '../../src/formats/aaf/write-scene.js';

const example = makeTeapotMan();
const header = aafHeader(aafText(''));

/** The FormatError `read` throws (fails the test when it throws nothing or something else). */
function formatError(read: () => unknown): FormatError {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    expect(Number.isInteger((e as FormatError).offset)).toBe(true);
    return e as FormatError;
  }
  throw new Error('expected a FormatError, nothing was thrown');
}

const patch = (bytes: Uint8Array, f: (v: DataView) => void): Uint8Array => {
  const copy = bytes.slice();
  f(new DataView(copy.buffer));
  return copy;
};

/** Animation: header 14 bytes, animLength @14, object count @16, name length @18, "a" @20, flags @21, key count @22, keys @24 (16 bytes each). */
const oneChannel = writeAafAnimation({
  header,
  animLength: 2,
  objects: [{ name: aafText('a'), flags: 2, position: { times: Float32Array.of(0, 1, 2), values: new Float32Array(9) } }],
});

/** Scene: object count @14, child count @16, name length @18, "a" @20, surface count @21, transform @23, vertex count @63, index count @67, vertices @71, indices @179. */
const oneTriangle = writeAafScene({
  header,
  objects: [
    {
      name: aafText('a'),
      parent: -1,
      position: [0, 0, 0],
      rotation: [0, 0, 0, 1],
      scale: [1, 1, 1],
      surfaces: [{ vertices: new Float32Array(27), indices: Uint32Array.of(0, 1, 2) }],
    },
  ],
});

describe('AAF bad input', () => {
  it('every truncation of the example files is a FormatError with an offset inside the prefix', () => {
    for (const [bytes, read] of [
      [example.animation, readAafAnimation],
      [example.scene, readAafScene],
    ] as const) {
      for (let n = 0; n < bytes.length; n++) {
        const e = formatError(() => read(bytes.subarray(0, n)));
        expect(e.offset).toBeLessThanOrEqual(n);
      }
    }
  });

  it('a version other than 2 is an error at byte 10 naming the version', () => {
    for (const [bytes, read] of [
      [oneChannel, readAafAnimation],
      [oneTriangle, readAafScene],
    ] as const) {
      const e = formatError(() => read(patch(bytes, (v) => v.setUint16(10, 3, true))));
      expect(e).toMatchObject({ code: 'bad-version', offset: 10 });
      expect(e.message).toContain('version 3');
    }
  });

  it('decreasing key times are an error at the key', () => {
    expect(readAafAnimation(oneChannel).objects[0]!.position!.times).toEqual(Float32Array.of(0, 1, 2));
    const e = formatError(() => readAafAnimation(patch(oneChannel, (v) => v.setFloat32(56, 0.5, true))));
    expect(e).toMatchObject({ code: 'decreasing-time', offset: 56 });
    // The single error gives the furthest variant's reason and names where the others stopped.
    expect(e.message).toMatch(/per-channel read furthest: .*key 2 time 0\.5 is before.*controller at byte \d+, shared-count at byte \d+ stopped earlier/);
  });

  it('non-finite key times are an error at the key', () => {
    const e = formatError(() => readAafAnimation(patch(oneChannel, (v) => v.setFloat32(40, NaN, true))));
    expect(e).toMatchObject({ code: 'bad-time', offset: 40 });
  });

  it('flags with unknown bits are an error at the flags byte', () => {
    for (const flags of [1, 16, 0x12, 0x80]) {
      const e = formatError(() => readAafAnimation(patch(oneChannel, (v) => v.setUint8(21, flags))));
      expect(e).toMatchObject({ code: 'bad-flags', offset: 21 });
    }
  });

  it('a position controller other than 1 is an error when only the controller variant is asked for', () => {
    const bytes = writeAafAnimation({
      header,
      animLength: 0,
      objects: [{ name: aafText('a'), flags: 2, position: { times: Float32Array.of(0), values: new Float32Array(3), controller: 1 } }],
      variant: 'controller',
    });
    const e = formatError(() => readAafAnimation(patch(bytes, (v) => v.setUint8(22, 7)), { variant: 'controller' }));
    expect(e).toMatchObject({ code: 'bad-controller', offset: 22 });
  });

  it('indices out of range are an error at the index', () => {
    expect(readAafScene(oneTriangle).objects[0]!.surfaces[0]!.indices).toEqual(Uint32Array.of(0, 1, 2));
    const e = formatError(() => readAafScene(patch(oneTriangle, (v) => v.setUint32(187, 3, true))));
    expect(e).toMatchObject({ code: 'bad-index', offset: 187 });
  });

  it('counts beyond the file are errors before anything is allocated', () => {
    const cases: [Uint8Array, (b: Uint8Array) => unknown, (v: DataView) => void][] = [
      [oneChannel, readAafAnimation, (v) => v.setUint16(16, 0xffff, true)], // object count
      [oneChannel, readAafAnimation, (v) => v.setUint16(22, 0xffff, true)], // key count
      [oneChannel, readAafAnimation, (v) => v.setUint16(18, 0xffff, true)], // name length
      [oneTriangle, readAafScene, (v) => v.setUint16(14, 0xffff, true)], // object count
      [oneTriangle, readAafScene, (v) => v.setUint16(16, 0xffff, true)], // child count
      [oneTriangle, readAafScene, (v) => v.setUint16(21, 0xffff, true)], // surface count
      [oneTriangle, readAafScene, (v) => v.setUint32(63, 0xffffffff, true)], // vertex count
      [oneTriangle, readAafScene, (v) => v.setUint32(67, 0xfffffff0, true)], // index count
    ];
    for (const [bytes, read, f] of cases) {
      const e = formatError(() => read(patch(bytes, f)));
      expect(['bad-count', 'truncated']).toContain(e.code);
    }
  });

  it('trailing bytes are reported', () => {
    const e = formatError(() => readAafScene(Uint8Array.from([...oneTriangle, 0])));
    expect(e.code).toBe('trailing-bytes');
    expect(e.offset).toBe(oneTriangle.length);
  });
});
