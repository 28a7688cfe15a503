/**
 * `readForm(request, options)`: a whole multipart/form-data body as its entries, read through
 * `multipart()` under its limits, for what wants a form at once (a contract's `body`): a field's value
 * as a string, a file as a `File`. Where its temporary file can be removed once the request is over
 * (a mount serves the request, or `after` is given), a file is written to one and the `File` reads
 * from it (`fs.openAsBlob`), so a form of large files costs disk, not memory; otherwise it is held in
 * memory, within its limit. `request.formData()` holds every file in memory, whatever its size.
 */
import { openAsBlob } from 'node:fs';
import { isServedRequest } from '../dispatch';
import { multipart, type MultipartOptions } from './multipart';
import { saveFile } from './save-file';

/** The entries in the order they came, as `FormData` gives them. */
export type FormEntries = [name: string, value: string | File][];

export interface ReadFormOptions extends MultipartOptions {
  /** The folder of the temporary files. Default `os.tmpdir()`. */
  directory?: string;
}

export async function readForm(request: Request, options: ReadFormOptions = {}): Promise<FormEntries> {
  const onDisk = options.after !== undefined || isServedRequest(request);
  const entries: FormEntries = [];
  for await (const part of multipart(request, options)) {
    if (part.filename === undefined) {
      entries.push([part.name, await part.text()]);
      continue;
    }
    const contents = onDisk
      ? await openAsBlob((await saveFile(part, { hash: false, directory: options.directory })).path)
      : await part.bytes();
    entries.push([part.name, new File([contents], part.filename, { type: part.type })]);
  }
  return entries;
}
