/**
 * /api/users — the folder path is the URL. The exported GET and POST functions are recognised by
 * name, and take a Web `Request` and return a `Response`. GET needs no import of the library.
 *
 * POST declares a contract: its body is validated with the Zod schema before the handler runs
 * (an invalid one gets a 400 listing every issue), and the handler gets it typed, trimmed.
 */
import { defineHandler } from 'express-file-endpoints';
import { createUser, listUsers, NewUser, User } from '../../_lib/users';

export function GET(): Response {
  return Response.json(listUsers());
}

/** Creates a user from a JSON body (`express.json()` already read it; the library hands it over). */
export const POST = defineHandler({ body: NewUser, responses: { 201: User } }, (_request, { body }) => {
  const user = createUser(body);
  return Response.json(user, { status: 201, headers: { Location: `/api/users/${user.id}` } });
});
