// GET /small: the file bench's 1 MiB file (bench/files.ts), sent as a handler moved from res.sendFile sends it.
import { sendFile } from '../../../../src';

export function GET(request: Request) {
  return sendFile(request, process.env.SMALL_FILE!);
}
