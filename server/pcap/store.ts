/**
 * Capture files on disk under DATA_DIR/pcap (see migration 004_pcap.sql), shared with the other
 * directors of the database through SharedFiles (019_shared_files.sql) when SHARED_FILES=database:
 *   uploads/{id}.cap       the upload as received (pcap or pcapng)
 *   uploads/{id}.cap.idx   8 bytes per packet: the record's offset (little-endian double)
 *   processed/{id}.pcap    the processed capture an Action replays (+ .idx)
 *
 * UploadIngest writes an upload to disk while the analyzer parses it (one pass, as it streams in);
 * listPackets/readPacket read pages of a stored capture for the Packet View without reading it from
 * the start (the index gives the offset; the reader resumes there).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { CaptureAnalyzer, type Analysis } from './analyze';
import { CaptureReader, type ReaderSummary, type ResumePoint } from './reader';
import { Frame, Kind, addrText, decodeFrame, etherTypeName, IP_PROTO_NAMES, LINKTYPE_NAMES } from './decode';
import { payloadInfo } from './info';
import { TCP_ACK, TCP_FIN, TCP_RST, TCP_SYN } from './conversations';
import type { PcapPacketSummary } from '../../src/api/contracts/pcap';
import type { SharedFiles } from '../storage/shared-files';

export class PcapStore {
  readonly root: string;
  /** The director's files (DATA_DIR, and the database when they are shared with other directors). */
  constructor(readonly files: SharedFiles) {
    this.root = files.path('pcap');
  }
  private static uploadName = (id: number) => `pcap/uploads/${id}.cap`;
  private static processedName = (id: number) => `pcap/processed/${id}.pcap`;
  uploadFile(id: number): string {
    return this.files.path(PcapStore.uploadName(id));
  }
  processedFile(id: number): string {
    return this.files.path(PcapStore.processedName(id));
  }
  async ensureDirs(): Promise<void> {
    await fsp.mkdir(path.join(this.root, 'uploads'), { recursive: true });
    await fsp.mkdir(path.join(this.root, 'processed'), { recursive: true });
  }
  /** Shares the upload as received (and its index) with the other directors, once it is whole on disk. */
  async publishUpload(id: number): Promise<void> {
    for (const n of [PcapStore.uploadName(id), `${PcapStore.uploadName(id)}.idx`]) await this.files.publish(n);
  }
  /** Shares the processed capture (and its index) with the other directors. */
  async publishProcessed(id: number): Promise<void> {
    for (const n of [PcapStore.processedName(id), `${PcapStore.processedName(id)}.idx`]) await this.files.publish(n);
  }
  /** The local path of the upload as received, copied (with its index) from the database when another director received it; null when stored nowhere. */
  async localUpload(id: number): Promise<string | null> {
    return this.localPair(PcapStore.uploadName(id));
  }
  /** The local path of the processed capture, copied (with its index) from the database when another director wrote it; null when stored nowhere. */
  async localProcessed(id: number): Promise<string | null> {
    return this.localPair(PcapStore.processedName(id));
  }
  private async localPair(name: string): Promise<string | null> {
    const file = await this.files.local(name);
    if (!file) return null;
    return (await this.files.local(`${name}.idx`)) ? file : null;
  }
  async remove(id: number): Promise<void> {
    for (const n of [PcapStore.uploadName(id), PcapStore.processedName(id)]) {
      await this.files.remove(n);
      await this.files.remove(`${n}.idx`);
    }
  }
}

/** What is kept of a reader summary to read packets back (JSON in pcap_uploads.summary). */
export interface StoredCaptureInfo {
  format: 'pcap' | 'pcapng' | null;
  bigEndian: boolean;
  nanosecond: boolean;
  interfaces: ReaderSummary['interfaces'];
  sections: ReaderSummary['sections'];
  packets: number;
  firstFrameTime: [number, number] | null;
}

export function storedInfo(a: Analysis): StoredCaptureInfo {
  return {
    format: a.reader.format,
    bigEndian: a.reader.bigEndian,
    nanosecond: a.reader.nanosecond,
    interfaces: a.reader.interfaces,
    sections: a.reader.sections,
    packets: a.reader.packets,
    firstFrameTime: a.firstFrameTime,
  };
}

/** Buffered writes of 8-byte offsets. */
class IndexWriter {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private pos = 0;
  private readonly out: fs.WriteStream;
  constructor(file: string) {
    this.out = fs.createWriteStream(file, { highWaterMark: 1 << 20 });
  }
  add(offset: number): void {
    if (this.pos + 8 > this.buf.length) this.flush();
    this.buf.writeDoubleLE(offset, this.pos);
    this.pos += 8;
  }
  flush(): void {
    if (!this.pos) return;
    this.out.write(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafe(64 * 1024);
    this.pos = 0;
  }
  get full(): boolean {
    return this.out.writableNeedDrain;
  }
  async drain(): Promise<void> {
    if (this.out.writableNeedDrain) await once(this.out, 'drain');
  }
  async close(): Promise<void> {
    this.flush();
    this.out.end();
    await once(this.out, 'finish');
  }
  destroy(): void {
    this.out.destroy();
  }
}

/** Writes an upload to disk and analyzes it as it streams in. */
export class UploadIngest {
  private readonly analyzer: CaptureAnalyzer;
  private readonly file: fs.WriteStream;
  private readonly index: IndexWriter;
  private writing = true;
  private closed = false;

