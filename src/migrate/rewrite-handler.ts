/**
 * A route's handler, `(req, res, next) => …`, as an endpoint's `(request, context) => Response`, where every
 * use of `res` is an answer the command can write as a Response (`res.status(201).json(x)`,
 * `res.sendStatus(404)`, `return res.redirect(url)`…), `next` is only called with an error, and `req` is read
 * in ways it knows (`req.params.id`, `req.query`, `req.get()`, `req.headers[…]`, `req.body` behind
 * express.json()). What else it reads of `req` (`req.user`, `req.session`) it reads from the Node request,
 * `context.node.req`, which Express middleware decorated. Anything else (`res` handed to a helper, `res.render`,
 * an answer in a callback) is not rewritten: the caller moves the handler as it is instead, with the reason.
 */
// mime-types ships no types: the files module declares the one function used here too.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- an ambient declaration has no module to import
/// <reference path="../files/mime-types.d.ts" />
import mime from 'mime-types';
import type { Node } from './syntax';

export interface RewriteOptions {
  /** Express's major version, 4 or 5: how `req.query` and `req.body` read. */
  major: number;
  typescript: boolean;
  /** The param Express 4's `*` is read by, and the folder's name for it. */
  wildcard?: { index: string; name: string };
  /** Params of the path, for the type of `params` in TypeScript: name and whether it is a catch-all. */
  params: { name: string; catchAll: boolean }[];
  /**
   * How `req.body` reads: `jsonBody` with express.json()'s options as written, when that parser runs in front
   * of every route; `node` when the route's own middleware parse it (the Node request's `body`, as they left
   * it), or when the parser is another one.
   */
  body: { kind: 'json'; options?: string } | { kind: 'node' };
}

export type Rewritten =
  | {
      kind: 'rewritten';
      /** The function, rewritten. */
      code: string;
      /** What the module needs imported for it. */
      imports: Set<Import>;
      /** Whether it reads the Node request (`context.node`), so runs on the Node hosts only. */
      readsNode: boolean;
      /** How many of `(request, context)` it takes. */
      arity: 0 | 1 | 2;
    }
  | { kind: 'as-is'; reason: string };

/** What a rewritten handler needs imported: the library's helpers, Node's querystring, the context's type. */
export type Import = 'jsonBody' | 'sendFile' | 'querystring' | 'EndpointContext' | 'sendValue';

interface Edit {
  start: number;
  end: number;
  text: string;
}

// The texts res.sendStatus() sends, for the statuses routes send most; another status moves as it is.
const STATUS_TEXTS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

const HEADER_METHODS = new Set(['set', 'header']);
const ANSWERS = new Set(['json', 'send', 'end', 'sendStatus', 'redirect', 'sendFile', 'download']);
const OWN_NAMES = ['request', 'params', 'node', 'query', 'body', 'sendFile', 'sendValue'];
/** res.sendFile's options (send's), each a FileOptions of sendFile's by the same name and meaning. */
const FILE_OPTIONS = new Set([
  'root',
  'maxAge',
  'immutable',
  'cacheControl',
  'lastModified',
  'etag',
  'acceptRanges',
  'dotfiles',
  'headers',
]);

