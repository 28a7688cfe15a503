import type { Problem } from './types';

/** Thrown (or rejected) when the endpoint tree cannot work; `.message` lists every problem. */
export class EndpointValidationError extends Error {
  readonly problems: Problem[];

  constructor(problems: Problem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`Invalid endpoint tree (${count}):\n${problems.map((p) => `  - ${p.message}`).join('\n')}`);
    this.name = 'EndpointValidationError';
    this.problems = problems;
  }
}
