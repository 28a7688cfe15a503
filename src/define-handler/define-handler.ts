/**
 * `defineHandler(contract, handler)`: an endpoint handler that validates its request
 * with Standard Schema validators before the handler runs, and answers an invalid one itself.
 *
 * The result is a plain `(request, context) => Promise<Response>`, so every host, `.fetch` and a
 * unit test call it as they call any handler. It carries its contract and the handler under
 * `CONTRACT`, for the library to read: a mount binds its own settings (`onInvalid`, response
 * checks, `onError`) once, when it builds its method table (`withContractSettings`), so a request
 * costs nothing more than the validation, and a handler without a contract nothing at all.
 */
import { isResponse } from '../is-response';
import type { EndpointContextInit, InvalidInputHandler } from '../types';
import { describeValue } from '../words';
import {
  CONTRACT,
  contractRecordOf,
  directCallChecksResponses,
  INPUT_LOCATIONS,
  type ContractContext,
  type ContractHandler,
  type ContractHandlerFunction,
  type ContractRecord,
  type EndpointContract,
} from '../contract';
import { problemResponse } from './problem';
import { checkResponse } from './check-response';
import { checkEventsOf } from './check-events';
import { inputReadingOf } from './read-input';
import { validateInput } from './validate-input';
import { ValidatedContext } from './validated-context';

/** What a contract handler needs from where it runs: a mount, or nothing (a direct call). */
export interface ContractSettings {
  /** The mount's `onInvalid`; the contract's own comes first. */
  onInvalid: InvalidInputHandler | undefined;
  /** Whether the response to `request` is checked against `responses`, and its events against `events`. */
  checksResponses(request: Request): boolean;
  /**
   * Where a response that breaks the contract is reported (a `ResponseContractError`), and an error
   * of the response schema itself.
   */
  report(error: unknown, request: Request): void;
}

/** Outside a mount there is no `onError`: a broken response contract is logged. */
const DIRECT_CALL: ContractSettings = {
  onInvalid: undefined,
  checksResponses: directCallChecksResponses,
  report: (error, request) =>
    console.error(`express-file-endpoints: ${request.method} ${request.url}:`, error),
};

/**
 * @example
 * export const POST = defineHandler(
 *   { params: z.object({ id: z.string() }), body: NewUser, responses: { 201: User } },
 *   async (request, { params, body }) => Response.json(await db.create(params.id, body), { status: 201 }),
 * );
 */
export function defineHandler<C extends EndpointContract>(
  contract: C,
  handler: ContractHandlerFunction<C>,
): ContractHandler<C> {
  assertContract(contract);
  if (typeof handler !== 'function') {
    throw new TypeError('defineHandler(contract, handler): the handler must be a function');
  }
  return contractHandler({ contract, handler }, DIRECT_CALL);
}

/** The same handler with `settings` (a mount's); any other value is returned as it is. */
export function withSettings(value: unknown, settings: ContractSettings): unknown {
  const record = contractRecordOf(value);
  return record ? contractHandler(record, settings) : value;
}

function contractHandler<C extends EndpointContract>(
  record: ContractRecord<C>,
  settings: ContractSettings,
): ContractHandler<C> {
  const { contract, handler } = record;
  const onInvalid = contract.onInvalid ?? settings.onInvalid;
  const responses = contract.responses;
  const events = contract.events;
  const reading = inputReadingOf(contract);

  // Two declared parameters: dispatch gives a handler its Request only when it declares one.
  async function validatingHandler(request: Request, context?: EndpointContextInit): Promise<Response> {
    const input = await validateInput(contract, request, context, reading);
    if ('issues' in input) {
      const { issues, omittedIssues, status } = input;
      return onInvalid
        ? onInvalid(issues, request, { omittedIssues })
        : problemResponse(issues, omittedIssues, status);
    }
    // The stream the handler answers with sends JSON, checked where responses are.
    if (events !== undefined) {
      checkEventsOf(request, events, settings.checksResponses(request), (error) =>
        settings.report(error, request),
      );
    }
    const validated = new ValidatedContext(
      context,
      input.values,
      events === undefined ? undefined : request,
    ) as unknown as ContractContext<C>;
    const response = await handler(request, validated);
    if (responses !== undefined && isCheckable(response) && settings.checksResponses(request)) {
      const report = (error: unknown) => settings.report(error, request);
      await checkResponse(responses, response, request, report, context?.after);
    }
    return response;
  }
  return Object.defineProperty(validatingHandler, CONTRACT, { value: record }) as ContractHandler<C>;
}

/** Not a Response (dispatch reports it as the handler's mistake), or one that cannot be read twice: nothing to check. */
function isCheckable(value: unknown): value is Response {
  return isResponse(value) && typeof value.clone === 'function';
}

/** A contract's mistakes are found when the endpoint file loads, not on the first request. */
function assertContract(contract: unknown): asserts contract is EndpointContract {
  if (typeof contract !== 'object' || contract === null) {
    throw new TypeError('defineHandler(contract, handler): the contract must be an object');
  }
  const parts = contract as Record<string, unknown>;
  for (const location of INPUT_LOCATIONS) {
    if (parts[location] !== undefined && !isStandardSchema(parts[location])) {
      throw new TypeError(notASchema(`contract.${location}`, parts[location]));
    }
  }
  const responses = parts.responses;
  if (responses !== undefined) {
    if (typeof responses !== 'object' || responses === null) {
      throw new TypeError('defineHandler: contract.responses must be an object of schemas by status');
    }
    for (const [status, schema] of Object.entries(responses)) {
      if (!/^[1-5]\d\d$/.test(status)) {
        throw new TypeError(`defineHandler: contract.responses has "${status}", which is not an HTTP status`);
      }
      if (!isStandardSchema(schema)) throw new TypeError(notASchema(`contract.responses[${status}]`, schema));
    }
  }
  if (parts.onInvalid !== undefined && typeof parts.onInvalid !== 'function') {
    throw new TypeError('defineHandler: contract.onInvalid must be a function');
  }
  if (parts.events !== undefined && !isStandardSchema(parts.events)) {
    throw new TypeError(notASchema('contract.events', parts.events));
  }
  const form = parts.multipart;
  if (form !== undefined && form !== true && (typeof form !== 'object' || form === null)) {
    throw new TypeError(
      'defineHandler: contract.multipart must be true or an object of multipart() options ({ limits, preservePath })',
    );
  }
  if (form !== undefined && parts.body === undefined) {
    throw new TypeError(
      'defineHandler: contract.multipart says how the body is read: give a body schema too',
    );
  }
}

function isStandardSchema(value: unknown): boolean {
  const props = (value as { '~standard'?: { version?: unknown; validate?: unknown } } | null)?.['~standard'];
  return props?.version === 1 && typeof props.validate === 'function';
}

function notASchema(where: string, value: unknown): string {
  return `defineHandler: ${where} is not a Standard Schema (${describeValue(value)}${typeof value === 'object' && value !== null ? ' without a "~standard" property' : ''}); give a schema of a validator that implements https://standard-schema.dev, such as z.object({ … }) of Zod, v.object({ … }) of Valibot or type({ … }) of ArkType`;
}
