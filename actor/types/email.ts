/**
 * email: the target runs an SMTP sink on port 25 (or the port it may open instead), the source sends
 * the message (subject, body, mime type, attachments from the file library in their
 * attachment_encoding). The sink checks what arrived against the signed work (the subject and/or
 * each attachment's sha256, after block_matching_scheme) and answers the end of DATA with 250 when
 * intact, 554 when altered. Blocked: refused, reset, timed out, a refusing reply, or altered content.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { CONNECT_TIMEOUT_MS, listenTcp } from '../net-util';
import { Incompatible, type Outcome, type PerformOptions, type TargetHandle } from './contract';
import { ReplyReader } from './replies';
import { servePort } from './serve-port';
import { buildMessage, dotStuff, dotUnstuff, readMessage, type Attachment } from './mime';

export const SMTP_PORT = 25;
const MAX_MESSAGE_BYTES = 24 * 1024 * 1024;
const MAX_LINE_BYTES = 4096;
const DATA_REPLY_TIMEOUT_MS = 30_000;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** What the sink expects, from the signed work. */
function verdict(w: WorkPayload, raw: Buffer): string | null {
  const scheme = str(w.details.block_matching_scheme) || 'subject_and_attachment';
  const got = readMessage(raw);
  const problems: string[] = [];
  if (scheme.includes('subject') && got.subject !== str(w.details.subject)) problems.push('the subject differs');
  if (scheme.includes('attachment')) {
    for (const f of (w.files ?? []).filter((x) => !x.missing)) {
      const seen = got.attachments.find((a) => a.sha256 === f.sha256.toLowerCase());
      if (!seen) problems.push(`attachment ${f.name} ${got.attachments.some((a) => a.name === f.name) ? 'differs' : 'is missing'}`);
    }
  }
  return problems.length ? problems.join(', ') : null;
}

export async function emailTarget(w: WorkPayload, opts: PerformOptions): Promise<TargetHandle> {
  const sockets = new Set<net.Socket>();
  const received: { from: string; bytes: number; verdict: string }[] = [];
  const server = net.createServer((c) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
    c.on('error', () => {});
    c.setTimeout(DATA_REPLY_TIMEOUT_MS, () => c.destroy());
    let buf = Buffer.alloc(0);
    let inData = false;
    const say = (line: string) => c.write(`${line}\r\n`);
    say('220 vigil-sink ESMTP');
    c.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length > MAX_MESSAGE_BYTES) return void c.destroy();
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          const start = buf.subarray(0, 3).equals(Buffer.from('.\r\n')) ? 0 : -1;
          if (end < 0 && start < 0) return;
          const raw = start === 0 ? Buffer.alloc(0) : dotUnstuff(buf.subarray(0, end + 2));
          buf = buf.subarray(start === 0 ? 3 : end + 5);
          inData = false;
          const message = opts.tamper ? opts.tamper('email', raw) : raw;
          const problem = verdict(w, message);
          received.push({ from: c.remoteAddress ?? '', bytes: message.length, verdict: problem ?? 'intact' });
          say(problem ? `554 5.7.0 Message altered: ${problem}` : '250 2.0.0 Message accepted intact');
          continue;
        }
        const eol = buf.indexOf('\r\n');
        if (eol < 0) {
          if (buf.length > MAX_LINE_BYTES) c.destroy();
          return;
        }
        const line = buf.subarray(0, eol).toString('latin1');
        buf = buf.subarray(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') say('250 vigil-sink');
        else if (verb === 'MAIL' || verb === 'RCPT' || verb === 'RSET' || verb === 'NOOP') say('250 2.0.0 OK');
        else if (verb === 'DATA') {
          inData = true;
          say('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          say('221 2.0.0 Bye');
          c.end();
          return;
        } else say('502 5.5.2 Command not recognized');
      }
    });
  });
  return servePort(
    SMTP_PORT,
    (port) => listenTcp(server, w.local_address, port),
    () => received,
    async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
    true,
  );
}

export async function emailSource(w: WorkPayload, signal: AbortSignal, opts: PerformOptions): Promise<Outcome> {
  const host = w.peer_address;
  if (!host) throw new Incompatible('email needs a destination actor.');
  const port = w.port_map?.[String(SMTP_PORT)] ?? SMTP_PORT;
  const d = w.details;
  const attachments: Attachment[] = [];
  const skipped: string[] = [];
  for (const f of w.files ?? []) {
    if (f.missing) {
      skipped.push(f.name);
      continue;
    }
    if (!opts.fetchFile) throw new Incompatible('This actor cannot download attachments from its director.');
    attachments.push({ name: f.name, data: await opts.fetchFile(f.id), encoding: f.attachment_encoding ?? 'base64' });
  }
  const message = buildMessage({ from: `vigil@[${w.local_address}]`, to: `sink@[${host}]`, subject: str(d.subject), body: str(d.body), mime: str(d.mime_text_type), attachments });
  const dialogue: string[] = [];
  const evidence = () => ({
    peer: host,
    port,
    message_bytes: message.length,
    message_sha256: crypto.createHash('sha256').update(message).digest('hex'),
    attachments: attachments.map((a) => ({ name: a.name, encoding: a.encoding, bytes: a.data.length })),
    skipped_missing: skipped,
    dialogue,
  });
  const sock = net.connect({ host, port });
  const reader = new ReplyReader(sock);
  const onAbort = () => sock.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  const connectTimer = setTimeout(() => sock.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })), CONNECT_TIMEOUT_MS);
  sock.once('connect', () => clearTimeout(connectTimer));
  const blocked = (message: string): Outcome => ({ outcome: 'ran', blocked: true, message, evidence: evidence() });
  try {
    const step = async (line: string | null, expect: number, timeoutMs?: number): Promise<string | null> => {
      if (line !== null) {
        sock.write(`${line}\r\n`);
        dialogue.push(`> ${line}`);
      }
      const r = await reader.reply(timeoutMs);
      if (signal.aborted) throw new Error('aborted');
      if ('failure' in r) return `SMTP connection to ${host}:${port} ${r.failure === 'timeout' ? 'timed out' : r.failure}${line ? ` after ${line.split(' ')[0]}` : ''}`;
      dialogue.push(`< ${r.text.slice(0, 300)}`);
      return Math.floor(r.code / 100) === Math.floor(expect / 100) ? null : `The sink answered "${r.text.slice(0, 200)}"`;
    };
    const problem =
      (await step(null, 220)) ??
      (await step(`EHLO [${w.local_address}]`, 250)) ??
      (await step(`MAIL FROM:<vigil@[${w.local_address}]>`, 250)) ??
      (await step(`RCPT TO:<sink@[${host}]>`, 250)) ??
      (await step('DATA', 354));
    if (problem) return blocked(problem);
    sock.write(dotStuff(message));
    sock.write('.\r\n'); // the message ends with CRLF
    dialogue.push(`> (message, ${message.length} bytes)`);
    const end = await step(null, 250, DATA_REPLY_TIMEOUT_MS);
    if (end) return blocked(end);
    sock.write('QUIT\r\n');
    return { outcome: 'ran', blocked: false, message: null, evidence: evidence() };
  } finally {
    clearTimeout(connectTimer);
    signal.removeEventListener('abort', onAbort);
    sock.destroy();
  }
}
