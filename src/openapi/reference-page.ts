/**
 * `openapi: { ui: '/docs' }`: an interactive reference of the tree's document, Swagger UI's, served as
 * generated routes of the tree (so the folders' middleware on its path guard it, as they guard the
 * document): the page, Swagger UI's script and stylesheet from the app's own `swagger-ui-dist`, and the
 * script that starts it. No CDN and no inline script: the page works offline, under the policy it is sent with.
 *
 * Swagger UI over Scalar's or Redoc's: `swagger-ui-dist` is one package with no dependencies, its
 * files built and ready to serve, and it has try-it-out calls; the others pull in a framework's
 * worth of packages, or have no try-it-out.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { generatedRoute, pagePath, type GeneratedRoute } from '../route';
import { escapeHtml, sendFile } from '../files';
import type { EndpointContext, ServeOpenAPIOptions } from '../types';

/**
 * What the page needs of a browser, and no more: Swagger UI's own script and the starter (`'self'`), its
 * stylesheet and the styles its components set on elements, data: images (its icons), and calls to the API.
 */
export const REFERENCE_PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** Swagger UI's files the page loads, as the package names them. */
const ASSETS = ['swagger-ui-bundle.js', 'swagger-ui.css'] as const;

/** Starts Swagger UI on the page's element, with the document URL the page names: a file, for `script-src 'self'`. */
const STARTER = `"use strict";
var root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.url,
  dom_id: "#swagger-ui",
  deepLinking: true,
  tryItOutEnabled: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout"
});
`;

/** The page's routes: `ui` itself, and its files below it. `from` is where `swagger-ui-dist` is looked for. */
export function referenceRoutes(options: ServeOpenAPIOptions, from: string): GeneratedRoute[] {
  const base = pagePath(options.ui, 'openapi.ui', '/docs');
  if (base === options.path)
    throw new TypeError(
      `openapi.ui must be another path than openapi.path, not ${JSON.stringify(options.ui)}`,
    );
  const dist = swaggerUiDist(from);
  const page = (_request: Request, context: EndpointContext) => {
    const mountPath = context.mountPath ?? '';
    return new Response(pageHtml(`${mountPath}${base}`, `${mountPath}${options.path}`), {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': REFERENCE_PAGE_POLICY,
        'x-content-type-options': 'nosniff',
      },
    });
  };
  const starter = () =>
    new Response(STARTER, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  return [
    generatedRoute(base, 'the openapi ui option', () => ({ GET: page })),
    generatedRoute(`${base}/init.js`, 'the openapi ui option', () => ({ GET: starter })),
    ...ASSETS.map((name) =>
      generatedRoute(`${base}/${name}`, 'the openapi ui option', () => ({
        GET: (request: Request) => sendFile(request, path.join(dist, name)),
      })),
    ),
  ];
}

/** The folder of `swagger-ui-dist`, found as the app would find it: from its tree, and from the working folder. */
function swaggerUiDist(from: string): string {
  for (const dir of [from, process.cwd()]) {
    try {
      return path.dirname(createRequire(path.join(dir, 'noop.js')).resolve('swagger-ui-dist/package.json'));
    } catch {
      // Not installed where this folder's packages are: the next place.
    }
  }
  throw new Error(
    'express-file-endpoints: openapi.ui serves Swagger UI from the swagger-ui-dist package, which is not installed: npm install swagger-ui-dist',
  );
}

function pageHtml(base: string, documentUrl: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>API reference</title>
    <link rel="stylesheet" href="${escapeHtml(base)}/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui" data-url="${escapeHtml(documentUrl)}"></div>
    <script src="${escapeHtml(base)}/swagger-ui-bundle.js"></script>
    <script src="${escapeHtml(base)}/init.js"></script>
  </body>
</html>
`;
}
