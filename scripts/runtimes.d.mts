/** Types for scripts/runtimes.mjs, for the TypeScript code (the runtime test hosts) that imports it. */
export type RuntimeKey = 'bun' | 'deno';
export declare const RUNTIMES: Record<
  RuntimeKey,
  { label: string; package: string; version: string; integrity: string; binary: string }
>;
export declare function isSupportedPlatform(): boolean;
export declare function runtimeBinaryPath(name: RuntimeKey): string;
export declare function runtimeBinary(name: RuntimeKey): string | undefined;
export declare function fetchRuntime(name: RuntimeKey): string;