export function rewriteHandler(handler: Node, source: string, options: RewriteOptions): Rewritten {
  const asIs = (reason: string): Rewritten => ({ kind: 'as-is', reason });
  if (handler.type !== 'ArrowFunctionExpression' && handler.type !== 'FunctionExpression') {
    return asIs('its handler is defined elsewhere');
  }
  if (handler.generator) return asIs('its handler is a generator');
  const names = handler.params.map((p) => (p.type === 'Identifier' ? p.name : undefined));
  if (names.some((n) => n === undefined) || names.length > 3)
    return asIs('its handler takes its parameters in a form the command does not rewrite');
  const [reqName, resName, nextName] = names as string[];
  const all = new Set<string>();
  visitAncestors(handler.body, (node, ancestors) => {
    const parent = ancestors[ancestors.length - 1];
    if (node.type === 'Identifier' && !(parent && isPropertyName(node, parent))) all.add(node.name);
  });
  const taken = OWN_NAMES.find((name) => all.has(name) && name !== reqName);
  if (taken) return asIs(`its handler has a name of its own, "${taken}", that the rewritten handler needs`);

  const edits: Edit[] = [];
  const imports = new Set<Import>();
  let usesParams = false;
  let usesQuery = false;
  let usesBody = false;
  let readsNode = false;
  let failure: string | undefined;
  const fail = (reason: string) => {
    failure ??= reason;
  };

  // `res`, `next` and `req`, wherever the handler uses them.
  const answers: Answer[] = [];
  const setters: Answer[] = [];
  const throws: { holder: Node; error: Node }[] = [];
  // res.sendFile's `(err) => { if (err) next(err); }`: what Express does without one, so it goes.
  const forwarding = new Set<Node>();
  visitAncestors(handler.body, (node, ancestors) => {
    if (node.type !== 'Identifier') return;
    const parent = ancestors[ancestors.length - 1];
    if (parent && isPropertyName(node, parent)) return;
    if (ancestors.some((a) => forwarding.has(a))) return;
    const inOwnBody = nearestFunction(ancestors) === undefined;
    if (node.name === resName) {
      if (!inOwnBody) return fail('it answers from a callback or a nested function');
      const answer = readAnswer(node, [handler, ...ancestors], handler);
      if (typeof answer === 'string') return fail(answer);
      const last = answer.calls[answer.calls.length - 1]!;
      const callback = last.args[last.args.length - 1];
      if ((last.name === 'sendFile' || last.name === 'download') && callback) {
        if (isForwarding(callback, nextName)) {
          forwarding.add(callback);
          last.args = last.args.slice(0, -1);
        } else if (/Function/.test(callback.type)) {
          return fail(`it hands res.${last.name}() a callback of its own`);
        }
      }
      (answer.setter ? setters : answers).push(answer);
    } else if (node.name === nextName) {
      const call = parent;
      const holder = ancestors[ancestors.length - 2];
      if (!inOwnBody || call?.type !== 'CallExpression' || call.callee !== node)
        return fail('it hands next on, or calls it from a callback');
      if (call.arguments.length !== 1 || call.arguments[0]!.type === 'SpreadElement')
        return fail('it calls next() without an error: Express went on to the next route');
      // `(req, res, next) => next(err)`: the arrow's whole body, which becomes a block that throws.
      if (call === handler.body) throws.push({ holder: call, error: call.arguments[0]! });
      else if (holder?.type !== 'ExpressionStatement' && holder?.type !== 'ReturnStatement')
        return fail('it calls next(err) inside an expression');
      else throws.push({ holder, error: call.arguments[0]! });
    } else if (node.name === reqName) {
      const read = readRequest(node, ancestors);
      if (read === undefined) readsNode = true;
      else if (typeof read === 'object' && 'fail' in read) fail(read.fail);
      else edits.push(read);
    }
  });
  if (failure) return asIs(failure);
  if (answers.length === 0 && throws.length === 0)
    return asIs('it never answers with res, as far as the command can see');

  function readRequest(id: Node, ancestors: Node[]): Edit | { fail: string } | undefined {
    const member = ancestors[ancestors.length - 1];
    if (member?.type !== 'MemberExpression' || member.object !== id || member.computed) return undefined;
    const property = (member.property as { name: string }).name;
    const outer = ancestors[ancestors.length - 2];
    const assigned = outer?.type === 'AssignmentExpression' && outer.left === member;
    switch (property) {
      case 'params': {
        if (outer?.type === 'MemberExpression' && outer.object === member) {
          const key = outer.computed ? literalKey(outer.property) : (outer.property as { name: string }).name;
          if (options.wildcard && key === options.wildcard.index) {
            usesParams = true;
            return {
              start: outer.start!,
              end: outer.end!,
              text: `params.${options.wildcard.name}.join('/')`,
            };
          }
          if (key === undefined) return { fail: 'it reads req.params by a computed name' };
        } else if (options.wildcard) {
          return { fail: "it reads req.params whole, and Express 4's * is an array in the tree" };
        }
        usesParams = true;
        return { start: id.start!, end: member.end!, text: 'params' };
      }
      case 'query':
        if (assigned) return { fail: 'it assigns req.query' };
        if (options.major < 5) return undefined; // Express 4 parses it with qs: the Node request's own is the same
        usesQuery = true;
        return { start: id.start!, end: member.end!, text: 'query' };
      case 'get':
      case 'header': {
        if (outer?.type !== 'CallExpression' || outer.callee !== member || outer.arguments.length !== 1)
          return undefined;
        const name = literalKey(outer.arguments[0]!);
        if (name === undefined || /^(referr?er|set-cookie)$/i.test(name)) return undefined;
        return {
          start: outer.start!,
          end: outer.end!,
          text: `(request.headers.get(${quote(name.toLowerCase())}) ?? undefined)`,
        };
      }
      case 'headers': {
        if (outer?.type !== 'MemberExpression' || outer.object !== member) return undefined;
        const name = outer.computed ? literalKey(outer.property) : (outer.property as { name: string }).name;
        if (
          name === undefined ||
          name.toLowerCase() === 'set-cookie' ||
          ancestors[ancestors.length - 3]?.type === 'AssignmentExpression'
        )
          return undefined;
        return {
          start: outer.start!,
          end: outer.end!,
          text: `(request.headers.get(${quote(name.toLowerCase())}) ?? undefined)`,
        };
      }
      case 'body':
        if (options.body.kind === 'node') return undefined;
        if (
          assigned ||
          (outer?.type === 'MemberExpression' &&
            ancestors[ancestors.length - 3]?.type === 'AssignmentExpression')
        ) {
          return { fail: 'it changes req.body' };
        }
        usesBody = true;
        imports.add('jsonBody');
        return { start: id.start!, end: member.end!, text: 'body' };
      case 'method':
        if (assigned) return { fail: 'it assigns req.method' };
        return { start: id.start!, end: member.end!, text: 'request.method' };
      default:
        return undefined;
    }
  }

  // Each answer and each next(err), with the request's edits inside them applied.
  const inner = (node: Node) => render(source, node.start!, node.end!, edits);
  const outerEdits: Edit[] = [];
  const gathered = gatherSetters(setters, answers, source);
  if (typeof gathered === 'string') return asIs(gathered);
  outerEdits.push(...gathered);
  for (const answer of answers) {
    const response = buildResponse(answer.calls, inner, options.major);
    if (typeof response !== 'string' || response.startsWith('!')) {
      return asIs(typeof response === 'string' ? response.slice(1) : 'an answer it cannot write');
    }
    if (response.startsWith('sendFile(')) imports.add('sendFile');
    if (response.startsWith('sendValue(')) imports.add('sendValue');
    if (answer.holder === handler)
      outerEdits.push({ start: answer.top.start!, end: answer.top.end!, text: response });
    else
      outerEdits.push({ start: answer.holder.start!, end: answer.holder.end!, text: `return ${response};` });
  }
  // `=> next(err)`: the statement that replaces the arrow's body.
  let thrownBody: string | undefined;
  for (const { holder, error } of throws) {
    const thrown = `throw ${inner(error)};`;
    if (holder === handler.body) thrownBody = thrown;
    else outerEdits.push({ start: holder.start!, end: holder.end!, text: thrown });
  }
  const remaining = edits.filter((e) => !outerEdits.some((o) => o.start <= e.start && e.end <= o.end));
  const bodyNode = handler.body as Node;
  let body =
    thrownBody !== undefined
      ? `{ ${thrownBody} }`
      : render(source, bodyNode.start!, bodyNode.end!, [...remaining, ...outerEdits]);

  // What the body now reads, declared at its top.
  const ts = options.typescript;
  const declarations: string[] = [];
  if (readsNode) {
    declarations.push(
      ts ? `const req = node!.req as unknown as import('express').Request;` : 'const req = node.req;',
    );
  }
  if (usesQuery) {
    imports.add('querystring');
    declarations.push('const query = querystring.parse(new URL(request.url).search.slice(1));');
  }
  if (usesBody) {
    const call = `await jsonBody(request${options.body.kind === 'json' && options.body.options ? `, ${options.body.options}` : ''})`;
    // Express 4's body-parser gave `{}` for a body it did not parse; jsonBody gives undefined, as Express 5 does.
    declarations.push(`const body = ${options.major < 5 ? `(${call}) ?? {}` : call};`);
  }
  if (declarations.length > 0) {
    // At the indentation of the handler's own lines, which the caller takes off with the rest.
    const lineStart = source.lastIndexOf('\n', handler.start! - 1) + 1;
    const base = /^[ \t]*/.exec(source.slice(lineStart))![0];
    const indent = `${base}  `;
    const lines = declarations.map((d) => indent + d).join('\n');
    if (thrownBody) body = `{\n${lines}\n${indent}${thrownBody}\n${base}}`;
    else if (bodyNode.type === 'BlockStatement')
      body = `{\n${lines}${body.slice(1).startsWith('\n') ? '' : '\n'}${body.slice(1)}`;
    else body = `{\n${lines}\n${indent}return ${body};\n${base}}`;
  }

  const contextNames = [...(usesParams ? ['params'] : []), ...(readsNode ? ['node'] : [])];
  const needsRequest = /\brequest\b/.test(body) || contextNames.length > 0;
  let parameters = '';
  if (needsRequest) {
    parameters = ts ? 'request: Request' : 'request';
    if (contextNames.length > 0) {
      const context = `{ ${contextNames.join(', ')} }`;
      if (ts) imports.add('EndpointContext');
      parameters += ts ? `, ${context}: EndpointContext${paramsType(options.params)}` : `, ${context}`;
    }
  }
  const isAsync = handler.async || usesBody;
  const code =
    handler.type === 'ArrowFunctionExpression'
      ? `${isAsync ? 'async ' : ''}(${parameters}) => ${body}`
      : `${isAsync ? 'async ' : ''}function ${handler.id ? handler.id.name : ''}(${parameters}) ${body}`;
  const arity = contextNames.length > 0 ? 2 : needsRequest ? 1 : 0;
  return { kind: 'rewritten', code, imports, readsNode, arity };
}

