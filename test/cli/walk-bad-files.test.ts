// Issue 20, no silent loss in a folder walk: every file whose extension is one a format reads ends
// converted or FAILED with its reason; only companions and files of no animation format are
// skipped, and the report says which. Through the built binary, over every readable extension of
// the registry.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReportLine } from '../../src/cli/batch-report.js';
import { FORMAT_HANDLERS } from '../../src/formats/registry.js';
import { animcore, ROOT, tmp } from '../helpers/cli.js';
import { fixturePath, haveFixtures } from '../helpers/fixtures.js';

const EXAMPLES = join(ROOT, 'examples');
const WAVE = join(EXAMPLES, 'nebula', 'wave.nax3');
const HAND = join(EXAMPLES, 'mrtk', 'hand-wave.bin');
const haveMeteor = haveFixtures('meteor');
const haveNebula = haveFixtures('nebula');
const haveGltf = haveFixtures('gltf');

/** A real file of each readable extension, with the companions it needs beside it (same base name). */
const SAMPLES: Record<string, { file: string; companions?: Record<string, string> } | undefined> = {
  '.nax3': { file: WAVE },
  '.nax2': haveNebula ? { file: fixturePath('nebula', 'bouncingball.nax2') } : undefined,
  '.nanim2': haveNebula ? { file: fixturePath('nebula', 'bouncingball.nanim2') } : undefined,
  '.bin': { file: HAND },
  '.amb': haveMeteor ? { file: fixturePath('meteor', 'p0.amb'), companions: { '.bnc': fixturePath('meteor', 'P0.bnc'), '.pos': fixturePath('meteor', 'P0.pos') } } : undefined,
  '.scene.aaf': { file: join(EXAMPLES, 'aaf', 'teapot-man.scene.aaf') },
  '.anim.aaf': { file: join(EXAMPLES, 'aaf', 'teapot-man.anim.aaf') },
  '.aaf': { file: join(EXAMPLES, 'aaf', 'teapot-man.scene.aaf') },
  '.glb': haveGltf ? { file: fixturePath('gltf', 'BoxAnimated.glb') } : undefined,
  '.gltf': haveGltf ? { file: fixturePath('gltf', 'SimpleSkin.gltf') } : undefined,
};

const EXTENSIONS = FORMAT_HANDLERS.flatMap((h) => h.extensions);

/** The bad versions of a sample: garbage, cut in half, empty, and a text file wearing the extension. */
function badCases(bytes: Buffer): Record<string, Uint8Array> {
  const garbage = new Uint8Array(257).map((_, i) => (i * 151 + 7) & 0xff);
  return { garbage, truncated: bytes.subarray(0, Math.floor(bytes.length / 2)), empty: new Uint8Array(0), 'wrong-extension': new TextEncoder().encode('{"not": "an animation"}\n') };
}

function readReport(path: string): ReportLine[] {
  return readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)).filter((l) => 'input' in l);
}

