/** A multipart/form-data body for upload tests: text fields (arrays as `name[]`) and one `file_upload`. */
import crypto from 'node:crypto';

export type Field = string | string[];
export interface UploadFile {
  name: string;
  content: Buffer;
}

export function multipart(fields: Record<string, Field>, file?: UploadFile): { payload: Buffer; contentType: string } {
  const boundary = `----vigil${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${Array.isArray(v) ? `${k}[]` : k}"\r\n\r\n${item}\r\n`));
    }
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file_upload"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

