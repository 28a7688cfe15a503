/**
 * What the dev loop needs from mount.ts. The public options of development mode are with the
 * other public types, in src/types/dev.ts; among them `DevProblem`, which is a validation `Problem`
 * (src/validate) or a module that failed to load, as the error page and `onReload` show it: the
 * dev loop turns each into one (dev-loop.ts, locate-error.ts). Its `files`, like every `file`
 * the library shows, are display paths; a `file` of an internal type (RouteFile) is absolute.
 */
import type { DiscoveredTree, RouteFile } from '../discover';
import type { CompiledRoute } from '../route';
import type { ModuleExports } from '../load';
import type { Router } from '../router';

/**
 * mount.ts's compile step, handed to the dev loop so src/dev never imports mount.ts: loads every
 * module through `load`, validates the tree as loaded, and builds its table with the mount's settings.
 * `loadsAgain`, on a reload: the files `load` loads afresh (it hands back the others' modules as loaded before).
 */
export type CompileTree = (
  tree: DiscoveredTree,
  load: (file: RouteFile) => Promise<ModuleExports>,
  loadsAgain?: ReadonlySet<string>,
) => Promise<{ router: Router<CompiledRoute>; loaded: DiscoveredTree }>;
