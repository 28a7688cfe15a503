/**
 * The handler's context on Node: `node` ({ req, res }), `mountPath` from Express's `req.baseUrl`
 * or from what Connect stripped off `req.url`, and `after()` callbacks run when the response has
 * been sent (`finish`) or the client has left (`close`). Everything is worked out on first use.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CompiledRoute, RouteContext } from '../dispatch';
import type { NodeContext, Params } from '../types';
import { isClientGoneError } from './client-gone';
import { BodyLimitError, BodyTooDeepError } from './request-body';
import { mountPathOf } from './mount-path';
import { toWebRequest } from './web-request';

type HostRequest = IncomingMessage & { baseUrl?: unknown; originalUrl?: string };

export class NodeRouteContext extends RouteContext {
  readonly #req: HostRequest;
  readonly #res: ServerResponse;
  readonly #url: string;
  readonly #bodyLimit: number | false;
  readonly #hostGetsErrors: boolean;
  #node: NodeContext | undefined;

  constructor(
    params: Params,
    route: CompiledRoute,
    exportName: string,
    req: IncomingMessage,
    res: ServerResponse,
    /** The client's full URL (`requestUrl`), for the Request built when something needs it. */
    url: string,
    /** The host passed a `next`: its error handler gets errors while nothing was sent. */
    hostGetsErrors: boolean,
  ) {
    super(params, undefined, route, exportName);
    this.#req = req;
    this.#res = res;
    this.#url = url;
    this.#bodyLimit = route.bodyLimit;
    this.#hostGetsErrors = hostGetsErrors;
  }

  protected override buildRequest(): Request {
    return toWebRequest(this.#req, this.#res, this.#url, { bodyLimit: this.#bodyLimit });
  }

  get node(): NodeContext {
    return (this.#node ??= { req: this.#req as NodeContext['req'], res: this.#res });
  }

  override get mountPath(): string {
    return mountPathOf(this.#req);
  }

  protected override get passesToNext(): boolean {
    return this.#hostGetsErrors && !this.#res.headersSent;
  }

  protected override isExpected(error: unknown): boolean {
    if (error instanceof BodyLimitError || error instanceof BodyTooDeepError) return true;
    if (super.isExpected(error)) return true;
    return isClientGoneError(this.#res, error);
  }

  protected override watchForAfter(): void {
    const res = this.#res;
    const run = () => this.runAfterCallbacks();
    if (res.writableFinished || res.destroyed) {
      setImmediate(run);
      return;
    }
    res.once('finish', run);
    res.once('close', run);
  }
}
