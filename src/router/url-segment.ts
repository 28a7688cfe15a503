/**
 * How a static folder name is written in a URL path: its canonical percent-encoding, the form
 * browsers send and the URL parser produces (`café` -> `caf%C3%A9`, `a b` -> `a%20b`). Static
 * segments match only this form, so the tree compares paths as sent, like Express's router does.
 */

// Characters the WHATWG URL parser keeps as they are in a path. Anything else is left to the
// parser itself, so the encoding is the one `new URL()` gives on this Node.
const KEPT_AS_IS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%|[\]]*$/;

export function urlSegment(name: string): string {
  if (KEPT_AS_IS.test(name)) return name;
  // The name stands alone behind a fixed prefix, so only its own characters are encoded.
  // A `\` or a dot segment cannot be one URL segment; validation reports such folders.
  return new URL(`http://h/_/${name}`).pathname.slice(3);
}
