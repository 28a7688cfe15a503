/**
 * A route pattern in OpenAPI's path templating (section 4.8.8): `[id]` becomes `{id}`. A catch-all is
 * one path parameter too: OpenAPI has no multi-segment parameter, so its description says that it
 * spans segments. A path parameter is always required (section 4.8.12.1), so an optional catch-all
 * gives two paths: the folder's own (`/docs`) and the one with the parameter (`/docs/{slug}`).
 */
import type { Segment } from '../discover';

export interface PathParam {
  name: string;
  /** `[...x]` or `[[...x]]`: the rest of the path, one or more segments. */
  catchAll: boolean;
}

export interface OpenAPIPath {
  path: string;
  params: PathParam[];
}

export function openapiPaths(segments: readonly Segment[]): OpenAPIPath[] {
  const parts: string[] = [];
  const params: PathParam[] = [];
  const paths: OpenAPIPath[] = [];
  for (const segment of segments) {
    if (segment.kind === 'static') {
      parts.push(segment.value);
      continue;
    }
    if (segment.kind === 'optionalCatchAll') paths.push({ path: join(parts), params: [...params] });
    parts.push(`{${segment.name}}`);
    params.push({ name: segment.name, catchAll: segment.kind !== 'param' });
  }
  paths.push({ path: join(parts), params });
  return paths;
}

function join(parts: readonly string[]): string {
  return `/${parts.join('/')}`;
}
