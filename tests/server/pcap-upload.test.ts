import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { analyzeBuffer } from '../../server/pcap/analyze';
import type { FormDefinition } from '@/api/contracts/action-form';
import type { PreviewAnswer } from '@/api/contracts/library';
import type {
  CheckProcessStatusAnswer,
  CreatePcapActionAnswer,
  DestroyConversationsAnswer,
  PcapCapturesAnswer,
  PcapPacketBytesAnswer,
  PcapPacketsAnswer,
  ShowConversationsAnswer,
  UploadPcapAnswer,
} from '@/api/contracts/pcap';
import { PCAP_STATUS, PCAP_TCP_OR_UDP_MESSAGE } from '@/api/contracts/pcap';
import { testPayload } from '@/features/action-form/test-values';
import { startTestServer, type Session, type TestServer } from './helpers';
import { BOUNDARY, fixture, multipart } from './pcap-helpers';
import { SharedFiles } from '../../server/storage/shared-files';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-pcap-server-'));

let t: TestServer;
let operator: Session;
let viewer: Session;
let approver: Session;
let def: FormDefinition;

beforeAll(async () => {
  t = await startTestServer({ dataDir });
  await seedDemo(t.db, { jobs: 2 });
  [operator, viewer, approver] = await Promise.all([t.signIn('operator'), t.signIn('viewer'), t.signIn('approver')]);
  def = (await t.call('GET', '/manage_sims/actions/form_definition.json', { as: operator })).json<FormDefinition>();
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function upload(content: Buffer, name = 'capture.pcap', opts: { as?: Session; fields?: Record<string, string>; field?: string; csrf?: boolean } = {}) {
  const as = opts.as ?? operator;
  const payload = multipart({ anonymized_ip: 'false', anonymized_mac: 'false', authenticity_token: as.csrfToken, ...opts.fields }, { name, content, field: opts.field });
  return (opts.as ?? operator) && t.app.inject({
    method: 'POST',
    url: '/manage_sims/upload/upload_pcap_file',
    headers: {
      cookie: as.cookie,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(opts.csrf === false ? {} : { 'x-csrf-token': as.csrfToken }),
    },
    payload,
  });
}

async function waitDone(id: number, as: Session = operator): Promise<CheckProcessStatusAnswer['data']> {
  for (let i = 0; i < 200; i++) {
    const res = await t.call('GET', `/manage_sims/upload/check_process_status/${id}`, { as, headers: { 'x-background-task': 'true' } });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json<CheckProcessStatusAnswer>().data;
    if (d.percent_complete >= 100) return d;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`upload ${id} never finished`);
}

async function uploadDone(name: string, fields: Record<string, string> = {}) {
  const res = await upload(fixture(name), name, { fields });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json<UploadPcapAnswer>().data.upload_id;
  const status = await waitDone(id);
  const show = await t.call('GET', `/manage_sims/upload/show_conversations/${id}.json?details=true`, { as: operator });
  expect(show.statusCode, show.body).toBe(200);
  return { id, status, show: show.json<ShowConversationsAnswer>() };
}

const destroy = (body: Record<string, unknown>, opts: { form?: boolean; as?: Session } = {}) =>
  t.call('POST', '/manage_sims/upload/destroy_conversations', { as: opts.as ?? operator, body, form: opts.form });

function pcapPayload(uploadId: number) {
  const p = testPayload('pcap', def);
  p.pcap_action = { attacker_ip: '', destination_ip: '', bypass_http_check: false, anonymized_ip: false, anonymized_mac: false, upload: uploadId };
  return p;
}

describe('ACT-096 POST /manage_sims/upload/upload_pcap_file', () => {
  it('ACT-096 ACT-097 ACT-053 answers the upload id, then processes to 100% with the upload record and conversations', async () => {
    const { id, status, show } = await uploadDone('eth-le-usec.pcap');
    expect(status).toEqual({ percent_complete: 100, status: PCAP_STATUS.completed, upload_id: id });
    const up = show.data.upload;
    expect(up).toMatchObject({
      id,
      orig_filename: 'eth-le-usec.pcap',
      pcap_library_id: id,
      valid_upload: true,
      has_two_ips: true,
      contains_udp: true,
      remove_non_ip_info: false,
      converted: false,
      stripped_vlan_tags: false,
      anonymized_ip: false,
      anonymized_mac: false,
      layer_2_exists: true,
      percent_complete: 100,
    });
    expect(up.notifications).toContainEqual({ level: 'warning', message: PCAP_TCP_OR_UDP_MESSAGE });
    expect(show.token).toBe(operator.csrfToken);
    // Conversations as the parser counts them, sorted by timestamp ascending.
    const rows = analyzeBuffer(fixture('eth-le-usec.pcap')).rows;
    expect(show.data.conversations).toHaveLength(rows.length);
    const ts = show.data.conversations.map((c) => c.timestamp);
    expect([...ts].sort()).toEqual(ts);
    expect(show.data.conversations[0]).toMatchObject({
      source_address: '192.168.10.5',
      dest_address: '203.0.113.80',
      protocol: 'udp',
      service: 'dns',
      source_port: 53001,
      dest_port: 53,
      info: 'DNS query A updates.example.com',
      missed_bytes: 0,
      frames_a_to_b: 1,
      frames_b_to_a: 1,
    });
    const total = show.data.conversations.reduce((s, c) => s + c.data_size, 0);
    expect(total).toBe(rows.reduce((s, r) => s + r.bytesAtoB + r.bytesBtoA, 0));
    // Without details=true only the spec's fields.
    const plain = (await t.call('GET', `/manage_sims/upload/show_conversations/${id}.json`, { as: operator })).json<ShowConversationsAnswer>();
    expect(Object.keys(plain.data.conversations[0]!).sort()).toEqual(
      ['id', 'timestamp', 'source_address', 'dest_address', 'protocol', 'service', 'source_port', 'dest_port', 'data_size', 'info', 'missed_bytes'].sort(),
    );
    // Real progress figures: bytes read equal the file's size.
    const [row] = await t.db.query<{ bytes_read: number; size: number }>('select bytes_read::float8 as bytes_read, size::float8 as size from pcap_uploads where id = $1', [id]);
    expect(row).toEqual({ bytes_read: fixture('eth-le-usec.pcap').length, size: fixture('eth-le-usec.pcap').length });
  });

  it('ACT-069 more than two unique IPs ends in the spec error status, with notifications naming them', async () => {
    const { status, show } = await uploadDone('three-ips.pcap');
    expect(status.status).toBe('Error: More than two unique IPs - Please review Notifications below.');
    expect(show.data.upload.has_two_ips).toBe(false);
    expect(show.data.upload.notifications.find((n) => n.level === 'error')?.message).toMatch(/3 unique IP addresses \(10\.0\.1\.1, 10\.0\.1\.2, 10\.0\.1\.3\)/);
  });

  it('ACT-069 a capture without TCP/UDP conversations ends in the invalid status, saying why', async () => {
    const { status, show } = await uploadDone('unsupported-link.pcap');
    expect(status.status).toBe('Error: Invalid PCAP - Please review Notifications below.');
    expect(show.data.upload.valid_upload).toBe(false);
    expect(show.data.upload.pcap_library_id).toBeNull();
    expect(show.data.upload.notifications.map((n) => n.message)).toContain('Link type 147 is not supported: 1 packet removed.');
  });

  it('a capture cut short keeps its complete packets and says so', async () => {
    const { status, show } = await uploadDone('truncated.pcapng');
    expect(status.status).toBe(PCAP_STATUS.completed);
    expect(show.data.upload.notifications.some((n) => /cut short inside packet 18 at byte \d+; 17 complete packets kept/.test(n.message))).toBe(true);
    expect(show.data.upload.converted).toBe(true);
  });

  it('anonymized IPs are shown in the conversations, VLAN and link conversion flags are set', async () => {
    const { show } = await uploadDone('vlan-qinq.pcap', { anonymized_ip: 'true', anonymized_mac: 'on' });
    expect(show.data.upload).toMatchObject({ anonymized_ip: true, anonymized_mac: true, stripped_vlan_tags: true, remove_non_ip_info: true });
    expect(new Set(show.data.conversations.flatMap((c) => [c.source_address, c.dest_address]))).toEqual(new Set(['10.0.0.1', '10.0.0.2']));
    const sll = await uploadDone('sll2.pcap');
    expect(sll.show.data.upload).toMatchObject({ layer_2_exists: false, converted: true });
  });

  it('refuses a file that is not a capture, an empty file, a missing file and a non-multipart body with 400 and a message', async () => {
    const html = await upload(Buffer.from('<!DOCTYPE html><html><body>hi</body></html>'), 'page.pcap');
    expect(html.statusCode).toBe(400);
    expect(html.json<{ error: string }>().error).toMatch(/^The file is not a pcap or pcapng capture: it starts with 3c 21 44 4f/);
    const empty = await upload(Buffer.alloc(0), 'empty.pcap');
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ error: string }>().error).toBe('The file is empty.');
    const header = await upload(fixture('eth-le-usec.pcap').subarray(0, 12), 'short.pcap');
    expect(header.statusCode).toBe(400);
    expect(header.json<{ error: string }>().error).toMatch(/inside its 24-byte pcap file header/);
    const wrongField = await upload(fixture('eth-le-usec.pcap'), 'x.pcap', { field: 'attachment' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json<{ error: string }>().error).toMatch(/field named "file"/);
    const json = await t.call('POST', '/manage_sims/upload/upload_pcap_file', { as: operator, body: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json<{ error: string }>().error).toMatch(/multipart\/form-data/);
    // Nothing is left behind by refused uploads.
    const [n] = await t.db.query<{ n: number }>(`select count(*)::int as n from pcap_uploads where orig_filename in ('page.pcap', 'empty.pcap', 'short.pcap')`);
    expect(n!.n).toBe(0);
  });

  it('refuses a large non-capture after its first bytes, answering 400 while the body is still being sent', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="movie.pcap"\r\nContent-Type: video/mp4\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const fileSize = 64 * 1024 * 1024;
    const total = head.length + fileSize + tail.length;
    const chunk = Buffer.alloc(256 * 1024, 0x41);
    let sent = 0;
    const answer = await new Promise<{ status: number; body: string; sentWhenAnswered: number }>((resolve, reject) => {
      const req = http.request(`${address}/manage_sims/upload/upload_pcap_file`, {
        method: 'POST',
        headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrfToken, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(total) },
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        const sentWhenAnswered = sent;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body, sentWhenAnswered });
        });
      });
      req.on('error', (e) => {
        if (!answered) reject(e);
      });
      const pump = () => {
        if (answered || req.destroyed) return;
        if (sent === 0) {
          req.write(head);
          sent = head.length;
        }
        if (sent - head.length >= fileSize) {
          req.end(tail);
          return;
        }
        sent += chunk.length;
        // Paced as a slow link would send it: the answer must not wait for the rest.
        if (req.write(chunk)) setTimeout(pump, 5);
        else req.once('drain', () => setTimeout(pump, 5));
      };
      pump();
    });
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.body) as { error: string }).error).toMatch(/^The file is not a pcap or pcapng capture: it starts with 41 41 41 41/);
    expect(answer.sentWhenAnswered).toBeLessThan(total / 8);
    const [n] = await t.db.query<{ n: number }>(`select count(*)::int as n from pcap_uploads where orig_filename = 'movie.pcap'`);
    expect(n!.n).toBe(0);
    // The director carries on.
    expect((await upload(fixture('two-ips-tcp.pcap'), 'after.pcap')).statusCode).toBe(200);
  });

  it('refuses an upload over the maximum size with 413', async () => {
    process.env.PCAP_MAX_UPLOAD_MB = String(1000 / 1048576);
    try {
      const small = await t.buildOtherApp({ dataDir });
      const res = await small.inject({
        method: 'POST',
        url: '/manage_sims/upload/upload_pcap_file',
        headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrfToken, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: multipart({}, { name: 'big.pcap', content: fixture('many-conversations.pcap') }),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json<{ error: string }>().error).toBe('The capture is larger than the maximum upload size of 0 MB.');
    } finally {
      delete process.env.PCAP_MAX_UPLOAD_MB;
    }
  });

  it('needs create_action_permission and the CSRF token', async () => {
    const denied = await upload(fixture('eth-le-usec.pcap'), 'x.pcap', { as: viewer });
    expect(denied.statusCode).toBe(403);
    const noToken = await upload(fixture('eth-le-usec.pcap'), 'x.pcap', { csrf: false });
    expect(noToken.statusCode).toBe(403);
  });
});

