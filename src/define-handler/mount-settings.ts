/**
 * The one hook between a mount and contracts: when a mount builds the method table of a module,
 * each export made by `defineHandler` is bound to the mount's settings. Exports without a
 * contract are untouched, and a module without any is returned as it is: they pay nothing.
 */
import { contractOf } from '../contract';
import { withSettings, type ContractSettings } from './define-handler';

export function withContractSettings(
  exports: Record<string, unknown>,
  settingsFor: (exportName: string) => ContractSettings,
): Record<string, unknown> {
  let bound: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(exports)) {
    if (contractOf(value) === undefined) continue;
    bound ??= { ...exports };
    bound[name] = withSettings(value, settingsFor(name));
  }
  return bound ?? exports;
}
