/**
 * Standard Schema issues as the contract reports them: the location they belong to, a path for
 * people (`body.items[0].name`) and an RFC 6901 JSON Pointer for programs (`/items/0/name`), and
 * the validator's message. Nothing else of the validator's issue leaves this file: no input
 * value, no schema internals.
 */
import type { ContractIssue, ContractLocation } from '../types';
import type { StandardSchemaV1 } from '../contract';

/** A name that reads well after a dot: `body.email`; anything else goes in brackets: `headers["x-api-key"]`. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function toContractIssue(location: ContractLocation, issue: StandardSchemaV1.Issue): ContractIssue {
  // The spec allows a path segment to be a key or an object holding one (Valibot uses the latter).
  // `Array.from`, not `path.map`: an array subclass (ArkType's) may build its `map` result wrongly.
  const keys = Array.from(issue.path ?? [], (segment) =>
    typeof segment === 'object' && segment !== null ? segment.key : segment,
  );
  return {
    location,
    path: keys.reduce<string>((text, key) => text + pathSegment(key), location),
    pointer: keys.map((key) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
    message: String(issue.message),
  };
}

function pathSegment(key: PropertyKey): string {
  if (typeof key === 'number') return `[${key}]`;
  if (typeof key === 'symbol') return `[${String(key)}]`;
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** A whole-location issue that no schema raised: a body that cannot be read as its type says. */
export function locationIssue(location: ContractLocation, message: string): ContractIssue {
  return { location, path: location, pointer: '', message };
}

/**
 * The most issues a contract converts and reports. A body within the default limit can hold half a
 * million items, each with an issue: converting them all, and sending them back, would hold the
 * event loop for seconds and answer with a document many times the request's size. The rest are
 * counted, and nothing more is done with them.
 */
export const MAX_ISSUES = 100;

/** The issues found so far: the first MAX_ISSUES, and how many more there were. */
export class FoundIssues {
  readonly list: ContractIssue[] = [];
  omitted = 0;

  get count(): number {
    return this.list.length + this.omitted;
  }

  add(issue: ContractIssue): void {
    if (this.list.length < MAX_ISSUES) this.list.push(issue);
    else this.omitted++;
  }

  /** A validator's issues, located in `location`; only those that fit are converted. */
  addAll(location: ContractLocation, issues: ReadonlyArray<StandardSchemaV1.Issue>): void {
    const taken = Math.min(issues.length, MAX_ISSUES - this.list.length);
    for (let i = 0; i < taken; i++) this.list.push(toContractIssue(location, issues[i]!));
    this.omitted += issues.length - taken;
  }
}

/**
 * Validates `value` with `schema`, awaiting an async validator; adds its issues, if any, to
 * `issues` and returns the schema's output (its transforms applied).
 */
export async function validateWith(
  schema: StandardSchemaV1,
  value: unknown,
  location: ContractLocation,
  issues: FoundIssues,
): Promise<unknown> {
  const result = await validate(schema, value);
  if (result.issues === undefined) return result.value;
  issues.addAll(location, result.issues);
  return undefined;
}

/** What Zod schemas have besides the Standard Schema interface (Zod 3.24+ and 4, classic and mini). */
interface ZodSchema {
  safeParseAsync(
    value: unknown,
  ): Promise<
    { success: true; data: unknown } | { success: false; error: { issues: StandardSchemaV1.Issue[] } }
  >;
}

/**
 * Zod's `~standard.validate` tries a synchronous run first. An async refinement it meets there has
 * started, and Zod drops its promise to start over asynchronously, which runs the refinement again.
 * When the refinement rejects (its database is down), the dropped promise is a rejection nobody
 * handles, and Node's default ends the process for it. Zod's own `safeParseAsync` runs once,
 * asynchronously, and hands the rejection back: the request fails with it, not the process.
 *
 * Its asynchronous run passes all of a property's issues as arguments of one call, which overflows
 * the stack for a large array of wrong items (200,000 on Node's default stack); its synchronous run
 * does not. Such a RangeError is retried through `~standard.validate`.
 */
async function validate(schema: StandardSchemaV1, value: unknown): Promise<StandardSchemaV1.Result<unknown>> {
  const zod = schema as StandardSchemaV1 & Partial<ZodSchema>;
  if (schema['~standard'].vendor === 'zod' && typeof zod.safeParseAsync === 'function') {
    try {
      const result = await zod.safeParseAsync(value);
      return result.success ? { value: result.data } : { issues: result.error.issues };
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return schema['~standard'].validate(value);
}
