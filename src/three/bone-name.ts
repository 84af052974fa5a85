import { PropertyBinding } from 'three';

/**
 * The three.js name of a joint's bone: the joint name sanitized as GLTFLoader names nodes
 * (`PropertyBinding.sanitizeNodeName`: `/`, `.`, `:` and brackets dropped, whitespace as `_`), so
 * that `<bone>.position` track names bind. Every adapter names and finds bones through it.
 */
export function boneName(jointName: string): string {
  return PropertyBinding.sanitizeNodeName(jointName);
}