/**
 * Each statement that only sets (`res.status(201);`) joins the answers after it in its own block, in front of
 * their own calls, as Express applies it to whatever answers next; the statement itself goes. One in a loop, or
 * followed by an answer outside its block (which runs whether it ran or not), is not rewritten. Returns the
 * edits that remove the statements, or why not.
 */
function gatherSetters(setters: Answer[], answers: Answer[], source: string): Edit[] | string {
  const edits: Edit[] = [];
  for (const setter of [...setters].sort((a, b) => b.holder.start! - a.holder.start!)) {
    const path = setter.setter!;
    const block = path[path.length - 1];
    const name = setter.calls[0]!.name;
    if (block?.type !== 'BlockStatement' || path.some((node) => LOOPS.test(node.type)))
      return `it calls res.${name}() where it may run more than once, or not at all`;
    for (const answer of answers) {
      if (answer.holder.start! < setter.holder.end!) continue;
      if (answer.holder.start! < block.start! || answer.holder.end! > block.end!)
        return `it calls res.${name}() in one block and answers outside it`;
      answer.calls = [...setter.calls, ...answer.calls];
    }
    // The statement's line goes with it when nothing else is on it.
    let start = setter.holder.start!;
    let end = setter.holder.end!;
    const lineStart = source.lastIndexOf('\n', start - 1) + 1;
    const lineEnd = source.indexOf('\n', end);
    if (/^[ \t]*$/.test(source.slice(lineStart, start)) && /^[ \t]*$/.test(source.slice(end, lineEnd))) {
      start = lineStart;
      end = lineEnd + 1;
    }
    edits.push({ start, end, text: '' });
  }
  return edits;
}

