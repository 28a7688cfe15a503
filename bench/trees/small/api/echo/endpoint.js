// (b) POST, the JSON body parsed and sent back.
export async function POST(req) {
  return Response.json(await req.json());
}
