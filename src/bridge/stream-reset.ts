/**
 * The one test of "the client reset its HTTP/2 stream", for the request and the response alike.
 * Node's compatibility API then marks the request `complete` (its body ended, as it would had all of it
 * come) and the response finished; only the stream's `aborted` tells them apart.
 */
export function isStreamReset(message: object): boolean {
  return (message as { stream?: { aborted?: boolean } }).stream?.aborted === true;
}
