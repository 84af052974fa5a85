/**
 * Names for glTF nodes or animations (glTF 2.0 names are optional and need not be unique): the
 * item's own name, else `<fallback><i>` (`node3`, `animation0`); a name already taken gets
 * `#<i>` appended (`Bone#7`), so every item of the list has its own name.
 */
export function uniqueNames(names: readonly (string | undefined)[], fallback: string): string[] {
  const taken = new Set<string>();
  return names.map((name, i) => {
    let unique = name === undefined || name === '' ? `${fallback}${i}` : name;
    while (taken.has(unique)) unique += `#${i}`;
    taken.add(unique);
    return unique;
  });
}
