/**
 * cork()/uncork() kept with the chunks they surround while a capture holds the chain's writes:
 * Node 26 sends what was written between them as one chunk, so the replay corks at the same
 * places. The chain never corks the real response. Node's own write() corks it through
 * `this.cork()` and uncorks on the next tick, when the bridge is no longer writing: those calls
 * are counted and go through.
 */
export const CORK_BEFORE = 1;
export const UNCORK_AFTER = 2;

export class CorkMarks {
  /** Chunk → CORK_BEFORE and/or UNCORK_AFTER. */
  readonly marks = new Map<Uint8Array, number>();
  #realCorks = 0;
  #depth = 0;
  #markNext = false;
  #last: Uint8Array | undefined;

  /** A chunk the chain wrote. */
  wrote(chunk: Uint8Array): void {
    if (this.#markNext) this.marks.set(chunk, CORK_BEFORE);
    this.#markNext = false;
    this.#last = chunk;
  }

  /** res.cork(): `real` while the bridge itself writes. Returns whether to cork the real res. */
  cork(real: boolean): boolean {
    if (real) {
      this.#realCorks++;
      return true;
    }
    if (this.#depth++ === 0) this.#markNext = true;
    return false;
  }

  /** res.uncork(): returns whether to uncork the real res. */
  uncork(real: boolean): boolean {
    if (real || this.#realCorks > 0) {
      this.#realCorks = Math.max(0, this.#realCorks - 1);
      return true;
    }
    if (this.#depth === 0 || --this.#depth > 0) return false;
    if (!this.#markNext && this.#last) {
      this.marks.set(this.#last, (this.marks.get(this.#last) ?? 0) | UNCORK_AFTER);
    }
    this.#markNext = false;
    return false;
  }
}
