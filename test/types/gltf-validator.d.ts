// The part of the Khronos glTF validator's API the tests use (npm `gltf-validator`, which ships no types).
declare module 'gltf-validator' {
  interface ValidatorMessage {
    code: string;
    message: string;
    /** 0 error, 1 warning, 2 information, 3 hint. */
    severity: number;
    pointer?: string;
  }
  interface ValidatorReport {
    issues: { numErrors: number; numWarnings: number; messages: ValidatorMessage[] };
  }
  interface ValidatorOptions {
    uri?: string;
    /** Most issues reported; 0 for all. */
    maxIssues?: number;
    externalResourceFunction?: (uri: string) => Promise<Uint8Array>;
  }
  const validator: {
    validateBytes(data: Uint8Array, options?: ValidatorOptions): Promise<ValidatorReport>;
  };
  export default validator;
}
