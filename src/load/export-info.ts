/**
 * What a loaded module really exports, in the shape static reading gives (discover's ExportInfo), so
 * the tree is validated a second time against the truth: `export * from`, computed exports,
 * handler exports that turned out not to be functions, and what each contract checks.
 */
import { contractOf, INPUT_LOCATIONS } from '../contract';
import { HANDLER_EXPORTS } from '../http-methods';
import type { ExportInfo } from '../discover';
import type { ContractSummary } from '../types';
import type { ModuleExports } from './module-exports';

const HANDLERS = new Set<string>(HANDLER_EXPORTS);

export function loadedExportInfo(mod: ModuleExports): ExportInfo {
  const names = Object.keys(mod);
  return {
    names,
    namesIncomplete: false,
    nonFunctions: names.filter((name) => HANDLERS.has(name) && typeof mod[name] !== 'function'),
    contracts: contractSummaries(mod),
  };
}

/** The contracts among a module's handler exports. */
function contractSummaries(mod: ModuleExports): Record<string, ContractSummary> {
  const summaries: Record<string, ContractSummary> = {};
  for (const name of HANDLER_EXPORTS) {
    const contract = contractOf(mod[name]);
    if (!contract) continue;
    summaries[name] = {
      validates: INPUT_LOCATIONS.filter((location) => contract[location] !== undefined),
      responses: Object.keys(contract.responses ?? {}).map(Number),
    };
  }
  return summaries;
}
