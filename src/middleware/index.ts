/** middleware: Web `(req, next)` middleware chains, run in Request/Response terms (no Node objects). */
export { runChain } from './run-chain';
