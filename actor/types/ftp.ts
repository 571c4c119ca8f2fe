/**
 * file_transfer over ftp: a minimal passive-mode FTP server on the target (USER, PASS, TYPE, PASV,
 * EPSV, STOR, RETR, QUIT; one file) and the client on the source. The client opens the data
 * connection to the peer's address only (the address in a 227 reply is ignored). After STOR the
 * server's 226 reply carries the sha256 and size of what it received.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS, errorKind } from '../net-util';
import { ReplyReader } from './replies';

const TRANSFER_TIMEOUT_MS = 30_000;

export interface FtpFile {
  /** The name the file is stored and fetched as. */
  name: string;
  /** For RETR: the bytes served; null when the server receives (STOR). */
  served: Buffer | null;
  maxBytes: number;
  /** What the server hands out / how it reads what arrived (an in-path test device). */
  tamper: (data: Buffer) => Buffer;
  /** The received bytes' digest, for STOR. */
  digest: (data: Buffer) => Promise<{ sha256: string; bytes: number }>;
  onReceived: (r: { from: string; bytes: number; sha256?: string }) => void;
}

/** Handles one control connection of the target's FTP server. */
export function ftpSession(c: net.Socket, address: string, file: FtpFile): void {
  let data: net.Server | null = null;
  let dataConn: Promise<net.Socket> | null = null;
  const say = (line: string) => c.write(`${line}\r\n`);
  const closeData = () => {
    data?.close();
    data = null;
    dataConn = null;
  };
  c.on('close', closeData);
  c.setTimeout(TRANSFER_TIMEOUT_MS, () => c.destroy());
  say('220 vigil-ftp ready');
  let buf = '';
  c.on('data', (chunk: Buffer) => {
    buf += chunk.toString('latin1');
    if (buf.length > 4096) return void c.destroy();
    let eol: number;
    while ((eol = buf.indexOf('\r\n')) >= 0) {
      const line = buf.slice(0, eol);
      buf = buf.slice(eol + 2);
      void command(line);
    }
  });
  const openPassive = async (): Promise<number> => {
    closeData();
    const server = net.createServer();
    data = server;
    dataConn = new Promise<net.Socket>((resolve, reject) => {
      server.once('connection', resolve);
      setTimeout(() => reject(new Error('no data connection')), TRANSFER_TIMEOUT_MS).unref();
    });
    dataConn.catch(() => {});
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    return (server.address() as net.AddressInfo).port;
  };
  const command = async (line: string) => {
    const verb = line.split(' ')[0]?.toUpperCase() ?? '';
    const arg = line.slice(verb.length + 1);
    if (verb === 'USER') say('331 Password required');
    else if (verb === 'PASS') say('230 Logged in');
    else if (verb === 'TYPE') say('200 Type set');
    else if (verb === 'PASV') {
      const port = await openPassive();
      say(`227 Entering Passive Mode (${address.replace(/\./g, ',')},${port >> 8},${port & 0xff})`);
    } else if (verb === 'EPSV') say(`229 Entering Extended Passive Mode (|||${await openPassive()}|)`);
    else if ((verb === 'RETR' || verb === 'STOR') && arg !== file.name) say('550 No such file');
    else if (verb === 'RETR' && file.served && dataConn) {
      const conn = await dataConn.catch(() => null);
      if (!conn) return void say('425 No data connection');
      say('150 Opening data connection');
      file.onReceived({ from: c.remoteAddress ?? '', bytes: 0 });
      conn.end(file.tamper(file.served), () => {
        closeData();
        say('226 Transfer complete');
      });
    } else if (verb === 'STOR' && !file.served && dataConn) {
      const conn = await dataConn.catch(() => null);
      if (!conn) return void say('425 No data connection');
      say('150 Ready to receive');
      const chunks: Buffer[] = [];
      let size = 0;
      conn.on('data', (b: Buffer) => {
        size += b.length;
        if (size > file.maxBytes) return void conn.destroy();
        chunks.push(b);
      });
      conn.on('error', () => {});
      conn.on('close', () => {
        closeData();
        void file.digest(file.tamper(Buffer.concat(chunks))).then((d) => {
          file.onReceived({ from: c.remoteAddress ?? '', ...d });
          say(`226 Transfer complete sha256=${d.sha256} bytes=${d.bytes}`);
        });
      });
    } else if (verb === 'QUIT') {
      say('221 Bye');
      c.end();
    } else if (verb === 'RETR' || verb === 'STOR') say('425 Use PASV first');
    else say('502 Command not implemented');
  };
}

