/**
 * Response contracts (issue 24): in development and tests, what a handler returns is checked
 * against the schema its contract lists for the status, and a mismatch is reported — never
 * answered differently: the response goes out as the handler made it.
 *
 * The body is read from a clone, as its Content-Type says: JSON parsed, `text/*` as a string,
 * none as `undefined` (so `204: z.undefined()` checks a 204 has no body). Other bodies (files,
 * event streams, which may never end) are not read, and not checked.
 */
import type { ContractIssue } from '../types';
import { locationIssue, validateWith } from './issues';
import { mediaType } from './read-input';
import type { EndpointContract } from './types';

/** A handler answered with a body its contract's `responses` schema rejects. */
export class ResponseContractError extends Error {
  constructor(
    /** The response's status, whose schema rejected its body. */
    readonly status: number,
    /** What the schema found, located under `response`: `response.email`. */
    readonly issues: ContractIssue[],
  ) {
    super(
      `The handler answered ${status} with a body that does not match its contract's responses[${status}]: ` +
        issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '),
    );
    this.name = 'ResponseContractError';
  }
}

const UNCHECKED = Symbol('unchecked');

/** The issues of `response` against its status's schema; none when the contract lists no schema for it. */
export async function responseIssues(
  responses: NonNullable<EndpointContract['responses']>,
  response: Response,
): Promise<ContractIssue[]> {
  const schema = responses[response.status];
  if (schema === undefined) return [];
  const issues: ContractIssue[] = [];
  const value = await responseValue(response, issues);
  if (value !== UNCHECKED && issues.length === 0) await validateWith(schema, value, 'response', issues);
  return issues;
}

async function responseValue(response: Response, issues: ContractIssue[]): Promise<unknown> {
  if (response.body === null) return undefined;
  const type = mediaType(response.headers.get('content-type') ?? '');
  const json = type === 'application/json' || type.endsWith('+json');
  if (!json && !(type.startsWith('text/') && type !== 'text/event-stream')) return UNCHECKED;
  let text: string;
  try {
    text = await response.clone().text();
  } catch {
    return UNCHECKED; // the body fails for whoever reads it: the host reports that
  }
  if (!json) return text;
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    issues.push(locationIssue('response', 'The body is not valid JSON'));
    return UNCHECKED;
  }
}
