/**
 * A property of topics across three processes on Redis, under churn: many sockets per process join
 * and leave topics at random and publish to them, and the test publishes over HTTP too. For every
 * socket, every publication it receives was published to a topic it held at that moment (between
 * the acknowledgements of its join and of its leave, which the server sends right after subscribing
 * and unsubscribing), none twice, none of its own, and those of each publisher in the order they
 * were made.
 *
 * Bounded by default (150 sockets per process, 5 s); TOPICS_SOCKETS and TOPICS_SECONDS make it
 * longer (1,000 and 30 for a soak). The seed is printed with any failure; TOPICS_SEED replays it.
 */
import { expect } from 'chai';
import WebSocket from 'ws';
import { redisAvailable, INSTALL_HINT, startRedis, type RedisServer } from '../support/redis-server';
import { forkServers, type Processes, type ServerProcess } from './processes';

const SOCKETS = Number(process.env.TOPICS_SOCKETS ?? 150);
const SECONDS = Number(process.env.TOPICS_SECONDS ?? 5);
const TOPICS = Array.from({ length: 8 }, (_, i) => `t${i}`);

/** mulberry32: a small seeded generator, so that a run's choices can be replayed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Publication {
  id: string;
  topic: string;
  /** Who published it: a socket, or `http-<process>`. */
  from: string;
  seq: number;
}

class Subscriber {
  readonly held = new Set<string>();
  readonly seen = new Set<string>();
  readonly lastSeq = new Map<string, number>();
  readonly problems: string[] = [];
  received = 0;
  #seq = 0;
  #pending: ((ack: { ack: string; topic: string }) => void) | undefined;
  #open!: Promise<void>;
  readonly ws: WebSocket;

  constructor(
    readonly name: string,
    url: string,
  ) {
    this.ws = new WebSocket(url);
    this.ws.on('error', () => {});
    this.#open = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('close', (code) => reject(new Error(`${name} closed with ${code}`)));
    });
    this.ws.on('message', (data: Buffer) => this.#message(data.toString()));
  }

  opened(): Promise<void> {
    return this.#open;
  }

  #message(text: string): void {
    if (text.startsWith('{"ack":')) {
      const ack = JSON.parse(text) as { ack: string; topic: string };
      const pending = this.#pending;
      this.#pending = undefined;
      pending?.(ack);
      return;
    }
    this.received++;
    const publication = JSON.parse(text) as Publication;
    if (!this.held.has(publication.topic)) {
      this.problems.push(`${this.name} got ${publication.id} on ${publication.topic}, which it did not hold`);
    }
    if (this.seen.has(publication.id)) this.problems.push(`${this.name} got ${publication.id} twice`);
    this.seen.add(publication.id);
    if (publication.from === this.name) this.problems.push(`${this.name} got its own ${publication.id}`);
    const last = this.lastSeq.get(publication.from) ?? -1;
    if (publication.seq <= last) {
      this.problems.push(`${this.name} got ${publication.id} after #${last} of ${publication.from}`);
    }
    this.lastSeq.set(publication.from, publication.seq);
  }

  /** Sends a command and applies it once the server acknowledges it. */
  #command(text: string): Promise<void> {
    return new Promise((resolve) => {
      this.#pending = (ack) => {
        if (ack.ack === 'join') this.held.add(ack.topic);
        if (ack.ack === 'leave') this.held.delete(ack.topic);
        resolve();
      };
      this.ws.send(text);
    });
  }

  /** One random step: join a topic, leave one, or publish to one. */
  step(random: () => number): Promise<void> {
    const topic = TOPICS[Math.floor(random() * TOPICS.length)]!;
    const roll = random();
    if (roll < 0.1) {
      const seq = this.#seq++;
      const publication: Publication = { id: `${this.name}#${seq}`, topic, from: this.name, seq };
      return this.#command(`publish ${topic} ${JSON.stringify(publication)}`);
    }
    return this.#command(`${this.held.has(topic) ? 'leave' : 'join'} ${topic}`);
  }
}

describe('topics under churn, across three processes on Redis (a property)', function () {
  this.timeout(60_000 + SECONDS * 2000);
  let redis: RedisServer | undefined;
  let processes: Processes | undefined;
  const sockets: Subscriber[] = [];

  before(function () {
    if (!redisAvailable()) {
      console.log(`      skipped: ${INSTALL_HINT}`);
      this.skip();
    }
  });

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.ws.terminate();
    await processes?.close();
    await redis?.stop();
  });

  it(`${SOCKETS} sockets per process join, leave and publish at random for ${SECONDS} s`, async () => {
    const seed = Number(process.env.TOPICS_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = generator(seed);
    const replay = `(seed ${seed}: TOPICS_SEED=${seed} replays it)`;
    redis = await startRedis();
    processes = await forkServers(3, { BACKPLANE: 'redis', REDIS_URL: redis.url });
    const servers = processes.servers as ServerProcess[];
    for (const server of servers) {
      const deadline = Date.now() + 10_000;
      while (!(await server.stats()).backplane?.up) {
        if (Date.now() > deadline) throw new Error('the backplane did not connect');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    for (const [p, server] of servers.entries()) {
      for (let i = 0; i < SOCKETS; i += 50) {
        const batch = Array.from(
          { length: Math.min(50, SOCKETS - i) },
          (_, j) => new Subscriber(`p${p}s${i + j}`, `${server.wsBase}/ws`),
        );
        await Promise.all(batch.map((socket) => socket.opened()));
        sockets.push(...batch);
      }
    }

    const until = Date.now() + SECONDS * 1000;
    // Each socket steps with a pause of 20 to 220 ms; its pauses are drawn up front, from the seed.
    const run = sockets.map(async (socket) => {
      const pauses = Array.from({ length: 1000 }, () => 20 + Math.floor(random() * 200));
      const choices = generator(Math.floor(random() * 2 ** 31));
      for (let i = 0; Date.now() < until; i++) {
        await new Promise((resolve) => setTimeout(resolve, pauses[i % pauses.length]));
        await socket.step(choices);
      }
    });
    // HTTP publishers, one per process, in order.
    const http = servers.map(async (server, p) => {
      for (let seq = 0; Date.now() < until; seq++) {
        const topic = TOPICS[seq % TOPICS.length]!;
        const publication: Publication = { id: `http-${p}#${seq}`, topic, from: `http-${p}`, seq };
        const response = await fetch(`${server.base}/publish?topic=${topic}`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify(publication),
        });
        expect(response.status).to.equal(204);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    await Promise.all([...run, ...http]);
    // What is still on its way arrives.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const problems = sockets.flatMap((socket) => socket.problems);
    expect(problems.slice(0, 10), `${problems.length} problems ${replay}`).to.deep.equal([]);
    const received = sockets.reduce((sum, socket) => sum + socket.received, 0);
    expect(received, `deliveries ${replay}`).to.be.above(1000);
    for (const server of servers) expect(server.errors, replay).to.deep.equal([]);
    if (process.env.SHOW_COUNTS) console.log(`      ${received} deliveries to ${sockets.length} sockets`);
  });
});
