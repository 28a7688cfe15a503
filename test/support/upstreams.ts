/**
 * Upstream servers that endpoint tests forward to: one that compresses its answers, as a real
 * compressing server does.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { listen, type Listening } from './net';

/**
 * The upstream a proxy endpoint forwards to: answers `<METHOD> <url> <body>` gzipped, with
 * `content-encoding: gzip` and the compressed `content-length`, as a real compressing server does.
 */
export async function startGzipUpstream(): Promise<Listening> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = `${req.method} ${req.url} ${Buffer.concat(chunks).toString()}`.trimEnd();
      const gzipped = zlib.gzipSync(text);
      res.writeHead(200, {
        'content-type': 'text/plain; charset=utf-8',
        'content-encoding': 'gzip',
        'content-length': gzipped.length,
        'x-upstream-server': 'gzip',
      });
      res.end(gzipped);
    });
  });
  return listen(server);
}

/**
 * The upstream a forwarding endpoint sends a request to, checking that the request's headers
 * describe its bytes: the body is as long as `content-length` says, and decodes by its
 * `content-encoding`. Answers 200 with the decoded body as text, or 400 saying what did not hold.
 */
export async function startCheckingUpstream(): Promise<Listening> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const declared = req.headers['content-length'];
      const encoding = req.headers['content-encoding'];
      let problem: string | undefined;
      let text = '';
      if (declared !== undefined && Number(declared) !== bytes.length)
        problem = `content-length ${declared} over ${bytes.length} bytes`;
      else {
        try {
          text = (encoding === 'gzip' ? zlib.gunzipSync(bytes) : bytes).toString();
          if (encoding !== undefined && encoding !== 'gzip')
            problem = `unexpected content-encoding ${encoding}`;
        } catch {
          problem = `a body that is not ${encoding}`;
        }
      }
      res.writeHead(problem ? 400 : 200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(problem ?? text);
    });
  });
  return listen(server);
}
