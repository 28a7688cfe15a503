/**
 * The context a handler with a contract gets: the validated parts as own fields, and everything
 * else of the context the library made (or a unit test passed) read through, on use, from it.
 * The original context is left as it is: middleware that holds it sees the raw params.
 */
import { eventStream, type EventStreamOptions, type EventStreamRun } from '../event-stream';
import type { EndpointContext, EndpointContextInit, NodeContext, Params } from '../types';
import type { InputLocation } from '../contract';

export class ValidatedContext {
  params: unknown;
  // Declared, not initialised: a part the contract does not declare is not even a key.
  declare query?: unknown;
  declare headers?: unknown;
  declare body?: unknown;
  /** A contract with `events`: the handler's event stream, its events typed and checked. */
  declare eventStream?: (run: EventStreamRun<unknown>, options?: EventStreamOptions) => Response;
  readonly #base: EndpointContextInit | undefined;
  #locals: EndpointContext['locals'] | undefined;

  constructor(
    base: EndpointContextInit | undefined,
    values: Partial<Record<InputLocation, unknown>>,
    /** The request, when the contract declares `events`. */
    request?: Request,
  ) {
    this.#base = base;
    this.params = 'params' in values ? values.params : rawParams(base);
    if ('query' in values) this.query = values.query;
    if ('headers' in values) this.headers = values.headers;
    if ('body' in values) this.body = values.body;
    if (request !== undefined) this.eventStream = (run, options) => eventStream(request, run, options);
  }

  get node(): NodeContext | undefined {
    return this.#base?.node;
  }

  get route(): string | undefined {
    return this.#base?.route;
  }

  get mountPath(): string | undefined {
    return this.#base?.mountPath;
  }

  /** A unit test may leave them out: the handler then reads an empty object, as a request's start. */
  get locals(): EndpointContext['locals'] {
    return this.#base?.locals ?? (this.#locals ??= Object.create(null) as EndpointContext['locals']);
  }

  get after(): EndpointContext['after'] {
    return this.#base?.after;
  }

  get publish(): EndpointContext['publish'] {
    return this.#base?.publish;
  }

  get subscribe(): EndpointContext['subscribe'] {
    return this.#base?.subscribe;
  }
}

/** The route's params as the router (or a test) gave them; none for a direct call without a context. */
export function rawParams(base: EndpointContextInit | undefined): Params {
  return base?.params ?? Object.create(null);
}

// Every field of the library's context must be read through above: a field added to
// EndpointContext and forgotten here fails to compile.
type Forgotten = Exclude<keyof EndpointContext, keyof ValidatedContext>;
const everyFieldReadThrough: [Forgotten] extends [never] ? true : Forgotten = true;
void everyFieldReadThrough;
