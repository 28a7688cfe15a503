/** build: the tree -> compiled JavaScript and a manifest module with the validated route table (docs/build.md). */
export { buildEndpoints, type BuildOutcome } from './build-endpoints';