/** `<{ id: string; path: string[] }>`, the type argument of EndpointContext for a folder's params. */
export function paramsType(params: RewriteOptions['params']): string {
  if (params.length === 0) return '';
  return `<{ ${params.map((p) => `${/^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : quote(p.name)}: ${p.catchAll ? 'string[]' : 'string'}`).join('; ')} }>`;
}

/** A chain of calls on `res`; `setter`: a statement that only sets (status, headers), with what holds it. */
interface Answer {
  top: Node;
  holder: Node;
  calls: { name: string; args: Node[] }[];
  setter?: Node[];
}

/** What a statement of its own may call on `res` before the answer: each sets a part of it. */
const SETTERS = new Set(['status', 'set', 'header', 'type', 'location', 'vary', 'cookie', 'clearCookie']);
const LOOPS = /^(For|ForIn|ForOf|While|DoWhile)Statement$/;

/**
 * `res.status(201).set('x', '1').json(x)`: the chain on `res`, up to the call that answers, and the
 * statement it is (or the arrow's body); or a statement that only sets, such as `res.status(201);`.
 */
function readAnswer(id: Node, ancestors: Node[], handler: Node): Answer | string {
  const calls: { name: string; args: Node[] }[] = [];
  let current: Node = id;
  let i = ancestors.length - 1;
  for (;;) {
    const member = ancestors[i];
    const call = ancestors[i - 1];
    if (member?.type !== 'MemberExpression' || member.object !== current || member.computed) break;
    if (call?.type !== 'CallExpression' || call.callee !== member) {
      return `it reads res.${(member.property as { name?: string }).name ?? '…'}`;
    }
    calls.push({ name: (member.property as { name: string }).name, args: call.arguments as Node[] });
    current = call;
    i -= 2;
  }
  if (calls.length === 0) return 'it hands res to other code';
  const last = calls[calls.length - 1]!;
  const holder = ancestors[i];
  if (!ANSWERS.has(last.name)) {
    // `res.status(201);` or `res.cookie(…);` as a statement of its own: it sets what a later answer sends.
    if (holder?.type === 'ExpressionStatement' && calls.every((call) => SETTERS.has(call.name)))
      return { top: current, holder, calls, setter: ancestors.slice(0, i) };
    return `it answers with res.${last.name}(), which the command does not rewrite`;
  }
  if (
    (holder === handler && (handler as { body: Node }).body === current) ||
    holder?.type === 'ExpressionStatement' ||
    (holder?.type === 'ReturnStatement' && holder.argument === current)
  ) {
    return { top: current, holder: holder!, calls };
  }
  return `it answers inside an expression (${holder?.type ?? 'unknown'})`;
}

