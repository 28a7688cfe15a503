// (a) GET, small JSON.
const HELLO = { message: 'Hello, World!' };

export function GET() {
  return Response.json(HELLO);
}
