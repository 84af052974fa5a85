// The part of gltfpack's npm API the tests use (`gltfpack` ships no types): the command line run in
// memory, its files read and written through the callbacks.
declare module 'gltfpack' {
  interface PackInterface {
    read(path: string): Uint8Array;
    write(path: string, data: Uint8Array): void;
    log?(message: string): void;
  }
  export function pack(args: string[], iface: PackInterface): Promise<string>;
}
