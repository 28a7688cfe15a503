/** The words of contracts that the mount's options use: an issue, a summary, the invalid-input handler. */

/**
 * Where a request value that a contract checks comes from; `response` is a handler's answer, `event`
 * the data of an event it sent on an event stream.
 */
export type ContractLocation = 'params' | 'query' | 'headers' | 'body' | 'response' | 'event';

/** What a handler's contract checks, as the route table shows it. */
export interface ContractSummary {
  /** The request parts it validates, in the order their issues are listed. */
  validates: Exclude<ContractLocation, 'response' | 'event'>[];
  /** The statuses its `responses` give a schema for. */
  responses: number[];
}

/** One thing a contract found wrong with a request (or, for `response` and `event`, with a handler's answer). */
export interface ContractIssue {
  /** Which part of the request: the route's `params`, the `query`, the `headers` or the `body`. */
  location: ContractLocation;
  /** Where, for people: `body.email`, `query.page`, `body.items[0].name`, `headers["x-api-key"]`. */
  path: string;
  /** Where, for programs: an RFC 6901 JSON Pointer into the location's value (`/items/0/name`; `''` for all of it). */
  pointer: string;
  /** What is wrong, in the validator's words. */
  message: string;
}

/**
 * Answers a request a contract rejects: `issues` lists the problems found, the first 100 of them;
 * `omittedIssues` counts the rest (a large body can have one per item).
 */
export type InvalidInputHandler = (
  issues: ContractIssue[],
  request: Request,
  info: { omittedIssues: number },
) => Response | Promise<Response>;
