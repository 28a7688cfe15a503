/**
 * How a publication travels through Redis: the channel names the topic, and the message is a
 * small binary envelope, so bytes need no base64 and text no JSON escaping:
 *
 *   byte 0      format version (1)
 *   byte 1      0: the data is UTF-8 text, 1: bytes
 *   byte 2      n, the length of the origin
 *   3 .. 3+n    the publishing mount's origin, ASCII
 *   the rest    the data
 *
 * A message that is not such an envelope (another program publishing on the channel) is refused.
 */
import type { BackplaneMessage } from '../types';

const VERSION = 1;
const TEXT = 0;
const BYTES = 1;

export function encodeEnvelope(message: BackplaneMessage): Buffer {
  const { data, origin } = message;
  const text = typeof data === 'string';
  const payloadLength = text ? Buffer.byteLength(data, 'utf8') : data.byteLength;
  const envelope = Buffer.allocUnsafe(3 + origin.length + payloadLength);
  envelope[0] = VERSION;
  envelope[1] = text ? TEXT : BYTES;
  envelope[2] = origin.length;
  envelope.write(origin, 3, 'latin1');
  const at = 3 + origin.length;
  if (text) envelope.write(data, at, 'utf8');
  else envelope.set(data, at);
  return envelope;
}

/** The publication in `envelope`, sent on `topic`'s channel; `undefined` when it is not one. */
export function decodeEnvelope(topic: string, envelope: Buffer): BackplaneMessage | undefined {
  if (envelope.length < 3 || envelope[0] !== VERSION) return undefined;
  const kind = envelope[1];
  const at = 3 + envelope[2]!;
  if ((kind !== TEXT && kind !== BYTES) || envelope.length < at) return undefined;
  const origin = envelope.toString('latin1', 3, at);
  // Bytes are copied out of the client's read buffer, which it may reuse.
  const data = kind === TEXT ? envelope.toString('utf8', at) : new Uint8Array(envelope.subarray(at));
  return { topic, data, origin };
}
