/**
 * contract: what an endpoint contract is, in the words every part of the library shares: the
 * contract's shape and the types a handler and a client get from it (Standard Schema validators),
 * how to read one off a handler, and when responses are checked. The validation itself, which runs
 * a request through a contract, is define-handler's.
 */
export { contractOf, contractRecordOf } from './contract-of';
export {
  directCallChecksResponses,
  mountChecksResponses,
  markTestRequest,
  isTestRequest,
} from './response-checks';
export type {
  EndpointContract,
  ContractContext,
  ContractEventStream,
  ContractHandler,
  ContractHandlerFunction,
  ContractOf,
  ContractRecord,
  ContractTypes,
  InputLocation,
  OperationDescription,
} from './types';
export { CONTRACT, DESCRIPTION_FIELDS, INPUT_LOCATIONS } from './types';
export type { StandardSchemaV1, StandardJSONSchemaV1 } from './standard-schema';
export { jsonSchemaOf, type Direction, type JsonSchema } from './json-schema';
