/**
 * define-handler: `defineHandler` wraps a handler so that its request's params, query, headers and
 * body are validated (and typed) before it runs, answers an invalid request with RFC 9457 problem
 * details, and checks its responses in development and tests. Web Request/Response only; no
 * validator is a dependency.
 */
export { defineHandler, withSettings, type ContractSettings } from './define-handler';
export { withContractSettings } from './mount-settings';
export { ResponseContractError } from './check-response';
export { EventContractError } from './check-events';