export type FtpResult = { failure: string } | { data: Buffer } | { received: { sha256: string; bytes: number } };

/** Opens a connection to a port of the peer (directly, or through a tunnel). */
export type Dial = (port: number) => Promise<net.Socket>;

/** Connects straight to host:port within the connect bound. */
export const directDial =
  (host: string): Dial =>
  (port) =>
    new Promise((resolve, reject) => {
      const s = net.connect({ host, port });
      const timer = setTimeout(() => s.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), CONNECT_TIMEOUT_MS);
      s.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      s.once('connect', () => {
        clearTimeout(timer);
        s.removeAllListeners('error');
        resolve(s);
      });
    });

/**
 * Uploads (body) or downloads (no body) one file from the peer's FTP server. `replyMs` bounds each control
 * reply (READ_TIMEOUT_MS by default; a tunnel's dial passes its own, longer bound: each reply then crosses
 * the ssh client and the far sshd too, which a loaded machine can hold up for seconds).
 */
export async function ftpTransfer(dial: Dial, port: number, name: string, body: Buffer | null, maxBytes: number, signal: AbortSignal, replyMs = READ_TIMEOUT_MS): Promise<FtpResult> {
  let ctrl: net.Socket;
  try {
    ctrl = await dial(port);
  } catch (e) {
    const kind = errorKind(e as NodeJS.ErrnoException);
    return { failure: kind === 'timeout' ? 'timed out' : kind };
  }
  const reader = new ReplyReader(ctrl);
  let dataSock: net.Socket | null = null;
  const onAbort = () => {
    ctrl.destroy();
    dataSock?.destroy();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const step = async (line: string | null, expect: number, timeoutMs = replyMs): Promise<{ text: string } | { failure: string }> => {
    if (line !== null) ctrl.write(`${line}\r\n`);
    const r = await reader.reply(timeoutMs);
    if ('failure' in r) return { failure: r.failure === 'timeout' ? 'timed out' : r.failure };
    return Math.floor(r.code / 100) === Math.floor(expect / 100) ? { text: r.text } : { failure: `answered "${r.text.slice(0, 200)}"` };
  };
  try {
    for (const [line, code] of [[null, 220], ['USER anonymous', 331], ['PASS vigil@', 230], ['TYPE I', 200]] as const) {
      const r = await step(line, code);
      if ('failure' in r) return r;
    }
    const pasv = await step('EPSV', 229);
    if ('failure' in pasv) return pasv;
    const dataPort = Number(/\(\|\|\|(\d+)\|\)/.exec(pasv.text)?.[1] ?? 0);
    // The data connection goes to the peer's address only, never to an address the server names.
    let sock: net.Socket;
    try {
      sock = await dial(dataPort);
    } catch (e) {
      return { failure: `${errorKind(e as NodeJS.ErrnoException)} (data connection)` };
    }
    dataSock = sock;
    const chunks: Buffer[] = [];
    let size = 0;
    const closed = new Promise<string | null>((resolve) => {
      sock.on('data', (b: Buffer) => {
        size += b.length;
        if (size > maxBytes) return void sock.destroy();
        chunks.push(b);
      });
      sock.on('error', (e: NodeJS.ErrnoException) => resolve(errorKind(e)));
      sock.on('close', () => resolve(null));
    });
    const start = await step(body ? `STOR ${name}` : `RETR ${name}`, 150);
    if ('failure' in start) return start;
    if (body) sock.end(body);
    const dataFailure = await Promise.race([closed, new Promise<string>((r) => setTimeout(() => r('timeout'), TRANSFER_TIMEOUT_MS))]);
    if (dataFailure) return { failure: dataFailure === 'timeout' ? 'timed out' : dataFailure };
    const done = await step(null, 226, TRANSFER_TIMEOUT_MS);
    if ('failure' in done) return done;
    ctrl.write('QUIT\r\n');
    if (!body) return { data: Buffer.concat(chunks) };
    const m = /sha256=([0-9a-f]{64}) bytes=(\d+)/.exec(done.text);
    return m ? { received: { sha256: m[1] ?? '', bytes: Number(m[2]) } } : { failure: 'unconfirmed (the server did not report what it received)' };
  } finally {
    signal.removeEventListener('abort', onAbort);
    ctrl.destroy();
    dataSock?.destroy();
  }
}

export const sha256Digest = (data: Buffer) => ({ sha256: crypto.createHash('sha256').update(data).digest('hex'), bytes: data.length });
