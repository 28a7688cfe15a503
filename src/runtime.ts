/**
 * The JavaScript runtime the library runs on, and what it lets the library read of its environment.
 *
 * Node is what the library is built for. Bun and Deno serve the tree through `.fetch`
 * (docs/runtimes.md): they load TypeScript by themselves, have no module hooks, and report a Node
 * version of their own in `process.version`, so messages that name the runtime say which one runs
 * rather than a Node that is not there. Deno also guards the environment behind a permission: a
 * variable it does not let us read is one that is not set, never a crash nor a prompt.
 */

export type RuntimeName = 'Node' | 'Bun' | 'Deno';

export interface Runtime {
  readonly name: RuntimeName;
  /** What messages call it: `Node v24.1.0`, `Bun 1.4.5`, `Deno 2.9.6`. */
  readonly label: string;
}

interface RuntimeVersions {
  bun?: string;
  deno?: string;
}

/** Deno's permission query, which never prompts (reading a variable may). */
interface DenoPermissions {
  permissions?: {
    querySync?(descriptor: { name: 'env'; variable: string }): { state: string };
  };
}

function detectRuntime(): Runtime {
  const versions = process.versions as NodeJS.ProcessVersions & RuntimeVersions;
  if (versions.bun !== undefined) return { name: 'Bun', label: `Bun ${versions.bun}` };
  if (versions.deno !== undefined) return { name: 'Deno', label: `Deno ${versions.deno}` };
  return { name: 'Node', label: `Node ${process.version}` };
}

export const runtime: Runtime = detectRuntime();

/**
 * An environment variable, or `undefined` when it is not set or the runtime does not let us read it
 * (Deno without `--allow-env=NAME`). On Deno the permission is asked about first, so a terminal never
 * gets a permission prompt for a variable the app did not mean to share.
 */
export function environmentVariable(name: string): string | undefined {
  if (runtime.name === 'Deno') {
    const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
    try {
      if (deno?.permissions?.querySync?.({ name: 'env', variable: name }).state !== 'granted')
        return undefined;
    } catch {
      return undefined;
    }
  }
  try {
    return process.env[name];
  } catch {
    return undefined;
  }
}