  constructor(readonly filePath: string) {
    // A deep write buffer: the disk's latency must not hold up reading and parsing the upload.
    this.file = fs.createWriteStream(filePath, { highWaterMark: 8 << 20 });
    this.index = new IndexWriter(`${filePath}.idx`);
    this.analyzer = new CaptureAnalyzer((rec) => this.index.add(rec.fileOffset));
  }

  get bytes(): number {
    return this.analyzer.bytesRead;
  }

  /** Not a capture (or unreadable before its first packet): stop reading. */
  get refused(): boolean {
    return this.analyzer.error !== null && this.analyzer.packets === 0;
  }

  get error(): string | null {
    return this.analyzer.error;
  }

  /** Parses and writes a chunk; returns a promise only when the disk is behind (wait for it before the next). */
  push(chunk: Buffer): Promise<void> | null {
    this.analyzer.push(chunk);
    if (this.refused) {
      this.writing = false;
      return null;
    }
    const fileFull = this.writing && !this.file.write(chunk);
    const indexFull = this.index.full;
    if (!fileFull && !indexFull) return null;
    return (async () => {
      if (fileFull) await once(this.file, 'drain');
      if (indexFull) await this.index.drain();
    })();
  }

  /**
   * The analysis once the upload has been read, and a promise that settles when the capture and its
   * index are on disk (closing the files runs while the caller goes on with the analysis).
   */
  finish(): { analysis: Analysis; stored: Promise<void> } {
    const analysis = this.analyzer.end();
    return { analysis, stored: this.close() };
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.file.end();
    await once(this.file, 'finish');
    await this.index.close();
  }

