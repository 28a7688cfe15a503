/**
 * /api/users/:id — the `[id]` folder is a dynamic segment; its value arrives in `params.id`.
 */
import { deleteUser, findUser, parseUserFields, updateUser, type User } from '../../../_lib/users';

type Context = { params: { id: string } };

export function GET(_request: Request, { params }: Context): Response {
  const user = findUser(params.id);
  // "Not found": status 404 with a null body.
  return user ? Response.json(user) : new Response(null, { status: 404 });
}

/** PUT replaces every field. */
export async function PUT(request: Request, { params }: Context): Promise<Response> {
  return update(request, params.id, false);
}

/** PATCH changes only the fields sent. */
export async function PATCH(request: Request, { params }: Context): Promise<Response> {
  return update(request, params.id, true);
}

export function DELETE(_request: Request, { params }: Context): Response {
  return new Response(null, { status: deleteUser(params.id) ? 204 : 404 });
}

async function update(request: Request, id: string, partial: boolean): Promise<Response> {
  if (!findUser(id)) return new Response(null, { status: 404 });
  const body: unknown = await request.json().catch(() => undefined);
  const parsed = parseUserFields(body, { partial });
  if ('error' in parsed) return Response.json({ error: parsed.error }, { status: 400 });
  return Response.json(updateUser(id, parsed.fields as Partial<Omit<User, 'id'>>));
}
