/**
 * The event-stream bench's clients (bench/events.ts): opens STREAMS connections to `/events` and counts
 * the events that arrive (each ends with a blank line); tells the driver once all are open, then its
 * count when asked (IPC).
 */
import http from 'node:http';

const port = Number(process.env.PORT);
const count = Number(process.env.STREAMS ?? 1000);
let events = 0;
let open = 0;

for (let i = 0; i < count; i++) {
  http
    .get({ host: '127.0.0.1', port, path: '/events', agent: false }, (res) => {
      open += 1;
      if (open === count) process.send!({ open });
      // A blank line that spans two chunks is counted by the one it ends in.
      let lastChar = '';
      res.setEncoding('latin1');
      res.on('data', (chunk: string) => {
        if (lastChar === '\n' && chunk.startsWith('\n')) events += 1;
        let at = chunk.indexOf('\n\n');
        while (at !== -1) {
          events += 1;
          at = chunk.indexOf('\n\n', at + 2);
        }
        lastChar = chunk[chunk.length - 1]!;
      });
    })
    .on('error', (error) => {
      console.error(error.message);
      process.exit(1);
    });
}

process.on('message', (message: { ask: 'events' }) => {
  if (message.ask === 'events') process.send!({ events });
});