/** The Response a chain of `res` calls answers with; a string starting with `!` says why it cannot. */
function buildResponse(
  calls: { name: string; args: Node[] }[],
  inner: (node: Node) => string,
  major: number,
): string {
  let status: string | undefined;
  let type: string | undefined;
  const headers: [string, string][] = [];
  const vary: string[] = [];
  /** One header of res.set(); a `!` and why not. */
  const setHeader = (name: string, field: string | undefined, value: Node): string | undefined => {
    const key = field?.toLowerCase();
    if (key === undefined) return `!it sets a header by a computed name (res.${name}())`;
    if (key !== 'content-type') headers.push([key, inner(value)]);
    else if ((type = literalKey(value)) === undefined)
      return '!it sets a Content-Type known only when it runs';
    return undefined;
  };
  for (const { name, args } of calls.slice(0, -1)) {
    if (name === 'status' && args.length === 1) status = inner(args[0]!);
    else if (HEADER_METHODS.has(name) && args.length === 2) {
      const refused = setHeader(name, literalKey(args[0]!), args[1]!);
      if (refused) return refused;
    } else if (name === 'set' && args.length === 1 && args[0]!.type === 'ObjectExpression') {
      // res.set({ … }) sets each field as res.set(field, value) does.
      for (const property of args[0]!.properties as Node[]) {
        if (property.type !== 'ObjectProperty' || property.computed)
          return '!it sets headers by names known only when it runs (res.set())';
        const refused = setHeader(name, literalKeyOf(property.key as Node), property.value as Node);
        if (refused) return refused;
      }
    } else if (name === 'type' && args.length === 1) {
      const value = literalKey(args[0]!);
      const looked = value === undefined ? false : value.includes('/') ? value : mime.contentType(value);
      if (!looked) return '!it sets a type known only when it runs (res.type())';
      type = looked;
    } else if (name === 'location' && args.length === 1) headers.push(['location', inner(args[0]!)]);
    else if (name === 'vary' && args.length === 1) {
      const fields = varyFields(args[0]!);
      if (fields === undefined) return '!it varies on a field known only when it runs (res.vary())';
      vary.push(...fields.filter((field) => !vary.some((had) => had.toLowerCase() === field.toLowerCase())));
    } else if (name === 'cookie' || name === 'clearCookie') {
      const cookie = setCookie(name === 'clearCookie', args, inner);
      if (cookie.startsWith('!')) return cookie;
      headers.push(['set-cookie', cookie]);
    } else return `!it calls res.${name}(), which the command does not rewrite`;
  }
  if (vary.length > 0) headers.push(['vary', quote(vary.join(', '))]);
  const { name, args } = calls[calls.length - 1]!;
  const init = (extra: [string, string][] = [], statusOverride?: string) => {
    const all = [...extra, ...headers];
    const parts = [
      ...((statusOverride ?? status) ? [`status: ${statusOverride ?? status}`] : []),
      ...(all.length > 0 ? [`headers: ${headersInit(all)}`] : []),
    ];
    return parts.length > 0 ? `{ ${parts.join(', ')} }` : '';
  };
  const withInit = (head: string, extra?: [string, string][], statusOverride?: string) => {
    const i = init(extra, statusOverride);
    return i ? `${head}, ${i})` : `${head})`;
  };
  const utf8 = (value: string) => quote(`${value.replace(/;\s*charset=[^;]*/i, '')}; charset=utf-8`);
  const json = (value: Node) =>
    withInit(`Response.json(${inner(value)}`, [['content-type', utf8(type ?? 'application/json')]]);
  switch (name) {
    case 'json':
      if (args.length !== 1) return '!it calls res.json() with other than one value';
      return json(args[0]!);
    case 'send': {
      if (args.length === 0)
        return withInit('new Response(null', type ? [['content-type', quote(type)]] : []);
      const value = args[0]!;
      if (args.length !== 1) return '!it calls res.send() with more than one value';
      if (value.type === 'ObjectExpression' || value.type === 'ArrayExpression') return json(value);
      if (value.type === 'StringLiteral' || value.type === 'TemplateLiteral') {
        return withInit(`new Response(${inner(value)}`, [['content-type', utf8(type ?? 'text/html')]]);
      }
      // Its kind (text, bytes, an object) is known only when it runs: the module's sendValue answers as
      // res.send did (sendValueFunction).
      return withInit(`sendValue(${inner(value)}`, type ? [['content-type', quote(type)]] : []);
    }
    case 'end':
      if (args.length > 0) return '!it writes a body with res.end()';
      if (type) return '!it sets a type on a body it ends empty';
      return withInit('new Response(null');
    case 'sendStatus': {
      const code = args.length === 1 && args[0]!.type === 'NumericLiteral' ? args[0]!.value : undefined;
      if (code === undefined) return '!it calls res.sendStatus() with a status known only when it runs';
      const empty = code === 204 || code === 304;
      const statusText = STATUS_TEXTS[code];
      if (statusText === undefined && !empty)
        return `!it calls res.sendStatus(${code}), whose text the command does not know`;
      const body = empty ? 'null' : quote(statusText!);
      return withInit(
        `new Response(${body}`,
        empty ? [] : [['content-type', quote('text/plain; charset=utf-8')]],
        String(code),
      );
    }
    case 'redirect': {
      const [first, second] = args;
      if (!first || args.length > 2) return '!it calls res.redirect() with other than a URL and a status';
      const [code, url] = second ? [inner(first), second] : ['302', first];
      if (major < 5 && second && first.type !== 'NumericLiteral')
        return '!it calls res.redirect(url, status), an Express 3 form';
      return withInit('new Response(null', [['location', inner(url)]], code);
    }
    case 'sendFile':
    case 'download': {
      const before = calls[calls.length - 2];
      if (before) return `!it calls res.${before.name}() before res.${name}()`;
      const file = fileAnswer(name, args, inner);
      return file.startsWith('!') ? file : `sendFile(request, ${file})`;
    }
    default:
      return `!it calls res.${name}()`;
  }
}

