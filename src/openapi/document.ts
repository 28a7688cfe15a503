/**
 * The OpenAPI document of a tree: every endpoint, with or without a contract, each
 * method it serves an operation. Built from the route table (patterns, exports) and, once the
 * modules are loaded, their contracts. Statically read trees (no modules) give the paths, methods
 * and path params alone.
 */
import { contractOf, type EndpointContract } from '../contract';
import { patternsWithPage } from '../describe-routes';
import type { DiscoveredTree } from '../discover';
import { HTTP_METHODS, WEBSOCKET_EXPORT } from '../http-methods';
import { SchemaComponents } from './components';
import { buildOperation } from './operation';
import { openapiPaths } from './paths';
import type { OpenAPIDocument } from './types';
import type { OpenAPIOptions, OpenAPIVersion } from '../types';

/** The full version each option writes: the latest patch release of each minor. */
const VERSIONS: Record<OpenAPIVersion, string> = { '3.1': '3.1.1', '3.2': '3.2.0' };

/** What `ANY` or `default` is documented as serving: the methods a client calls, each not exported itself. */
const FALLBACK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface GeneratedDocument {
  document: OpenAPIDocument;
  /** One line per schema documented as an open schema, naming its file. */
  warnings: string[];
}

/** Each loaded module's exports, by file path: where the contracts are. */
export type LoadedModules = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

export function generateOpenAPI(
  tree: DiscoveredTree,
  modules: LoadedModules | undefined,
  options: Omit<OpenAPIOptions, 'onWarning'> = {},
): GeneratedDocument {
  const version = options.version ?? '3.1';
  if (version !== '3.1' && version !== '3.2') {
    throw new TypeError(`OpenAPI version must be "3.1" or "3.2", not ${JSON.stringify(version)}`);
  }
  const pages = patternsWithPage(tree);
  const components = new SchemaComponents();
  const warnings: string[] = [];
  const settings = { version, components, warn: (message: string) => warnings.push(message) };
  const paths: OpenAPIDocument['paths'] = {};

  const endpoints = tree.files
    .filter((file) => file.kind === 'endpoint')
    .sort((a, b) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0));
  const taken = new Set(
    endpoints.flatMap((file) =>
      openapiPaths(file.segments)
        .slice(-1)
        .map((p) => p.path),
    ),
  );

  for (const file of endpoints) {
    const exports = modules?.get(file.file);
    const names = new Set(exports ? Object.keys(exports) : (file.exports?.names ?? []));
    const hasPage = pages.has(file.pattern);
    const served = servedMethods(names, hasPage);
    const variants = openapiPaths(file.segments);
    variants.forEach((variant, index) => {
      // The bare form of an optional catch-all (`/docs` for `/docs/[[...slug]]`) unless another endpoint has it.
      if (index < variants.length - 1 && taken.has(variant.path)) return;
      const item: { [field: string]: unknown } = {};
      for (const [method, exportName] of served) {
        const contract: EndpointContract | undefined = exports ? contractOf(exports[exportName]) : undefined;
        const operation = buildOperation(
          {
            method: method.toLowerCase(),
            exportName,
            contract,
            params: variant.params,
            file: file.displayPath,
          },
          settings,
        );
        item[fieldFor(method, version)] = operation;
      }
      // OpenAPI has no words for WebSockets: an extension marks the routes whose upgrades open one.
      if (names.has(WEBSOCKET_EXPORT)) item['x-websocket'] = true;
      if (Object.keys(item).length > 0) paths[variant.path] = item;
    });
  }

  const document: OpenAPIDocument = {
    openapi: VERSIONS[version],
    info: options.info ?? { title: 'API', version: '1.0.0' },
    ...(options.servers ? { servers: options.servers } : {}),
    paths,
  };
  if (Object.keys(components.schemas).length > 0) document.components = { schemas: components.schemas };
  return { document, warnings: [...new Set(warnings)] };
}

/**
 * Each documented method and the export that serves it. HEAD is GET's (documented when exported
 * itself), OPTIONS is answered by the library unless exported; a page serving GET takes it.
 */
function servedMethods(names: ReadonlySet<string>, hasPage: boolean): [string, string][] {
  const fallback = names.has('ANY') ? 'ANY' : names.has('default') ? 'default' : undefined;
  const served: [string, string][] = [];
  for (const method of HTTP_METHODS) {
    if (hasPage && (method === 'GET' || method === 'HEAD')) continue;
    if (names.has(method)) served.push([method, method]);
    else if (fallback && (FALLBACK_METHODS as readonly string[]).includes(method))
      served.push([method, fallback]);
  }
  return served;
}

/**
 * QUERY is a Path Item field in OpenAPI 3.2 (section 4.8.9.1, `query`). 3.1 has none: the same
 * operation goes under the `x-query` extension, which tools that do not know it ignore.
 */
function fieldFor(method: string, version: OpenAPIVersion): string {
  if (method === 'QUERY' && version === '3.1') return 'x-query';
  return method.toLowerCase();
}
