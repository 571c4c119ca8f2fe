import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { putSetting } from '../../server/settings-store';
import { buildZip } from '../../server/actions/zip';
import { DEFAULT_FILE_LIMITS } from '../../server/file-library/service';
import { SharedFiles } from '../../server/storage/shared-files';
import { MSG, type FileLibraryEntry, type FileUploadAnswer } from '@/api/contracts/action-form';
import { startTestServer, type Session, type TestServer } from './helpers';
import { multipart, type Field, type UploadFile } from './multipart';

let t: TestServer;
let operator: Session;
let viewer: Session;

let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-file-library-'));
  t = await startTestServer({ dataDir });
  await seedDemo(t.db, { jobs: 2 });
  [operator, viewer] = await Promise.all([t.signIn('operator'), t.signIn('viewer')]);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function upload(fields: Record<string, Field>, file?: UploadFile, as: Session = operator) {
  const { payload, contentType } = multipart(fields, file);
  return t.app.inject({ method: 'POST', url: '/manage_sims/file_transfer_libraries.json', payload, headers: { cookie: as.cookie, 'x-csrf-token': as.csrfToken, 'content-type': contentType } });
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const list = async (q = '') => (await t.call('GET', `/manage_sims/file_transfer_libraries.json${q}`, { as: operator })).json<{ data: FileLibraryEntry[] }>().data;

describe('listing the library', () => {
  it('ACT-052 ACT-019 ACT-101 lists entries by id ascending with name, tags, sha256 and notes', async () => {
    const data = await list();
    for (const f of data) {
      expect(Object.keys(f)).toEqual(expect.arrayContaining(['id', 'orig_file_name', 'sha256sum', 'file_notes', 'file_restrictions', 'user_tags', 'verodin_tags']));
    }
    expect(data.length).toBeGreaterThanOrEqual(25);
    expect(data.map((f) => f.id)).toEqual([...data.map((f) => f.id)].sort((a, b) => a - b));
    // The seed stores harmless stand-in bytes (no EICAR string); the listed sha256 is theirs.
    const [eicar] = await t.db.query<{ content_file: string }>(`select content_file from file_library where orig_file_name = 'eicar.com'`);
    const bytes = await new SharedFiles(t.db, null, false).read(`file-library/${eicar!.content_file}`);
    expect(data.find((f) => f.orig_file_name === 'eicar.com')).toMatchObject({
      sha256sum: sha256(bytes!),
      verodin_tags: ['File:Test File'],
      file_restrictions: 'none',
    });
  });

  it('ACT-056 the list for cloud Actions excludes restricted_malicious files', async () => {
    const all = await list();
    const cloud = await list('?action_type=cloud');
    expect(all.some((f) => f.file_restrictions === 'restricted_malicious')).toBe(true);
    expect(cloud.some((f) => f.file_restrictions === 'restricted_malicious')).toBe(false);
    expect(cloud.length).toBe(all.filter((f) => f.file_restrictions !== 'restricted_malicious').length);
    expect((await t.call('GET', '/manage_sims/file_transfer_libraries.json?action_type=nope', { as: operator })).statusCode).toBe(400);
  });
});

describe('uploading', () => {
  it('ACT-052 ACT-054 ACT-055 ACT-101 stores the bytes with their sha256; None means pending approval; os_tree_id and file attributes are kept', async () => {
    const content = crypto.randomBytes(5000);
    const [os] = await t.db.query<{ id: number }>(`select id from dimensions where type = 'os_platform' and name = 'Windows'`);
    const attribs = await t.db.query<{ id: number; name: string }>(`select id, name from tags where tag_type = 'file_attachment' order by id limit 2`);
    const res = await upload({ file_restrictions: 'none', file_notes: 'a test upload', os_tree_id: String(os!.id), file_attrib_ids: attribs.map((a) => String(a.id)) }, { name: 'tool.exe', content });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json<FileUploadAnswer>();
    expect(answer).toMatchObject({ orig_file_name: 'tool.exe', sha256sum: sha256(content), file_restrictions: 'pending_approval', size: 5000, file_notes: 'a test upload', os_tree_id: os!.id });
    expect(answer.verodin_tags.sort()).toEqual(attribs.map((a) => a.name).sort());
    // The bytes are stored on disk under their sha256 (streamed there), not in the database.
    const [stored] = await t.db.query<{ content_file: string; in_db: boolean }>('select content_file, content is not null as in_db from file_library where id = $1', [answer.id]);
    expect(stored).toEqual({ content_file: sha256(content), in_db: false });
    expect(sha256(fs.readFileSync(path.join(dataDir, 'file-library', stored!.content_file)))).toBe(sha256(content));
    expect((await list()).some((f) => f.id === answer.id)).toBe(true);
  });

  it('ACT-054 restricted_malicious stays restricted; file_transfer cannot ask for pending approval, cloud cannot ask for malicious', async () => {
    const mal = await upload({ file_restrictions: 'restricted_malicious', action_type: 'file_transfer' }, { name: 'm.bin', content: Buffer.from('x') });
    expect(mal.json<FileUploadAnswer>().file_restrictions).toBe('restricted_malicious');
    const ft = await upload({ file_restrictions: 'pending_approval', action_type: 'file_transfer' }, { name: 'p.bin', content: Buffer.from('x') });
    expect(ft.statusCode).toBe(400);
    expect(ft.json<{ errors: Record<string, string[]> }>().errors.file_restrictions).toEqual(['is not offered for file_transfer Actions']);
    const cl = await upload({ file_restrictions: 'restricted_malicious', action_type: 'cloud' }, { name: 'c.bin', content: Buffer.from('x') });
    expect(cl.statusCode).toBe(400);
  });

  it('ACT-073 ACT-109 without a file or a restriction: An error occurred. with can\'t be blank on the field', async () => {
    const res = await upload({ file_notes: 'no file' });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: string; errors: Record<string, string[]> }>();
    expect(body.error).toBe(MSG.uploadFailed);
    expect(body.errors.file_upload).toEqual([MSG.cantBeBlank]);
    expect(body.errors.file_restrictions).toEqual([MSG.cantBeBlank]);
  });

  it('a viewer cannot upload; a body that is not multipart is refused', async () => {
    expect((await upload({ file_restrictions: 'none' }, { name: 'a', content: Buffer.from('a') }, viewer)).statusCode).toBe(403);
    const res = await t.call('POST', '/manage_sims/file_transfer_libraries.json', { as: operator, body: { file_restrictions: 'none' } });
    expect(res.statusCode).toBe(400);
  });

  it('an oversized file is refused with the limit, and nothing is stored', async () => {
    await putSetting(t.db, 'file_library_limits', { max_upload_bytes: 1000 });
    try {
      const before = (await list()).length;
      const res = await upload({ file_restrictions: 'none' }, { name: 'big.bin', content: crypto.randomBytes(5000) });
      expect(res.statusCode).toBe(413);
      const body = res.json<{ error: string; errors: Record<string, string[]> }>();
      expect(body.error).toBe(MSG.uploadFailed);
      expect(body.errors.file_upload?.[0]).toMatch(/larger than the limit of 1000 bytes/);
      expect((await list()).length).toBe(before);
    } finally {
      await putSetting(t.db, 'file_library_limits', DEFAULT_FILE_LIMITS);
    }
  });
});

