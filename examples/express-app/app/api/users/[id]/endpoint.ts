/**
 * /api/users/:id — the `[id]` folder is a dynamic segment; its value arrives in `params.id`.
 * PUT and PATCH declare a contract, as POST in ../endpoint.ts does.
 */
import { defineHandler } from 'express-file-endpoints';
import { z } from 'zod';
import { deleteUser, findUser, NewUser, updateUser, User, UserChanges } from '../../../_lib/users';

type Context = { params: { id: string } };

export function GET(_request: Request, { params }: Context): Response {
  const user = findUser(params.id);
  // "Not found": status 404 with a null body.
  return user ? Response.json(user) : new Response(null, { status: 404 });
}

const Params = z.object({ id: z.string() });

/** PUT replaces every field. */
export const PUT = defineHandler(
  { params: Params, body: NewUser, responses: { 200: User } },
  (_request, { params, body }) => update(params.id, body),
);

/** PATCH changes only the fields sent. */
export const PATCH = defineHandler(
  { params: Params, body: UserChanges, responses: { 200: User } },
  (_request, { params, body }) => update(params.id, body),
);

export function DELETE(_request: Request, { params }: Context): Response {
  return new Response(null, { status: deleteUser(params.id) ? 204 : 404 });
}

function update(id: string, fields: Partial<Omit<User, 'id'>>): Response {
  const user = updateUser(id, fields);
  return user ? Response.json(user) : new Response(null, { status: 404 });
}
