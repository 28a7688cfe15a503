/** The words of multipart bodies that a contract uses too: the limits of a form and how to give them. */

export interface MultipartLimits {
  /** Bytes of one file. Default 10 MiB. */
  fileSize: number;
  /** Number of files. Default 10. */
  files: number;
  /** Number of fields (parts without a filename). Default 100. */
  fields: number;
  /** Bytes of one field's value. Default 100 KiB (`express.urlencoded()`'s limit for a whole form). */
  fieldSize: number;
  /** Number of parts, files and fields together. Default 110. */
  parts: number;
  /**
   * Bytes of one part's header block. Default 16 KiB (Node's limit for a request's headers). Past it
   * busboy keeps reading but drops the rest of the header, so memory stays bounded.
   */
  headerSize: number;
}

/** What a caller may pass: a number, a size as multer and body-parser spell it (`'50mb'`), or `Infinity`. */
export type MultipartLimitsInput = { [Name in keyof MultipartLimits]?: number | string };

/** How a contract reads a `multipart/form-data` body: `multipart()`'s limits and its `preservePath`. */
export interface MultipartFormOptions {
  /** Limits, each a number (bytes or a count), a size as multer spells it (`'50mb'`), or `Infinity`. */
  limits?: MultipartLimitsInput;
  /** Keep the folders of a filename (`a/b.txt`) rather than only its last segment. Default `false`. */
  preservePath?: boolean;
}

/** A contract's `multipart`: how it reads the form, and where the files wait while the request runs. */
export interface MultipartContract extends MultipartFormOptions {
  /** The folder of the temporary files that hold the form's files. Default `os.tmpdir()`. */
  directory?: string;
}
