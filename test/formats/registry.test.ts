// The format registry: every format folder has the same shape, and the CLI and the viewer take
// formats, companions and detection from the one table.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { AnimResource } from '../../src/anim/index.js';
import { UsageError } from '../../src/errors.js';
import { aafHandler } from '../../src/formats/aaf/handler.js';
import { makeTeapotMan } from '../../src/formats/aaf/teapot-man.js';
import { baseName, kebab } from '../../src/formats/companions.js';
import type { FormatHandler } from '../../src/formats/handler.js';
import { openFileSet, openFormatFile } from '../../src/formats/open-files.js';
import { companionRoles, FORMAT_HANDLERS, formatHandler } from '../../src/formats/registry.js';

const FORMATS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'formats');

describe('format folders and the registry', () => {
  const folders = readdirSync(FORMATS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

  it.each(folders)('src/formats/%s exports open<Fmt> from open.ts and exactly one registered handler', async (folder) => {
    const open = await import(join(FORMATS, folder, 'open.ts'));
    expect(Object.keys(open).filter((k) => /^open[A-Z]/.test(k) && typeof open[k] === 'function').length).toBeGreaterThan(0);
    const handlers = Object.values(await import(join(FORMATS, folder, 'handler.ts'))).filter(
      (v): v is FormatHandler => typeof v === 'object' && v !== null && 'detect' in v && 'open' in v,
    );
    expect(handlers).toHaveLength(1);
    expect(FORMAT_HANDLERS).toContain(handlers[0]);
  });

  it('has unique ids, runs detection by priority, and every handler declares its companions and extensions', () => {
    expect(new Set(FORMAT_HANDLERS.map((h) => h.id)).size).toBe(FORMAT_HANDLERS.length);
    expect(FORMAT_HANDLERS.map((h) => h.priority)).toEqual([...FORMAT_HANDLERS.map((h) => h.priority)].sort((a, b) => b - a));
    for (const h of FORMAT_HANDLERS) {
      expect(h.extensions.length).toBeGreaterThan(0);
      for (const c of h.companions) expect(c.extensions.length + (c.names?.length ?? 0)).toBeGreaterThan(0);
    }
  });

  it('an unknown format id is a UsageError naming the known ones', async () => {
    expect(() => formatHandler('foo')).toThrow(UsageError);
    expect(() => formatHandler('foo')).toThrow(/known formats: gltf, meteor, nebula, mrtk, aaf/);
    await expect(openFormatFile({ name: 'x', bytes: new Uint8Array(4) }, { format: 'foo' })).rejects.toThrow(UsageError);
  });

  it('companion roles are merged from every handler, one CLI option each', () => {
    const roles = companionRoles().map((r) => r.role);
    expect(roles).toEqual(FORMAT_HANDLERS.flatMap((h) => h.companions.map((c) => c.role)).filter((r, i, all) => all.indexOf(r) === i));
    expect(roles.map(kebab)).toContain('character-amb');
  });

  it('base names strip the longest format extension', () => {
    expect(baseName(aafHandler, 'dir/Walk.Scene.AAF')).toBe('Walk');
    expect(baseName(aafHandler, 'walk.aaf')).toBe('walk');
    expect(baseName(formatHandler('nebula'), 'a.b.nax2')).toBe('a.b');
    expect(baseName(formatHandler('nebula'), 'noext')).toBe('noext');
  });

  it('detection hands what it parsed to open: a set detects each file once and open reads no file again', async () => {
    const teapot = makeTeapotMan();
    const detect = vi.spyOn(aafHandler, 'detect');
    try {
      const set = await openFileSet([
        { name: 't.scene.aaf', bytes: teapot.scene },
        { name: 't.anim.aaf', bytes: teapot.animation },
      ]);
      expect(set.resource.skeleton!.size).toBe(14);
      expect(detect).toHaveBeenCalledTimes(2);
    } finally {
      detect.mockRestore();
    }
    // The parsed document is used, not the bytes: open succeeds on bytes that are no AAF file.
    const parsed = aafHandler.detect(teapot.scene, 't.scene.aaf')!.parsed;
    const r = await aafHandler.open({ path: 't.scene.aaf', bytes: new Uint8Array(0), detected: parsed, companions: {}, sibling: () => undefined });
    expect(r.skeleton!.size).toBe(14);
  });

  it('awaits a handler whose open returns a Promise', async () => {
    const asyncHandler: FormatHandler<string> = {
      id: 'later',
      description: 'an async reader',
      priority: 0,
      extensions: ['.later'],
      companions: [],
      detect: () => ({ parsed: 'doc' }),
      open: async (input) => new AnimResource({ format: `later:${input.detected}`, clips: [] }),
    };
    const opened = await openFormatFile({ name: 'x.later', bytes: new Uint8Array(1) }, { detection: { handler: asyncHandler, detected: { parsed: 'doc' } } });
    expect(opened.resource.format).toBe('later:doc');
  });
});
