/**
 * NodeRequest: a `Request` backed by Node's IncomingMessage, built lazily.
 *
 * Most handlers touch only method, URL and headers. Building undici's real Request (URL
 * parsing, header validation, stream wiring) on every request is the most expensive part of a
 * naive bridge, so this object answers those from the Node request and reads bodies straight
 * from the Node stream. It inherits `Request.prototype` (so `instanceof Request` holds), and
 * anything else builds the real Request once and delegates to it — including undici's internal
 * symbol slots, so `new Request(req)`, `new Request(url, req)` and `fetch(req)` keep working
 * without replacing the global `Request`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readAndRestoreBody } from './restore-body';
import {
  bodyFromParsedRequest,
  ClientClosedError,
  nodeBodyToWebStream,
  readNodeBody,
  type ParsedNodeRequest,
} from './request-body';

const textDecoder = new TextDecoder();

export class NodeRequest {
  /** The real undici Request, once something needed it. */
  private real: Request | undefined;
  private headersCache: Headers | undefined;
  private bodyStream: ReadableStream<Uint8Array> | null | undefined;
  private used = false;
  private abort: AbortController | undefined;

  constructor(
    readonly nodeRequest: ParsedNodeRequest,
    private readonly nodeResponse: ServerResponse | undefined,
    readonly method: string,
    readonly url: string,
    private readonly bodyLimit: number | false,
    /** Leave the body in the Node stream for the host's own readers (bridged middleware). */
    private readonly restoreBody = false,
  ) {}

  get headers(): Headers {
    if (this.real) return this.real.headers;
    return (this.headersCache ??= headersFromNode(this.nodeRequest));
  }

  get signal(): AbortSignal {
    if (this.real) return this.real.signal;
    return this.abortController().signal;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.real) return this.real.body;
    if (this.bodyStream === undefined) this.bodyStream = this.createBodyStream();
    return this.bodyStream;
  }

  get bodyUsed(): boolean {
    if (this.real) return this.real.bodyUsed;
    // A reader on our stream counts as use, as it does for a Request's own stream.
    return this.used || (this.bodyStream != null && this.bodyStream.locked);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.real) return this.real.arrayBuffer();
    const bytes = await this.readBytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.real) return new Uint8Array(await this.real.arrayBuffer());
    return new Uint8Array(await this.readBytes());
  }

  async text(): Promise<string> {
    if (this.real) return this.real.text();
    return textDecoder.decode(await this.readBytes());
  }

  async json(): Promise<unknown> {
    if (this.real) return this.real.json();
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    if (this.real) return this.real.blob();
    const bytes = await this.readBytes();
    return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: this.headers.get('content-type') ?? '' });
  }

  formData(): Promise<FormData> {
    return this.toRequest().formData();
  }

  clone(): Request {
    return this.toRequest().clone();
  }

  /** The real Request, built once; later reads go through it. */
  toRequest(): Request {
    if (this.real) return this.real;
    const init: RequestInit & { duplex?: 'half' } = {
      method: this.method,
      headers: this.headers,
      signal: this.signal,
    };
    const hasBody = methodHasBody(this.method);
    const used = hasBody && this.bodyUsed;
    if (hasBody) {
      // A body already read directly is handed over as a used one, so clone(), new Request(req)
      // and a second read fail as they do on any used Request instead of seeing an empty body.
      init.body = used ? new ReadableStream() : this.body;
      init.duplex = 'half';
    }
    this.real = new Request(this.url, init);
    if (used) this.real.body!.getReader().read().catch(noop);
    return this.real;
  }

  private abortController(): AbortController {
    if (this.abort) return this.abort;
    const controller = new AbortController();
    this.abort = controller;
    const res = this.nodeResponse;
    if (res) {
      const onClose = () => {
        if (!res.writableFinished)
          controller.abort(new ClientClosedError('The client closed the connection'));
      };
      if (res.destroyed || res.closed) onClose();
      else res.once('close', onClose);
    }
    return controller;
  }

  private createBodyStream(): ReadableStream<Uint8Array> | null {
    if (!methodHasBody(this.method)) return null;
    const parsed = bodyFromParsedRequest(this.nodeRequest);
    if (parsed) return bytesAsStream(async () => parsed);
    if (this.restoreBody) return bytesAsStream(() => this.readSource());
    return nodeBodyToWebStream(this.nodeRequest, this.bodyLimit);
  }

  private async readBytes(): Promise<Uint8Array> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: it has already been read');
    if (this.bodyStream) return readWebStream(this.bodyStream);
    this.used = true;
    return this.readSource();
  }

  /** The body's bytes from wherever they are: parsed by the host, or still in the Node stream. */
  private async readSource(): Promise<Uint8Array> {
    if (!methodHasBody(this.method)) return new Uint8Array(0);
    const parsed = bodyFromParsedRequest(this.nodeRequest);
    if (parsed) return parsed;
    if (!this.restoreBody) return readNodeBody(this.nodeRequest, this.bodyLimit);
    const bytes = await readAndRestoreBody(this.nodeRequest, this.bodyLimit);
    // Endpoints mounted behind a bridged middleware find the bytes here, exactly as sent.
    this.nodeRequest.rawBody ??= bytes;
    return bytes;
  }
}

/** A one-chunk stream whose bytes are read on the first pull. */
function bytesAsStream(read: () => Promise<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const bytes = await read();
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** Header list from rawHeaders, repeats kept, HTTP/2 pseudo-headers (`:path`) left out. */
export function headersFromNode(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.charCodeAt(0) !== 58 /* : */) headers.append(name, raw[i + 1]!);
  }
  return headers;
}

async function readWebStream(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/** GET and HEAD carry no body; a Request refuses one for them. */
function methodHasBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

function noop(): void {}

// --- make NodeRequest a Request as far as user code and undici can tell -----------------------

Object.setPrototypeOf(NodeRequest.prototype, Request.prototype);

/** Members we answer ourselves; every other Request member goes to the real Request. */
const OWN = new Set(Object.getOwnPropertyNames(NodeRequest.prototype));
OWN.add('method').add('url');

for (const name of Object.getOwnPropertyNames(Request.prototype)) {
  if (OWN.has(name) || name === 'constructor') continue;
  const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, name)!;
  if (typeof descriptor.value === 'function') {
    Object.defineProperty(NodeRequest.prototype, name, {
      configurable: true,
      value(this: NodeRequest, ...args: unknown[]) {
        const real = this.toRequest() as unknown as Record<string, (...a: unknown[]) => unknown>;
        return real[name]!(...args);
      },
    });
  } else if (descriptor.get) {
    Object.defineProperty(NodeRequest.prototype, name, {
      configurable: true,
      get(this: NodeRequest) {
        return (this.toRequest() as unknown as Record<string, unknown>)[name];
      },
    });
  }
}

// undici reads its own state through symbol keys (`Symbol(state)`, `Symbol(signal)`, …) when a
// Request is passed to `new Request()` or `fetch()`; forward them to the real Request.
for (const symbol of Object.getOwnPropertySymbols(new Request('http://localhost/'))) {
  Object.defineProperty(NodeRequest.prototype, symbol, {
    configurable: true,
    get(this: NodeRequest) {
      return (this.toRequest() as unknown as Record<symbol, unknown>)[symbol];
    },
  });
}
