/**
 * The soak's account of response streams: every stream an endpoint here hands over must end,
 * be cancelled, or fail, exactly once. soak-server.cjs reads the account; a stream still live
 * at the end of a soak is a leak (its timers, buffers and upstream reads live on).
 */
'use strict';
/* global ReadableStream */

const account = {
  started: 0,
  ended: 0,
  cancelled: 0,
  errored: 0,
  /** Settled a second time (ended and then cancelled, say): should never happen. */
  settledTwice: 0,
};
/** Streams not settled yet, each with whether its client had already left when it was returned. */
const live = new Map();
let nextId = 0;

/**
 * A response stream over `source.pull(controller)` (resolves `true` when the source is done)
 * and `source.cancel(reason)`, counted in the account.
 */
function countedStream(request, source) {
  const id = nextId++;
  account.started++;
  const entry = { goneAtReturn: false };
  live.set(id, entry);
  const settle = (how) => {
    if (!live.delete(id)) {
      account.settledTwice++;
      return;
    }
    account[how]++;
  };
  const stream = new ReadableStream(
    {
      async pull(controller) {
        let done;
        try {
          done = await source.pull(controller);
        } catch (error) {
          settle('errored');
          throw error;
        }
        if (done) {
          controller.close();
          settle('ended');
        }
      },
      cancel(reason) {
        settle('cancelled');
        return source.cancel?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    /** Call as the Response is returned: notes whether its client is already gone. */
    returned() {
      entry.goneAtReturn = request.signal.aborted;
    },
  };
}

/** The account now: counts, and the streams still live, by whether their client left before the answer. */
function snapshot() {
  let goneAtReturn = 0;
  for (const entry of live.values()) if (entry.goneAtReturn) goneAtReturn++;
  return { ...account, live: live.size, liveGoneAtReturn: goneAtReturn };
}

module.exports = { countedStream, snapshot };
