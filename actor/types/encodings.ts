/**
 * file_transfer content encodings, applied in order to the file before it crosses and undone in
 * reverse by the receiver: zip and tar (archive.ts), gzip (zlib), bzip2, 7zip and rar with the system's
 * programs. An encoding whose program is not installed makes the action incompatible, naming it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Incompatible } from './contract';
import { tarOne, untarOne, unzipOne, zipOne } from './archive';
import { findTool, runTool } from './tools';

export const ENCODINGS = ['zip', 'gzip', 'bzip2', 'tar', 'rar', '7zip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

const TOOL_TIMEOUT_MS = 30_000;
const PROGRAMS: Partial<Record<Encoding, readonly string[]>> = { bzip2: ['bzip2'], '7zip': ['7z', '7za', '7zz'], rar: ['rar'] };
const EXTENSIONS: Record<Encoding, string> = { zip: 'zip', gzip: 'gz', bzip2: 'bz2', tar: 'tar', rar: 'rar', '7zip': '7z' };

/** The details' comma-separated content encodings, each checked to be known and possible here. */
export function parseEncodings(text: string): Encoding[] {
  const list = text.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const e of list) {
    if (!(ENCODINGS as readonly string[]).includes(e)) throw new Incompatible(`"${e}" is not a content encoding (${ENCODINGS.join(', ')} are).`);
    const programs = PROGRAMS[e as Encoding];
    if (programs && !findTool(...programs)) {
      const names = programs.length > 1 ? `${programs.slice(0, -1).join(', ')} or ${programs.at(-1)}` : programs[0];
      throw new Incompatible(`The ${e} content encoding needs the ${names} program, which is not installed on this actor.`);
    }
  }
  return list as Encoding[];
}

const safeName = (name: string) => path.basename(name).replace(/[^\w.-]/g, '_') || 'file';

/** Runs an archiver in a private temporary folder and returns the file it wrote, or what it printed. */
async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-encoding-'));
  try {
    return await work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function tool(programs: string[], args: string[], opts: { input?: Buffer; cwd?: string; maxBytes: number }): Promise<Buffer> {
  const cmd = findTool(...programs);
  if (!cmd) throw new Incompatible(`${programs.join(' or ')} is not installed on this actor.`);
  const r = await runTool(cmd, args, { ...opts, timeoutMs: TOOL_TIMEOUT_MS });
  if (r.code !== 0) throw new Error(`${path.basename(cmd)} failed (exit ${r.code}): ${r.stderr.slice(0, 200)}`);
  return r.stdout;
}

/** Archivers that work on files: how each packs one file into `out.<ext>` and prints `in.<ext>`'s file. */
const FILE_ARCHIVERS = {
  '7zip': { programs: ['7z', '7za', '7zz'], pack: (name: string) => ['a', '-t7z', '-bd', '-y', 'out.7z', name], print: ['e', '-so', '-bd', '-y', 'in.7z'] },
  rar: { programs: ['rar'], pack: (name: string) => ['a', '-ep', '-idq', '-y', 'out.rar', name], print: ['p', '-inul', '-y', 'in.rar'] },
} as const;

function packWithArchiver(e: keyof typeof FILE_ARCHIVERS, name: string, data: Buffer): Promise<Buffer> {
  const a = FILE_ARCHIVERS[e];
  return inTempDir(async (dir) => {
    fs.writeFileSync(path.join(dir, name), data);
    await tool([...a.programs], a.pack(name), { cwd: dir, maxBytes: 1024 * 1024 });
    return fs.readFileSync(path.join(dir, `out.${EXTENSIONS[e]}`));
  });
}

function unpackWithArchiver(e: keyof typeof FILE_ARCHIVERS, data: Buffer, maxBytes: number): Promise<Buffer> {
  const a = FILE_ARCHIVERS[e];
  return inTempDir(async (dir) => {
    fs.writeFileSync(path.join(dir, `in.${EXTENSIONS[e]}`), data);
    return tool([...a.programs], [...a.print], { cwd: dir, maxBytes });
  });
}

async function encodeOne(e: Encoding, name: string, data: Buffer, maxBytes: number): Promise<Buffer> {
  switch (e) {
    case 'zip':
      return zipOne(name, data);
    case 'tar':
      return tarOne(name, data);
    case 'gzip':
      return zlib.gzipSync(data);
    case 'bzip2':
      return tool(['bzip2'], ['-c'], { input: data, maxBytes });
    case '7zip':
    case 'rar':
      return packWithArchiver(e, name, data);
  }
}

async function decodeOne(e: Encoding, data: Buffer, maxBytes: number): Promise<Buffer> {
  switch (e) {
    case 'zip':
      return unzipOne(data, maxBytes);
    case 'tar':
      return untarOne(data, maxBytes);
    case 'gzip':
      return zlib.gunzipSync(data, { maxOutputLength: maxBytes });
    case 'bzip2':
      return tool(['bzip2'], ['-dc'], { input: data, maxBytes });
    case '7zip':
    case 'rar':
      return unpackWithArchiver(e, data, maxBytes);
  }
}

/** The file as it crosses: each encoding applied in order (an archive holds the previous step's file). */
export async function encodeAll(list: Encoding[], fileName: string, data: Buffer, maxBytes: number): Promise<Buffer> {
  let name = safeName(fileName);
  let out = data;
  for (const e of list) {
    out = await encodeOne(e, name, out, maxBytes);
    name = `${name}.${EXTENSIONS[e]}`;
    if (out.length > maxBytes) throw new Error(`the ${e}-encoded file is larger than ${maxBytes} bytes`);
  }
  return out;
}

/** What arrived, decoded again in reverse order. */
export async function decodeAll(list: Encoding[], data: Buffer, maxBytes: number): Promise<Buffer> {
  let out = data;
  for (const e of [...list].reverse()) out = await decodeOne(e, out, maxBytes);
  return out;
}
