import { FormatError } from '../errors.js';
import { aafAnimationHandler, aafSceneHandler } from './aaf/handler.js';
import type { FormatHandler } from './handler.js';
import { meteorHandler } from './meteor/handler.js';
import { nebulaHandler } from './nebula/handler.js';
import { mrtkHandler } from './mrtk/handler.js';

/**
 * Every format the CLI can open, in detection order (the first whose `detect` accepts the bytes
 * wins). Each format folder contributes its handlers here.
 */
// Formats with a magic come first; AAF has none and is detected by a full read.
export const FORMAT_HANDLERS: readonly FormatHandler[] = [nebulaHandler, meteorHandler, mrtkHandler, aafSceneHandler, aafAnimationHandler];

/** The handler for `bytes`: `formatId` when given, else the first that detects the content. */
export function findHandler(bytes: Uint8Array, path: string, formatId?: string): FormatHandler {
  if (formatId !== undefined) {
    const h = FORMAT_HANDLERS.find((f) => f.id === formatId);
    if (!h) {
      throw new FormatError(formatId, 'unknown-format', { offset: 0 }, `unknown format; known: ${FORMAT_HANDLERS.map((f) => f.id).join(', ')}`);
    }
    return h;
  }
  const h = FORMAT_HANDLERS.find((f) => f.detect(bytes, path));
  if (!h) {
    throw new FormatError('unknown', 'unrecognised', { offset: 0 }, `${path} is not a file of any supported format (${FORMAT_HANDLERS.map((f) => f.id).join(', ')})`);
  }
  return h;
}
