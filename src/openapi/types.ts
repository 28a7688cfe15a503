/** The OpenAPI document's shape; its options are part of the public vocabulary (src/types/openapi.ts). */
import type { JsonSchema } from '../contract';
import type { OpenAPIInfo, OpenAPIServer } from '../types';

/** A JSON Schema object (JSON Schema 2020-12, the dialect of OpenAPI 3.1 and 3.2). */
export type { JsonSchema };

/** The OpenAPI document: plain JSON data, ready for `JSON.stringify`. */
export interface OpenAPIDocument {
  openapi: string;
  info: OpenAPIInfo;
  servers?: OpenAPIServer[];
  paths: { [path: string]: { [field: string]: unknown } };
  components?: { schemas?: { [name: string]: JsonSchema } };
  [extension: `x-${string}`]: unknown;
}
