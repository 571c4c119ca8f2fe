import type net from 'node:net';
import { READ_TIMEOUT_MS, errorKind } from '../net-util';

/** Reads SMTP and FTP replies (multi-line replies end with "NNN "), each within a time bound. */
export class ReplyReader {
  private buf = '';
  private failure: string | null = null;
  private wake: (() => void) | null = null;
  constructor(sock: net.Socket) {
    sock.on('data', (c: Buffer) => {
      this.buf += c.toString('latin1');
      if (this.buf.length > 64 * 1024) sock.destroy();
      this.wake?.();
    });
    sock.on('error', (e: NodeJS.ErrnoException) => {
      this.failure ??= errorKind(e);
      this.wake?.();
    });
    sock.on('close', () => {
      this.failure ??= 'closed';
      this.wake?.();
    });
  }
  async reply(timeoutMs = READ_TIMEOUT_MS): Promise<{ code: number; text: string } | { failure: string }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = /^(?:\d{3}-[^\r\n]*\r\n)*(\d{3})(?: [^\r\n]*)?\r\n/.exec(this.buf);
      if (m) {
        this.buf = this.buf.slice(m[0].length);
        return { code: Number(m[1]), text: m[0].trim() };
      }
      if (this.failure) return { failure: this.failure === 'closed' ? 'closed' : this.failure };
      if (Date.now() >= deadline) return { failure: 'timeout' };
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.wake = () => {
          clearTimeout(t);
          this.wake = null;
          resolve();
        };
      });
    }
  }
}
