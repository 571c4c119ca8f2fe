/**
 * Two directors on one database see the same uploaded files (SHARED_FILES=database, server/storage/
 * shared-files.ts): each has its own DATA_DIR, as two director processes on two machines have; what one
 * stores (a PCAP upload, its processed capture, a file-library upload, the demo library files) the other
 * reads. With SHARED_FILES=local the other director has nothing to read.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Db } from '../../server/db/index';
import { seedDemo } from '../../server/seed/demo';
import { FileStore } from '../../server/file-library/store';
import { SharedFiles, sharedFilesOf } from '../../server/storage/shared-files';
import type { FileUploadAnswer } from '@/api/contracts/action-form';
import type { PcapPacketsAnswer } from '@/api/contracts/pcap';
import { startTestServer, testConfig, type Session, type TestServer } from './helpers';
import { multipart } from './multipart';
import { BOUNDARY, createPcapAction, fixture, multipart as pcapMultipart } from './pcap-helpers';

const dirA = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-shared-a-'));
const dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-shared-b-'));
const dirC = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-shared-c-'));
let t: TestServer;
/** The second director: its own DATA_DIR and (on PostgreSQL) its own connection pool. */
let b: FastifyInstance;
let dbB: Db;
/** A third director that keeps its files to itself (SHARED_FILES=local). */
let local: FastifyInstance;
let operator: Session;

beforeAll(async () => {
  t = await startTestServer({ dataDir: dirA, sharedFiles: 'database' });
  await seedDemo(t.db, { jobs: 0, files: sharedFilesOf(t.db, t.config) });
  dbB = await t.connectAgain();
  b = await buildApp({ db: dbB, config: testConfig({ dataDir: dirB, sharedFiles: 'database' }) });
  local = await buildApp({ db: await t.connectAgain(), config: testConfig({ dataDir: dirC, sharedFiles: 'local' }) });
  operator = await t.signIn('operator');
}, 60_000);
afterAll(async () => {
  await b?.close();
  await local?.close();
  await t?.close();
  for (const d of [dirA, dirB, dirC]) fs.rmSync(d, { recursive: true, force: true });
});

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe('two directors on one database', () => {
  it('a capture uploaded to one and made a PCAP Action there is read by the other: its packets, and the processed capture it downloads', async () => {
    // Uploaded and processed on director A.
    const made = await createPcapAction(t, operator, 'two-ips-tcp.pcap');
    const [u] = await t.db.query<{ id: number }>('select id from pcap_uploads where action_id = $1', [made.id]);
    expect(fs.existsSync(path.join(dirB, 'pcap', 'uploads', `${u!.id}.cap`))).toBe(false);
    // Director B shows the same packets (copying the capture from the database on first use).
    const onA = await t.call('GET', `/manage_sims/pcaps/${u!.id}/packets.json`, { as: operator });
    const onB = await t.call('GET', `/manage_sims/pcaps/${u!.id}/packets.json`, { as: operator, app: b });
    expect(onB.statusCode, onB.body).toBe(200);
    expect(onB.json<PcapPacketsAnswer>().data).toEqual(onA.json<PcapPacketsAnswer>().data);
    expect(onB.json<PcapPacketsAnswer>().data.total).toBeGreaterThan(0);
    // B's download of the Action's capture is A's processed file, byte for byte.
    const processedOnA = fs.readFileSync(path.join(dirA, 'pcap', 'processed', `${u!.id}.pcap`));
    const dl = await b.inject({ method: 'GET', url: `/manage_sims/actions/download/${made.id}`, headers: { cookie: operator.cookie } });
    expect(dl.statusCode, dl.body).toBe(200);
    expect(sha256(dl.rawPayload)).toBe(sha256(processedOnA));
  });

  it('a capture uploaded to the second director becomes a PCAP Action on the first', async () => {
    const up = await b.inject({
      method: 'POST',
      url: '/manage_sims/upload/upload_pcap_file',
      headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrfToken, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: pcapMultipart({ anonymized_ip: 'false', anonymized_mac: 'false' }, { name: 'two-ips-udp.pcap', content: fixture('two-ips-udp.pcap') }),
    });
    expect(up.statusCode, up.body).toBe(200);
    const id = up.json<{ data: { upload_id: number } }>().data.upload_id;
    for (let i = 0; ; i++) {
      const [row] = await t.db.query<{ percent_complete: number }>('select percent_complete from pcap_uploads where id = $1', [id]);
      if (row!.percent_complete >= 100) break;
      if (i > 500) throw new Error(`upload ${id} never finished`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const onA = await t.call('GET', `/manage_sims/pcaps/${id}/packets.json`, { as: operator });
    expect(onA.statusCode, onA.body).toBe(200);
    expect(onA.json<PcapPacketsAnswer>().data).toMatchObject({ source: 'upload', total: expect.any(Number) });
    expect(fs.readFileSync(path.join(dirA, 'pcap', 'uploads', `${id}.cap`)).equals(fixture('two-ips-udp.pcap'))).toBe(true);
  });

  it('a file-library upload to one director is stored for the other, and so are the demo library files', async () => {
    const content = crypto.randomBytes(300_000);
    const { payload, contentType } = multipart({ file_restrictions: 'none', file_notes: 'shared' }, { name: 'shared.bin', content });
    const res = await t.app.inject({ method: 'POST', url: '/manage_sims/file_transfer_libraries.json', headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrfToken, 'content-type': contentType }, payload });
    expect(res.statusCode, res.body).toBe(201);
    const entry = res.json<FileUploadAnswer>();
    // B lists it and reads its bytes (from the database: B's DATA_DIR has no copy).
    const shown = await t.call('GET', `/manage_sims/file_transfer_libraries/${entry.id}.json`, { as: operator, app: b });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(fs.existsSync(path.join(dirB, 'file-library', entry.sha256sum))).toBe(false);
    const onB = await new FileStore(sharedFilesOf(dbB, { dataDir: dirB, sharedFiles: 'database' })).open(entry.sha256sum);
    expect(onB?.size).toBe(content.length);
    const read: Buffer[] = [];
    for await (const c of onB!.body) read.push(c as Buffer);
    expect(sha256(Buffer.concat(read))).toBe(sha256(content));
    // The demo library files, seeded on A, are B's too.
    const demo = await t.db.query<{ content_file: string; sha256sum: string }>('select content_file, sha256sum from file_library where content_file is not null and file_notes is distinct from $1', ['shared']);
    expect(demo.length).toBeGreaterThan(20);
    const bFiles = new SharedFiles(dbB, dirB, true);
    for (const f of demo) expect(sha256((await bFiles.read(`file-library/${f.content_file}`))!)).toBe(f.sha256sum);
  });

  it('a director with SHARED_FILES=local keeps its uploads to itself: the others list the entry but have no bytes', async () => {
    const content = crypto.randomBytes(1000);
    const { payload, contentType } = multipart({ file_restrictions: 'none', file_notes: 'kept local' }, { name: 'local.bin', content });
    const res = await local.inject({ method: 'POST', url: '/manage_sims/file_transfer_libraries.json', headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrfToken, 'content-type': contentType }, payload });
    expect(res.statusCode, res.body).toBe(201);
    const entry = res.json<FileUploadAnswer>();
    expect(sha256(fs.readFileSync(path.join(dirC, 'file-library', entry.sha256sum)))).toBe(sha256(content));
    expect(await new FileStore(sharedFilesOf(dbB, { dataDir: dirB, sharedFiles: 'database' })).open(entry.sha256sum)).toBeNull();
  });
});
