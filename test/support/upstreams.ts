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
