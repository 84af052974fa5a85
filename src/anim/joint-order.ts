import type { Joint } from './skeleton.js';

/**
 * Joint indices with every parent before its children and otherwise in index order (a stable
 * topological sort; the identity when parents already precede their children): the order in which
 * model-space transforms are composed in one pass, as ozz-animation's LocalToModelJob does.
 * Parents are indices into `joints` or −1 for roots, forming a forest (no cycles; `Skeleton` checks).
 */
export function parentsFirstOrder(joints: readonly Pick<Joint, 'parent'>[]): number[] {
  const state = new Uint8Array(joints.length); // 0 unseen, 1 on the current chain, 2 placed
  const order: number[] = [];
  for (let i = 0; i < joints.length; i++) {
    // Walk up to the first placed ancestor (or a root), then place the chain top-down.
    const chain: number[] = [];
    let j = i;
    while (j >= 0 && j < joints.length && state[j] === 0) {
      state[j] = 1;
      chain.push(j);
      j = joints[j]!.parent;
    }
    const cycle = j >= 0 && j < joints.length && state[j] === 1;
    for (let k = chain.length - 1; k >= 0; k--) {
      state[chain[k]!] = 2;
      if (!cycle) order.push(chain[k]!);
    }
  }
  return order;
}
