/**
 * The error path builds no Request it does not need: an error is told to `onError` with a `request`
 * that is built when `onError` reads it. The default `onError` does not read it when the host's error
 * handler also gets the error, and a Request that was never built cannot tell of a client leaving.
 */
import { expect } from 'chai';
import { EndpointCall, type CallFront } from '../../src/dispatch';
import { type CompiledRoute } from '../../src/route';
import type { EndpointErrorInfo } from '../../src';

function callWith(onError: (error: unknown, info: EndpointErrorInfo) => void, errorsGoToNext: boolean) {
  let built = 0;
  const host: CallFront = {
    buildRequest: () => (built++, new Request('http://localhost/items/1', { method: 'DELETE' })),
    node: undefined,
    mountPath: () => '',
    errorsGoToNext: () => errorsGoToNext,
    isExpected: () => false,
    whenDone: () => {},
    timedOut: () => {},
    initialLocals: () => Object.create(null) as Record<string, unknown>,
  };
  const route = {
    pattern: '/items/[id]',
    displayPath: 'app/items/[id]/endpoint.ts',
    onError,
  } as CompiledRoute;
  const call = new EndpointCall(Object.create(null), route, 'DELETE', host);
  return { call, built: () => built };
}

describe('EndpointCall: reporting an error', () => {
  it("builds no Request when onError does not read it (the default one, with the host's error handler)", () => {
    const told: EndpointErrorInfo[] = [];
    const { call, built } = callWith((_error, info) => void told.push(info), true);
    call.report(new Error('the database is down'));
    expect(told).to.have.length(1);
    expect(told[0]).to.include({ route: '/items/[id]', export: 'DELETE', passedToNext: true });
    expect(built()).to.equal(0);
  });

  it('builds it, once, when onError reads info.request', () => {
    const seen: string[] = [];
    const { call, built } = callWith(
      (_error, info) => void seen.push(`${info.request!.method} ${info.request!.url}`),
      false,
    );
    call.report(new Error('first'));
    call.report(new Error('second'));
    expect(seen).to.deep.equal(['DELETE http://localhost/items/1', 'DELETE http://localhost/items/1']);
    expect(built()).to.equal(1);
  });

  it("an AbortError of a Request never built is the app's error, told as any other", () => {
    const told: unknown[] = [];
    const { call, built } = callWith((error) => void told.push(error), true);
    const abort = new DOMException('The operation was aborted', 'AbortError');
    call.report(abort);
    expect(told).to.deep.equal([abort]);
    expect(built()).to.equal(0);
  });
});
