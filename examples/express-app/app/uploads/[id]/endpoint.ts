/**
 * GET /uploads/:id — a file POST /uploads saved, sent back as a download under the name it was
 * uploaded with (`res.download` as `sendFile`'s `download` option: Content-Disposition, ranges,
 * conditional answers).
 */
import { sendFile } from 'express-file-endpoints';
import { findUpload } from '../../_lib/uploads';

export function GET(request: Request, { params }: { params: { id: string } }): Promise<Response> | Response {
  const upload = findUpload(params.id);
  if (!upload) return Response.json({ error: 'Not Found', id: params.id }, { status: 404 });
  // Sent as bytes (its file has no extension): a type the client declared is not trusted to be served.
  return sendFile(request, upload.path, { download: upload.filename });
}
