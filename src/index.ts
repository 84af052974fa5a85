// The public API of animcore.
export { AnimcoreError, FormatError, type FormatErrorLocation, UsageError } from './errors.js';
export * from './anim/index.js';
export * from './core/index.js';
export * from './sequencer/index.js';
export { referenceLocalToModel, referenceMix, referenceSample, referenceSampleQuantized, referenceSampleMany, referenceSampleUnity, referenceBlend, referenceReduceKeys, evaluateUnityCurve, evaluateUnityStep, type ReferenceSampleManyOptions } from './reference/index.js';
export * from './formats/nebula/index.js';
export * from './formats/meteor/index.js';
export * from './formats/aaf/index.js';
export { FORMAT_HANDLERS, companionRoles, detectFormat, formatHandler, type Detection } from './formats/registry.js';
export type { CompanionRole, Detected, FormatHandler, FormatInput } from './formats/handler.js';
export { baseName, companionByName, resolveCompanions, type CompanionUse, type Folder, type ResolvedCompanions, type ResourceRead } from './formats/companions.js';
export {
  openFileSet,
  openFormatFile,
  planSet,
  type NamedBytes,
  type OpenedFileSet,
  type OpenedFormatFile,
  type OpenFormatFileOptions,
  type SetMember,
  type SetPlan,
} from './formats/open-files.js';
export { openFile, type OpenedFile, type OpenFileOptions } from './formats/open-file.js';
export { toGltfDocument, writeGlb, writeGltf, type GltfExport, type GltfExportOptions, type OutputFile } from './export/gltf.js';
export { rewriteGltf, type GltfRewrite } from './export/gltf-rewrite.js';
export { animJson, type AnimJson, type JsonExportOptions } from './export/json.js';
export { DEFAULT_KEY_TOLERANCE, keyTolerance, reduceClip, type ClipReduction, type KeyTolerance, type ToleranceOption } from './export/reduce-clip.js';
export { QUANTIZED_ROTATION_ERROR } from './export/quantize-rotations.js';
export { axisConversion, convertResource, EXPORT_UPS, type AxisConversion, type ExportAxisOptions, type ExportUp } from './export/axis-conversion.js';
export { curveTrack, type CurveTrack } from './export/curve-track.js';
export { exportClip, exportClips, UNITY_EXPORT_FPS, type ClipExportOptions } from './export/export-clip.js';
export type { ExportCounts } from './export/export-counts.js';
export * from './formats/mrtk/index.js';
export * from './formats/gltf/index.js';
