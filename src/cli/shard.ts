import { createHash } from 'node:crypto';
import { UsageError } from '../errors.js';

/** One part of a batch split among machines: `index` of `count` (0 ≤ index < count). */
export interface Shard {
  index: number;
  count: number;
}

/** The environment variable a Kubernetes Indexed Job sets to each pod's completion index. */
export const COMPLETION_INDEX_VARIABLE = 'JOB_COMPLETION_INDEX';

function wholeNumber(text: string): number | undefined {
  return /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/**
 * `--shard i/n`.
 * @throws UsageError unless both are whole numbers with 0 ≤ i < n
 */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? wholeNumber(m[1]!) : undefined;
  const count = m ? wholeNumber(m[2]!) : undefined;
  if (index === undefined || count === undefined || count < 1 || index >= count) {
    throw new UsageError(`--shard takes i/n with whole numbers 0 <= i < n (e.g. 0/4), got "${text}"`);
  }
  return { index, count };
}

/**
 * `--shard-count n` with the index from `JOB_COMPLETION_INDEX` (Kubernetes Indexed Jobs set it to
 * 0 … completions − 1 in each pod).
 * @throws UsageError when n is no whole number ≥ 1, or the variable is unset or out of range
 */
export function shardFromEnvironment(countText: string, env: NodeJS.ProcessEnv): Shard {
  const count = wholeNumber(countText);
  if (count === undefined || count < 1) throw new UsageError(`--shard-count takes a whole number >= 1, got "${countText}"`);
  const raw = env[COMPLETION_INDEX_VARIABLE];
  if (raw === undefined) {
    throw new UsageError(`--shard-count needs ${COMPLETION_INDEX_VARIABLE} (set in each pod of a Kubernetes Indexed Job); elsewhere give --shard i/n`);
  }
  const index = wholeNumber(raw);
  if (index === undefined || index >= count) throw new UsageError(`${COMPLETION_INDEX_VARIABLE} must be a whole number below --shard-count ${count}, got "${raw}"`);
  return { index, count };
}

/**
 * The shard (0 … count − 1) of an input by its path relative to its walk root (`key`,
 * `/`-separated): the first 48 bits of the SHA-256 of the key's UTF-8 bytes (in Unicode NFC, as
 * macOS and Linux may spell the same name differently), big-endian, modulo `count`. It depends on
 * the key alone — not on the order or number of other files, the OS or the Node version — so
 * every input lands in exactly one shard and adding a file moves no other.
 * Reproduce it with `printf %s "$key" | sha256sum`: the first 12 hex digits mod n.
 */
export function shardOf(key: string, count: number): number {
  const digest = createHash('sha256').update(key.normalize('NFC'), 'utf8').digest();
  return digest.readUIntBE(0, 6) % count;
}

/** `i/n` as printed and reported. */
export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
