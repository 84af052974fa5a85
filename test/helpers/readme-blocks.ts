import { readFileSync } from 'node:fs';

/** A ```ts block of a Markdown file. */
export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** `name.ts` when the block's first line is `// name.ts` (a file of a multi-file example), else undefined. */
  file: string | undefined;
}

/** The ```ts blocks of the Markdown file at `path`, in order. */
export function readmeBlocks(path: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  let open: { line: number; lines: string[] } | null = null;
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (open === null) {
        if (text.trim() === '```ts') open = { line: i + 1, lines: [] };
      } else if (text.trim() === '```') {
        const code = open.lines.join('\n') + '\n';
        blocks.push({ line: open.line, code, file: /^\/\/ ([\w.-]+\.ts)\s*$/.exec(open.lines[0] ?? '')?.[1] });
        open = null;
      } else {
        open.lines.push(text);
      }
    });
  return blocks;
}
