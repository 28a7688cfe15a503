/** validate: DiscoveredTree -> Problem[] (page conflicts, ambiguous routes, export mistakes; every problem at once). */
export type { Problem } from './types';
export { validateTree, assertValidTree, contractProblems } from './validate-tree';
export { EndpointValidationError } from './endpoint-validation-error';
