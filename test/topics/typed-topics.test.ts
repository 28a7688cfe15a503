/**
 * Typed topics: the declaration file `typegen` writes for a tree whose endpoints `export const
 * topics` puts them in `TopicRegistry`, and then a misspelt topic, or data of the wrong shape, fails
 * the type check of a socket's, a handler's and the mount's subscribe and publish. A TypeScript
 * program over a scratch tree (seconds), since the registry, once filled, types the whole program.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { discoverTree } from '../../src/discover';
import { routeDeclarations } from '../../src/typed-routes';

const SRC = path.resolve(__dirname, '../../src/index');

const CHAT = `
import type { WebSocketHandler } from ${JSON.stringify(SRC)};
export interface ChatMessage { from: string; text: string }
export const topics = { 'chat/[room]': {} as ChatMessage, presence: {} as { online: number } };
export const websocket: WebSocketHandler = {};
`;
const ORDERS = `
export const topics = ['orders', 'clock'] as const;
export function GET() { return new Response(); }
`;
const USE = `
import type { EndpointContext, EndpointWebSocket, EndpointsMiddleware, Topic } from ${JSON.stringify(SRC)};

export function uses(socket: EndpointWebSocket, context: EndpointContext, endpoints: EndpointsMiddleware) {
  socket.subscribe('chat/general');
  socket.subscribe('orders');
  socket.publish('chat/general', { from: 'ada', text: 'hi' });
  context.publish!('presence', { online: 3 });
  endpoints.publish('orders', 'anything goes: names only');
  const topic: Topic = 'clock';
  const subscription = context.subscribe!(['chat/lobby', 'presence']);
  void [topic, subscription];
  // @ts-expect-error a misspelt topic
  socket.subscribe('chat');
  // @ts-expect-error no such topic
  endpoints.publish('order', 'x');
  // @ts-expect-error the data of chat/[room] is a ChatMessage
  socket.publish('chat/general', { text: 1 });
  // @ts-expect-error presence carries { online: number }
  context.publish!('presence', 'three');
}
`;

describe('typed topics (typegen)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(__dirname, '.scratch-typed-topics-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('types subscribe and publish from the topics the tree declares', function () {
    this.timeout(60_000); // a TypeScript program: seconds on a busy machine
    mkdirSync(path.join(dir, 'app/chat/[room]'), { recursive: true });
    mkdirSync(path.join(dir, 'app/orders'), { recursive: true });
    writeFileSync(path.join(dir, 'app/chat/[room]/endpoint.ts'), CHAT);
    writeFileSync(path.join(dir, 'app/orders/endpoint.ts'), ORDERS);
    const out = path.join(dir, 'env.d.ts');
    const declarations = routeDeclarations(discoverTree(path.join(dir, 'app')), out);
    expect(declarations).to.include(
      "    '/chat/[room]': TopicsOf<typeof import('./app/chat/[room]/endpoint.js')>;\n    '/orders': TopicsOf<typeof import('./app/orders/endpoint.js')>;",
    );
    writeFileSync(out, declarations.replaceAll("'express-file-endpoints'", JSON.stringify(SRC)));
    writeFileSync(path.join(dir, 'use.ts'), USE);
    const program = ts.createProgram([out, path.join(dir, 'use.ts')], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: ['node'],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(diagnostics).to.deep.equal([]);
  });
});
