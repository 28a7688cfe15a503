/** commands: the `express-file-endpoints` commands (`check`, `routes`, `init`, `typegen`); src/cli.ts is the bin that picks one. */
export { check, routes } from './tree-report';
export { init } from './init';
export { typegen } from './typegen';
