/**
 * Re-encodes an object produced by `express.urlencoded()` (qs, nested `a[b][c]`) back into
 * `application/x-www-form-urlencoded`, so `request.formData()` sees the fields the client sent.
 * Arrays of plain values repeat the key (`a=1&a=2`), as HTML forms send them.
 */
export function encodeFormBody(value: unknown): string {
  const params = new URLSearchParams();
  appendValue(params, '', value);
  return params.toString();
}

function appendValue(params: URLSearchParams, key: string, value: unknown): void {
  if (value === null || value === undefined) {
    if (key) params.append(key, '');
    return;
  }
  if (Array.isArray(value)) {
    const flat = value.every((v) => typeof v !== 'object' || v === null);
    value.forEach((item, index) => appendValue(params, flat ? key : `${key}[${index}]`, item));
    return;
  }
  if (typeof value === 'object') {
    for (const [name, inner] of Object.entries(value))
      appendValue(params, key ? `${key}[${name}]` : name, inner);
    return;
  }
  params.append(key, String(value));
}
