/** One HTTP/2 request on a client session, read to its end, with when its first body byte came. */
import type http2 from 'node:http2';

export interface H2Reply {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
  /** Milliseconds from the request to the first body byte, and to the end. */
  firstByte: number;
  total: number;
}

export function h2Request(
  session: http2.ClientHttp2Session,
  headers: http2.OutgoingHttpHeaders,
  body?: string,
): Promise<H2Reply> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let firstByte = -1;
    const stream = session.request(headers, { endStream: body === undefined });
    let status = 0;
    let responseHeaders: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      responseHeaders = h;
      status = Number(h[':status']);
    });
    stream.on('data', (chunk: Buffer) => {
      if (firstByte < 0) firstByte = Date.now() - started;
      chunks.push(chunk);
    });
    stream.on('end', () =>
      resolve({
        status,
        headers: responseHeaders,
        body: Buffer.concat(chunks).toString(),
        firstByte,
        total: Date.now() - started,
      }),
    );
    stream.on('error', reject);
    if (body !== undefined) stream.end(body);
  });
}
