/**
 * openapi: the tree described as an OpenAPI 3.1 or 3.2 document, from the route table
 * and the contracts' Standard JSON Schema; and the route that serves it from a mount.
 */
export { generateOpenAPI, type LoadedModules } from './document';
export { toYaml } from './yaml';
export { documentRoute } from './serve';
export { referenceRoutes, REFERENCE_PAGE_POLICY } from './reference-page';
export { mergeOpenAPI, type MergeOpenAPIOptions } from './merge';
export type { OpenAPIDocument, JsonSchema } from './types';
