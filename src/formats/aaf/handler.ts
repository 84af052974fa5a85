import { FormatError } from '../../errors.js';
import type { FormatHandler } from '../handler.js';
import { type AafDocument, openAaf, readAafFile } from './open.js';

/**
 * ABTOMAT AAF v2 scene and animation files (spec aaf.md), detected by a full read (the format has
 * no magic). A scene takes its animation (`<name>.anim.aaf` beside `<name>.scene.aaf`, or the
 * `animation` companion) and binds it by name (§3.2); an animation takes its scene the same way,
 * else opens alone. Of a scene and its animation in one folder, the scene opens the pair (rank 1).
 * The `.scene.aaf` / `.anim.aaf` pairing is the project's convention; the post names no files.
 */
export const aafHandler: FormatHandler<AafDocument> = {
  id: 'aaf',
  description: 'ABTOMAT AAF v2 scene (object tree, surfaces) or animation (position/rotation/scale keys)',
  priority: 10,
  extensions: ['.scene.aaf', '.anim.aaf', '.aaf'],
  companions: [
    { role: 'scene', extensions: ['.scene.aaf'], description: 'AAF scene the animation binds to by object name' },
    { role: 'animation', extensions: ['.anim.aaf'], description: 'AAF animation bound to the scene by object name' },
  ],
  detect(bytes) {
    try {
      const parsed = readAafFile(bytes);
      return { parsed, rank: parsed.kind === 'scene' ? 1 : 0 };
    } catch (e) {
      if (e instanceof FormatError) return null;
      throw e;
    }
  },
  open(input) {
    const doc = input.detected ?? readAafFile(input.bytes);
    const { scene, animation } = input.companions;
    return doc.kind === 'scene'
      ? openAaf({ scene: doc.scene, ...(animation && { animation }) })
      : openAaf({ animation: doc.animation, ...(scene && { scene }) });
  },
};
