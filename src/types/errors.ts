/** What `onError` is told of an error, and what it is. */

/** What `onError` is told about an error, beside the error itself. */
export interface EndpointErrorInfo {
  /**
   * The request being served. Absent for an error outside any request: a module that failed to load
   * (reported once, at startup; the routes it serves then answer with the error).
   */
  request?: Request;
  /** The route pattern, e.g. `/api/users/[id]`. */
  route: string;
  /** The endpoint file, relative to the working directory. */
  file: string;
  /**
   * What failed: the handler's export (`GET`, `ANY`, `default`), or the middleware (its file, or
   * `middleware option #1 (name)`) when a middleware threw; `''` when the whole module failed to load.
   */
  export: string;
  /**
   * The error also goes to the host's error handler through `next(err)` (Express, Connect, any
   * chain that passes `next`). `false` on a bare node:http server, under `.fetch()`, for `after()`
   * callbacks, and once the response has started (the connection is broken instead).
   */
  passedToNext: boolean;
  /**
   * For an error of the topics machinery (`export` is `topics.connect`, `topics.publish`,
   * `topics.subscribe` or `topics.receive`, and `file` names the backplane): the topic, when one is involved.
   */
  topic?: string;
}

/** Called for every error a handler, a middleware, an `after()` callback or the bridge runs into. */
export type ErrorReporter = (error: unknown, info: EndpointErrorInfo) => void;
