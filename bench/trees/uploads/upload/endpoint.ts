// POST /upload: the bench's upload (bench/uploads.ts): every file saved into UPLOAD_DIR under a new
// name, as multer's diskStorage saves them; the answer lists their sizes.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { multipart, saveFile } from '../../../../src';

export const bodyLimit = false;

const LIMITS = { fileSize: Infinity, files: 1000, parts: 1000 };

export async function POST(request: Request) {
  const dir = process.env.UPLOAD_DIR!;
  const sizes: number[] = [];
  for await (const part of multipart(request, { limits: LIMITS })) {
    const saved = await saveFile(part, { path: path.join(dir, randomUUID()), hash: false });
    sizes.push(saved.size);
  }
  return Response.json(sizes);
}
