/**
 * The default answer to a request a contract rejects: RFC 9457 problem details
 * (`application/problem+json`) with an `issues` member listing every issue found, each with its
 * location, path and message. `type` is `about:blank`, so `title` is the status's own phrase
 * (RFC 9457, section 4.2.1); `detail` says what was wrong in one line.
 */
import type { ContractIssue } from '../types';

const TITLES: Record<number, string> = { 400: 'Bad Request', 415: 'Unsupported Media Type' };

export function problemResponse(issues: ContractIssue[], status: 400 | 415): Response {
  const problem = {
    type: 'about:blank',
    title: TITLES[status],
    status,
    detail: detailOf(issues),
    issues,
  };
  return Response.json(problem, { status, headers: { 'content-type': 'application/problem+json' } });
}

function detailOf(issues: ContractIssue[]): string {
  const [first] = issues;
  if (issues.length === 1 && first) return `${first.path}: ${first.message}`;
  const paths = [...new Set(issues.map((issue) => issue.path))];
  return `${issues.length} issues with the request: ${paths.join(', ')}`;
}
