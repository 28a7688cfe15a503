/**
 * What a loaded module really exports, in the shape static reading gives (discover's ExportInfo), so
 * the tree is validated a second time against the truth: `export * from`, computed exports, and
 * handler exports that turned out not to be functions.
 */
import { HANDLER_EXPORTS } from '../dispatch';
import type { ExportInfo } from '../discover';
import type { ModuleExports } from './load-module';

const HANDLERS = new Set<string>(HANDLER_EXPORTS);

export function loadedExportInfo(mod: ModuleExports): ExportInfo {
  const names = Object.keys(mod);
  return {
    names,
    namesIncomplete: false,
    nonFunctions: names.filter((name) => HANDLERS.has(name) && typeof mod[name] !== 'function'),
  };
}
