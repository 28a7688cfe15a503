/**
 * contract: endpoint contracts with Standard Schema validators. `defineHandler` wraps
 * a handler so that its request's params, query, headers and body are validated (and typed)
 * before it runs, answers an invalid request with RFC 9457 problem details, and checks its
 * responses in development and tests. Web Request/Response only; no validator is a dependency.
 */
export { defineHandler, contractOf, withSettings, type ContractSettings } from './define-handler';
export { withContractSettings } from './mount-settings';
export { mountChecksResponses, markTestRequest, isTestRequest } from './response-checks';
export { ResponseContractError } from './check-response';
export { EventContractError } from './check-events';
export type {
  EndpointContract,
  ContractContext,
  ContractEventStream,
  ContractHandler,
  ContractHandlerFunction,
  ContractOf,
  ContractTypes,
  InputLocation,
  OperationDescription,
} from './types';
export { DESCRIPTION_FIELDS } from './types';
export { INPUT_LOCATIONS } from './types';
export type { StandardSchemaV1, StandardJSONSchemaV1 } from './standard-schema';
