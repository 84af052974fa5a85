import { type Command, Option } from 'commander';
import { kebab } from '../formats/companions.js';
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
