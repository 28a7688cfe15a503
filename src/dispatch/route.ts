/** A route ready to serve: what the router's values are. */
import type { WebMiddleware } from '../types';
import type { MethodTable } from './method-table';

export interface CompiledRoute {
  /** URL pattern, e.g. `/api/users/[id]`. */
  pattern: string;
  /** Endpoint file relative to cwd, for messages. */
  displayPath: string;
  table: MethodTable;
  /** Options middleware, then folder middleware from the outermost folder in. */
  middleware: WebMiddleware[];
  bodyLimit: number | false;
}
