/**
 * POST /uploads — a multipart/form-data upload, as `multer` took it on an Express route: every file
 * saved to disk under a new id, its size and sha256 computed on the way; fields in the answer. At most
 * 5 files of 10 MiB each; past a limit, a 413 for the app's error handler. `express.json()` and
 * `express.urlencoded()` in front leave a multipart body alone, so it streams from the socket.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { multipart, saveFile } from 'express-file-endpoints';
import { remember, uploadDir } from '../_lib/uploads';

export const bodyLimit = '51mb';

export async function POST(request: Request): Promise<Response> {
  const fields: Record<string, string> = {};
  const files = [];
  for await (const part of multipart(request, { limits: { fileSize: '10mb', files: 5 } })) {
    if (part.filename === undefined) {
      fields[part.name] = await part.text();
      continue;
    }
    const id = randomUUID();
    const saved = await saveFile(part, { path: path.join(uploadDir(), id) });
    const upload = {
      id,
      path: saved.path,
      filename: part.filename,
      type: saved.type,
      size: saved.size,
      sha256: saved.hash!,
    };
    remember(upload);
    files.push({
      id,
      field: part.name,
      filename: upload.filename,
      type: upload.type,
      size: upload.size,
      sha256: upload.sha256,
      download: `/uploads/${id}`,
    });
  }
  return Response.json({ fields, files }, { status: 201 });
}
