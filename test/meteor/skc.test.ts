import { describe, expect, it } from 'vitest';
import { readSkc } from '../../src/formats/meteor/index.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';
import { catchFormatError } from '../helpers/format-error.js';

const MESH = [
  'Static Skins: 1 Dynamic Skins: 0',
  'Static Skin S_01',
  '{',
  '  Materials: 1',
  '  Material',
  '    Texture   a b.tga',
  '    ColorKey  0 0 0 0',
  '    Ambient   1.000 1.000 1.000',
  '    Diffuse   1.000 1.000 1.000',
  '    Specular  1.000 1.000 1.000',
  '    Emissive  0.000 0.000 0.000',
  '    Opacity   1.000',
  '    Option    ALPHA',
  '    TwoSide   TRUE',
  '  Vertices: 3',
  '    v 0 0 0 vt 0 0 Bones 1 0 1.0',
  '    v 1 0 0 vt 1 0 Bones 2 0 0.25 1 0.75',
  '    v 0 1 0 vt 0 1 Bones 1 1 1.00000',
  '  Triangles: 1',
  '    f 3 0 0 1 2',
  '}',
];

function edit(no: number, line: string): Uint8Array {
  const lines = [...MESH];
  lines[no - 1] = line;
  return new TextEncoder().encode(lines.join('\n'));
}

describe('readSkc', () => {
  it('reads materials, vertices with padded influences, and triangles', () => {
    const [skin] = readSkc(new TextEncoder().encode(MESH.join('\r\n'))).skins;
    expect(skin!.materials[0]).toMatchObject({ texture: 'a b.tga', option: 'ALPHA', twoSide: true, opacity: 1 });
    expect(skin!.influences).toBe(2);
    expect(Array.from(skin!.joints)).toEqual([0, 0, 0, 1, 1, 0]);
    expect(Array.from(skin!.weights)).toEqual([1, 0, 0.25, 0.75, 1, 0]);
    expect(Array.from(skin!.indices)).toEqual([0, 1, 2]);
  });

  it.each([
    ['a bad number', 16, '    v 0 x 0 vt 0 0 Bones 1 0 1.0', 16],
    ['a short influence list', 17, '    v 1 0 0 vt 1 0 Bones 2 0 0.25', 17],
    ['a vertex index out of range', 20, '    f 3 0 0 1 3', 20],
    ['a material index out of range', 20, '    f 3 1 0 1 2', 20],
    ['a missing brace', 3, '  {{', 3],
    ['an unknown material keyword', 9, '    Diffuze 1 1 1', 9],
    ['a negative bone weight', 17, '    v 1 0 0 vt 1 0 Bones 2 0 -0.25 1 1.25', 17],
    ['bone weights that sum to 0', 18, '    v 0 1 0 vt 0 1 Bones 1 1 0', 18],
  ] as const)('%s is a FormatError with the line', (_, no, line, at) => {
    expect(catchFormatError(() => readSkc(edit(no, line))).line).toBe(at);
  });
});

describe.runIf(haveFixtures('meteor'))('p0.skc and p0_300.skc', () => {
  it.each([
    ['p0.skc', 1290, 1482],
    ['p0_300.skc', 313, 296],
  ])('%s: %i vertices, %i triangles, weights summing to 1 over bones 0–29', (name, vertices, triangles) => {
    const [skin] = readSkc(readFixture('meteor', name)).skins;
    expect([skin!.vertexCount, skin!.indices.length / 3]).toEqual([vertices, triangles]);
    expect(Math.max(...skin!.joints)).toBeLessThan(30);
    for (let v = 0; v < skin!.vertexCount; v++) {
      const w = skin!.weights.subarray(skin!.influences * v, skin!.influences * (v + 1)).reduce((a, b) => a + b, 0);
      expect(Math.abs(w - 1)).toBeLessThan(1e-4);
    }
  });
});
