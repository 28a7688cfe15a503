/**
 * The default answer to a request a contract rejects: RFC 9457 problem details
 * (`application/problem+json`) with an `issues` member listing the issues found, each with its
 * location, path and message. `type` is `about:blank`, so `title` is the status's own phrase
 * (RFC 9457, section 4.2.1); `detail` says what was wrong in one short line.
 *
 * A body can hold an issue per item: `issues` lists the first 100 (MAX_ISSUES, in issues.ts), and
 * `omittedIssues` counts the rest, so that the answer stays small whatever was sent.
 */
import type { ContractIssue } from '../types';

const TITLES: Record<number, string> = { 400: 'Bad Request', 415: 'Unsupported Media Type' };

/** The most paths `detail` names. */
const DETAIL_PATHS = 10;

export function problemResponse(issues: ContractIssue[], omittedIssues: number, status: 400 | 415): Response {
  const problem = {
    type: 'about:blank',
    title: TITLES[status],
    status,
    detail: detailOf(issues, omittedIssues),
    issues,
    ...(omittedIssues > 0 && { omittedIssues }),
  };
  return Response.json(problem, { status, headers: { 'content-type': 'application/problem+json' } });
}

function detailOf(issues: ContractIssue[], omitted: number): string {
  const [first] = issues;
  const count = issues.length + omitted;
  if (count === 1 && first) return `${first.path}: ${first.message}`;
  const paths = [...new Set(issues.map((issue) => issue.path))];
  const named = paths.slice(0, DETAIL_PATHS).join(', ');
  const more = omitted > 0 || paths.length > DETAIL_PATHS ? ', …' : '';
  return `${count} issues with the request: ${named}${more}`;
}
