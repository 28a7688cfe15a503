/** A `NodeContext` on no connection, for unit tests (`createTestContext`). */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { NodeContext } from '../types';

/** Real Node objects carrying `reqFields` and `resFields`: what earlier middleware would attach. */
export function detachedNodeContext(
  reqFields: Record<string, unknown> = {},
  resFields: Record<string, unknown> = {},
): NodeContext {
  const req = new IncomingMessage(new Socket());
  Object.assign(req, reqFields);
  const res = new ServerResponse(req);
  Object.assign(res, resFields);
  return { req: req as NodeContext['req'], res };
}