/**
 * sendFile's arguments after the request for res.sendFile(path, options) or res.download(path, filename,
 * options): options only as an object literal of send's options, a file name only as a string the code
 * writes (a literal, a template, a `+`), since either may as well be a callback; a `!` and why not.
 */
function fileAnswer(name: 'sendFile' | 'download', args: Node[], inner: (node: Node) => string): string {
  const [file, ...rest] = args;
  if (!file || file.type === 'SpreadElement') return `!it calls res.${name}() without a path`;
  let filename: Node | undefined;
  if (name === 'download' && rest[0] && rest[0].type !== 'ObjectExpression') filename = rest.shift();
  const [options, ...more] = rest;
  if (more.length > 0) return `!it calls res.${name}() with more arguments than the command reads`;
  if (filename && !/^(StringLiteral|TemplateLiteral|BinaryExpression)$/.test(filename.type))
    return `!its file name for res.download() may be a callback or options, known only when it runs`;
  const written: string[] = [];
  if (name === 'download') written.push(`download: ${filename ? inner(filename) : 'true'}`);
  if (options) {
    if (options.type !== 'ObjectExpression')
      return `!it calls res.${name}() with options known only when it runs, or a callback`;
    for (const property of options.properties as Node[]) {
      const key =
        property.type === 'ObjectProperty' && !property.computed
          ? literalKeyOf(property.key as Node)
          : undefined;
      if (key === undefined || !FILE_OPTIONS.has(key))
        return `!it calls res.${name}() with an option the command does not carry over (${key ?? '…'})`;
      written.push(inner(property));
    }
  }
  return written.length === 0 ? inner(file) : `${inner(file)}, { ${written.join(', ')} }`;
}

/** `(err) => { if (err) next(err); }`, `(err) => err && next(err)` and the like: errors to next, nothing else. */
function isForwarding(callback: Node, nextName: string | undefined): boolean {
  if (nextName === undefined) return false;
  if (callback.type !== 'ArrowFunctionExpression' && callback.type !== 'FunctionExpression') return false;
  const [param, ...others] = callback.params;
  if (param?.type !== 'Identifier' || others.length > 0 || callback.async) return false;
  const error = param.name;
  const isNextCall = (node: Node | null | undefined): boolean => {
    if (node?.type === 'ExpressionStatement') return isNextCall(node.expression);
    if (node?.type === 'ReturnStatement') return isNextCall(node.argument);
    if (node?.type === 'BlockStatement') return node.body.length === 1 && isNextCall(node.body[0]);
    return (
      node?.type === 'CallExpression' &&
      node.callee.type === 'Identifier' &&
      node.callee.name === nextName &&
      node.arguments.length === 1 &&
      node.arguments[0]!.type === 'Identifier' &&
      node.arguments[0]!.name === error
    );
  };
  const guarded = (node: Node | null | undefined): boolean =>
    node?.type === 'IfStatement'
      ? node.test.type === 'Identifier' &&
        node.test.name === error &&
        !node.alternate &&
        isNextCall(node.consequent)
      : node?.type === 'LogicalExpression'
        ? node.operator === '&&' &&
          node.left.type === 'Identifier' &&
          node.left.name === error &&
          isNextCall(node.right)
        : node?.type === 'ExpressionStatement'
          ? guarded(node.expression)
          : false;
  const body = callback.body;
  return body.type === 'BlockStatement' ? body.body.length === 1 && guarded(body.body[0]) : guarded(body);
}

