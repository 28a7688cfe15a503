/**
 * What every variant sends and receives, in one place, so the driver can compute the bytes each
 * scenario must return and the native variants can build the same bodies as the endpoint files
 * under `bench/trees` (which repeat these numbers; the byte check catches any drift).
 */

/** (a) The small JSON body. */
export const HELLO = { message: 'Hello, World!' } as const;

/** (b) A 1 KiB JSON document: an object whose compact serialisation is exactly 1,024 bytes. */
export const ECHO_BODY: string = (() => {
  const doc = {
    user: { id: 42, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin', 'editor'] },
    items: Array.from({ length: 8 }, (_, i) => ({
      id: i + 1,
      sku: `SKU-${1000 + i}`,
      qty: i + 1,
      price: 9.99 + i,
    })),
    note: '',
  };
  const length = JSON.stringify(doc).length;
  doc.note = 'x'.repeat(1024 - length);
  const json = JSON.stringify(doc);
  if (Buffer.byteLength(json) !== 1024)
    throw new Error(`echo body is ${Buffer.byteLength(json)} bytes, not 1024`);
  return json;
})();

/** (c) and (f): bodies are `CHUNK_SIZE`-byte chunks filled with `a`. */
export const CHUNK_SIZE = 64 * 1024;
export const FILL_BYTE = 0x61;
/** (c) 1 MiB. */
export const STREAM_CHUNKS = 16;
/** (f) 256 MiB. */
export const BIG_CHUNKS = 4096;
export const BIG_BYTES = CHUNK_SIZE * BIG_CHUNKS;

/** (d) How many endpoints the large tree has, and the one requested (the last Express would try). */
export const MANY_ROUTES = 1000;
export const LAST_ROUTE = MANY_ROUTES - 1;
export const routeName = (i: number): string => `r${String(i).padStart(4, '0')}`;
/** (d) The JSON each generated endpoint answers. */
export const routeBody = (i: number, id: string): { route: number; id: string } => ({ route: i, id });
