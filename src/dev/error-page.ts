/**
 * The development error page: what a request to a broken route gets while the tree or a module
 * is broken. HTML for browsers (`Accept: text/html`), JSON for API clients and curl. It lists
 * every problem with its files and `file:line:column`; every value is escaped, since file names
 * and error messages may hold anything. Status 500, never cached. Development only: production
 * never shows error details.
 */
import { plural } from '../words';
import type { DevProblem } from '../types';

export function errorPage(request: Request, problems: readonly DevProblem[]): Response {
  const headers = { 'cache-control': 'no-store', 'x-express-file-endpoints-dev': 'error' };
  if (!(request.headers.get('accept') ?? '').includes('text/html')) {
    return Response.json(
      { error: 'express-file-endpoints: the endpoint tree has problems', problems },
      {
        status: 500,
        headers,
      },
    );
  }
  return new Response(html(problems), {
    status: 500,
    headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
  });
}

/**
 * The same, for the console: printed once per change, not once per request. `everyRoute`: the tree is
 * invalid, so no route of it is served until it is fixed; otherwise only the routes of broken modules.
 */
export function formatProblems(problems: readonly DevProblem[], everyRoute = false): string {
  const lines = problems.map(
    (p) => `  ${p.code}: ${p.location ? `${p.location}\n    ` : ''}${p.message.replace(/\n/g, '\n    ')}`,
  );
  const which = everyRoute ? 'every route answers' : 'the affected routes answer';
  return `express-file-endpoints (dev): ${plural(problems.length, 'problem')}; ${which} with an error page until fixed:\n${lines.join('\n')}`;
}

function html(problems: readonly DevProblem[]): string {
  const items = problems
    .map(
      (p) => `<section>
  <h2>${escapeHtml(p.code)}${p.location ? ` <code>${escapeHtml(p.location)}</code>` : ''}</h2>
  <pre>${escapeHtml(p.message)}</pre>
  <p>Files: ${p.files.map((f) => `<code>${escapeHtml(f)}</code>`).join(', ')}</p>
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>express-file-endpoints: ${plural(problems.length, 'problem')}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{color:#b00020}section{border-left:4px solid #b00020;padding:.25rem 1rem;margin:1rem 0;background:#fff5f5}
pre{white-space:pre-wrap;font-size:13px}code{background:#eee;padding:0 .25rem}</style></head>
<body><h1>express-file-endpoints: ${plural(problems.length, 'problem')}</h1>
<p>Development mode. Fix the file and reload: no restart needed.</p>
${items}
</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