/**
 * The function a module whose handlers `res.send(value)` gets once: what Express's res.send answers for each kind
 * of value, decided when it runs. A Content-Type set before it stays, as res.send keeps it.
 */
export function sendValueFunction(typescript: boolean, major: number): string {
  const t = (text: string) => (typescript ? text : '');
  return [
    '// res.send(value), as Express answered it: a string as HTML, bytes as they are, null as nothing, anything',
    `// else as JSON${major < 5 ? ', and a number as a status with its text (Express 4)' : ''}.`,
    `function sendValue(value${t(': unknown')}, init${t(': ResponseInit')} = {})${t(': Response')} {`,
    '  const headers = new Headers(init.headers);',
    "  let type = headers.get('content-type');",
    `  let body${t(': BodyInit | null')};`,
    ...(major < 5
      ? [
          "  if (typeof value === 'number') {",
          '    init = { ...init, status: value };',
          '    body = STATUS_CODES[value] ?? String(value);',
          "    type ??= 'text/plain';",
          '  } else if (value === null || value === undefined) {',
        ]
      : ['  if (value === null || value === undefined) {']),
    '    body = null; // Express sends nothing for both, with no Content-Type',
    '  } else if (ArrayBuffer.isView(value)) {',
    `    body = value${t(' as BodyInit')};`,
    "    type ??= 'application/octet-stream';",
    "  } else if (typeof value === 'string') {",
    '    body = value;',
    "    type ??= 'text/html';",
    '  } else {',
    '    body = JSON.stringify(value);',
    "    type ??= 'application/json';",
    '  }',
    // Express 4 sends null as an empty text, whose Content-Type, if one was set, gets the charset too.
    `  if (${major < 5 ? "(typeof body === 'string' || value === null)" : "typeof body === 'string'"} && type)`,
    "    type = `${type.replace(/;\\s*charset=[^;]*/i, '')}; charset=utf-8`;",
    "  if (type) headers.set('content-type', type);",
    '  return new Response(body, { ...init, headers });',
    '}',
  ].join('\n');
}

/** An object of the headers; pairs where a name comes twice (each cookie is a Set-Cookie of its own). */
function headersInit(all: readonly [string, string][]): string {
  const names = all.map(([name]) => name);
  if (new Set(names).size === names.length)
    return `{ ${all.map(([k, v]) => `${quote(k)}: ${v}`).join(', ')} }`;
  return `[${all.map(([k, v]) => `[${quote(k)}, ${v}]`).join(', ')}]`;
}

/** The fields of `res.vary(field)`: a literal name, a comma list, or an array of them. */
function varyFields(node: Node): string[] | undefined {
  const items = node.type === 'ArrayExpression' ? (node.elements as Node[]) : [node];
  const fields: string[] = [];
  for (const item of items) {
    const value = item ? literalKey(item) : undefined;
    if (value === undefined) return undefined;
    fields.push(
      ...value
        .split(',')
        .map((field) => field.trim())
        .filter(Boolean),
    );
  }
  return fields;
}

/** Options of res.cookie the command writes out, by the type of literal each takes. */
const COOKIE_OPTIONS: Record<string, 'NumericLiteral' | 'StringLiteral' | 'BooleanLiteral' | 'sameSite'> = {
  maxAge: 'NumericLiteral',
  domain: 'StringLiteral',
  path: 'StringLiteral',
  httpOnly: 'BooleanLiteral',
  secure: 'BooleanLiteral',
  sameSite: 'sameSite',
};
const SAME_SITE: Record<string, string> = { lax: 'Lax', strict: 'Strict', none: 'None' };
/** `new Date(1)`, the date res.clearCookie sets. */
const EPOCH = new Date(1).toUTCString();

/**
 * The Set-Cookie value res.cookie(name, value, options) or res.clearCookie(name, options) appends, as an
 * expression: Express's own steps (a value that is an object sent as `j:` and its JSON, `maxAge` as Max-Age and
 * an Expires that far from now, Path `/` by default), then the `cookie` package's order of attributes. Only a
 * literal name and literal options are written out; a string starting with `!` says why not.
 */
