/**
 * The parts of Node's module customization hooks (https://nodejs.org/api/module.html#customization-hooks) the
 * loaders here use, typed once: `@types/node` of the oldest supported Node does not declare `registerHooks`.
 */
import Module from 'node:module';

export interface ResolveContext {
  parentURL?: string;
  conditions?: readonly string[];
}
export interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
export type NextResolve = (specifier: string, context: ResolveContext) => ResolveResult;

export interface LoadResult {
  format?: string | null;
  source?: string | Buffer | null;
  shortCircuit?: boolean;
}
export type NextLoad = (url: string, context: unknown) => LoadResult;

export interface ModuleHooks {
  /** In-thread hooks (Node 22.15+, 24, 26). */
  registerHooks?(hooks: {
    resolve?(specifier: string, context: ResolveContext, next: NextResolve): ResolveResult;
    load?(url: string, context: unknown, next: NextLoad): LoadResult;
  }): unknown;
  /** Off-thread hooks, for `import` only. */
  register?(url: string): void;
}

/** `node:module`, with the hooks it may have. */
export const nodeModuleHooks = Module as unknown as ModuleHooks;
