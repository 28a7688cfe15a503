/**
 * Run by Bun or Deno for ./runtimes.test.ts: one mount, as a user's app would make it, and what came of
 * it on standard output as one JSON line. Warnings the library prints go to standard error.
 *
 *   <runtime> scenario.ts <library bundle> mount <dir> <options JSON> <path>…
 *       mounts the tree, requests each path through `.fetch`: {answers: [[status, text]…]} or {error}
 *   <runtime> scenario.ts <library bundle> reload <dir>
 *       mounts the tree in development mode, requests /hello, rewrites hello/endpoint.ts to answer
 *       'v2', and requests it again until it does (or 5 s passed): {answers} or {error}
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MountOptions } from '../../src';

const [bundle, scenario, dir, ...rest] = process.argv.slice(2) as [string, string, string, ...string[]];
const { mountEndpoints } = (await import(pathToFileURL(bundle).href)) as typeof import('../../src');

const text = async (response: Response) => [response.status, await response.text()] as const;

async function mount(options: MountOptions, paths: string[]) {
  const endpoints = mountEndpoints({ ...options, dir });
  await endpoints.ready;
  const answers = [];
  for (const target of paths)
    answers.push(await text(await endpoints.fetch(new Request(`http://localhost${target}`))));
  await endpoints.close();
  return { answers };
}

async function reload() {
  const endpoints = mountEndpoints({ dir, dev: { types: false, debounce: 20 } });
  await endpoints.ready;
  const get = async () => text(await endpoints.fetch(new Request('http://localhost/hello')));
  const first = await get();
  writeFileSync(path.join(dir, 'hello/endpoint.ts'), "export const GET = () => new Response('v2');\n");
  // The watcher tells of the change within milliseconds; five seconds is a bound, should it not.
  let second = await get();
  for (
    const deadline = Date.now() + 5000;
    second[1] !== 'v2' && Date.now() < deadline;
    second = await get()
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await endpoints.close();
  return { answers: [first, second] };
}

try {
  const result =
    scenario === 'reload' ? await reload() : await mount(JSON.parse(rest[0]!) as MountOptions, rest.slice(1));
  console.log(JSON.stringify(result));
} catch (error) {
  console.log(JSON.stringify({ error: (error as Error).message }));
}
