import { Command } from 'commander';
import type { CompanionUse } from '../formats/companions.js';
import type { OpenedFormatFile } from '../formats/open-files.js';
import { axesText } from '../anim/index.js';
import { addCompanionOptions, addFormatOption, addInputLimitOption, companionsOf, formatIdsHelp, maxInputBytes } from './common-options.js';
import { reportFileError } from './errors.js';
import { openFile } from './open-file.js';

/** `animcore info --json` for one file (documented in the README). */
export interface InfoJson {
  file: string;
  format: string;
  /** Header facts of the source: layout, version, variant, counts. */
  info: Record<string, unknown>;
  /** The source's up axis and handedness, and where that comes from (exports convert to glTF's Y-up, right-handed). */
  axes: { up: 'y' | 'z'; handedness: 'right' | 'left'; basis: string };
  clips: {
    name: string;
    /** Seconds. */
    duration: number;
    curves: number;
    /** Stored keys over all curves (a static curve counts one). */
    keys: number;
    preInfinity: string;
    postInfinity: string;
    events: { name: string; category: string; time: number }[];
  }[];
  /** `parent` is the parent joint's index, or null for a root. */
  skeleton: { joints: { name: string; parent: number | null }[] } | null;
  /** Companion files used: role, file (as given or found beside it), how (`given`, `name`, `content`) and, when paired by content, why. */
  companions: CompanionUse[];
  /** The reader's warnings, then the companions left out because several files could fill a role. */
  warnings: string[];
}

/** `info --json` of an opened file. */
export function infoJson(file: string, opened: Pick<OpenedFormatFile, 'resource' | 'companions' | 'pairingWarnings'>): InfoJson {
  const resource = opened.resource;
  return {
    file,
    format: resource.format,
    info: { ...resource.info },
    axes: { ...resource.axes },
    clips: resource.clips.map((c) => ({
      name: c.name,
      duration: c.duration,
      curves: c.curves.length,
      keys: c.storedKeyCount,
      preInfinity: c.preInfinity,
      postInfinity: c.postInfinity,
      events: c.events.map((e) => ({ name: e.name, category: e.category, time: e.time })),
    })),
    skeleton: resource.skeleton
      ? { joints: resource.skeleton.joints.map((j) => ({ name: j.name, parent: j.parent < 0 ? null : j.parent })) }
      : null,
    companions: opened.companions,
    warnings: [...resource.warnings, ...opened.pairingWarnings],
  };
}

/** A companion as `info` and `resample` print it: `kila.n2 (skeleton, by content: the only …)`. */
export function companionText(c: CompanionUse): string {
  const how = c.how === 'given' ? 'given' : c.how === 'name' ? 'found by name' : `by content: ${c.why}`;
  return `${c.file} (${c.role}, ${how})`;
}

/** The human-readable table of `animcore info`. */
export function infoText(info: InfoJson): string {
  const facts = Object.entries(info.info)
    .filter(([, v]) => v === null || typeof v !== 'object')
    .map(([k, v]) => `${k} ${v ?? 'none'}`)
    .join(', ');
  const lines = [`${info.file}: ${info.format}${facts ? ` (${facts})` : ''}`];
  lines.push(`  axes: ${axesText(info.axes)} — ${info.axes.basis}`);
  lines.push(`  skeleton: ${info.skeleton ? `${info.skeleton.joints.length} joints` : 'none'}`);
  const rows = [['clip', 'duration (s)', 'curves', 'keys', 'infinity', 'events']];
  for (const c of info.clips) {
    rows.push([c.name, c.duration.toFixed(3), String(c.curves), String(c.keys), `${c.preInfinity}/${c.postInfinity}`, String(c.events.length)]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) lines.push(`  ${r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`.trimEnd());
  if (info.companions.length > 0) lines.push(`  companions: ${info.companions.map(companionText).join(', ')}`);
  for (const w of info.warnings) lines.push(`  warning: ${w}`);
  return lines.join('\n');
}

/** `animcore info`: declared here with its options; reports every file, the bad ones on stderr. */
export function infoCommand(): Command {
  const command = new Command('info')
    .description('Print the format, clips (duration, curves, keys, infinity, events), skeleton and warnings of each file')
    .argument('<files...>', 'animation files (format detected by content)')
    .option('--json', 'print JSON (one object, or an array for several files)');
  addFormatOption(command);
  addCompanionOptions(command);
  addInputLimitOption(command);
  command.addHelpText('after', `\n${formatIdsHelp()}\n\nExamples:\n  animcore info walk.nax3\n  animcore info p0.amb --json\n  animcore info kila_layoutA.nax2 --skeleton kila.n2`);
  return command.action(async (files: string[], options: Record<string, unknown>) => {
    const results: InfoJson[] = [];
    let failed = 0;
    for (const file of files) {
      try {
        results.push(infoJson(file, await openFile(file, { companions: companionsOf(options), ...(typeof options.format === 'string' && { format: options.format }), maxInputBytes: maxInputBytes(options) })));
      } catch (e) {
        reportFileError(e, file);
        failed++;
      }
    }
    if (options.json) {
      if (results.length > 0) console.log(JSON.stringify(files.length === 1 ? results[0] : results, null, 2));
    } else if (results.length > 0) {
      console.log(results.map(infoText).join('\n\n'));
    }
    if (failed > 0 && files.length > 1) console.error(`animcore: ${failed} of ${files.length} files could not be read`);
  });
}
