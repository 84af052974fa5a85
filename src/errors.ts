/**
 * Errors thrown by animcore. Every error the library throws on purpose is an `AnimcoreError`;
 * bad bytes are a `FormatError` that says where (byte `offset` or text `line`) and what was
 * expected; misuse of the API is a `UsageError`.
 */
export class AnimcoreError extends Error {
  // Spelled out, not `new.target.name`: minifiers rename classes, and messages read `n: …` then.
  override name: string = 'AnimcoreError';
}

/**
 * Where in the input a `FormatError` happened: a byte offset (binary), a 1-based line (text) or a
 * JSON pointer (RFC 6901, e.g. `/animations/0/samplers/1/output` in a glTF document).
 */
export interface FormatErrorLocation {
  /** Byte offset from the start of the file. */
  offset?: number;
  /** 1-based line number for text formats. */
  line?: number;
  /** JSON pointer into a JSON document (glTF). */
  pointer?: string;
}

/**
 * The input is not a valid file of `format`. `code` is a short machine-readable reason
 * (e.g. `truncated`, `bad-magic`, `size-mismatch`, `bad-value`, `trailing-bytes`).
 */
export class FormatError extends AnimcoreError {
  override name = 'FormatError';
  readonly format: string;
  readonly code: string;
  readonly offset: number | undefined;
  readonly line: number | undefined;
  readonly pointer: string | undefined;

  constructor(format: string, code: string, where: FormatErrorLocation, message: string) {
    const at =
      where.pointer !== undefined
        ? where.pointer || 'the document root'
        : where.line !== undefined
          ? `line ${where.line}`
          : where.offset !== undefined
            ? `byte ${where.offset}`
            : 'unknown position';
    super(`${format}: ${message} (at ${at})`);
    this.format = format;
    this.code = code;
    this.offset = where.offset;
    this.line = where.line;
    this.pointer = where.pointer;
  }
}

/** The API was called in a way it does not support (wrong sizes, disposed objects, bad options). */
export class UsageError extends AnimcoreError {
  override name = 'UsageError';
}
