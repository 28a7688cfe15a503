// (b) validated by hand: the same schema and answers as ../../../contract, written in the handler.
import { EchoDocument } from '../../../_shared/echo-schema.js';

export async function POST(request) {
  let json;
  try {
    json = await request.json();
  } catch {
    return Response.json({ error: 'The body is not valid JSON' }, { status: 400 });
  }
  const result = EchoDocument.safeParse(json);
  if (!result.success) return Response.json({ issues: result.error.issues }, { status: 400 });
  return Response.json(result.data);
}
