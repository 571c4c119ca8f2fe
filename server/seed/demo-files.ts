/**
 * Harmless bytes for every file of the demo seed's file library, so the Actions that use them (file
 * transfers, email attachments, host CLI files) can run between actors: a text that says which file it
 * stands in for (never the tool or sample itself, and free of the EICAR string), a script that only
 * prints, a CSV of synthetic rows with public test card numbers, or a small archive of such a text.
 * Size and hashes are computed from the bytes.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { buildZip } from '../actions/zip';
import type { FileLibraryRow } from '../../src/api/fakes/types';

/** A library row with the size and hashes of its demo bytes; `content_file` names them as an upload's are (FileStore). */
export type SeededFile = FileLibraryRow & { content_file: string; bytes: Buffer };

function standIn(name: string, notes: string): string {
  return [
    `Vigil demo file: a harmless stand-in for ${name}.`,
    `Library notes: ${notes}`,
    '',
    'The demo seed wrote this text so that the Actions using this file can run between actors right',
    'away. It is not the program, script or sample it is named after. Upload the real file to the',
    'File Library to test with it.',
    '',
  ].join('\n');
}

/** A ustar archive holding one file (512-byte header, content padded to 512, two zero blocks). */
function tar(name: string, content: Buffer): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124);
  h.write(`${(1_700_000_000).toString(8).padStart(11, '0')}\0`, 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\x0000', 257, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  const pad = Buffer.alloc((512 - (content.length % 512)) % 512);
  return Buffer.concat([h, content, pad, Buffer.alloc(1024)]);
}

/** Luhn-valid card numbers published by payment processors for tests. */
const TEST_CARDS = ['4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', '4012888888881881', '5105105105105100'];
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson'];

function customerCsv(): string {
  const rows = ['customer_id,first_name,last_name,email,card_number,city'];
  for (let i = 0; i < 48; i++) {
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[(i * 3) % LAST.length]!;
    rows.push(`${10_001 + i},${first},${last},${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com,${TEST_CARDS[i % TEST_CARDS.length]},Springfield`);
  }
  return `${rows.join('\n')}\n`;
}

/** The demo bytes of a library file, by its name. */
export function demoFileContent(name: string, notes: string): Buffer {
  const text = standIn(name, notes);
  const lines = (prefix: string) => text.trimEnd().split('\n').map((l) => `${prefix}${l}`.trimEnd()).join('\n');
  const inner = name.replace(/\.(zip|tar\.gz)$/, '.txt');
  if (name.endsWith('.zip')) return buildZip([{ name: inner, content: Buffer.from(text) }]);
  if (name.endsWith('.tar.gz')) return zlib.gzipSync(tar(inner, Buffer.from(text)));
  if (name.endsWith('.csv')) return Buffer.from(customerCsv());
  if (name.endsWith('.ps1')) return Buffer.from(`${lines('# ')}\nWrite-Output "Vigil demo stand-in for ${name}: nothing to do."\n`);
  if (name.endsWith('.py')) return Buffer.from(`${lines('# ')}\nprint("Vigil demo stand-in for ${name}: nothing to do.")\n`);
  if (name.endsWith('.sh')) return Buffer.from(`#!/bin/sh\n${lines('# ')}\necho "Vigil demo stand-in for ${name}: nothing to do."\n`);
  return Buffer.from(text);
}

const digest = (algo: string, b: Buffer) => crypto.createHash(algo).update(b).digest('hex');
const cache = new WeakMap<readonly FileLibraryRow[], SeededFile[]>();

/** The library rows with their demo content and the size and hashes of that content. */
export function withDemoContent(rows: readonly FileLibraryRow[]): SeededFile[] {
  const known = cache.get(rows);
  if (known) return known;
  const out = rows.map((r) => {
    const b = demoFileContent(r.orig_file_name, r.file_notes);
    return { ...r, size: b.length, sha256sum: digest('sha256', b), sha1sum: digest('sha1', b), md5sum: digest('md5', b), content_file: digest('sha256', b), bytes: b };
  });
  cache.set(rows, out);
  return out;
}
