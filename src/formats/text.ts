/**
 * Helpers shared by the text readers (Nebula `.nanim2`, `.n2`, `.constants`; Meteor `.bnc`,
 * `.pos`, `.skc`): line splitting and quoting file text in error messages.
 */

/**
 * Splits text into lines on LF, CRLF or CR (files from every platform, and CR-only ones from old
 * Mac tools). Line `i` of the result is line `i + 1` of the file.
 */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/);
}

/** Most characters of file text an error message quotes. */
const QUOTE_MAX = 40;

/**
 * `text` in double quotes for an error message: control characters escaped, and cut after 40
 * characters with the full length noted, so an error stays one short line whatever the file holds.
 */
export function quote(text: string): string {
  const cut = text.length > QUOTE_MAX;
  const shown = escapeControls(cut ? text.slice(0, QUOTE_MAX) : text);
  return cut ? `"${shown}…" (${text.length} characters)` : `"${shown}"`;
}

/**
 * `text` (a message from elsewhere, e.g. an XML parser quoting the file) cut to `max` characters
 * with the full length noted, control characters escaped: one short line for an error message.
 */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${escapeControls(text.slice(0, max))}… (${text.length} characters)` : escapeControls(text);
}

function escapeControls(s: string): string {
  return s.replace(/[\x00-\x1f\x7f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
