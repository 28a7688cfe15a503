/** Reading what `defineHandler` put on a handler, for whoever describes or binds it. */
import { CONTRACT, type ContractHandler, type ContractRecord, type EndpointContract } from './types';

/** The contract and handler `defineHandler` keeps on what it returns; `undefined` for anything else. */
export function contractRecordOf(value: unknown): ContractRecord | undefined {
  if (typeof value !== 'function') return undefined;
  return (value as Partial<ContractHandler>)[CONTRACT];
}

/** The contract of a handler `defineHandler` made; `undefined` for anything else. */
export function contractOf(value: unknown): EndpointContract | undefined {
  return contractRecordOf(value)?.contract;
}
