/** Types for scripts/node-versions.mjs, for the TypeScript code (bench) that imports it. */
export declare const PINNED: Record<string, string>;
export declare function nodeBinDir(major: string | number): string;
export declare function runWithNode(major: string | number, command: string, args: string[]): number;
