/**
 * What a transparency case is, and the few helpers that write requests tersely.
 */
import type { ExchangeOptions, RawRequest } from './raw-client';

export type AppName = 'core' | 'session' | 'files' | 'security' | 'vhost' | 'compressed';

export interface Case extends ExchangeOptions {
  app: AppName;
  name: string;
  requests: RawRequest[];
  /** Wait before sending (for what an earlier case set off, e.g. a close handler). */
  delayBefore?: number;
}

type Headers = [string, string][];
export const get = (path: string, headers: Headers = []): RawRequest => ({ path, headers });
export const head = (path: string, headers: Headers = []): RawRequest => ({ method: 'HEAD', path, headers });
export const host = (value: string, path = '/'): RawRequest => ({ path, headers: [['Host', value]] });

export const one = (app: AppName, request: RawRequest, extra: Partial<Case> = {}): Case => ({
  app,
  name: `${request.method ?? 'GET'} ${request.path}${describeHeaders(request.headers)}${request.version ? ` ${request.version}` : ''}`,
  requests: [request],
  ...extra,
});

function describeHeaders(headers: Headers | undefined): string {
  if (!headers || headers.length === 0) return '';
  return ` [${headers.map(([name, value]) => `${name}: ${value.length > 40 ? `${value.slice(0, 40)}…` : value}`).join('; ')}]`;
}
