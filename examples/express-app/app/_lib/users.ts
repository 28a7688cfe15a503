/**
 * An in-memory user store, standing in for the app's database.
 * It lives in a `_lib` folder because folders starting with `_` are private: discovery skips
 * them, so this file never becomes a route.
 */
export interface User {
  id: string;
  name: string;
  email: string;
}

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
  return user;
}

/** Replaces (PUT) or merges (PATCH) fields; `undefined` when the user does not exist. */
export function updateUser(id: string, fields: Partial<Omit<User, 'id'>>): User | undefined {
  const user = users.get(id);
  if (!user) return undefined;
  const updated = { ...user, ...fields, id };
  users.set(id, updated);
  return updated;
}

export function deleteUser(id: string): boolean {
  return users.delete(id);
}

/**
 * Checks a JSON body for user fields. `partial` (PATCH) lets fields be left out.
 * Returns the fields, or an error message for a 400.
 */
export function parseUserFields(
  body: unknown,
  { partial = false } = {},
): { fields: Partial<Omit<User, 'id'>> } | { error: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { error: 'Expected a JSON object' };
  const { name, email } = body as Record<string, unknown>;
  const fields: Partial<Omit<User, 'id'>> = {};
  for (const [key, value] of [
    ['name', name],
    ['email', email],
  ] as const) {
    if (value === undefined && partial) continue;
    if (typeof value !== 'string' || value.trim() === '')
      return { error: `"${key}" must be a non-empty string` };
    fields[key] = value.trim();
  }
  return { fields };
}
