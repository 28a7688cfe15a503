/**
 * Reports of one cause, at most one a second: the first at once, then, while more keep coming, one
 * a second telling how many came meanwhile. A backplane hands over whatever anyone put on its
 * channel, and a flood of malformed messages must not become a flood of log lines.
 */
const WINDOW_MS = 1000;

export class ThrottledReport {
  #timer: NodeJS.Timeout | undefined;
  #held = 0;
  #last: unknown;

  constructor(private readonly tell: (error: unknown, count: number) => void) {}

  report(error: unknown): void {
    if (this.#timer !== undefined) {
      this.#held++;
      this.#last = error;
      return;
    }
    this.tell(error, 1);
    this.#open();
  }

  /** Tells what is held, and reports nothing more. */
  close(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flush();
  }

  #open(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // Quiet for a whole window: the next report is told at once again.
      if (this.#flush()) this.#open();
    }, WINDOW_MS);
    // Reports are no reason for the process to stay up.
    this.#timer.unref();
  }

  #flush(): boolean {
    if (this.#held === 0) return false;
    const count = this.#held;
    this.#held = 0;
    this.tell(this.#last, count);
    this.#last = undefined;
    return true;
  }
}
