/**
 * kill -9 during a capture upload: a real director process is killed while the capture streams in,
 * which leaves the upload 'Uploading' and its partial file behind; the next start ends the upload as
 * invalid with the reason in its notifications and removes the leftover file.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_MESSAGE } from '../../server/pcap/interrupted';
import { PCAP_STATUS } from '@/api/contracts/pcap';
import { BOUNDARY } from './pcap-helpers';
import { freePort } from '../../e2e/director';
import { ADMIN, HttpSession, dropProcessDb, openProcessDb, processesOnPostgres, startDirectorProcess, stopProcess, until, type Proc } from './processes';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-pcap-kill-'));
let director: Proc | null = null;

afterAll(async () => {
  await stopProcess(director);
  await dropProcessDb(dataDir);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A pcap global header and `n` small Ethernet/IPv4/UDP frames. */
function capture(n: number): Buffer {
  const head = Buffer.alloc(24);
  head.writeUInt32LE(0xa1b2c3d4, 0);
  head.writeUInt16LE(2, 4);
  head.writeUInt16LE(4, 6);
  head.writeUInt32LE(65535, 16);
  head.writeUInt32LE(1, 20);
  const frame = Buffer.from('0000000000020000000000010800' + '4500001c0000000040110000c0a80001c0a80002' + '303930390008000000', 'hex');
  const rec = Buffer.alloc(16 + frame.length);
  rec.writeUInt32LE(frame.length, 8);
  rec.writeUInt32LE(frame.length, 12);
  frame.copy(rec, 16);
  return Buffer.concat([head, ...Array.from({ length: n }, () => rec)]);
}

describe('a director killed with SIGKILL mid-upload', () => {
  it('leaves the upload Uploading and a partial file; the next start ends it invalid with the reason and removes the file', async () => {
    const port = await freePort();
    director = await startDirectorProcess(dataDir, port);
    // A session's cookie and token, for a raw request whose body never ends.
    const signIn = await fetch(`http://127.0.0.1:${port}/users/sign_in.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { csrf_token: csrf } = (await signIn.json()) as { csrf_token: string };
    const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cut.pcap"\r\nContent-Type: application/vnd.tcpdump.pcap\r\n\r\n`);
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/manage_sims/upload/upload_pcap_file', headers: { cookie, 'x-csrf-token': csrf, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(50 * 1024 * 1024) } });
    req.on('error', () => {});
    req.write(head);
    req.write(capture(40_000));
    const uploads = path.join(dataDir, 'pcap', 'uploads');
    const partial = await until('a partial capture file', async () => {
      const f = fs.existsSync(uploads) ? fs.readdirSync(uploads).find((n) => n.endsWith('.cap')) : undefined;
      return f && fs.statSync(path.join(uploads, f)).size > 0 ? f : undefined;
    });
    // Progress is recorded at most every 250 ms, as data comes in: keep the body flowing (more frames,
    // no second header) and kill once the director has recorded some.
    await until('the upload\'s progress is recorded', async () => {
      req.write(capture(200).subarray(24));
      const res = await fetch(`http://127.0.0.1:${port}/manage_sims/upload/check_process_status/${Number(partial.replace(/\.cap$/, ''))}`, { headers: { cookie, accept: 'application/json' } });
      const body = (await res.json()) as { data?: { percent_complete?: number } };
      return (body.data?.percent_complete ?? 0) > 0 ? true : undefined;
    });
    director.child.kill('SIGKILL');
    await director.exited();
    req.destroy();

    const id = Number(partial.replace(/\.cap$/, ''));
    const db = await openProcessDb(dataDir);
    const [before] = await db.query<{ status: string }>('select status from pcap_uploads where id = $1', [id]);
    // On PostgreSQL another director may be receiving an upload: only uploads without progress for two
    // minutes are ended at start. Those two minutes pass while the director is down.
    if (processesOnPostgres()) await db.query(`update pcap_uploads set updated_at = now() - interval '3 minutes' where id = $1`, [id]);
    await db.close();
    expect(before?.status).toBe(PCAP_STATUS.uploading);
    expect(fs.existsSync(path.join(uploads, partial))).toBe(true);

    director = await startDirectorProcess(dataDir, port);
    expect(director.output()).toMatch(/Ended 1 interrupted capture upload\(s\) and removed [1-9]\d* leftover capture file\(s\)\./);
    expect(fs.existsSync(path.join(uploads, partial))).toBe(false);
    const http2 = new HttpSession(`http://127.0.0.1:${port}`);
    await http2.signIn();
    const status = await http2.call<Record<string, unknown>>('GET', `/manage_sims/upload/check_process_status/${id}`);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ data: { percent_complete: 100, status: PCAP_STATUS.invalid, upload_id: id } });
    // The reason is in the upload's notifications, as the spec's status text says.
    const shown = await http2.call<Record<string, unknown>>('GET', `/manage_sims/upload/show_conversations/${id}`);
    expect(JSON.stringify(shown.body)).toContain(INTERRUPTED_MESSAGE);
  }, 300_000);
});
