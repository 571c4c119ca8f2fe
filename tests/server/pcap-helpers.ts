/** Uploading captures in server tests: a multipart body, the upload call, waiting for processing, a PCAP Action. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import type { FormDefinition } from '@/api/contracts/action-form';
import type { CheckProcessStatusAnswer, CreatePcapActionAnswer, UploadPcapAnswer } from '@/api/contracts/pcap';
import { testPayload } from '@/features/action-form/test-values';
import { startEngineWorld, type EngineWorld, type JobActionRow } from './engine-helpers';
import type { Session, TestServer } from './helpers';

export const BOUNDARY = '----vigil-test-boundary-7MA4YWxkTrZu0gW';
export const fixtureDir = path.resolve(__dirname, '../fixtures/pcap');
export const fixture = (name: string) => fs.readFileSync(path.join(fixtureDir, name));

/** A multipart/form-data body: text fields, then (optionally) one file. */
export function multipart(fields: Record<string, string>, file?: { field?: string; name: string; content: Buffer }): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: application/vnd.tcpdump.pcap\r\n\r\n`));
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

/** Uploads a fixture through the real call, waits until it is processed and makes it a PCAP (or Captive IOC PCAP) Action. */
export async function createPcapAction(t: TestServer, as: Session, fixtureName: string, type: 'pcap' | 'captive_ioc_pcap' = 'pcap'): Promise<CreatePcapActionAnswer> {
  const up = await t.app.inject({
    method: 'POST',
    url: '/manage_sims/upload/upload_pcap_file',
    headers: { cookie: as.cookie, 'x-csrf-token': as.csrfToken, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: multipart({ anonymized_ip: 'false', anonymized_mac: 'false' }, { name: fixtureName, content: fixture(fixtureName) }),
  });
  if (up.statusCode !== 200) throw new Error(`upload answered ${up.statusCode}: ${up.body}`);
  const uploadId = up.json<UploadPcapAnswer>().data.upload_id;
  for (let i = 0; ; i++) {
    const res = await t.call('GET', `/manage_sims/upload/check_process_status/${uploadId}`, { as, headers: { 'x-background-task': 'true' } });
    if (res.json<CheckProcessStatusAnswer>().data.percent_complete >= 100) break;
    if (i > 500) throw new Error(`upload ${uploadId} never finished`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const def = (await t.call('GET', '/manage_sims/actions/form_definition.json', { as })).json<FormDefinition>();
  const body = testPayload(type, def);
  body[`${type}_action`] = { attacker_ip: '', destination_ip: '', bypass_http_check: false, anonymized_ip: false, anonymized_mac: false, upload: uploadId };
  const res = await t.call('POST', `/manage_sims/upload/create_pcap_action${type === 'pcap' ? '' : `?action_type=${type}`}`, { as, body });
  if (res.statusCode !== 201) throw new Error(`create_pcap_action answered ${res.statusCode}: ${res.body}`);
  return res.json<CreatePcapActionAnswer>();
}

/** An engine world for replay tests (two actors, the demo seed's form trees) on a fresh data dir, closed after the file. */
export function usePcapEngineWorld(prefix: string): { dataDir: string; world: () => EngineWorld } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let w: EngineWorld | undefined;
  beforeAll(async () => {
    // The demo seed brings the action form's dimension trees (a PCAP Action is saved with the full form).
    w = await startEngineWorld({}, { config: { dataDir }, beforeActors: (server) => seedDemo(server.db, { jobs: 0 }) });
  });
  afterAll(async () => {
    await w?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    world: () => {
      if (!w) throw new Error('the engine world has not started');
      return w;
    },
  };
}

/** An in-path device turning the captured '200 OK' answer of a replay type into '403 No'. */
export const alterHttpAnswer = (replayType: string) => (type: string, data: Buffer) =>
  type === replayType ? Buffer.from(data.toString('latin1').replace('200 OK', '403 No'), 'latin1') : data;

/** A replay of two-ips-tcp.pcap whose HTTP answer was altered: ran, blocked, naming conversation 1's segment 2. */
export function expectAlteredHttpAnswer(job: { status: string }, action: JobActionRow | undefined): void {
  expect(job.status).toBe('completed');
  expect(action?.status).toBe('ran');
  expect(action?.blocked).toBe(true);
  expect(action?.blocked_msg).toBe('Conversation 1 (TCP port 80): segment 2 (server to client) differs from the capture (altered content)');
  const source = action?.evidence.source as { conversations: { failed_segment?: { index: number; direction: string; expected: string; received: string } }[] };
  const failed = source.conversations[0]?.failed_segment;
  expect(failed).toMatchObject({ index: 2, direction: 'server to client' });
  expect(failed?.expected).toContain('200 OK');
  expect(failed?.received).toContain('403 No');
}
