/** Multipart bodies as a real client encodes them: undici's FormData through a Response. */
import { createHash } from 'node:crypto';

export interface Encoded {
  body: Buffer;
  contentType: string;
}

/** `form` encoded by undici, as `fetch(url, { body: form })` sends it. */
export async function encode(form: FormData): Promise<Encoded> {
  const response = new Response(form);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type')!,
  };
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** `size` bytes that are not all the same, so a byte out of place shows in the hash. */
export function bytesOf(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = x >> 16;
  }
  return bytes;
}

/** The form every comparison sends: fields (one repeated, one unicode), files (a unicode name, an empty one). */
export function sampleForm(): {
  form: FormData;
  files: { name: string; filename: string; bytes: Buffer; type: string }[];
} {
  const files = [
    { name: 'avatar', filename: 'photo.png', bytes: bytesOf(200_000), type: 'image/png' },
    {
      name: 'docs',
      filename: 'résumé ünïcødé 日本.txt',
      bytes: Buffer.from('héllo wörld\n'),
      type: 'text/plain',
    },
    { name: 'docs', filename: 'empty.bin', bytes: Buffer.alloc(0), type: 'application/octet-stream' },
  ];
  const form = new FormData();
  form.append('title', 'Holiday');
  form.append('tag', 'a');
  form.append('tag', 'b');
  form.append('note', 'naïve café ☕');
  for (const file of files)
    form.append(file.name, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
  return { form, files };
}
