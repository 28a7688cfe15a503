/**
 * The files POST /uploads saved: on disk in UPLOAD_DIR (default: a folder in the system's temporary
 * folder), each under an id of its own, never under the name the client sent; what the client sent
 * about it is kept here, in memory, as an example's store would keep it in a database.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Upload {
  id: string;
  path: string;
  filename: string;
  type: string;
  size: number;
  sha256: string;
}

const uploads = new Map<string, Upload>();

export function uploadDir(): string {
  const dir = process.env.UPLOAD_DIR ?? path.join(tmpdir(), 'express-file-endpoints-example-uploads');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function remember(upload: Upload): void {
  uploads.set(upload.id, upload);
}

export function findUpload(id: string): Upload | undefined {
  return uploads.get(id);
}
