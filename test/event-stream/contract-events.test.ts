/**
 * A contract's `events`: the handler's stream sends JSON (and says so in its Content-Type), each
 * event is checked where responses are, a mismatch goes to `onError` as an EventContractError while
 * the event goes out as sent, and a slow schema never holds the stream back.
 */
import path from 'node:path';
import { expect } from 'chai';
import { EventContractError, mountEndpoints, type EndpointErrorInfo, type MountOptions } from '../../src';
import { createTestRequest } from '../../src/testing';
import { readEventStream } from './support';

const dir = path.join(__dirname, '../fixtures/events-app/app');

async function mount(options: MountOptions = {}) {
  const reports: { error: unknown; info: EndpointErrorInfo }[] = [];
  const endpoints = mountEndpoints({
    dir,
    onError: (error, info) => void reports.push({ error, info }),
    ...options,
  });
  await endpoints.ready;
  return { endpoints, reports };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a contract’s events', () => {
  it('are sent as JSON, with data=json in the Content-Type', async () => {
    const { endpoints, reports } = await mount({ checkResponses: true });
    const response = await endpoints.fetch(createTestRequest('/prices'));
    expect(response.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8; data=json');
    const { events } = await readEventStream(response);
    expect(events).to.deep.equal([
      { event: 'message', id: '1', data: '{"symbol":"ACME","price":10}' },
      { event: 'quote', id: '2', data: '{"symbol":"ACME","price":11}' },
    ]);
    await settle();
    expect(reports).to.deep.equal([]);
  });

  it('an event the schema rejects is reported to onError, and sent as it was', async () => {
    const { endpoints, reports } = await mount({ checkResponses: true });
    const { events } = await readEventStream(await endpoints.fetch(createTestRequest('/prices?wrong')));
    expect(events[1]!.data).to.equal('{"symbol":"ACME","price":"free"}');
    await settle();
    expect(reports).to.have.length(1);
    const { error, info } = reports[0]!;
    expect(error).to.be.instanceOf(EventContractError);
    const mismatch = error as EventContractError;
    expect(mismatch.event).to.deep.equal({ event: 'quote', id: '2' });
    expect(mismatch.issues).to.have.length(1);
    expect(mismatch.issues[0]).to.deep.include({ location: 'event', path: 'event.price', pointer: '/price' });
    expect(mismatch.message).to.match(
      /^The handler sent a "quote" event \(id "2"\) whose data does not match/,
    );
    expect(info).to.deep.include({ route: '/prices', export: 'GET', passedToNext: false });
  });

  it('are not checked where responses are not (checkResponses: false), and still sent as JSON', async () => {
    const { endpoints, reports } = await mount({ checkResponses: false });
    const response = await endpoints.fetch(createTestRequest('/prices?wrong'));
    expect(response.headers.get('content-type')).to.match(/data=json/);
    expect((await readEventStream(response)).events).to.have.length(2);
    await settle();
    expect(reports).to.deep.equal([]);
  });

  it('make eventStream(request, …) in the handler the contract’s stream too', async () => {
    const { endpoints, reports } = await mount({ checkResponses: true });
    const { events } = await readEventStream(await endpoints.fetch(createTestRequest('/prices-plain')));
    expect(events.map((e) => e.data)).to.deep.equal(['{"n":1}', '"not an object"']);
    await settle();
    expect(reports.map((r) => (r.error as Error).name)).to.deep.equal(['EventContractError']);
  });

  it('a slow schema never holds the stream back', async () => {
    const { endpoints, reports } = await mount({ checkResponses: true });
    const started = performance.now();
    const { events } = await readEventStream(await endpoints.fetch(createTestRequest('/slow-schema')));
    expect(events.map((e) => e.data)).to.deep.equal(['1', '2', '3']);
    expect(performance.now() - started).to.be.lessThan(250);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reports).to.deep.equal([]);
  });
});
