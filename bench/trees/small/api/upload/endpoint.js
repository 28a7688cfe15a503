// (f) upload: the body streamed through and counted, never buffered whole.
export const config = { bodyLimit: false };

export async function POST(req) {
  let bytes = 0;
  for await (const chunk of req.body) bytes += chunk.byteLength;
  return Response.json({ bytes });
}
