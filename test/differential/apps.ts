/**
 * The apps the differential suite compares, each a copy of test/fixtures/differential-app laid out as npm installs
 * it, with Express 4 or 5 as its `express`. They differ in one thing: the native app serves the routes of routes.js
 * as Express does; the ported one mounts the endpoint files they were moved to by hand (ported/) in their place;
 * the migrated one is what `express-file-endpoints migrate --write` made of the native one, unedited. Around the
 * routes they are the same app.js: body parsers and `express.static` in front, the 404 and error handler behind.
 * And the raw client that sends a request to each and reads back every byte of the answer.
 */
import { readFileSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { listen, type Listening } from '../support/net';
import { runMigrate } from '../migrate/run-migrate';
import { ROOT, scratchApp } from '../support/runner-apps';
import { exchange } from '../middleware/transparency/raw-client';
import type { Case } from './cases';

export type Tree = 'ported' | 'migrated';

export interface Apps {
  native: Listening;
  tree: Listening;
  close(): Promise<void>;
}

/** The fixture for Express `version`: its own catch-all, and node_modules/express that version. */
function fixtureCopy(version: 4 | 5, files: Record<string, string> = {}): string {
  const express4 = { 'files.js': read('files-express4.js') };
  const dir = scratchApp('differential-app', { ...(version === 4 ? express4 : {}), ...files });
  if (version === 4) {
    rmSync(path.join(dir, 'node_modules/express'));
    symlinkSync(path.join(ROOT, 'node_modules/express4'), path.join(dir, 'node_modules/express'), 'dir');
  }
  // express.static's ETag and Last-Modified come from the file's time, which a copy does not keep.
  utimesSync(path.join(dir, 'public/hello.txt'), STATIC_TIME, STATIC_TIME);
  return dir;
}

const STATIC_TIME = new Date('2025-04-01T10:00:00Z');

const read = (name: string) => readFileSync(path.join(ROOT, 'test/fixtures/differential-app', name), 'utf8');

/** In the ported app, routes.js is the mount of the tree the routes were moved to by hand. */
const PORTED_ROUTES = `const path = require('node:path');
const { mountEndpoints } = require('express-file-endpoints');

// No onError: every error here goes to the app's error handler, which is what is compared.
module.exports = mountEndpoints({ dir: path.join(__dirname, 'ported') });
`;

export async function startApps(version: 4 | 5, tree: Tree): Promise<Apps> {
  const nativeDir = fixtureCopy(version);
  let treeDir: string;
  if (tree === 'ported') {
    treeDir = fixtureCopy(version, { 'routes.js': PORTED_ROUTES });
  } else {
    treeDir = fixtureCopy(version);
    const migrated = await runMigrate(treeDir, '--write', '--allow-dirty');
    if (migrated.code !== 0) throw new Error(`migrate failed:\n${migrated.output}`);
  }
  const load = (dir: string) => require(path.join(dir, 'app.js')) as http.RequestListener;
  const [nativeServer, treeServer] = await Promise.all([
    listen(http.createServer(load(nativeDir))),
    listen(http.createServer(load(treeDir))),
  ]);
  return {
    native: nativeServer,
    tree: treeServer,
    close: async () => void (await Promise.all([nativeServer.close(), treeServer.close()])),
  };
}

/** One answer as received: the status line, each header line as sent, and the body (de-chunked). */
export interface Answer {
  statusLine: string;
  headers: [string, string][];
  body: Buffer;
  /** The raw bytes, for messages. */
  raw: string;
}

export async function send(server: Listening, request: Case): Promise<Answer> {
  const result = await exchange(server.port, [
    { method: request.method, path: request.path, headers: request.headers, body: request.body },
  ]);
  if (result.ending !== 'complete') throw new Error(`${request.path}: the answer ended ${result.ending}`);
  return parseAnswer(result.bytes);
}

function parseAnswer(bytes: Buffer): Answer {
  const headEnd = bytes.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  const rest = bytes.subarray(headEnd + 4);
  const chunked = headers.some(
    ([name, value]) => /^transfer-encoding$/i.test(name) && /chunked/i.test(value),
  );
  return { statusLine, headers, body: chunked ? dechunk(rest) : rest, raw: bytes.toString('latin1') };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** A header's values in the order sent (a repeated header: one per line). */
export function headerValues(answer: Answer, name: string): string[] {
  return answer.headers.filter(([n]) => n.toLowerCase() === name).map(([, value]) => value);
}

/** What differs between two answers: the status line, the headers by (lower-case) name, the body. */
export interface Delta {
  status: boolean;
  headers: string[];
  body: boolean;
}

/**
 * Compared byte for byte, but for what differs in every answer: the Date header's value, the case of
 * header names, the order of headers of different names (a repeated header keeps its own order).
 */
export function delta(native: Answer, tree: Answer): Delta {
  const names = new Set([...native.headers, ...tree.headers].map(([name]) => name.toLowerCase()));
  names.delete('date');
  const headers = [...names].filter(
    (name) => headerValues(native, name).join('\n') !== headerValues(tree, name).join('\n'),
  );
  return {
    status: native.statusLine !== tree.statusLine,
    headers: headers.sort(),
    body: !native.body.equals(tree.body),
  };
}
