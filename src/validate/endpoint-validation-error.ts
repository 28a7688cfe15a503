/** The error an invalid endpoint tree becomes; its message lists every problem, one per line. */
import { withoutStack } from '../debug';
import type { Problem } from './types';
import { plural } from '../words';

/** Thrown (or rejected) when the endpoint tree cannot work; `.message` lists every problem. */
export class EndpointValidationError extends Error {
  declare readonly problems: Problem[];

  constructor(problems: Problem[]) {
    super(
      `Invalid endpoint tree (${plural(problems.length, 'problem')}):\n${problems.map((p) => `  - ${p.message}`).join('\n')}`,
    );
    this.name = 'EndpointValidationError';
    // Not enumerable: printed, the error would repeat every problem after its message.
    Object.defineProperty(this, 'problems', { value: problems, enumerable: false });
    withoutStack(this);
  }
}
