/**
 * A minimal MIME writer and reader for the email action: a multipart/mixed message with a text part
 * and attachments in base64, quoted-printable or 7bit, and the reverse, enough for the sink to check
 * the subject and each attachment's bytes.
 */
import crypto from 'node:crypto';

export interface Attachment {
  name: string;
  data: Buffer;
  encoding: string;
}

const CRLF = '\r\n';

/** RFC 2047 for a header value that is not plain ASCII. */
const headerText = (v: string) => (/^[\x20-\x7e]*$/.test(v) ? v : `=?UTF-8?B?${Buffer.from(v, 'utf8').toString('base64')}?=`);

function decodeHeaderText(v: string): string {
  return v.replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/gi, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
}

export function encodeQuotedPrintable(data: Buffer): string {
  let out = '';
  let line = 0;
  for (const byte of data) {
    const literal = byte >= 33 && byte <= 126 && byte !== 61;
    const piece = literal ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (line + piece.length > 75) {
      out += `=${CRLF}`;
      line = 0;
    }
    out += piece;
    line += piece.length;
  }
  return out;
}

export function decodeQuotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft.charCodeAt(i);
    if (c === 61 && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(c & 0xff);
  }
  return Buffer.from(bytes);
}

function encodeBody(data: Buffer, encoding: string): string {
  if (encoding === 'quoted-printable') return encodeQuotedPrintable(data);
  if (encoding === '7bit') return data.toString('latin1');
  return (data.toString('base64').match(/.{1,76}/g) ?? []).join(CRLF);
}

function decodeBody(text: string, encoding: string): Buffer {
  const e = encoding.toLowerCase();
  if (e === 'quoted-printable') return decodeQuotedPrintable(text);
  if (e === 'base64') return Buffer.from(text.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  return Buffer.from(text, 'latin1');
}

/** The message as sent over SMTP (before dot-stuffing), latin1 so binary 7bit bytes pass unchanged. */
export function buildMessage(m: { from: string; to: string; subject: string; body: string; mime: string; attachments: Attachment[] }): Buffer {
  const boundary = `vigil-${crypto.randomBytes(12).toString('hex')}`;
  const head = [
    `From: <${m.from}>`,
    `To: <${m.to}>`,
    `Subject: ${headerText(m.subject)}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${crypto.randomBytes(8).toString('hex')}@vigil.actor>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
  ];
  const parts = [
    [`Content-Type: ${m.mime === 'text/html' ? 'text/html' : 'text/plain'}; charset=utf-8`, 'Content-Transfer-Encoding: base64', '', encodeBody(Buffer.from(m.body, 'utf8'), 'base64')].join(CRLF),
    ...m.attachments.map((a) =>
      [
        `Content-Type: application/octet-stream; name="${a.name.replace(/["\\\r\n]/g, '_')}"`,
        `Content-Disposition: attachment; filename="${a.name.replace(/["\\\r\n]/g, '_')}"`,
        `Content-Transfer-Encoding: ${a.encoding}`,
        '',
        encodeBody(a.data, a.encoding),
      ].join(CRLF),
    ),
  ];
  const text = `${head.join(CRLF)}${CRLF}${CRLF}${parts.map((p) => `--${boundary}${CRLF}${p}${CRLF}`).join('')}--${boundary}--${CRLF}`;
  return Buffer.from(text, 'latin1');
}

function splitHead(text: string): { headers: Map<string, string>; body: string } {
  const end = text.indexOf(`${CRLF}${CRLF}`);
  const head = end >= 0 ? text.slice(0, end) : text;
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split(CRLF)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return { headers, body: end >= 0 ? text.slice(end + 4) : '' };
}

const param = (header: string, name: string) => new RegExp(`${name}="?([^";]+)"?`, 'i').exec(header)?.[1] ?? null;

/** The subject and the decoded attachments of a received message. */
export function readMessage(raw: Buffer): { subject: string; attachments: { name: string; sha256: string; size: number }[] } {
  const { headers, body } = splitHead(raw.toString('latin1'));
  const subject = decodeHeaderText(Buffer.from(headers.get('subject') ?? '', 'latin1').toString('utf8'));
  const boundary = param(headers.get('content-type') ?? '', 'boundary');
  const attachments: { name: string; sha256: string; size: number }[] = [];
  if (!boundary) return { subject, attachments };
  for (const part of body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const p = splitHead(part.replace(/^\r\n/, ''));
    const disposition = p.headers.get('content-disposition') ?? '';
    if (!/attachment/i.test(disposition)) continue;
    const data = decodeBody(p.body.replace(/\r\n$/, ''), p.headers.get('content-transfer-encoding') ?? '7bit');
    attachments.push({ name: param(disposition, 'filename') ?? '', sha256: crypto.createHash('sha256').update(data).digest('hex'), size: data.length });
  }
  return { subject, attachments };
}

/** SMTP transparency: a line starting with '.' gets another one; the reader removes it. */
export const dotStuff = (msg: Buffer) => Buffer.from(msg.toString('latin1').replace(/(^|\r\n)\./g, '$1..'), 'latin1');
export const dotUnstuff = (data: Buffer) => Buffer.from(data.toString('latin1').replace(/(^|\r\n)\.\./g, '$1.'), 'latin1');
