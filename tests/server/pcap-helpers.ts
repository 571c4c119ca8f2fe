/** Uploading captures in server tests: a multipart body, the upload call, waiting for processing, a PCAP Action. */
import fs from 'node:fs';
import path from 'node:path';
import type { FormDefinition } from '../../src/api/contracts/action-form';
import type { CheckProcessStatusAnswer, CreatePcapActionAnswer, UploadPcapAnswer } from '../../src/api/contracts/pcap';
import { testPayload } from '../../src/features/action-form/test-values';
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

/** Uploads a fixture through the real call, waits until it is processed and makes it a PCAP Action. */
export async function createPcapAction(t: TestServer, as: Session, fixtureName: string): Promise<CreatePcapActionAnswer> {
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
  const body = testPayload('pcap', def);
  body.pcap_action = { attacker_ip: '', destination_ip: '', bypass_http_check: false, anonymized_ip: false, anonymized_mac: false, upload: uploadId };
  const res = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as, body });
  if (res.statusCode !== 201) throw new Error(`create_pcap_action answered ${res.statusCode}: ${res.body}`);
  return res.json<CreatePcapActionAnswer>();
}
