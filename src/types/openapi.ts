/** The options of the OpenAPI document, of `.openapi()` and of the `openapi` mount option. */

/** The OpenAPI versions the document can be written in. */
export type OpenAPIVersion = '3.1' | '3.2';

/** The Info Object (OpenAPI section 4.8.2): `title` and `version` are required by the spec. */
export interface OpenAPIInfo {
  title: string;
  version: string;
  summary?: string;
  description?: string;
  [field: string]: unknown;
}

/** The Server Object (OpenAPI section 4.8.5): a URL, absolute or relative to where the document is served. */
export interface OpenAPIServer {
  url: string;
  description?: string;
  [field: string]: unknown;
}

/** `middleware.openapi(options)`, the `openapi` mount option and the CLI's settings. */
export interface OpenAPIOptions {
  /** `3.1` (the default) or `3.2`. */
  version?: OpenAPIVersion;
  /** The document's `info`. Default: `{ title: 'API', version: '1.0.0' }`. */
  info?: OpenAPIInfo;
  /**
   * The document's `servers`. Default: none from `.openapi()`, which means `/` (section 4.8.1); the
   * path the tree is mounted at when the mount serves the document.
   */
  servers?: OpenAPIServer[];
  /** Told about each schema that cannot be described (the operation gets an open schema). Default `console.warn`. */
  onWarning?: (message: string) => void;
}

/** The `openapi` mount option: serve the document at `path`, below where the tree is mounted. */
export interface ServeOpenAPIOptions extends OpenAPIOptions {
  /** Where the document is served, below the mount: `/openapi.json`. */
  path: string;
  /**
   * Where an interactive reference of the document is served, below the mount: `'/docs'`. Swagger UI,
   * from the app's own `swagger-ui-dist` package (`npm install swagger-ui-dist`), with no CDN: it works
   * offline and under the Content-Security-Policy its page is sent with (docs/openapi.md).
   */
  ui?: string;
}
