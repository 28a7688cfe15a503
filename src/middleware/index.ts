/** middleware: Web `(req, next)` middleware chains, run in Request/Response terms (no Node objects). */
export { runChain, type ChainHooks } from './run-chain';
