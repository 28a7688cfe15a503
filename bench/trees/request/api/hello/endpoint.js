// (a) again, with a handler that declares its Request (and reads nothing from it). The small tree's
// `GET()` declares none, so express-file-endpoints builds no Request for it; this one gets one built.
const HELLO = { message: 'Hello, World!' };

export function GET(_request) {
  return Response.json(HELLO);
}
