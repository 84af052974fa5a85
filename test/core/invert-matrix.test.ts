import { describe, expect, it } from 'vitest';
import { invertMatrix4 } from '../../src/core/sample-many-inverse-bind.js';

describe('invertMatrix4', () => {
  it('gives an affine matrix an affine inverse: fourth row exactly (0, 0, 0, 1) (fuzz: a rest scale of 1e-38 left 0.67 there, an invalid glTF inverse bind matrix)', () => {
    // The rest world matrix (float32) of a joint scaled by (1e-38, 1, 1): its inverse's entries reach 1e38 and the cofactors round its fourth row to (0, 0, −0, 1) (the kept fuzz input gltf-glb-invalid-gltf-ibm: 0.67).
    const m = [
      4.683283801515364e-39, -7.352697120220175e-39, -4.8994579117113607e-39, 0, 0.8824290037155151, 0.36125367879867554, 0.3013550341129303, 0, -0.04458249732851982,
      -0.5734755396842957, 0.8180086612701416, 0, -0.128524050116539, 0.4826582074165344, 0, 1,
    ];
    const out = new Float32Array(16);
    invertMatrix4(m, 0, out, 0);
    expect([out[3], out[7], out[11], out[15]]).toEqual([0, 0, 0, 1]);
  });

  it('keeps a projective matrix’s fourth row as computed', () => {
    const out = new Float32Array(16);
    invertMatrix4([2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 4], 0, out, 0);
    expect(Array.from(out)).toEqual([0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.25]);
  });
});
