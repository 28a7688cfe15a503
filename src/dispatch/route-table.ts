/** The route table of a mount: its endpoints and generated routes. */
import type { DiscoveredTree, RouteFile } from '../discover';
import type { MountSettings } from '../route';
import { createRouter, type Router } from '../router';

/** The route table of a tree's endpoints and the generated routes, each leading to `valueFor(file)`, matched as the mount's options say. */
export function endpointRouter<T>(
  tree: DiscoveredTree,
  options: Pick<MountSettings, 'caseSensitive' | 'strict' | 'generated'>,
  valueFor: (file: RouteFile) => T,
): Router<T> {
  const files = tree.files.filter((file) => file.kind === 'endpoint');
  for (const route of options.generated) files.push(route.file);
  const entries = files.map((file) => ({ segments: file.segments, value: valueFor(file) }));
  return createRouter(entries, { caseSensitive: options.caseSensitive, strict: options.strict });
}
