// Issue 13 items 2 and 3 across the readers: declared counts are checked against what the rest of
// the file can hold before anything is allocated, and file data is never a UsageError: NaN, ±Inf
// and values beyond ±1e38 (src/formats/value-range.ts) are FormatErrors at their byte or line.
// The files come from the fuzzer's generators (valid by construction), with one value changed.
import { describe, expect, it } from 'vitest';
import { FormatError, openFormatFile, readSkc } from '../../src/index.js';
import type { Field } from '../fuzz/fields.js';
import { METEOR_TARGETS } from '../fuzz/gen-meteor.js';
import { MRTK_AAF_TARGETS } from '../fuzz/gen-mrtk-aaf.js';
import { NEBULA_TARGETS } from '../fuzz/gen-nebula.js';
import { type FuzzFile, type Generator, Params, textFile } from '../fuzz/input.js';
import { Rng } from '../fuzz/rng.js';

/** A valid file set of `generator` (ordinary parameters only), the first from seed 1 on that `ok` accepts. */
function valid(generator: Generator, ok: (set: ReturnType<Generator>) => boolean = () => true) {
  for (let seed = 1; ; seed++) {
    const set = generator(new Params(new Rng(seed, 0), 0));
    if (ok(set)) return set;
  }
}

/** Opens a file set; `format` names the handler (AAF has no magic: a damaged file is not detected as AAF). */
async function open(main: FuzzFile, companions: Record<string, FuzzFile> = {}, format?: string): Promise<unknown> {
  return openFormatFile(
    { name: main.name, bytes: main.bytes },
    {
      companions: Object.fromEntries(Object.entries(companions).map(([role, f]) => [role, { file: f.name, bytes: f.bytes }])),
      ...(format !== undefined && { format }),
    },
  );
}

