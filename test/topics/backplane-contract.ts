/**
 * The contract every backplane keeps, run against each in one process: two mounts, each with its
 * own backplane of the same kind, stand for two processes. A publication of one reaches the other's
 * subscribers once and in order, bytes intact, and its own subscribers once (not again when the
 * backplane brings it back); after the last subscriber of a topic leaves, its publications stop
 * arriving; `close()` ends it.
 */
import path from 'node:path';
import { expect } from 'chai';
import { mountEndpoints, type Backplane, type EndpointsMiddleware, type TopicSubscription } from '../../src';

const dir = path.join(__dirname, '../fixtures/topics-app');

/** Reads what a subscription has received within `ms` milliseconds. */
async function drain(subscription: TopicSubscription, count: number, ms = 5000): Promise<unknown[]> {
  const got: unknown[] = [];
  const timer = setTimeout(() => subscription.unsubscribe(), ms);
  for await (const message of subscription) {
    got.push(message.data instanceof Uint8Array ? [...message.data] : message.data);
    if (got.length === count) break;
  }
  clearTimeout(timer);
  return got;
}

export function behavesAsABackplane(
  make: () => Backplane,
  /** Resolves once both mounts' subscriptions to `topics` are in effect on the backplane. */
  subscribed: (topics: string[]) => Promise<void> = async () => {},
): void {
  let one: EndpointsMiddleware;
  let two: EndpointsMiddleware;
  beforeEach(async () => {
    one = mountEndpoints({ dir, topics: { backplane: make() } });
    two = mountEndpoints({ dir, topics: { backplane: make() } });
    await Promise.all([one.ready, two.ready]);
    const deadline = Date.now() + 5000;
    while (!one.topicStats().backplane?.up || !two.topicStats().backplane?.up) {
      if (Date.now() > deadline) throw new Error('the backplanes did not come up');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  afterEach(() => Promise.all([one.close(), two.close()]));

  it('carries publications to the other mount once and in order, bytes intact; its own subscribers hear them once', async () => {
    const there = two.subscribe('t');
    const here = one.subscribe('t');
    await subscribed(['t']);
    const sent: unknown[] = Array.from({ length: 200 }, (_, i) => `#${i} é`);
    sent.push([0, 255, 7]);
    for (const data of sent) one.publish('t', Array.isArray(data) ? new Uint8Array(data) : data);
    expect(await drain(there, sent.length)).to.deep.equal(sent);
    expect(await drain(here, sent.length)).to.deep.equal(sent);
    // Nothing more comes: a duplicate would be there by now, behind the last one.
    const later = two.subscribe('t');
    await subscribed(['t']);
    one.publish('t', 'last');
    expect(await drain(later, 1)).to.deep.equal(['last']);
    expect(two.topicStats().received).to.equal(sent.length + 1);
    expect(one.topicStats().received, 'its own publications are not received back').to.equal(0);
  });

  it('stops carrying a topic to a mount once its last subscriber has left', async () => {
    const there = two.subscribe(['t', 'u']);
    await subscribed(['t', 'u']);
    there.unsubscribe();
    const marker = two.subscribe('u');
    await subscribed(['u']);
    one.publish('t', 'unheard');
    one.publish('u', 'marker');
    expect(await drain(marker, 1)).to.deep.equal(['marker']);
    expect(two.topicStats().delivered).to.equal(1);
  });
}
