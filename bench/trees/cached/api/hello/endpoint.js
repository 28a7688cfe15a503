// (a) GET, small JSON, kept by the mount's cache for an hour: every measured request is a hit.
const HELLO = { message: 'Hello, World!' };

export const cache = { maxAge: 3600 };

export function GET() {
  return Response.json(HELLO);
}
