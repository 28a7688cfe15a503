/**
 * `mergeOpenAPI(app, tree, { mountPath })`: the tree's OpenAPI document merged into one the app
 * builds from its own routes (express-openapi, swagger-jsdoc, its own), so the operations moved into
 * the tree stay in the app's document rather than vanish from it. The tree's paths go under the path
 * the tree is mounted at; a path, an operation or a component both documents define is refused
 * rather than one silently winning.
 */
import type { OpenAPIDocument } from './types';

export interface MergeOpenAPIOptions {
  /** Where the app mounts the tree (`app.use('/v1', endpoints)`): put before each of the tree's paths. Default `''`. */
  mountPath?: string;
}

type Operations = OpenAPIDocument['paths'][string];
type Components = { [section: string]: { [name: string]: unknown } | undefined };

/** A new document: `app`'s, with `tree`'s paths, components and tags added. Neither is changed. */
export function mergeOpenAPI(
  app: OpenAPIDocument,
  tree: OpenAPIDocument,
  options: MergeOpenAPIOptions = {},
): OpenAPIDocument {
  const prefix = (options.mountPath ?? '').replace(/\/+$/, '');
  const clashes: string[] = [];
  const paths: OpenAPIDocument['paths'] = { ...app.paths };
  for (const [path, operations] of Object.entries(tree.paths)) {
    const full = path === '/' && prefix !== '' ? prefix : prefix + path;
    paths[full] = mergeOperations(paths[full], operations, full, clashes);
  }
  const merged: OpenAPIDocument = { ...app, paths };
  const components = mergeComponents(app.components, tree.components, clashes);
  if (components !== undefined) merged.components = components as OpenAPIDocument['components'];
  const tags = mergeTags(app, tree);
  if (tags !== undefined) (merged as { tags?: unknown[] }).tags = tags;
  if (clashes.length > 0) {
    throw new Error(`mergeOpenAPI: both documents define ${clashes.join(', ')}; rename one of each`);
  }
  return merged;
}

function mergeOperations(
  existing: Operations | undefined,
  added: Operations,
  path: string,
  clashes: string[],
): Operations {
  if (existing === undefined) return added;
  for (const field of Object.keys(added)) {
    if (field in existing) clashes.push(`${field} ${path}`);
  }
  return { ...existing, ...added };
}

function mergeComponents(
  app: Components | undefined,
  tree: Components | undefined,
  clashes: string[],
): Components | undefined {
  if (tree === undefined) return app;
  const merged: Components = { ...app };
  for (const [section, entries] of Object.entries(tree)) {
    const existing = merged[section];
    if (existing === undefined || entries === undefined) {
      merged[section] = existing ?? entries;
      continue;
    }
    for (const name of Object.keys(entries)) {
      // The same schema under the same name (both made from one model) is no clash.
      if (name in existing && JSON.stringify(existing[name]) !== JSON.stringify(entries[name])) {
        clashes.push(`components.${section}.${name}`);
      }
    }
    merged[section] = { ...existing, ...entries };
  }
  return merged;
}

function mergeTags(app: OpenAPIDocument, tree: OpenAPIDocument): unknown[] | undefined {
  const appTags = (app as { tags?: { name: string }[] }).tags;
  const treeTags = (tree as { tags?: { name: string }[] }).tags;
  if (treeTags === undefined) return appTags;
  const names = new Set((appTags ?? []).map((tag) => tag.name));
  return [...(appTags ?? []), ...treeTags.filter((tag) => !names.has(tag.name))];
}