describe('a folder walk loses no file', () => {
  it('every readable extension in the registry has a sample here', () => {
    expect(EXTENSIONS.filter((e) => !(e in SAMPLES))).toEqual([]);
  });

  it('garbage, truncated, empty and wrong-extension files of every readable extension end FAILED with a reason; another format under the extension converts', () => {
    const dir = tmp('bad-walk');
    const expected = new Map<string, 'failed' | 'converted'>();
    const companions: string[] = [];
    for (const ext of EXTENSIONS) {
      const sample = SAMPLES[ext];
      if (sample === undefined) continue;
      const cases = { ...badCases(readFileSync(sample.file)), 'other-format': readFileSync(ext === '.bin' ? WAVE : HAND) };
      for (const [kind, bytes] of Object.entries(cases)) {
        const folder = join(dir, `${ext.slice(1)}-${kind}`);
        mkdirSync(folder);
        writeFileSync(join(folder, `x${ext}`), bytes);
        // Companions for the bad files of a format that needs them, so the failure is the file's own (another format's content takes none).
        for (const [cext, file] of Object.entries(kind === 'other-format' ? {} : (sample.companions ?? {}))) {
          copyFileSync(file, join(folder, `x${cext}`));
          companions.push(join(folder, `x${cext}`));
        }
        expected.set(join(folder, `x${ext}`), kind === 'other-format' ? 'converted' : 'failed');
      }
    }
    const report = join(dir, '..', `${dir.split('/').pop()}.jsonl`);
    const r = animcore(['resample', dir, '--fps', '30', '--to', 'json', '--out', tmp('bad-walk-out'), '--report', report]);
    expect(r.status, r.stderr).toBe(1);
    const lines = readReport(report);
    const byInput = new Map(lines.map((l) => [l.input, l]));
    for (const [input, status] of expected) {
      const line = byInput.get(input);
      expect(line?.status, `${input}: ${JSON.stringify(line)}`).toBe(status);
      if (status === 'failed') {
        expect(line!.reason!.message, input).toMatch(/\S/);
        expect(line!.reason!.code, input).toMatch(/\S/);
        expect(r.stdout).toContain(`FAILED ${input}: `);
      }
    }
    for (const c of companions) expect(byInput.get(c)).toMatchObject({ status: 'skipped', reason: { code: 'companion', message: expect.stringMatching(/^companion of x\.amb \((bnc|pos)\)$/) } });
    expect(lines.filter((l) => l.status === 'skipped').map((l) => l.input).sort()).toEqual([...companions].sort());
    expect(r.stdout).toMatch(new RegExp(`^files: ${[...expected.values()].filter((s) => s === 'converted').length} of ${expected.size} converted, ${[...expected.values()].filter((s) => s === 'failed').length} failed`, 'm'));
  });

  it('skips only companions and files of no animation format, and the report says which', () => {
    const dir = tmp('skips');
    copyFileSync(WAVE, join(dir, 'walk.nax3'));
    writeFileSync(join(dir, 'walk.n2'), 'new /sys/servers/...'); // the animation's skeleton by name
    writeFileSync(join(dir, 'README.txt'), 'notes');
    copyFileSync(join(EXAMPLES, 'aaf', 'teapot-man.scene.aaf'), join(dir, 'teapot.scene.aaf'));
    copyFileSync(join(EXAMPLES, 'aaf', 'teapot-man.anim.aaf'), join(dir, 'teapot.anim.aaf'));
    mkdirSync(join(dir, 'lone'));
    writeFileSync(join(dir, 'lone', 'eagle.n2'), 'x'); // a skeleton no animation takes
    copyFileSync(HAND, join(dir, 'lone', 'take.bin'));
    mkdirSync(join(dir, 'content'));
    copyFileSync(WAVE, join(dir, 'content', 'wave_a.nax3'));
    writeFileSync(join(dir, 'content', 'rig.constants'), '<x/>'); // the only skeleton beside it: paired by content
    const report = join(tmp('skips-report'), 'r.jsonl');
    const r = animcore(['resample', dir, '--fps', '30', '--to', 'json', '--out', tmp('skips-out'), '--report', report, '--verbose']);
    const lines = new Map(readReport(report).map((l) => [l.input.slice(dir.length + 1), l]));
    expect(lines.get('walk.n2')).toMatchObject({ status: 'skipped', reason: { code: 'companion', message: 'companion of walk.nax3 (skeleton)' } });
    expect(lines.get('teapot.anim.aaf')).toMatchObject({ status: 'skipped', reason: { code: 'companion', message: 'companion of teapot.scene.aaf (animation)' } });
    expect(lines.get('content/rig.constants')).toMatchObject({ status: 'skipped', reason: { code: 'companion', message: expect.stringMatching(/paired by content/) } });
    expect(lines.get('lone/eagle.n2')).toMatchObject({ status: 'skipped', reason: { code: 'unused-companion' } });
    expect(lines.get('README.txt')).toMatchObject({ status: 'skipped', reason: { code: 'unknown-extension' } });
    expect(lines.get('lone/take.bin')?.status).toBe('converted');
    expect(lines.get('teapot.scene.aaf')?.status).toBe('converted');
    expect(lines.size).toBe(9);
    // --verbose names each of them; the summary counts them apart from the inputs.
    expect(r.stdout).toMatch(/^skipped .*README\.txt: no format animcore reads has its extension/m);
    expect(r.stdout).toMatch(/; 5 companion or other files in the folders not converted on their own/);
  });
});
