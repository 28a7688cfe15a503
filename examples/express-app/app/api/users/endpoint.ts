/**
 * /api/users — the folder path is the URL. No import of the library is needed: the exported
 * GET and POST functions are recognised by name, and take a Web `Request` and return a `Response`.
 */
import { createUser, listUsers, parseUserFields, type User } from '../../_lib/users';

export function GET(): Response {
  return Response.json(listUsers());
}

/** Creates a user from a JSON body (`express.json()` already read it; the library hands it over). */
export async function POST(request: Request): Promise<Response> {
  const body: unknown = await request.json().catch(() => undefined);
  const parsed = parseUserFields(body);
  if ('error' in parsed) return Response.json({ error: parsed.error }, { status: 400 });
  const user = createUser(parsed.fields as Omit<User, 'id'>);
  return Response.json(user, { status: 201, headers: { Location: `/api/users/${user.id}` } });
}
