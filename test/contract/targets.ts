/**
 * Where the contract suites send their requests: every host of the shared integration suite
 * (Express 5, Express 4, Connect, node:http), with and without Express's body parsers in front,
 * and the tree's own `.fetch`. Each answers the same question — status, content type, body — so
 * one test runs unchanged against all of them.
 */
import path from 'node:path';
import { mountEndpoints, type ErrorReporter } from '../../src';
import { hosts, type RunningHost } from '../integration/hosts';
import { httpRequest } from '../support/net';

export const CONTRACT_APP = path.join(__dirname, '../fixtures/contract-app/app');

export interface Sent {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Reply {
  status: number;
  contentType: string | undefined;
  text: string;
  json(): unknown;
}

export interface Target {
  send(path: string, sent?: Sent): Promise<Reply>;
  close(): Promise<void>;
}

function reply(status: number, contentType: string | null | undefined, text: string): Reply {
  return { status, contentType: contentType ?? undefined, text, json: () => JSON.parse(text) as unknown };
}

function hostTarget(running: RunningHost): Target {
  return {
    async send(path, sent = {}) {
      const res = await httpRequest(running.url + path, sent);
      return reply(res.status, res.headers['content-type'], res.body.toString());
    },
    close: () => running.close(),
  };
}

function fetchTarget(onError: ErrorReporter): Target {
  const endpoints = mountEndpoints({ dir: CONTRACT_APP, onError });
  return {
    async send(path, sent = {}) {
      await endpoints.ready;
      const body =
        typeof sent.body === 'string' || sent.body === undefined ? sent.body : new Uint8Array(sent.body);
      const request = new Request(`http://localhost${path}`, {
        method: sent.method,
        headers: sent.headers,
        body,
      });
      const res = await endpoints.fetch(request);
      return reply(res.status, res.headers.get('content-type'), await res.text());
    },
    close: () => endpoints.close(),
  };
}

/** A target before it starts: named, so that a suite can describe it before running anything. */
export interface TargetSpec {
  name: string;
  /** `express.json()` and `express.urlencoded()` run before the endpoints. */
  parsed: boolean;
  start(onError: ErrorReporter): Promise<Target>;
}

/** Every host, bare and behind the body parsers, then `.fetch`. */
export const TARGETS: TargetSpec[] = [
  ...hosts.flatMap((host) =>
    [false, true].map((parsed): TargetSpec => ({
      name: parsed ? `${host.name} behind express.json() and express.urlencoded()` : host.name,
      parsed,
      start: async (onError) =>
        hostTarget(await host.start({ dir: CONTRACT_APP, onError, bodyParsers: parsed })),
    })),
  ),
  { name: '.fetch', parsed: false, start: async (onError) => fetchTarget(onError) },
];

/** A multipart body as a browser's FormData makes it: its bytes and its Content-Type (with the boundary). */
export async function multipart(form: FormData): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}
