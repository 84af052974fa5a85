import { type Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import { kebab } from '../formats/companions.js';
import { DEFAULT_MAX_INPUT_MB } from './read-input.js';
import { companionRoles, FORMAT_HANDLERS, formatHandler } from '../formats/registry.js';

/** The `--format` ids and what each reads, for help texts. */
export function formatIdsHelp(): string {
  return ['Formats (--format ID; detected by content when omitted):', ...FORMAT_HANDLERS.map((h) => `  ${h.id.padEnd(8)} ${h.description}`)].join('\n');
}

/** `--format <id>`, checked against the registry while parsing (an unknown id is a UsageError, exit 2). */
export function addFormatOption(command: Command, description = 'skip detection and read the file as this format'): Command {
  return command.addOption(
    new Option('--format <id>', `${description} (${FORMAT_HANDLERS.map((h) => h.id).join(', ')})`).argParser((id: string) => formatHandler(id).id),
  );
}

/** One `--<role> <file>` option per companion role of the registry (`characterAmb` → `--character-amb`). */
export function addCompanionOptions(command: Command): Command {
  for (const role of companionRoles()) command.option(`--${kebab(role.role)} <file>`, role.description);
  return command;
}

/** The companion files named on the command line, by role. */
export function companionsOf(options: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { role } of companionRoles()) {
    const v = options[role];
    if (typeof v === 'string') out[role] = v;
  }
  return out;
}

/** `--max-input-mb <n>`: the largest input file read, in MiB (files are refused before reading beyond it). */
export function addInputLimitOption(command: Command): Command {
  return command.option('--max-input-mb <n>', 'largest input file read, in MiB', (value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !(n > 0) || !Number.isFinite(n)) throw new UsageError(`--max-input-mb takes a number of MiB > 0, got "${value}"`);
    return n;
  }, DEFAULT_MAX_INPUT_MB);
}

/** Bytes of the `--max-input-mb` option's value. */
export function maxInputBytes(options: Readonly<Record<string, unknown>>): number {
  return Math.floor(Number(options.maxInputMb ?? DEFAULT_MAX_INPUT_MB) * 1024 * 1024);
}
