/**
 * A JSON body nested 20,000 deep, and whether this Node can encode it again: Node 26's
 * JSON.stringify handles any depth; before it, this one overflows the stack.
 */
export const deepJson = '['.repeat(20_000) + ']'.repeat(20_000);

export const reencodesDeepJson = (() => {
  try {
    JSON.stringify(JSON.parse(deepJson));
    return true;
  } catch {
    return false;
  }
})();
