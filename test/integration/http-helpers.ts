/**
 * HTTP tools of the integration suite beyond test/support/net.ts: header lines as sent, and a
 * gzip-compressing upstream for the proxy tests.
 */
import http from 'node:http';
import { listen, type HttpReply, type Listening } from '../support/net';
import zlib from 'node:zlib';

/** Every value of one header, one entry per header line. */
export function headerLines(res: HttpReply, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    if (res.rawHeaders[i]!.toLowerCase() === name) values.push(res.rawHeaders[i + 1]!);
  }
  return values;
}

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
