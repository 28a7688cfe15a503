/** Small HTML helpers for the endpoints that answer browsers. */

/** Escapes text for HTML content and attribute values: never echo user input without it. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** A whole HTML page as a Response; `title` and `body` must already be escaped. */
export function htmlPage(status: number, title: string, body: string): Response {
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1>${body}</body></html>`;
  return new Response(page, { status, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