describe('zip files (zipfile_check)', () => {
  const a = Buffer.from('hello from inside the zip\n');
  const b = crypto.randomBytes(20000);

  it('lists the entries of a plain zip with their sha256', async () => {
    const zip = buildZip([
      { name: 'docs/readme.txt', content: a },
      { name: 'payload.bin', content: b },
    ]);
    const res = await upload({ file_restrictions: 'none', zipfile_check: 'true' }, { name: 'bundle.zip', content: zip });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json<FileUploadAnswer>();
    expect(answer.zip_entries).toEqual([
      { name: 'docs/readme.txt', size: a.length, sha256sum: sha256(a), encrypted: false },
      { name: 'payload.bin', size: b.length, sha256sum: sha256(b), encrypted: false },
    ]);
    const one = (await t.call('GET', `/manage_sims/file_transfer_libraries/${answer.id}.json`, { as: operator })).json<FileUploadAnswer>();
    expect(one.zip_entries).toEqual(answer.zip_entries);
    expect(one.zip_entry_count).toBe(2);
  });

  it.each(['zipcrypto', 'aes256'] as const)('ACT-052 reads a password-protected zip (%s) with zipfile_password, and refuses a wrong or missing password', async (encryption) => {
    const zip = buildZip([{ name: 'secret.txt', content: a }], { password: 'infected', encryption });
    const ok = await upload({ file_restrictions: 'none', zipfile_check: 'true', zipfile_password: 'infected' }, { name: 'locked.zip', content: zip });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json<FileUploadAnswer>().zip_entries).toEqual([{ name: 'secret.txt', size: a.length, sha256sum: sha256(a), encrypted: true }]);
    const wrong = await upload({ file_restrictions: 'none', zipfile_check: 'true', zipfile_password: 'nope' }, { name: 'locked.zip', content: zip });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ errors: Record<string, string[]> }>().errors.zipfile_password).toEqual(['The zip password is wrong']);
    const missing = await upload({ file_restrictions: 'none', zipfile_check: 'true' }, { name: 'locked.zip', content: zip });
    expect(missing.json<{ errors: Record<string, string[]> }>().errors.zipfile_password?.[0]).toMatch(/password protected/);
  });

  it('refuses a zip bomb (headers that lie about the size) and too many entries, without a crash', async () => {
    await putSetting(t.db, 'file_library_limits', { max_zip_expanded_bytes: 1_000_000, max_zip_entries: 3 });
    try {
      const bomb = buildZip([{ name: 'bomb.bin', content: Buffer.alloc(20_000_000), declaredSize: 100 }]);
      expect(bomb.length).toBeLessThan(100_000);
      const res = await upload({ file_restrictions: 'none', zipfile_check: 'true' }, { name: 'bomb.zip', content: bomb });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors.file_upload?.[0]).toMatch(/expands beyond the 100 bytes its header declares/);
      const honest = buildZip([{ name: 'big.bin', content: Buffer.alloc(2_000_000) }]);
      expect((await upload({ file_restrictions: 'none', zipfile_check: 'true' }, { name: 'big.zip', content: honest })).json<{ errors: Record<string, string[]> }>().errors.file_upload?.[0]).toMatch(/more than the limit/);
      const many = buildZip(['1', '2', '3', '4'].map((n) => ({ name: n, content: Buffer.from(n) })));
      const res2 = await upload({ file_restrictions: 'none', zipfile_check: 'true' }, { name: 'many.zip', content: many });
      expect(res2.json<{ errors: Record<string, string[]> }>().errors.file_upload?.[0]).toMatch(/4 entries, more than the limit of 3/);
    } finally {
      await putSetting(t.db, 'file_library_limits', DEFAULT_FILE_LIMITS);
    }
  });

  it('a file that is not a zip, or a damaged zip, is refused when zipfile_check is on', async () => {
    const res = await upload({ file_restrictions: 'none', zipfile_check: 'true' }, { name: 'not.zip', content: Buffer.from('plain text') });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors.file_upload?.[0]).toMatch(/is not a zip file/);
    const zip = buildZip([{ name: 'x', content: crypto.randomBytes(3000) }]);
    const damaged = Buffer.concat([zip.subarray(0, 100), Buffer.alloc(500), zip.subarray(600)]);
    const res2 = await upload({ file_restrictions: 'none', zipfile_check: 'true' }, { name: 'damaged.zip', content: damaged });
    expect(res2.statusCode).toBe(400);
  });
});
