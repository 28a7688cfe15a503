/**
 * files: files on disk as Responses, answered as Express's `res.sendFile`, `res.download` and
 * `express.static` answer them (send's and serve-static's rules): sendFile and serveStatic.
 */
export { sendFile, type SendFileOptions } from './send-file';
export { serveStatic, type ServeStaticOptions, type StaticContext, type StaticHandler } from './serve-static';
export { FileError } from './file-error';
export { escapeHtml } from './http-text';
export type { FileOptions } from './options';
