/**
 * Whether a handler can see what it is called with. One declared without parameters that never
 * reads `arguments` cannot (`export function GET() { return Response.json(data) }`), so the Node
 * bridge builds no Request for it: it is called with nothing, exactly what it declared. Anything
 * unclear counts as taking them: a bound or native function, a rest or default parameter (both
 * leave `length` at 0), a comment in the parameter list, or the word `arguments` anywhere in it.
 */
export function takesArguments(fn: (...args: never[]) => unknown): boolean {
  if (fn.length !== 0) return true;
  const source = Function.prototype.toString.call(fn);
  if (source.includes('[native code]') || /\barguments\b/.test(source)) return true;
  const open = source.indexOf('(');
  const close = open === -1 ? -1 : source.indexOf(')', open);
  return close === -1 || source.slice(open + 1, close).trim() !== '';
}
