/**
 * Validation before the handler runs: the body is read first, and one that cannot be
 * read as its Content-Type says is refused before any schema runs; then every declared part is
 * validated — all of them, so the answer lists their issues at once (the first 100), in the
 * order params, query, headers, body.
 */
import type { ContractIssue, EndpointContextInit } from '../types';
import { FoundIssues, validateWith } from './issues';
import { headersOf, queryOf, readBody, type InputReading } from './read-input';
import { rawParams } from './validated-context';
import type { EndpointContract, InputLocation } from '../contract';

export type InputValidation =
  | { values: Partial<Record<InputLocation, unknown>> }
  | { issues: ContractIssue[]; omittedIssues: number; status: 400 | 415 };

export async function validateInput(
  contract: EndpointContract,
  request: Request,
  context: EndpointContextInit | undefined,
  reading: InputReading,
): Promise<InputValidation> {
  let body: unknown;
  if (contract.body) {
    const read = await readBody(request, reading.form, context);
    if ('issue' in read) return { issues: [read.issue], omittedIssues: 0, status: read.status };
    body = read.value;
  }
  const issues = new FoundIssues();
  const values: Partial<Record<InputLocation, unknown>> = {};
  if (contract.params)
    values.params = await validateWith(contract.params, rawParams(context), 'params', issues);
  if (contract.query)
    values.query = await validateWith(
      contract.query,
      queryOf(request, reading.queryArrays()),
      'query',
      issues,
    );
  if (contract.headers)
    values.headers = await validateWith(contract.headers, headersOf(request), 'headers', issues);
  if (contract.body) values.body = await validateWith(contract.body, body, 'body', issues);
  if (issues.count === 0) return { values };
  return { issues: issues.list, omittedIssues: issues.omitted, status: 400 };
}
