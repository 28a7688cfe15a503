// The one function of mime-types (which ships no types) that serve-file.ts uses.
declare module 'mime-types' {
  const mimeTypes: {
    /** The Content-Type for an extension or a file name, with its charset: `.html` -> `text/html; charset=utf-8`. */
    contentType(typeOrExtension: string): string | false;
  };
  export = mimeTypes;
}
