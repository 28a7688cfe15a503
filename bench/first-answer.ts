/**
 * Scenario (e), process start to the first answered request, one measurement per process:
 * `node bench/.scratch/build/first-answer.mjs '<json>'`.
 *
 *   app 'express'   a bare Express app with one route: the baseline the targets add to
 *   app 'mount'     Express with `await mountEndpoints(app, { dir })`: a tree, or a build of one
 *
 * Either listens on a free port, fetches the last of the 1,000 routes from itself and prints the wall clock
 * (Date.now()) of the answer; the driver subtracts the time it started the process. The single-file bundle
 * (bench/lib/measure-first-answer.ts) runs the same code, with the manifest imported instead of `dir`.
 */
import express from 'express';
import { mountEndpoints, type MountOptions } from '../src/index';
import { answerOnce } from './lib/first-answer-app';

interface Config {
  app: 'express' | 'mount';
  dir?: string;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as Config;
  await answerOnce(express, (app) =>
    config.app === 'express' ? undefined : mountEndpoints(app, { dir: config.dir } satisfies MountOptions),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