async function formatErrorOf(promise: Promise<unknown>): Promise<FormatError> {
  try {
    await promise;
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

/** `file` with the f32 `field` set to `value`. */
function withFloat(file: FuzzFile, field: Field, value: number): FuzzFile {
  const bytes = file.bytes.slice();
  new DataView(bytes.buffer).setFloat32(field.offset, value, field.littleEndian);
  return { ...file, bytes };
}

const lastValueField = (file: FuzzFile): Field => file.fields!.filter((f) => f.type === 'f32' && f.role === 'value').at(-1)!;

describe('counts are checked before allocation (item 2)', () => {
  const skc = (vertices: string, triangles: string) =>
    new Uint8Array(
      Buffer.from(
        [
          'Static Skins: 1 Dynamic Skins: 0',
          'Static Skin S_01',
          '{',
          '  Materials: 1',
          '  Material',
          ...['Texture t.bmp', 'ColorKey 0 0 0 0', 'Ambient 1 1 1', 'Diffuse 1 1 1', 'Specular 0 0 0', 'Emissive 0 0 0', 'Opacity 1', 'Option NONE', 'TwoSide FALSE'],
          `  Vertices: ${vertices}`,
          '    v 0 0 0 vt 0 0 Bones 1 0 1',
          `  Triangles: ${triangles}`,
          '    f 3 0 0 0 0',
          '}',
        ].join('\n'),
      ),
    );

  it.each([
    ['a negative vertex count', '-1', '1', 15],
    ['a negative triangle count', '1', '-3', 17],
    ['a billion triangles in a 300-byte file', '1', '1000000000', 17],
    ['more vertices than lines', '5', '1', 15],
  ] as const)('readSkc: %s is a FormatError on its line', (_, vertices, triangles, line) => {
    let error: unknown;
    try {
      readSkc(skc(vertices, triangles));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatError);
    expect(error).toMatchObject({ code: 'bad-count', line });
  });

  it('readSkc: the counts that fit still read', () => {
    expect(readSkc(skc('1', '1')).skins[0]!.vertexCount).toBe(1);
  });
});

describe('file data is never a UsageError, and non-finite values are refused at read time (item 3)', () => {
  const BAD = [NaN, Infinity, -Infinity, 2e38, -3.4e38];

  it.each(BAD)('an MRTK key time of %s is a FormatError at its byte', async (bad) => {
    const set = valid(MRTK_AAF_TARGETS['mrtk-1.1']!, (s) => s.main.fields!.some((f) => f.role === 'time'));
    const time = set.main.fields!.find((f) => f.role === 'time')!;
    const e = await formatErrorOf(open(withFloat(set.main, time, bad)));
    expect(e).toMatchObject({ code: 'bad-value', offset: time.offset });
  });

  it('an MRTK key time before the previous one is a FormatError at its byte', async () => {
    const consecutive = (fields: Field[]) => fields.filter((f) => f.role === 'time').find((f, i, all) => i > 0 && f.offset - all[i - 1]!.offset === 8);
    const set = valid(MRTK_AAF_TARGETS['mrtk-1.1']!, (s) => consecutive(s.main.fields!) !== undefined);
    const view = new DataView(set.main.bytes.buffer);
    const second = consecutive(set.main.fields!)!;
    const e = await formatErrorOf(open(withFloat(set.main, second, view.getFloat32(second.offset - 8, true) - 1)));
    expect(e).toMatchObject({ code: 'decreasing-time', offset: second.offset });
  });

  it.each([
    ['nax2-B', NEBULA_TARGETS],
    ['nax2-A', NEBULA_TARGETS],
    ['nax3-le', NEBULA_TARGETS],
    ['nax3-be', NEBULA_TARGETS],
    ['amb', METEOR_TARGETS],
    ['aaf-animation', MRTK_AAF_TARGETS],
  ] as const)('%s: a key value of NaN, ±Inf or beyond ±1e38 is a FormatError at its byte', async (target, targets) => {
    for (const bad of BAD) {
      const set = valid(targets[target]!);
      const main = set.mutated === 'main' ? set.main : set.companions[set.mutated]!;
      const field = lastValueField(main);
      const changed = withFloat(main, field, bad);
      const format = target.startsWith('aaf') ? 'aaf' : undefined;
      const e = await formatErrorOf(set.mutated === 'main' ? open(changed, set.companions, format) : open(set.main, { ...set.companions, [set.mutated]: changed }, format));
      expect(e.offset).toBe(field.offset);
      // An AAF file that reads as neither kind is `unrecognised`, with the furthest reading's offset and reason.
      expect(e.code).toBe(format ? 'unrecognised' : 'bad-value');
      expect(e.message).toContain('expected a finite number within ±1e+38');
    }
  });

  it('aaf-scene: a rest-pose or vertex value of NaN is a FormatError at its byte', async () => {
    const set = valid(MRTK_AAF_TARGETS['aaf-scene']!);
    const field = set.main.fields!.find((f) => f.type === 'f32')!;
    const e = await formatErrorOf(open(withFloat(set.main, field, NaN), {}, 'aaf'));
    expect(e.offset).toBe(field.offset);
    expect(e.message).toContain('found NaN');
  });

  /** A Meteor character whose `.pos` plays stored frames 1–2 with a Blend segment of `speed`. */
  const meteorWithSpeed = (speed: string) => {
    const set = valid(METEOR_TARGETS.amb!);
    const pos = ['Pose 0', '{', '  source 1', '  Start 1', '  End 2', '  Blend', '  {', '    start 1', '    end 2', `    speed ${speed}`, '  }', '}', ''].join('\n');
    return open(set.main, { ...set.companions, pos: textFile('fuzz.pos', pos) });
  };

  it('a .pos speed below 0 is a FormatError on its line (it was a UsageError: key times decrease)', async () => {
    expect(await formatErrorOf(meteorWithSpeed('-1'))).toMatchObject({ format: 'pos', code: 'bad-value', line: 10 });
  });

  it('a .pos speed of 1e-300 (a pose lasting 3e298 s) is a FormatError on its pose line', async () => {
    expect(await formatErrorOf(meteorWithSpeed('1e-300'))).toMatchObject({ format: 'pos', code: 'bad-value', line: 1 });
  });

  it('a .pos speed of 0 plays at 1, as the game does (spec meteor.md §7.1)', async () => {
    await expect(meteorWithSpeed('0')).resolves.toBeDefined();
  });

  it.each(['1e39', '-2e38'])('a .bnc pivot of %s is a FormatError on its line', async (bad) => {
    const set = valid(METEOR_TARGETS.amb!);
    const text = Buffer.from(set.companions.bnc!.bytes).toString('latin1');
    const at = text.indexOf('pivot ');
    const changed = text.slice(0, at) + `pivot ${bad} 0 0` + text.slice(text.indexOf('\n', at));
    const e = await formatErrorOf(open(set.main, { ...set.companions, bnc: textFile('fuzz.bnc', changed) }));
    expect(e).toMatchObject({ format: 'bnc', code: 'bad-number', line: text.slice(0, at).split('\n').length });
  });
});
