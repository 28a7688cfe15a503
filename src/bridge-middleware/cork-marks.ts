/**
 * cork()/uncork() kept with the chunks they surround while a capture holds the chain's writes:
 * Node 26 sends what was written between them as one chunk, so the replay corks at the same
 * places. The chain never corks the real response. Node's own write() corks it through
 * `this.cork()` and uncorks on the next tick, when the bridge is no longer writing: those calls
 * are counted and go through.
 */
export const CORK_BEFORE = 1;
export const UNCORK_AFTER = 2;

export interface CorkMarks {
  /** Chunk → CORK_BEFORE and/or UNCORK_AFTER. */
  marks: Map<Uint8Array, number>;
  /** A chunk the chain wrote. */
  wrote(chunk: Uint8Array): void;
  /** res.cork(): `real` while the bridge itself writes. Returns whether to cork the real res. */
  cork(real: boolean): boolean;
  /** res.uncork(): returns whether to uncork the real res. */
  uncork(real: boolean): boolean;
}

export function corkMarks(): CorkMarks {
  const marks = new Map<Uint8Array, number>();
  let realCorks = 0;
  let depth = 0;
  let markNext = false;
  let last: Uint8Array | undefined;
  return {
    marks,
    wrote(chunk) {
      if (markNext) marks.set(chunk, CORK_BEFORE);
      markNext = false;
      last = chunk;
    },
    cork(real) {
      if (real) return ++realCorks > 0;
      if (depth++ === 0) markNext = true;
      return false;
    },
    uncork(real) {
      if (real || realCorks > 0) {
        realCorks = Math.max(0, realCorks - 1);
        return true;
      }
      if (depth === 0 || --depth > 0) return false;
      if (!markNext && last) marks.set(last, (marks.get(last) ?? 0) | UNCORK_AFTER);
      markNext = false;
      return false;
    },
  };
}
