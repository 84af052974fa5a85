import { FormatError } from 'animcore';

/**
 * The page's error list (never `alert()`): one entry per error with the file, the reason and, for
 * a `FormatError`, where in the file (byte offset or line); each entry has a dismiss button. The
 * same message twice in a row is counted instead of repeated (an error in the frame loop).
 */
export class ErrorPanel {
  private last: { message: string; entry: HTMLElement; count: number } | null = null;

  constructor(private readonly list: HTMLElement) {}

  /** Shows `error` for `file` (a file name, or what failed: "frame", "stress mode"). */
  show(file: string, error: unknown): void {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (this.last?.message === message && this.last.entry.isConnected) {
      this.last.count++;
      this.last.entry.querySelector('.count')!.textContent = ` (${this.last.count} times)`;
      return;
    }
    const where = error instanceof FormatError ? (error.line !== undefined ? `line ${error.line}` : error.offset !== undefined ? `byte ${error.offset}` : '') : '';
    const entry = document.createElement('div');
    entry.className = 'error';
    entry.setAttribute('role', 'alert');
    const dismiss = Object.assign(document.createElement('button'), { className: 'dismiss', textContent: '×', title: 'Dismiss' });
    dismiss.onclick = () => entry.remove();
    const field = (cls: string, label: string, value: string) => {
      const div = Object.assign(document.createElement('div'), { className: cls });
      div.append(Object.assign(document.createElement('b'), { textContent: `${label} ` }), value);
      return div;
    };
    entry.append(dismiss, field('file', 'file', file), field('reason', 'reason', message.replace(/ \(at (byte \d+|line \d+|unknown position)\)$/, '')));
    if (where) entry.append(field('where', 'at', where));
    entry.append(Object.assign(document.createElement('span'), { className: 'count' }));
    this.list.append(entry);
    this.last = { message, entry, count: 1 };
    console.error(file, error);
  }
}
