/**
 * What the backplane and the cache use of a node-redis client (`redis` 5 and later), written out here so that
 * the package's types do not need `redis` installed: a client passed in is checked against this.
 */
export type RedisMessageListener = (message: Buffer, channel: Buffer) => void;

export interface RedisClientLike {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  /** A new client with the same settings, and `overrides`. */
  duplicate(overrides?: Record<string, unknown>): RedisClientLike;
  publish(channel: string, message: Buffer): Promise<unknown>;
  /** Any command; `typeMapping` turns bulk strings into Buffers (the cache's bodies). */
  sendCommand(
    args: (string | Buffer)[],
    options?: { typeMapping?: Record<number, unknown> },
  ): Promise<unknown>;
  subscribe(channels: string | string[], listener: RedisMessageListener, bufferMode: true): Promise<unknown>;
  unsubscribe(
    channels: string | string[],
    listener: RedisMessageListener,
    bufferMode: true,
  ): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready' | 'end' | 'reconnecting', listener: () => void): unknown;
  close?(): Promise<unknown>;
  destroy?(): unknown;
  quit?(): Promise<unknown>;
  disconnect?(): Promise<unknown>;
}

/** Closes a client: politely when connected, at once otherwise (it may be between retries). */
export async function shut(client: RedisClientLike): Promise<void> {
  try {
    if (client.isReady) await (client.close?.() ?? client.quit?.());
    else if (client.isOpen) await (client.destroy?.() ?? client.disconnect?.());
  } catch {
    // Closing is best effort: the connection is going away either way.
  }
}
