import { readFileSync } from 'node:fs';

/** A fenced code block of a Markdown file. */
export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** `name.ts` when the block's first line is `// name.ts` (a file of a multi-file example), else undefined. */
  file: string | undefined;
  /** The last `#` heading before the block (its text, without the `#`s). */
  section: string;
}

/** The blocks fenced as ```<language> (default `ts`) of the Markdown file at `path`, in order. */
export function readmeBlocks(path: string, language = 'ts'): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  let open: { line: number; lines: string[] } | null = null;
  let section = '';
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (open === null) {
        if (/^#+ /.test(text)) section = text.replace(/^#+ /, '').trim();
        if (text.trim() === '```' + language) open = { line: i + 1, lines: [] };
      } else if (text.trim() === '```') {
        const code = open.lines.join('\n') + '\n';
        blocks.push({ line: open.line, code, file: /^\/\/ ([\w.-]+\.ts)\s*$/.exec(open.lines[0] ?? '')?.[1], section });
        open = null;
      } else {
        open.lines.push(text);
      }
    });
  return blocks;
}
