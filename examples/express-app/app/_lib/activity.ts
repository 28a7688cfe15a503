/**
 * What happened to users, newest last, for the live feed (app/feed/endpoint.ts): each entry has an id
 * that only grows, so a client that reconnects with the last id it saw gets exactly what it missed.
 * In memory, like the user store; an app would read its database's change log, or a queue.
 */
import { z } from 'zod';

export const Activity = z.object({
  action: z.enum(['created', 'updated', 'deleted']),
  user: z.object({ id: z.string(), name: z.string() }),
  at: z.string(),
});
export type Activity = z.infer<typeof Activity>;

export interface Entry {
  id: number;
  activity: Activity;
}

/** How many entries are kept: a client away for longer misses the oldest. */
const KEPT = 100;
const entries: Entry[] = [];
let lastId = 0;
const waiting = new Set<() => void>();

export function record(action: Activity['action'], user: { id: string; name: string }): void {
  entries.push({
    id: ++lastId,
    activity: { action, user: { id: user.id, name: user.name }, at: new Date().toISOString() },
  });
  if (entries.length > KEPT) entries.shift();
  for (const wake of waiting) wake();
  waiting.clear();
}

/** The entries after `id`; the last `recent` of them when `id` is undefined (a first connection). */
export function entriesAfter(id: number | undefined, recent = 5): Entry[] {
  if (id === undefined) return entries.slice(-recent);
  return entries.filter((entry) => entry.id > id);
}

/** Resolves at the next entry, or when `signal` aborts. */
export function nextEntry(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const wake = () => {
      signal.removeEventListener('abort', wake);
      waiting.delete(wake);
      resolve();
    };
    waiting.add(wake);
    signal.addEventListener('abort', wake, { once: true });
  });
}