function setCookie(clear: boolean, args: Node[], inner: (node: Node) => string): string {
  // res.cookie(name, value, options?), res.clearCookie(name, options?)
  const fewest = clear ? 1 : 2;
  if (args.length < fewest || args.length > fewest + 1)
    return `!it calls res.${clear ? 'clearCookie' : 'cookie'}() with other arguments`;
  const [nameNode, valueNode, optionsNode] = clear ? [args[0], undefined, args[1]] : args;
  const name = literalKey(nameNode!);
  if (name === undefined || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name))
    return `!it sets a cookie whose name is known only when it runs`;
  const options: Record<string, string | number | boolean> = {};
  if (optionsNode) {
    if (optionsNode.type !== 'ObjectExpression')
      return '!it sets a cookie with options known only when it runs';
    for (const property of optionsNode.properties as Node[]) {
      const key =
        property.type === 'ObjectProperty' && !property.computed
          ? literalKeyOf(property.key as Node)
          : undefined;
      const kind = key === undefined ? undefined : COOKIE_OPTIONS[key];
      const value = property.type === 'ObjectProperty' ? (property.value as Node) : undefined;
      if (key === undefined || kind === undefined || value === undefined || (clear && key === 'maxAge'))
        return `!it sets a cookie with an option the command does not write out (${key ?? '…'})`;
      const literal =
        kind === 'sameSite'
          ? value.type === 'BooleanLiteral' || value.type === 'StringLiteral'
            ? value.value
            : undefined
          : value.type === kind
            ? (value as { value: string | number | boolean }).value
            : undefined;
      if (literal === undefined) return `!it sets a cookie's ${key} known only when it runs`;
      options[key] = literal;
    }
  }
  const text = (part: string) => part.replace(/[`\\$]/g, (c) => `\\${c}`);
  let value: string;
  if (clear) value = '';
  else if (valueNode!.type === 'StringLiteral' || valueNode!.type === 'NumericLiteral')
    value = text(encodeURIComponent(String(valueNode!.value)));
  else if (valueNode!.type === 'Identifier' || valueNode!.type === 'MemberExpression') {
    const v = inner(valueNode!);
    value = `\${encodeURIComponent(typeof ${v} === 'object' ? 'j:' + JSON.stringify(${v}) : String(${v}))}`;
  } else return '!it sets a cookie to a value the command does not write out';
  let cookie = `${name}=${value}`;
  let expires: string | undefined = clear ? text(EPOCH) : undefined;
  if (typeof options.maxAge === 'number') {
    cookie += `; Max-Age=${Math.floor(options.maxAge / 1000)}`;
    expires = `\${new Date(Date.now() + ${options.maxAge}).toUTCString()}`;
  }
  if (options.domain !== undefined) cookie += `; Domain=${text(String(options.domain))}`;
  cookie += `; Path=${text(String(options.path ?? '/'))}`;
  if (expires !== undefined) cookie += `; Expires=${expires}`;
  if (options.httpOnly === true) cookie += '; HttpOnly';
  if (options.secure === true) cookie += '; Secure';
  const sameSite = options.sameSite;
  if (sameSite === true) cookie += '; SameSite=Strict';
  else if (typeof sameSite === 'string') {
    const word = SAME_SITE[sameSite.toLowerCase()];
    if (word === undefined) return `!it sets a cookie's sameSite to ${sameSite}, which Express refuses`;
    cookie += `; SameSite=${word}`;
  }
  return `\`${cookie}\``;
}

function literalKeyOf(node: Node): string | undefined {
  return node.type === 'Identifier' ? node.name : literalKey(node);
}

/** The text of `node` with the edits inside it applied, in order. */
function render(source: string, start: number, end: number, edits: readonly Edit[]): string {
  const inside = edits.filter((e) => e.start >= start && e.end <= end).sort((a, b) => a.start - b.start);
  let out = '';
  let at = start;
  for (const edit of inside) {
    if (edit.start < at) continue; // inside an edit already applied
    out += source.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + source.slice(at, end);
}

function literalKey(node: Node): string | undefined {
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'NumericLiteral') return String(node.value);
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]!.value.cooked ?? undefined;
  return undefined;
}

export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

function isPropertyName(id: Node, parent: Node): boolean {
  if (
    (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') &&
    parent.property === id
  )
    return !parent.computed;
  if (
    (parent.type === 'ObjectProperty' || parent.type === 'ObjectMethod') &&
    parent.key === id &&
    !parent.computed
  ) {
    return !(parent.type === 'ObjectProperty' && parent.shorthand);
  }
  return false;
}

/** The nearest function around a node inside the handler's body, if any. */
function nearestFunction(ancestors: readonly Node[]): Node | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i]!;
    if (/Function|ObjectMethod|ClassMethod/.test(node.type)) return node;
  }
  return undefined;
}

function visitAncestors(root: Node, fn: (node: Node, ancestors: Node[]) => void): void {
  const ancestors: Node[] = [];
  const step = (node: Node) => {
    fn(node, ancestors);
    ancestors.push(node);
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key.endsWith('Comments') || key === 'extra' || key === 'typeAnnotation') continue;
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (item && typeof item === 'object' && 'type' in item) step(item as Node);
      } else if (value && typeof value === 'object' && 'type' in value) step(value as Node);
    }
    ancestors.pop();
  };
  step(root);
}
