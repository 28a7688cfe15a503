/**
 * What `init` writes and prints, for each kind of app. The endpoint answers `GET /api/hello`; the test calls
 * it directly with `createTestRequest`, no server. The README's "Or let `init` write them" shows its output.
 */

export interface AppKind {
  module: 'cjs' | 'esm';
  typescript: boolean;
  runner: 'node' | 'mocha' | 'vitest';
}

/** File path (relative to the app) -> content. */
export function starterFiles(kind: AppKind, root: string): Record<string, string> {
  const ext = kind.typescript ? 'ts' : 'js';
  const endpoint = `${root}/api/hello/endpoint.${ext}`;
  const test = `test/hello.test.${ext}`;
  // From test/ to the endpoint; TypeScript imports it without an extension (tsx and vitest resolve it).
  const fromTest = `../${endpoint}`.replace(/^\.\.\/\.\//, '../');
  const specifier = kind.typescript ? fromTest.replace(/\.ts$/, '') : fromTest;
  return { [endpoint]: endpointSource(kind), [test]: testSource(kind, specifier) };
}

function endpointSource(kind: AppKind): string {
  const comment =
    '// GET /api/hello?name=Ada: the folder path is the URL. Copy the folder for the next endpoint.\n';
  if (kind.typescript) {
    return `${comment}export async function GET(req: Request): Promise<Response> {
  const name = new URL(req.url).searchParams.get('name') ?? 'world';
  return Response.json({ hello: name });
}
`;
  }
  if (kind.module === 'esm') {
    return `${comment}export async function GET(req) {
  const name = new URL(req.url).searchParams.get('name') ?? 'world';
  return Response.json({ hello: name });
}
`;
  }
  // A .js file of a CommonJS package cannot use `export`: Node would refuse it.
  return `${comment}exports.GET = async (req) => {
  const name = new URL(req.url).searchParams.get('name') ?? 'world';
  return Response.json({ hello: name });
};
`;
}

function testSource(kind: AppKind, specifier: string): string {
  const esm = kind.typescript || kind.module === 'esm';
  const body = `  const res = await GET(createTestRequest('/api/hello?name=Ada'));
  ASSERT_STATUS
  ASSERT_BODY
`;
  const imports: string[] = [];
  let wrap: (inner: string) => string;
  if (kind.runner === 'vitest') {
    imports.push("import { expect, it } from 'vitest';");
    wrap = (inner) => `it('GET /api/hello greets by name', async () => {\n${inner}});\n`;
  } else if (kind.runner === 'mocha') {
    imports.push(
      esm ? "import assert from 'node:assert/strict';" : "const assert = require('node:assert/strict');",
    );
    wrap = (inner) => `it('GET /api/hello greets by name', async () => {\n${inner}});\n`;
  } else {
    imports.push(
      ...(esm
        ? ["import assert from 'node:assert/strict';", "import { test } from 'node:test';"]
        : ["const assert = require('node:assert/strict');", "const { test } = require('node:test');"]),
    );
    wrap = (inner) => `test('GET /api/hello greets by name', async () => {\n${inner}});\n`;
  }
  imports.push(
    esm
      ? "import { createTestRequest } from 'express-file-endpoints/testing';"
      : "const { createTestRequest } = require('express-file-endpoints/testing');",
    esm ? `import { GET } from '${specifier}';` : `const { GET } = require('${specifier}');`,
  );
  const checks =
    kind.runner === 'vitest'
      ? ['expect(res.status).toBe(200);', "expect(await res.json()).toEqual({ hello: 'Ada' });"]
      : ['assert.equal(res.status, 200);', "assert.deepEqual(await res.json(), { hello: 'Ada' });"];
  const inner = body
    .replace('ASSERT_STATUS', checks[0] as string)
    .replace('ASSERT_BODY', checks[1] as string);
  return `${imports.join('\n')}\n\n${wrap(inner)}`;
}

/**
 * How the app's own file is written: `require` or `import`, and whether it runs as CommonJS (a TypeScript
 * file of a CommonJS package writes `import` but has `__dirname`, not `import.meta`).
 */
export interface AppFileStyle {
  syntax: 'require' | 'import';
  runs: 'cjs' | 'esm';
}

/**
 * The lines that mount the tree, `fromApp` being the tree's path from the app file's folder. They must paste
 * into any app: nothing the app may have declared already (`path`, `fileURLToPath`), and no `await`, which a
 * CommonJS file or a plain function cannot hold; `app.use(mountEndpoints(…))` needs neither.
 */
export function mountLine(style: AppFileStyle, fromApp: string): string {
  const relative = fromApp.startsWith('.') ? fromApp : `./${fromApp}`;
  const dir =
    style.runs === 'esm' ? `new URL('${relative}', import.meta.url)` : `\`\${__dirname}/${fromApp}\``;
  const mount = `// after your body parsers, before your own routes and 404 handler:
app.use(mountEndpoints({ dir: ${dir} }));`;
  if (style.syntax === 'require')
    return `const { mountEndpoints } = require('express-file-endpoints');\n${mount}`;
  return `// with your other imports:
import { mountEndpoints } from 'express-file-endpoints';

${mount}`;
}

/** How to run the starter test. */
export function testCommand(kind: AppKind): string {
  const file = `test/hello.test.${kind.typescript ? 'ts' : 'js'}`;
  if (kind.runner === 'vitest') return `npx vitest run ${file}`;
  if (kind.runner === 'mocha')
    return kind.typescript ? `npx mocha --node-option import=tsx ${file}` : `npx mocha ${file}`;
  return kind.typescript ? `node --import tsx --test ${file}` : `node --test ${file}`;
}
