/**
 * The requests the differential suite sends to both apps: each route of test/fixtures/differential-app/routes.js at least
 * once, with the differences docs/migrating.md lists for it. The suite adds a HEAD and the
 * conditional requests (If-None-Match, If-Modified-Since) for every GET answered 2xx.
 */
import type { DifferenceId } from './differences';

export interface Case {
  method?: string;
  /** As sent: encoded characters and malformed encodings stay as written. */
  path: string;
  headers?: [string, string][];
  body?: string;
  /** The documented differences this request shows; none: the two answers are the same. */
  differs?: DifferenceId[];
}

const json: [string, string] = ['Content-Type', 'application/json'];
const form: [string, string] = ['Content-Type', 'application/x-www-form-urlencoded'];
const bytes: [string, string] = ['Content-Type', 'application/octet-stream'];

export const CASES: Case[] = [
  // Bodies.
  { path: '/json', differs: ['json-charset'] },
  { path: '/json/charset' },
  { path: '/json/array' },
  { path: '/json/unicode' },
  { path: '/json/large' },
  { path: '/bool' },
  { path: '/number' },
  { path: '/null' },
  { path: '/text' },
  { path: '/text/natural', differs: ['string-type'] },
  { path: '/html' },
  { path: '/buffer' },
  { path: '/buffer/natural', differs: ['bytes-type'] },
  { path: '/object' },
  { path: '/empty' },
  { path: '/nothing' },
  { path: '/stream' },

  // Statuses and methods.
  { path: '/created' },
  { path: '/accepted' },
  { path: '/teapot' },
  { path: '/send-status/404' },
  { path: '/send-status/201' },
  { path: '/send-status/418' },
  { path: '/send-status/204', differs: ['no-content-etag'] },
  { path: '/items/7' },
  { method: 'PUT', path: '/items/7', headers: [json], body: '{"name":"seven"}' },
  { method: 'PATCH', path: '/items/7' },
  { method: 'DELETE', path: '/items/7' },
  { path: '/methods' },
  { method: 'POST', path: '/methods' },
  // A method the file does not serve: the app's 404, as Express's router leaves it to the app.
  { method: 'POST', path: '/json' },
  { method: 'PUT', path: '/methods' },
  { method: 'DELETE', path: '/users/42' },
  { method: 'OPTIONS', path: '/json', differs: ['options'] },
  { method: 'OPTIONS', path: '/items/7', differs: ['options'] },
  { method: 'OPTIONS', path: '/methods', differs: ['options'] },

  // Redirects and headers.
  { path: '/redirect', differs: ['redirect'] },
  { path: '/redirect', headers: [['Accept', 'text/html']], differs: ['redirect'] },
  { path: '/redirect/permanent', differs: ['redirect'] },
  { path: '/location' },
  { path: '/cookie' },
  { path: '/cookie/options' },
  { path: '/cookie/two' },
  { path: '/cookie/clear' },
  { path: '/set' },
  { path: '/set/many' },
  { path: '/type/text' },
  { path: '/type/xml' },
  { path: '/vary' },
  { path: '/append', differs: ['joined-header'] },
  { path: '/last-modified' },
  { path: '/own-etag' },

  // Errors, answered by the app's error handler.
  { path: '/errors/sync' },
  { path: '/errors/async' },
  { path: '/errors/status' },
  { path: '/errors/expose' },

  // Params, the query, the request.
  { path: '/users/42' },
  { path: '/users/a%20b' },
  { path: '/users/caf%C3%A9' },
  { path: '/users/a%2Fb' },
  { path: '/users/%F0%9F%98%80' },
  { path: '/users/a+b' },
  { path: '/USERS/42' },
  { path: '/users/42/' },
  { path: '/users/42/posts/x%3Fy' },
  { path: '/users/%zz', differs: ['malformed-message'] },
  { path: '/users/%E0%A4%A', differs: ['malformed-message'] },
  { path: '/users/%2e%2e', differs: ['dot-segment'] },
  { path: '/users/42/posts/.', differs: ['dot-segment'] },
  { path: '/files/a/b%20c/d.txt' },
  { path: '/files/one' },
  { path: '/files/a/%zz', differs: ['malformed-message'] },
  { path: '/query?q=ada&page=2' },
  { path: '/query?tag=a&tag=b&empty=' },
  { path: '/query?name=Zo%C3%AB&plus=a+b' },
  { path: '/headers', headers: [['X-Test', 'yes']] },
  { method: 'POST', path: '/echo', headers: [json], body: '{"a":[1,{"b":null}],"c":"☃"}' },
  { method: 'POST', path: '/form', headers: [form], body: 'name=Ada&lang=en&note=a%20b' },
  { method: 'POST', path: '/upload', headers: [bytes], body: 'x'.repeat(1000) },
  // Over the limit: body-parser's 413 and the endpoint's both reach the app's error handler.
  {
    method: 'POST',
    path: '/upload',
    headers: [bytes],
    body: 'x'.repeat(1024 * 1024 + 1),
    differs: ['too-large'],
  },
  // Over the app's own parser's limit (express.json(), 100 kB), before the tree: the app's answer in both.
  { method: 'POST', path: '/echo', headers: [json], body: JSON.stringify({ a: 'x'.repeat(200 * 1024) }) },

  // Beside the endpoints: express.static, and what nobody serves.
  { path: '/public/hello.txt' },
  { path: '/public/missing.txt' },
  { path: '/nowhere' },
];
