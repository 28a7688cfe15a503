// The event-stream bench's endpoint (bench/events.ts): each open stream joins the broadcast of the
// server (bench/events-server.ts), and leaves it when its client does.
import { eventStream } from '../../../../src';

type Send = (id: string, data: string) => void;
const senders = ((globalThis as { benchSenders?: Set<Send> }).benchSenders ??= new Set<Send>());

export function GET(request: Request) {
  return eventStream(
    request,
    (stream) =>
      new Promise<void>((resolve) => {
        const send: Send = (id, data) => void stream.send({ id, data });
        senders.add(send);
        stream.signal.addEventListener('abort', () => {
          senders.delete(send);
          resolve();
        });
      }),
    { heartbeat: false },
  );
}
