/**
 * An in-memory user store, standing in for the app's database, and the schemas of its users.
 * It lives in a `_lib` folder because folders starting with `_` are private: discovery skips
 * them, so this file never becomes a route.
 */
import { z } from 'zod';
import { record } from './activity';

/** What a client sends to create a user (POST) or replace one (PUT). */
export const NewUser = z.object({
  name: z.string().trim().min(1, 'Enter a name'),
  email: z.email('Enter an email address'),
});

/** What PATCH accepts: any of the fields. */
export const UserChanges = NewUser.partial();

/** A user, as the API answers with it. */
export const User = NewUser.extend({ id: z.string() });
export type User = z.infer<typeof User>;

const SEED: User[] = [
  { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
  { id: '2', name: 'Grace Hopper', email: 'grace@example.com' },
];

const users = new Map<string, User>();
let nextId = 1;

/** Back to the two seed users (tests call this for a known state). */
export function resetUsers(): void {
  users.clear();
  for (const user of SEED) users.set(user.id, { ...user });
  nextId = SEED.length + 1;
}
resetUsers();

export function listUsers(): User[] {
  return [...users.values()];
}

export function findUser(id: string): User | undefined {
  return users.get(id);
}

export function createUser(fields: Omit<User, 'id'>): User {
  const user = { id: String(nextId++), ...fields };
  users.set(user.id, user);
  record('created', user);
  return user;
}

/** Replaces (PUT) or merges (PATCH) fields; `undefined` when the user does not exist. */
export function updateUser(id: string, fields: Partial<Omit<User, 'id'>>): User | undefined {
  const user = users.get(id);
  if (!user) return undefined;
  const updated = { ...user, ...fields, id };
  users.set(id, updated);
  record('updated', updated);
  return updated;
}

export function deleteUser(id: string): boolean {
  const user = users.get(id);
  if (!user) return false;
  users.delete(id);
  record('deleted', user);
  return true;
}
