import type { CompanionUse, OpenedFileSet } from 'animcore';

/** Items of a list shown inline; a longer list folds into a <details>. */
const LIST_HEAD = 5;

/**
 * Fills `table` with what is known of an opened file set, one row per fact: the file that opened
 * it, the format, which other files were paired (role; found by name, by content and why, or
 * given) and which ignored, clips, skeleton, rigid meshes and skinned meshes, the build, every
 * `resource.info` entry (nested objects as `a.b` rows, long lists folded after a few items), and
 * the warnings (the pairing's first: several files that could fill a role, none used).
 */
export function renderFacts(table: HTMLTableElement, opened: OpenedFileSet, files: number, build: string): void {
  const r = opened.resource;
  const rows: [string, string | Node][] = [
    ['file', `${opened.main}${files > 1 ? ` (of ${files} files)` : ''}`],
    ['format', `${r.format}: ${opened.handler.description}`],
    ['paired', opened.companions.length + opened.referenced.length === 0 ? 'none' : [...opened.companions.map((c) => `${c.file} (${c.role}, ${how(c)})`), ...opened.referenced.map((f) => `${f} (named by ${opened.main})`)].join(', ')],
    ['ignored', opened.ignored.length === 0 ? 'none' : opened.ignored.join(', ')],
    ['clips', list(r.clips.map((c) => `${c.name} (${c.duration.toFixed(2)} s)`))],
    ['skeleton', r.skeleton ? `${r.skeleton.size} joints` : r.format === 'mrtk' ? 'none (camera and hands)' : 'none (joints drawn unconnected)'],
    ['meshes', `${r.meshes.length} rigid`],
    ['skinned meshes', r.skins.length === 0 ? '0' : `${r.skins.length} (${r.skins.map((s) => `${s.name || 'unnamed'}: ${s.positions.length / 3} vertices`).join(', ')})`],
    ['build', build],
    ...infoRows(r.info, 'info.'),
    ['warnings', r.warnings.length + opened.pairingWarnings.length === 0 ? 'none' : list([...opened.pairingWarnings.map((w) => `pairing: ${w}`), ...r.warnings])],
  ];
  table.replaceChildren(
    ...rows.map(([key, value]) => {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = key;
      const td = document.createElement('td');
      td.append(value);
      tr.append(th, td);
      return tr;
    }),
  );
}

/** `info` as rows: scalars as text, objects as `prefix.key` rows, lists folded. */
function infoRows(info: Readonly<Record<string, unknown>>, prefix: string): [string, string | Node][] {
  return Object.entries(info).flatMap(([key, value]): [string, string | Node][] => {
    if (Array.isArray(value)) return [[prefix + key, value.length === 0 ? 'none' : list(value.map(text))]];
    if (value !== null && typeof value === 'object') return infoRows(value as Record<string, unknown>, `${prefix}${key}.`);
    return [[prefix + key, text(value)]];
  });
}

/** One value on one line: objects as `key value` pairs. */
function text(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => `${k} ${text(v)}`)
      .join(', ');
  }
  return typeof value === 'number' ? String(Number(value.toPrecision(6))) : String(value);
}

/** A short list inline; a long one as its first items and a <details> with the rest. */
function list(items: readonly string[]): string | Node {
  if (items.length <= LIST_HEAD) return items.join('; ');
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = `${items.length} items: ${items.slice(0, 2).join('; ')}; …`;
  const ol = document.createElement('ol');
  ol.append(...items.map((item) => Object.assign(document.createElement('li'), { textContent: item })));
  details.append(summary, ol);
  return details;
}

/** How a companion was found, in words. */
function how(c: CompanionUse): string {
  switch (c.how) {
    case 'name':
      return 'found by name';
    case 'content':
      return `paired by content: ${c.why}`;
    case 'given':
      return 'given';
  }
}