describe('ACT-098 status and conversations of an upload', () => {
  it('answers 404 for an unknown upload id, 400 for one that is not a number, and 404 for someone else’s upload', async () => {
    for (const url of ['/manage_sims/upload/check_process_status/999999', '/manage_sims/upload/show_conversations/999999.json?details=true']) {
      const res = await t.call('GET', url, { as: operator });
      expect(res.statusCode).toBe(404);
      expect(res.json<{ error: string }>().error).toBe('PCAP upload 999999 does not exist.');
    }
    const bad = await t.call('GET', '/manage_sims/upload/check_process_status/abc', { as: operator });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toBe('"abc" is not an upload id.');
    const { id } = await uploadDone('two-ips-udp.pcap');
    const other = await t.call('GET', `/manage_sims/upload/show_conversations/${id}.json`, { as: approver });
    expect(other.statusCode).toBe(404);
  });
});

describe('ACT-099 POST /manage_sims/upload/destroy_conversations', () => {
  it('removes conversations by id (form conv_id[]) or all of one protocol, and recomputes the flags', async () => {
    const { id, show } = await uploadDone('eth-le-usec.pcap');
    const udpIds = show.data.conversations.filter((c) => c.protocol === 'udp').map((c) => c.id);
    const form = await t.app.inject({
      method: 'POST',
      url: '/manage_sims/upload/destroy_conversations',
      headers: { cookie: operator.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `upload_id=${id}&action_type=pcap&${udpIds.map((c) => `conv_id%5B%5D=${c}`).join('&')}&authenticity_token=${encodeURIComponent(operator.csrfToken)}`,
    });
    expect(form.statusCode, form.body).toBe(200);
    const answer = form.json<DestroyConversationsAnswer>().data;
    expect(answer.conversations.every((c) => c.protocol === 'tcp')).toBe(true);
    expect(answer.upload.contains_udp).toBe(false);
    expect(answer.upload.notifications.map((n) => n.message)).not.toContain(PCAP_TCP_OR_UDP_MESSAGE);
    const tcp = await destroy({ upload_id: id, action_type: 'pcap', remove_tcp_or_udp: 'tcp' });
    expect(tcp.statusCode, tcp.body).toBe(200);
    expect(tcp.json<DestroyConversationsAnswer>().data.conversations).toEqual([]);
    expect(tcp.json<DestroyConversationsAnswer>().data.upload.has_two_ips).toBe(false);
  });

  it('removing the third IP’s conversations clears the more-than-two-IPs error', async () => {
    const { id, show } = await uploadDone('three-ips.pcap');
    const third = show.data.conversations.filter((c) => c.dest_address === '10.0.1.3').map((c) => c.id);
    const res = await destroy({ upload_id: id, conv_id: third });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<DestroyConversationsAnswer>().data.upload).toMatchObject({ has_two_ips: true, status: PCAP_STATUS.completed });
  });

  it('answers 4xx with a message for unknown conversation ids, a wrong upload id and bad input', async () => {
    const { id, show } = await uploadDone('two-ips-udp.pcap');
    const unknown = await destroy({ upload_id: id, conv_id: [show.data.conversations[0]!.id, 99999998, 99999999] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ error: string }>().error).toBe(`Conversations 99999998, 99999999 do not belong to PCAP upload ${id}.`);
    // Nothing was removed.
    const after = (await t.call('GET', `/manage_sims/upload/show_conversations/${id}.json`, { as: operator })).json<ShowConversationsAnswer>();
    expect(after.data.conversations).toHaveLength(show.data.conversations.length);
    const wrongUpload = await destroy({ upload_id: 99999999, remove_tcp_or_udp: 'udp' });
    expect(wrongUpload.statusCode).toBe(404);
    expect(wrongUpload.json<{ error: string }>().error).toBe('PCAP upload 99999999 does not exist.');
    const neither = await destroy({ upload_id: id });
    expect(neither.statusCode).toBe(400);
    expect(neither.json<{ error: string }>().error).toBe('Send either conv_id[] or remove_tcp_or_udp (tcp or udp).');
    const badProto = await destroy({ upload_id: id, remove_tcp_or_udp: 'icmp' });
    expect(badProto.statusCode).toBe(400);
    expect(badProto.json<{ error: string }>().error).toBe('remove_tcp_or_udp must be tcp or udp');
    const noUpload = await destroy({ conv_id: [1] });
    expect(noUpload.statusCode).toBe(400);
    expect(noUpload.json<{ error: string }>().error).toBe('upload_id is required');
    const viewerDenied = await destroy({ upload_id: id, remove_tcp_or_udp: 'udp' }, { as: viewer });
    expect(viewerDenied.statusCode).toBe(403);
  });
});