  async abort(): Promise<void> {
    this.closed = true;
    this.file.destroy();
    this.index.destroy();
    await fsp.rm(this.filePath, { force: true });
    await fsp.rm(`${this.filePath}.idx`, { force: true });
  }
}

// ------------------------------------------------------------------------------------------------
// Reading packets back

const MAX_PAGE_BYTES = 16 << 20;

async function readIndex(indexPath: string, from: number, count: number): Promise<number[]> {
  const fh = await fsp.open(indexPath, 'r');
  try {
    const buf = Buffer.alloc(count * 8);
    const { bytesRead } = await fh.read(buf, 0, buf.length, from * 8);
    const out: number[] = [];
    for (let i = 0; i + 8 <= bytesRead; i += 8) out.push(buf.readDoubleLE(i));
    return out;
  } finally {
    await fh.close();
  }
}

export async function packetCount(indexPath: string): Promise<number> {
  try {
    return Math.floor((await fsp.stat(indexPath)).size / 8);
  } catch {
    return 0;
  }
}

function resumePoint(info: StoredCaptureInfo, offset: number, frame: number): ResumePoint {
  if (info.format === 'pcapng') {
    let section = 0;
    for (let i = 0; i < info.sections.length; i++) if (info.sections[i]!.offset <= offset) section = i;
    const s = info.sections[section];
    return {
      format: 'pcapng',
      bigEndian: s?.bigEndian ?? false,
      nanosecond: info.nanosecond,
      interfaces: info.interfaces.filter((itf) => itf.section === section),
      offset,
      frame,
    };
  }
  return { format: 'pcap', bigEndian: info.bigEndian, nanosecond: info.nanosecond, interfaces: info.interfaces.slice(0, 1), offset, frame };
}

export interface ReadPacket {
  no: number;
  sec: number;
  nsec: number;
  caplen: number;
  origLen: number;
  linkType: number;
  bytes: Buffer;
}

/** Packets [from, from + count) (0-based) of a stored capture, with their bytes. */
export async function readPackets(file: string, indexPath: string, info: StoredCaptureInfo, from: number, count: number): Promise<ReadPacket[]> {
  const offsets = await readIndex(indexPath, from, count + 1);
  if (!offsets.length) return [];
  const start = offsets[0]!;
  const size = (await fsp.stat(file)).size;
  const end = Math.min(size, offsets.length > count ? offsets[count]! : size, start + MAX_PAGE_BYTES);
  const fh = await fsp.open(file, 'r');
  const buf = Buffer.alloc(Math.max(0, end - start));
  try {
    await fh.read(buf, 0, buf.length, start);
  } finally {
    await fh.close();
  }
  const out: ReadPacket[] = [];
  const reader = new CaptureReader(
    (rec) => {
      if (out.length >= count) return;
      out.push({
        no: rec.frame,
        sec: rec.sec,
        nsec: rec.nsec,
        caplen: rec.caplen,
        origLen: rec.origLen,
        linkType: rec.linkType,
        bytes: Buffer.from(rec.buf.subarray(rec.off, rec.off + rec.caplen)),
      });
    },
    undefined,
    resumePoint(info, start, from + 1),
  );
  reader.push(buf);
  return out;
}

const tcpFlagNames = (fl: number) =>
  [fl & TCP_SYN ? 'SYN' : '', fl & TCP_FIN ? 'FIN' : '', fl & TCP_RST ? 'RST' : '', fl & 0x08 ? 'PSH' : '', fl & TCP_ACK ? 'ACK' : '', fl & 0x20 ? 'URG' : ''].filter(Boolean).join(', ');

/** One line of the Packet View: time, addresses, protocol, length and a summary. */
export function summarizePacket(p: ReadPacket, first: [number, number] | null): PcapPacketSummary {
  const f = new Frame();
  const kind = decodeFrame(f, p.bytes, 0, p.caplen, p.origLen, p.linkType);
  const time = first ? p.sec - first[0] + (p.nsec - first[1]) / 1e9 : 0;
  const base = { no: p.no, time, length: p.origLen };
  if (kind === Kind.UnsupportedLink) return { ...base, source: '', destination: '', protocol: `DLT ${p.linkType}`, summary: `Link type ${p.linkType} (${LINKTYPE_NAMES[p.linkType] ?? 'not supported'})` };
  if (f.ipOff < 0) {
    const name = kind === Kind.NonIp ? etherTypeName(f.etherType) : 'Malformed';
    const macs = f.macOff >= 0 ? [macOf(p.bytes, f.macOff + 6), macOf(p.bytes, f.macOff)] : ['', ''];
    return { ...base, source: macs[0]!, destination: macs[1]!, protocol: name.split(' ')[0]!, summary: kind === Kind.NonIp ? name : f.problem };
  }
  const source = addrText(p.bytes, f.srcOff, f.ipVersion);
  const destination = addrText(p.bytes, f.dstOff, f.ipVersion);
  const vlan = f.vlanCount ? ` (VLAN ${Array.from(f.vlanIds.subarray(0, Math.min(f.vlanCount, 8))).join(', ')})` : '';
  if (kind === Kind.Tcp || kind === Kind.Udp) {
    const tcp = kind === Kind.Tcp;
    const info = f.payloadLen > 0 ? payloadInfo(p.bytes, f.payloadOff, Math.min(f.payloadLen, p.caplen - f.payloadOff), tcp, f.sport, f.dport) : null;
    const protocol = info?.split(' ')[0] && /^(HTTP|DNS|TLS|SSH)$/.test(info.split(' ')[0]!) ? info.split(' ')[0]! : tcp ? 'TCP' : 'UDP';
    const head = tcp
      ? `${f.sport} → ${f.dport} [${tcpFlagNames(f.tcpFlags)}] Seq=${f.seq}${f.tcpFlags & TCP_ACK ? ` Ack=${f.ack}` : ''} Len=${f.payloadLen}`
      : `${f.sport} → ${f.dport} Len=${f.payloadLen}`;
    return { ...base, source, destination, protocol, summary: `${head}${info ? ` ${info}` : ''}${vlan}` };
  }
  if (kind === Kind.Fragment) {
    return { ...base, source, destination, protocol: `IPv${f.ipVersion}`, summary: `Fragment of ${IP_PROTO_NAMES[f.proto] ?? `protocol ${f.proto}`} (offset ${f.fragOffset}, id 0x${f.fragId.toString(16)})${vlan}` };
  }
  if (kind === Kind.L4Malformed) return { ...base, source, destination, protocol: f.proto === 6 ? 'TCP' : 'UDP', summary: `${f.problem}${vlan}` };
  return { ...base, source, destination, protocol: IP_PROTO_NAMES[f.proto] ?? `IP ${f.proto}`, summary: `IPv${f.ipVersion} protocol ${f.proto}${vlan}` };
}

function macOf(b: Buffer, o: number): string {
  return [...b.subarray(o, o + 6)].map((x) => x.toString(16).padStart(2, '0')).join(':');
}

/** Info of a processed capture (a little-endian pcap we wrote). */
export function processedInfo(nanosecond: boolean, packets: number, firstFrameTime: [number, number] | null): StoredCaptureInfo {
  return {
    format: 'pcap',
    bigEndian: false,
    nanosecond,
    interfaces: [{ linkType: 1, snaplen: 262144, unitsPerSec: nanosecond ? 1e9 : 1e6, tsOffset: 0, section: 0, bigEndian: false }],
    sections: [],
    packets,
    firstFrameTime,
  };
}

/** The first packet's time of a stored capture (for relative times), read from its first record. */
export async function firstPacketTime(file: string, indexPath: string, info: StoredCaptureInfo): Promise<[number, number] | null> {
  const [p] = await readPackets(file, indexPath, info, 0, 1);
  return p ? [p.sec, p.nsec] : null;
}
