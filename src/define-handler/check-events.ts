/**
 * A contract's `events`, checked: each event an `eventStream` of the handler sends has its data
 * validated against the schema, in development and tests (where responses are checked), and a
 * mismatch is reported — never held against the stream: the event has gone out as it was sent, and
 * validation runs beside it, so a slow (async) schema cannot slow the stream down.
 *
 * The value checked is the data as the client will parse it (the JSON sent, parsed back): a `Date`
 * arrives as a string, and is checked as one.
 */
import { setEventData, type EventMessage } from '../event-stream';
import type { ContractIssue } from '../types';
import { FoundIssues, locationIssue, validateWith } from './issues';
import type { StandardSchemaV1 } from '../contract';

/** An event a handler sent with data its contract's `events` schema rejects. */
export class EventContractError extends Error {
  constructor(
    /** The event's type (`message` when it named none) and id, as sent. */
    readonly event: { event: string; id: string | undefined },
    /** What the schema found, located under `event`: `event.price`. */
    readonly issues: ContractIssue[],
  ) {
    const id = event.id === undefined ? '' : ` (id ${JSON.stringify(event.id)})`;
    super(
      `The handler sent a "${event.event}" event${id} whose data does not match its contract's events: ` +
        issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '),
    );
    this.name = 'EventContractError';
  }
}

/**
 * Makes the event stream answering `request` send JSON data, and, when `check` is on, check each
 * event against `schema`, telling `report` of a mismatch.
 */
export function checkEventsOf(
  request: Request,
  schema: StandardSchemaV1,
  check: boolean,
  report: (error: EventContractError) => void,
): void {
  if (!check) return setEventData(request, { json: true });
  setEventData(request, {
    json: true,
    check: (dataText, message) => void checkEvent(schema, dataText, message, report),
  });
}

async function checkEvent(
  schema: StandardSchemaV1,
  dataText: string,
  message: EventMessage,
  report: (error: EventContractError) => void,
): Promise<void> {
  const issues = new FoundIssues();
  try {
    await validateWith(schema, JSON.parse(dataText), 'event', issues);
  } catch (error) {
    issues.add(locationIssue('event', `The schema failed: ${(error as Error)?.message ?? String(error)}`));
  }
  if (issues.count === 0) return;
  report(new EventContractError({ event: message.event || 'message', id: message.id }, issues.list));
}