describe('ACT-095 POST /manage_sims/upload/create_pcap_action', () => {
  it('ACT-043 refuses TCP and UDP together, then creates the PCAP Action from the remaining conversations with its fields and a downloadable capture', async () => {
    const { id } = await uploadDone('eth-le-usec.pcap', { anonymized_ip: 'true', anonymized_mac: 'true' });
    const both = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: pcapPayload(id) });
    expect(both.statusCode).toBe(400);
    expect(both.json<{ error: string }>().error).toBe(PCAP_TCP_OR_UDP_MESSAGE);
    expect((await destroy({ upload_id: id, remove_tcp_or_udp: 'udp' })).statusCode).toBe(200);

    const body = pcapPayload(id);
    body.pcap_action = { ...body.pcap_action!, bypass_http_check: true };
    const res = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<CreatePcapActionAnswer>();
    expect(created).toMatchObject({ vid: expect.stringMatching(/^A000-\d+$/), version: 1, upload_id: id, pcap_library_id: id, notice: `Action ${created.vid} was successfully created.` });
    const [action] = await t.db.query<{ action_type: string; details: Record<string, unknown> }>('select action_type, details from actions where id = $1', [created.id]);
    expect(action!.action_type).toBe('pcap');
    expect(action!.details).toMatchObject({ upload: id, attacker_ip: '10.0.0.1', destination_ip: '10.0.0.2', bypass_http_check: true, anonymized_ip: true, anonymized_mac: true, file: `eth-le-usec_upload${id}.pcap` });

    // The Action's capture: a valid little-endian pcap of the TCP conversations only, anonymized.
    const dl = await t.app.inject({ method: 'GET', url: `/manage_sims/actions/download/${created.id}.pcap`, headers: { cookie: operator.cookie } });
    expect(dl.statusCode, dl.body).toBe(200);
    const a = analyzeBuffer(dl.rawPayload);
    expect(a.reader.error).toBeNull();
    expect(a.reader.packets).toBe(created.packets);
    expect(a.rows.map((r) => r.protocol)).toEqual(['tcp', 'tcp']);
    expect(new Set(a.rows.flatMap((r) => [r.addressA, r.addressB]))).toEqual(new Set(['10.0.0.1', '10.0.0.2']));
    expect(new Set(a.rows.flatMap((r) => [r.macA, r.macB]))).toEqual(new Set(['02:00:00:00:00:01', '02:00:00:00:00:02']));

    const again = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: pcapPayload(id) });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toBe(`PCAP upload ${id} was already made into an Action (id ${created.id}).`);
    const locked = await destroy({ upload_id: id, remove_tcp_or_udp: 'tcp' });
    expect(locked.statusCode).toBe(409);
  });

  it('ACT-105 the download streams the processed capture from disk, also when it has no file library copy (captures over 64 MB)', async () => {
    const { id } = await uploadDone('two-ips-tcp.pcap');
    const res = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: pcapPayload(id) });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<CreatePcapActionAnswer>();
    const onDisk = fs.readFileSync(path.join(dataDir, 'pcap', 'processed', `${id}.pcap`));
    expect(onDisk.length).toBe(created.size);
    // A capture over the library copy limit is stored without content: the download must not need it.
    const [action] = await t.db.query<{ details: { file: string } }>('select details from actions where id = $1', [created.id]);
    await t.db.query('update file_library set content = null, content_file = null where orig_file_name = $1', [action!.details.file]);
    const get = () => t.app.inject({ method: 'GET', url: `/manage_sims/actions/download/${created.id}`, headers: { cookie: operator.cookie, accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' } });
    const dl = await get();
    expect(dl.statusCode, dl.body).toBe(200);
    expect(dl.headers['content-type']).toBe('application/vnd.tcpdump.pcap');
    expect(dl.headers['content-length']).toBe(String(onDisk.length));
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="${action!.details.file}"`);
    expect(Buffer.compare(dl.rawPayload, onDisk)).toBe(0);
    const preview = (await t.call('GET', `/library/actions.json?id=${created.id}`, { as: operator })).json<PreviewAnswer>().data.preview_props;
    expect(preview.action_type === 'pcap' && preview.detail.file.stored && preview.detail.has_hex).toBe(true);

    // Neither the file nor a copy: 404 with a message.
    await new SharedFiles(t.db, dataDir, true).remove(`pcap/processed/${id}.pcap`);
    const gone = await get();
    expect(gone.statusCode).toBe(404);
    expect(gone.json<{ error: string }>().error).toMatch(/^The packet capture two-ips-tcp_upload\d+\.pcap of Action A000-\d+ is not stored on this director\.$/);
  });

  it('creates a captive_ioc_pcap Action with ?action_type=captive_ioc_pcap', async () => {
    const { id } = await uploadDone('two-ips-udp.pcap');
    const p = testPayload('captive_ioc_pcap', def);
    p.captive_ioc_pcap_action = { attacker_ip: '', destination_ip: '', bypass_http_check: true, anonymized_ip: false, anonymized_mac: false, upload: id };
    const res = await t.call('POST', '/manage_sims/upload/create_pcap_action?action_type=captive_ioc_pcap', { as: operator, body: p });
    expect(res.statusCode, res.body).toBe(201);
    const [action] = await t.db.query<{ action_type: string; details: Record<string, unknown> }>('select action_type, details from actions where id = $1', [res.json<CreatePcapActionAnswer>().id]);
    expect(action).toMatchObject({ action_type: 'captive_ioc_pcap', details: { attacker_ip: '10.0.3.1', destination_ip: '10.0.3.2', bypass_http_check: true, upload: id } });
  });

  it('answers 4xx with a message for a missing or wrong upload, an invalid one, form errors and missing permission', async () => {
    const noUpload = testPayload('pcap', def);
    const r1 = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: noUpload });
    expect(r1.statusCode).toBe(400);
    expect(r1.json<{ error: string }>().error).toBe('pcap_action.upload (the upload id) is required.');
    const r2 = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: pcapPayload(99999999) });
    expect(r2.statusCode).toBe(404);
    const invalid = await uploadDone('arp-only.pcap');
    const r3 = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: pcapPayload(invalid.id) });
    expect(r3.statusCode).toBe(400);
    expect(r3.json<{ error: string }>().error).toBe(PCAP_STATUS.invalid);
    const three = await uploadDone('three-ips.pcap');
    const r4 = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: pcapPayload(three.id) });
    expect(r4.statusCode).toBe(400);
    expect(r4.json<{ error: string }>().error).toBe(PCAP_STATUS.tooManyIps);
    const ok = await uploadDone('two-ips-tcp.pcap');
    const bad = pcapPayload(ok.id);
    bad.sim_action.name = '';
    const r5 = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: bad });
    expect(r5.statusCode).toBe(400);
    expect(r5.json<{ errors: Record<string, string[]> }>().errors['sim_action.name']).toEqual(['must be filled']);
    const r6 = await t.call('POST', '/manage_sims/upload/create_pcap_action?action_type=dns', { as: operator, body: pcapPayload(ok.id) });
    expect(r6.statusCode).toBe(400);
    const r7 = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: viewer, body: pcapPayload(ok.id) });
    expect(r7.statusCode).toBe(403);
    // No Action was left half-made.
    const [n] = await t.db.query<{ n: number }>('select count(*)::int as n from pcap_uploads where id = $1 and action_id is not null', [ok.id]);
    expect(n!.n).toBe(0);
  });
});

describe('ACT-023 Packet View calls', () => {
  it('lists packets of an upload with time, addresses, protocol, length and summary, and gives a packet’s bytes', async () => {
    const { id } = await uploadDone('multi-interface.pcapng');
    const res = await t.call('GET', `/manage_sims/pcaps/${id}/packets.json?offset=0&limit=5`, { as: operator });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json<PcapPacketsAnswer>().data;
    expect(d).toMatchObject({ pcap_library_id: id, source: 'upload', total: 36, offset: 0 });
    expect(d.packets[0]).toMatchObject({ no: 1, time: 0, source: '10.50.0.1', destination: '10.50.0.2', protocol: 'DNS', summary: '53001 → 53 Len=37 DNS query A updates.example.com' });
    // A page in the middle of the second (big-endian) section.
    const later = (await t.call('GET', `/manage_sims/pcaps/${id}/packets.json?offset=30&limit=3`, { as: operator })).json<PcapPacketsAnswer>().data;
    expect(later.packets.map((p) => p.no)).toEqual([31, 32, 33]);
    expect(later.packets[0]!.source).toBe('10.60.0.1');
    const bytes = await t.call('GET', `/manage_sims/pcaps/${id}/packets/3.json`, { as: operator });
    expect(bytes.statusCode, bytes.body).toBe(200);
    const b = bytes.json<PcapPacketBytesAnswer>().data;
    expect(b).toMatchObject({ no: 3, link_type: 1 });
    expect(Buffer.from(b.bytes_base64, 'base64').length).toBe(b.caplen);
    expect((await t.call('GET', `/manage_sims/pcaps/${id}/packets/999.json`, { as: operator })).statusCode).toBe(404);
    expect((await t.call('GET', `/manage_sims/pcaps/${id}/packets.json?limit=5000`, { as: operator })).statusCode).toBe(400);
    expect((await t.call('GET', `/manage_sims/pcaps/99999999/packets.json`, { as: operator })).statusCode).toBe(404);
  });

  it("lists the captures a user may open, newest first: their own uploads and Actions' captures, found by file name, VID or id", async () => {
    const mine = await uploadDone('two-ips-tcp.pcap');
    const list = async (as: Session, query = '') => {
      const res = await t.call('GET', `/manage_sims/pcaps.json${query}`, { as });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<PcapCapturesAnswer>().data;
    };
    const all = await list(operator);
    expect(all[0]).toEqual({ id: mine.id, orig_filename: 'two-ips-tcp.pcap', status: expect.any(String), stored: true, action_vid: null });
    expect(all.map((c) => c.id)).toEqual([...all.map((c) => c.id)].sort((a, b) => b - a));
    expect((await list(operator, `?q=${mine.id}`)).map((c) => c.id)).toEqual([mine.id]);
    expect((await list(operator, '?q=TWO-IPS&limit=50')).every((c) => c.orig_filename.toLowerCase().includes('two-ips'))).toBe(true);
    // Someone else's upload that is not an Action's capture is not listed (loadUpload answers 404 for it).
    expect((await list(viewer)).some((c) => c.id === mine.id)).toBe(false);
    const made = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: pcapPayload(mine.id) });
    expect(made.statusCode, made.body).toBe(201);
    const shared = (await list(viewer)).find((c) => c.id === mine.id);
    expect(shared?.action_vid).toMatch(/^A\d{3}-\d+$/);
    expect((await list(viewer, `?q=${shared!.action_vid!}`)).map((c) => c.id)).toEqual([mine.id]);
    for (const bad of ['?limit=0', '?limit=51', '?limit=x', '?other=1']) {
      const res = await t.call('GET', `/manage_sims/pcaps.json${bad}`, { as: operator });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json<{ error: string }>().error, bad).toMatch(/limit|Unknown parameter/);
    }
  });

  it('shows the processed capture once the Action exists', async () => {
    const { id } = await uploadDone('two-ips-tcp.pcap', { anonymized_ip: 'true' });
    const res = await t.call('POST', '/manage_sims/upload/create_pcap_action', { as: operator, body: pcapPayload(id) });
    expect(res.statusCode, res.body).toBe(201);
    const d = (await t.call('GET', `/manage_sims/pcaps/${id}/packets.json`, { as: viewer })).json<PcapPacketsAnswer>().data;
    expect(d.source).toBe('processed');
    expect(d.total).toBe(res.json<CreatePcapActionAnswer>().packets);
    expect(new Set(d.packets.map((p) => p.source))).toEqual(new Set(['10.0.0.1', '10.0.0.2']));
  });
});
