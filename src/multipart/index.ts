/**
 * multipart: `multipart/form-data` bodies for handlers, streamed: `multipart(request)` iterates the
 * parts as they arrive, under limits; `saveFile(part)` writes one to disk with its size and hash.
 */
export { multipart, type MultipartOptions } from './multipart';
export { saveFile, type SaveFileOptions, type SavedFile } from './save-file';
export { MultipartError } from './errors';
export { DEFAULT_LIMITS, resolveLimits, type MultipartLimits, type MultipartLimitsInput } from './limits';
export type { Part } from './part';
export { readForm, type FormEntries, type ReadFormOptions } from './read-form';
