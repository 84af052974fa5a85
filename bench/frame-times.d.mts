// Types of bench/frame-times.mjs for TypeScript callers (the viewer's browser benchmark page).

export declare const FRAME: number;
/** Each time one frame on, wrapped into [0, duration) (see bench/frame-times.mjs). */
export declare function advance(times: Float64Array, duration: number): void;
