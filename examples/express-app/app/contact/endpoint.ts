/**
 * POST /contact — receives the legacy page's HTML form. `express.urlencoded()` ran first and
 * consumed the body; the library re-encodes `req.body`, so `request.formData()` still works.
 * Only POST is exported: a GET here would clash with page.tsx (a validation error at startup).
 */
import { escapeHtml, htmlPage } from '../_lib/html';

export async function POST(request: Request): Promise<Response> {
  const form = await request.formData();
  const name = String(form.get('name') ?? '').trim();
  const message = String(form.get('message') ?? '').trim();
  if (!name)
    return htmlPage(
      400,
      'Missing name',
      '<p>Please <a href="/contact">go back</a> and tell us your name.</p>',
    );
  return htmlPage(
    200,
    `Thanks, ${escapeHtml(name)}`,
    `<p>We received your message (${message.length} characters).</p><p><a href="/">Back home</a></p>`,
  );
}
