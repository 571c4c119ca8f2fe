/**
 * Streaming reader of capture containers: classic pcap (either byte order, micro- or nanosecond
 * time stamps) and pcapng (sections of either byte order; IDB, EPB, SPB, obsolete PB; other blocks
 * skipped without being buffered). Bytes are pushed in chunks of any size; each complete packet is
 * handed to `onPacket` synchronously, as a view into the current chunk, so memory stays bounded by
 * the largest record, whatever the size of the capture.
 *
 * The reader never throws on bad input: a container error stops reading and is reported in `error`
 * (with the packets read before it kept); a capture that ends inside a record is reported in
 * `truncation`.
 *
 * Size: over 400 lines on purpose: pcap and pcapng share one push-driven state machine (chunk carry-over,
 * byte order, truncation, errors); split per format, each half would need the other's buffering.
 */

export const MAX_SNAPLEN = 262144;
/** Largest pcapng block we buffer (packet blocks with options); larger known blocks are an error. */
const MAX_BUFFERED_BLOCK = MAX_SNAPLEN + 64 * 1024;
/** Unknown blocks are skipped without buffering; this bounds their claimed length all the same. */
const MAX_SKIPPED_BLOCK = 1 << 30;

export type ContainerFormat = 'pcap' | 'pcapng';

/** One packet, valid only during the onPacket call (its bytes live in the reader's current chunk). */
export interface PacketRecord {
  buf: Buffer;
  off: number;
  caplen: number;
  origLen: number;
  /** Seconds and nanoseconds since the epoch (a pcapng SPB has no time stamp: 0, 0, as Wireshark). */
  sec: number;
  nsec: number;
  linkType: number;
  /** Interface index (pcapng; 0 for pcap). */
  iface: number;
  /** 1-based frame number over the whole capture. */
  frame: number;
  /** Byte offset of the record (pcap record header or pcapng block) in the capture. */
  fileOffset: number;
}

export interface InterfaceInfo {
  linkType: number;
  snaplen: number;
  /** Time stamp units per second (1e6 by default). */
  unitsPerSec: number;
  /** if_tsoffset, seconds. */
  tsOffset: number;
  /** Section number (0-based) the interface belongs to. */
  section: number;
  bigEndian: boolean;
}

export interface SectionInfo {
  /** Byte offset of the section header block. */
  offset: number;
  bigEndian: boolean;
  /** Index of the section's first interface in ReaderSummary.interfaces. */
  firstInterface: number;
}

/** Where to pick up reading in the middle of a capture (at a record boundary). */
export interface ResumePoint {
  format: ContainerFormat;
  bigEndian: boolean;
  /** pcap: nanosecond time stamps. */
  nanosecond: boolean;
  /** pcap: the one interface; pcapng: the interfaces of the section (in order). */
  interfaces: InterfaceInfo[];
  /** Byte offset to resume at, and the frame number of the packet found there. */
  offset: number;
  frame: number;
}

export interface Truncation {
  /** Frame number of the incomplete packet. */
  frame: number;
  /** Capture size in bytes (where it was cut). */
  atByte: number;
  /** Complete packets kept. */
  kept: number;
}

export interface ReaderSummary {
  format: ContainerFormat | null;
  bigEndian: boolean;
  nanosecond: boolean;
  interfaces: InterfaceInfo[];
  sections: SectionInfo[];
  packets: number;
  bytes: number;
  error: string | null;
  truncation: Truncation | null;
  notes: string[];
}

const PCAPNG_SHB = 0x0a0d0d0a;
const BYTE_ORDER_MAGIC = 0x1a2b3c4d;

const enum Phase {
  Magic,
  PcapHeader,
  PcapRecords,
  Pcapng,
  Skip,
  Done,
  Failed,
}

function hexPreview(b: Buffer): string {
  const bytes = [...b.subarray(0, 8)].map((x) => x.toString(16).padStart(2, '0')).join(' ');
  const text = [...b.subarray(0, 8)].map((x) => (x >= 0x20 && x < 0x7f ? String.fromCharCode(x) : '.')).join('');
  return `${bytes} ("${text}")`;
}

export class CaptureReader {
  readonly summary: ReaderSummary = {
    format: null,
    bigEndian: false,
    nanosecond: false,
    interfaces: [],
    sections: [],
    packets: 0,
    bytes: 0,
    error: null,
    truncation: null,
    notes: [],
  };

  private phase = Phase.Magic;
  private pending: Buffer | null = null;
  /** Absolute offset of the first byte of `pending` (or of the next chunk when nothing is pending). */
  private base = 0;
  private le = true;
  private pcapLinkType = 1;
  private pcapNano = false;
  private snaplen = MAX_SNAPLEN;
  private skipLeft = 0;
  private section = -1;
  /** Interfaces of the current section (indices into summary.interfaces). */
  private sectionIfaces: number[] = [];
  private unknownBlocks = new Map<number, number>();
  private readonly rec: PacketRecord = {
    buf: Buffer.alloc(0),
    off: 0,
    caplen: 0,
    origLen: 0,
    sec: 0,
    nsec: 0,
    linkType: 1,
    iface: 0,
    frame: 0,
    fileOffset: 0,
  };

  /**
   * @param onPacket each packet, in order
   * @param onOtherRecord pcapng blocks Wireshark shows as (time-less) frames although they hold no
   *   packet: custom blocks and systemd journal exports. They matter for the time reference.
   */
  constructor(
    private readonly onPacket: (p: PacketRecord) => void,
    private readonly onOtherRecord?: () => void,
    resume?: ResumePoint,
  ) {
    if (resume) {
      const s = this.summary;
      s.format = resume.format;
      s.bigEndian = resume.bigEndian;
      s.nanosecond = resume.nanosecond;
      s.interfaces = resume.interfaces.map((i) => ({ ...i }));
      s.packets = resume.frame - 1;
      this.base = resume.offset;
      this.le = !resume.bigEndian;
      if (resume.format === 'pcap') {
        const itf = resume.interfaces[0];
        this.pcapNano = resume.nanosecond;
        this.pcapLinkType = itf?.linkType ?? 1;
        this.snaplen = itf?.snaplen ?? MAX_SNAPLEN;
        this.phase = Phase.PcapRecords;
      } else {
        this.section = 0;
        this.sectionIfaces = resume.interfaces.map((_, i) => i);
        this.phase = Phase.Pcapng;
      }
    }
  }

  get failed(): boolean {
    return this.phase === Phase.Failed;
  }

  /** Whether more input can still change anything (false after a fatal error). */
  get wantsMore(): boolean {
    return this.phase !== Phase.Failed && this.phase !== Phase.Done;
  }

  push(chunk: Buffer): void {
    this.summary.bytes += chunk.length;
    if (this.phase === Phase.Failed || this.phase === Phase.Done || chunk.length === 0) return;
    let rest = chunk;
    const pending = this.pending;
    if (pending && pending.length) {
      // Complete the record that straddles the chunks by joining only as much of the chunk as it
      // needs (growing the slice), instead of copying the whole chunk.
      this.pending = null;
      let k = Math.min(chunk.length, 512);
      for (;;) {
        const data = Buffer.concat([pending, chunk.subarray(0, k)]);
        const used = this.consume(data);
        if (this.failed) return;
        if (used >= pending.length) {
          this.base += used;
          rest = chunk.subarray(used - pending.length);
          break;
        }
        if (k === chunk.length) {
          this.base += used;
          this.pending = Buffer.from(data.subarray(used));
          return;
        }
        k = Math.min(chunk.length, k * 8);
      }
    }
    if (rest.length === 0) return;
    const used = this.consume(rest);
    if (used < rest.length && !this.failed) {
      // Keep a copy of the incomplete tail (at most one record): callers may reuse their chunk buffers.
      this.pending = Buffer.from(rest.subarray(used));
    }
    this.base += used;
  }

  /** Call once the input has ended; reports a capture that stops inside a header or record. */
  end(): ReaderSummary {
    const s = this.summary;
    const left = this.pending?.length ?? 0;
    if (this.phase === Phase.Magic) {
      if (s.bytes === 0) this.fail('The file is empty.');
      else this.fail(`The file is ${s.bytes} bytes long, too short to be a pcap or pcapng capture.`);
    } else if (this.phase === Phase.PcapHeader) {
      this.fail(`The capture ends after ${s.bytes} bytes, inside its 24-byte pcap file header.`);
    } else if (this.phase === Phase.Skip && this.skipLeft > 0) {
      s.truncation = { frame: s.packets + 1, atByte: s.bytes, kept: s.packets };
      s.notes.push(`The capture is cut short at byte ${s.bytes}, inside a pcapng block it was skipping; ${s.packets} complete packets kept.`);
    } else if ((this.phase === Phase.PcapRecords || this.phase === Phase.Pcapng) && left > 0) {
      const inPacket = this.phase === Phase.PcapRecords || this.pendingIsPacketBlock();
      if (this.phase === Phase.Pcapng && this.section < 0) {
        this.fail(`The capture ends after ${s.bytes} bytes, inside its pcapng section header.`);
      } else if (inPacket) {
        s.truncation = { frame: s.packets + 1, atByte: s.bytes, kept: s.packets };
        s.notes.push(`The capture is cut short inside packet ${s.packets + 1} at byte ${s.bytes}; ${s.packets} complete packet${s.packets === 1 ? '' : 's'} kept.`);
      } else {
        s.truncation = { frame: s.packets + 1, atByte: s.bytes, kept: s.packets };
        s.notes.push(`The capture is cut short at byte ${s.bytes}, inside a pcapng block; ${s.packets} complete packet${s.packets === 1 ? '' : 's'} kept.`);
      }
    }
    if (this.phase !== Phase.Failed) this.phase = Phase.Done;
    for (const [type, n] of this.unknownBlocks) {
      s.notes.push(`Skipped ${n} pcapng block${n === 1 ? '' : 's'} of type 0x${type.toString(16).padStart(8, '0')} (not packet data).`);
    }
    this.pending = null;
    return s;
  }

  private pendingIsPacketBlock(): boolean {
    const p = this.pending;
    if (!p || p.length < 4) return true;
    const type = this.le ? p.readUInt32LE(0) : p.readUInt32BE(0);
    return type === 6 || type === 3 || type === 2;
  }

  private fail(message: string): void {
    if (this.phase === Phase.Failed) return;
    this.summary.error = message;
    this.phase = Phase.Failed;
    this.pending = null;
  }

  /** Parses as much of `data` as possible; returns the number of bytes consumed. */
  private consume(data: Buffer): number {
    let pos = 0;
    for (;;) {
      switch (this.phase) {
        case Phase.Magic: {
          if (data.length - pos < 4) return pos;
          const m = data.readUInt32LE(pos);
          const mb = data.readUInt32BE(pos);
          if (mb === 0xa1b2c3d4 || mb === 0xa1b23c4d) {
            this.le = false;
            this.pcapNano = mb === 0xa1b23c4d;
          } else if (m === 0xa1b2c3d4 || m === 0xa1b23c4d) {
            this.le = true;
            this.pcapNano = m === 0xa1b23c4d;
          } else if (m === PCAPNG_SHB) {
            this.summary.format = 'pcapng';
            this.phase = Phase.Pcapng;
            continue;
          } else if (mb === 0xa1b2cd34 || m === 0xa1b2cd34) {
            this.fail('This is a modified (Kuznetzov) pcap capture, which is not supported; save it as pcap or pcapng.');
            return pos;
          } else {
            const gz = data[pos] === 0x1f && data[pos + 1] === 0x8b;
            this.fail(
              gz
                ? 'The file is gzip-compressed; decompress it and upload the pcap or pcapng capture.'
                : `The file is not a pcap or pcapng capture: it starts with ${hexPreview(data.subarray(pos))}.`,
            );
            return pos;
          }
          this.summary.format = 'pcap';
          this.summary.bigEndian = !this.le;
          this.summary.nanosecond = this.pcapNano;
          this.phase = Phase.PcapHeader;
          continue;
        }
        case Phase.PcapHeader: {
          if (data.length - pos < 24) return pos;
          const major = this.le ? data.readUInt16LE(pos + 4) : data.readUInt16BE(pos + 4);
          const snap = this.le ? data.readUInt32LE(pos + 16) : data.readUInt32BE(pos + 16);
          const lt = this.le ? data.readUInt32LE(pos + 20) : data.readUInt32BE(pos + 20);
          if (major !== 2) {
            this.fail(`The pcap file header has version ${major}; only version 2 exists.`);
            return pos;
          }
          this.pcapLinkType = lt & 0x03ffffff;
          this.snaplen = snap;
          this.summary.interfaces.push({ linkType: this.pcapLinkType, snaplen: snap, unitsPerSec: this.pcapNano ? 1e9 : 1e6, tsOffset: 0, section: 0, bigEndian: !this.le });
          pos += 24;
          this.phase = Phase.PcapRecords;
          continue;
        }
        case Phase.PcapRecords:
          return this.pcapRecords(data, pos);
        case Phase.Pcapng: {
          const next = this.pcapngBlock(data, pos);
          if (next === pos) return pos;
          pos = next;
          continue;
        }
        case Phase.Skip: {
          const n = Math.min(this.skipLeft, data.length - pos);
          this.skipLeft -= n;
          pos += n;
          if (this.skipLeft > 0) return pos;
          this.phase = Phase.Pcapng;
          continue;
        }
        default:
          return data.length;
      }
    }
  }

  /** The hot loop: classic pcap records. */
  private pcapRecords(data: Buffer, start: number): number {
    let pos = start;
    const end = data.length;
    const rec = this.rec;
    const le = this.le;
    const nano = this.pcapNano;
    const lt = this.pcapLinkType;
    rec.buf = data;
    rec.linkType = lt;
    rec.iface = 0;
    while (end - pos >= 16) {
      let sec: number, frac: number, caplen: number, orig: number;
      if (le) {
        sec = (data[pos]! | (data[pos + 1]! << 8) | (data[pos + 2]! << 16) | (data[pos + 3]! << 24)) >>> 0;
        frac = (data[pos + 4]! | (data[pos + 5]! << 8) | (data[pos + 6]! << 16) | (data[pos + 7]! << 24)) >>> 0;
        caplen = (data[pos + 8]! | (data[pos + 9]! << 8) | (data[pos + 10]! << 16) | (data[pos + 11]! << 24)) >>> 0;
        orig = (data[pos + 12]! | (data[pos + 13]! << 8) | (data[pos + 14]! << 16) | (data[pos + 15]! << 24)) >>> 0;
      } else {
        sec = ((data[pos]! << 24) | (data[pos + 1]! << 16) | (data[pos + 2]! << 8) | data[pos + 3]!) >>> 0;
        frac = ((data[pos + 4]! << 24) | (data[pos + 5]! << 16) | (data[pos + 6]! << 8) | data[pos + 7]!) >>> 0;
        caplen = ((data[pos + 8]! << 24) | (data[pos + 9]! << 16) | (data[pos + 10]! << 8) | data[pos + 11]!) >>> 0;
        orig = ((data[pos + 12]! << 24) | (data[pos + 13]! << 16) | (data[pos + 14]! << 8) | data[pos + 15]!) >>> 0;
      }
      if (caplen > MAX_SNAPLEN) {
        const n = this.summary.packets;
        this.fail(
          `Packet ${n + 1} (at byte ${this.base + pos}) claims a captured length of ${caplen} bytes, more than the maximum of ${MAX_SNAPLEN}; the capture is corrupt after ${n} complete packet${n === 1 ? '' : 's'}.`,
        );
        return pos;
      }
      if (end - pos - 16 < caplen) break;
      const frame = ++this.summary.packets;
      rec.off = pos + 16;
      rec.caplen = caplen;
      rec.origLen = orig < caplen ? caplen : orig;
      if (nano) {
        if (frac >= 1e9) {
          sec += Math.floor(frac / 1e9);
          frac %= 1e9;
        }
        rec.nsec = frac;
      } else {
        if (frac >= 1e6) {
          sec += Math.floor(frac / 1e6);
          frac %= 1e6;
        }
        rec.nsec = frac * 1000;
      }
      rec.sec = sec;
      rec.frame = frame;
      rec.fileOffset = this.base + pos;
      this.onPacket(rec);
      pos += 16 + caplen;
    }
    return pos;
  }

  private u32(b: Buffer, at: number): number {
    return this.le ? b.readUInt32LE(at) : b.readUInt32BE(at);
  }

  private u16(b: Buffer, at: number): number {
    return this.le ? b.readUInt16LE(at) : b.readUInt16BE(at);
  }

  /** One pcapng block at pos; returns the new position (== pos when more bytes are needed). */
  private pcapngBlock(data: Buffer, pos: number): number {
    const avail = data.length - pos;
    if (avail < 12) return pos;
    const rawType = data.readUInt32LE(pos);
    if (rawType === PCAPNG_SHB) {
      const bom = data.readUInt32LE(pos + 8);
      if (bom === BYTE_ORDER_MAGIC) this.le = true;
      else if (bom === 0x4d3c2b1a) this.le = false;
      else {
        this.fail(`The pcapng section header at byte ${this.base + pos} has an invalid byte-order magic 0x${bom.toString(16)}.`);
        return pos;
      }
    } else if (this.section < 0) {
      this.fail('The pcapng capture does not start with a section header block.');
      return pos;
    }
    const type = this.u32(data, pos);
    const total = this.u32(data, pos + 4);
    if (total < 12 || total % 4 !== 0) {
      this.fail(
        `The pcapng block at byte ${this.base + pos} has an invalid length ${total}; the capture is corrupt after ${this.summary.packets} complete packet${this.summary.packets === 1 ? '' : 's'}.`,
      );
      return pos;
    }
    const known = type === PCAPNG_SHB || type === 1 || type === 2 || type === 3 || type === 6;
    if (!known) {
      if (total > MAX_SKIPPED_BLOCK) {
        this.fail(`The pcapng block at byte ${this.base + pos} claims ${total} bytes; the capture is corrupt.`);
        return pos;
      }
      this.unknownBlocks.set(type, (this.unknownBlocks.get(type) ?? 0) + 1);
      if (type === 0x00000bad || type === 0x40000bad || type === 9) this.onOtherRecord?.();
      // Skip without buffering; the trailing length is not checked for blocks we do not read.
      const n = Math.min(total, avail);
      if (n < total) {
        this.skipLeft = total - n;
        this.phase = Phase.Skip;
      }
      return pos + n;
    }
    if (total > MAX_BUFFERED_BLOCK) {
      this.fail(
        `The pcapng block at byte ${this.base + pos} claims ${total} bytes, more than a packet can take; the capture is corrupt after ${this.summary.packets} complete packet${this.summary.packets === 1 ? '' : 's'}.`,
      );
      return pos;
    }
    if (avail < total) return pos;
    if (this.u32(data, pos + total - 4) !== total) {
      this.fail(`The pcapng block at byte ${this.base + pos} has a trailing length that does not match its leading length; the capture is corrupt.`);
      return pos;
    }
    switch (type) {
      case PCAPNG_SHB:
        return this.shb(data, pos, total);
      case 1:
        return this.idb(data, pos, total);
      default:
        return this.packetBlock(type, data, pos, total);
    }
  }

  private shb(data: Buffer, pos: number, total: number): number {
    if (total < 28) {
      this.fail(`The pcapng section header at byte ${this.base + pos} is too short.`);
      return pos;
    }
    const major = this.u16(data, pos + 12);
    if (major !== 1) {
      this.fail(`The pcapng section header has version ${major}; only version 1 is supported.`);
      return pos;
    }
    this.section++;
    this.sectionIfaces = [];
    if (this.section === 0) this.summary.bigEndian = !this.le;
    this.summary.sections.push({ offset: this.base + pos, bigEndian: !this.le, firstInterface: this.summary.interfaces.length });
    return pos + total;
  }

  private idb(data: Buffer, pos: number, total: number): number {
    if (total < 20) {
      this.fail(`The pcapng interface description block at byte ${this.base + pos} is too short.`);
      return pos;
    }
    const linkType = this.u16(data, pos + 8);
    const snaplen = this.u32(data, pos + 12);
    let unitsPerSec = 1e6;
    let tsOffset = 0;
    let o = pos + 16;
    const end = pos + total - 4;
    while (o + 4 <= end) {
      const code = this.u16(data, o);
      const len = this.u16(data, o + 2);
      if (code === 0) break;
      if (o + 4 + len > end) break;
      if (code === 9 && len >= 1) {
        const v = data[o + 4]!;
        const exp = v & 0x7f;
        unitsPerSec = v & 0x80 ? 2 ** exp : 10 ** exp;
        if (!(unitsPerSec >= 1) || !Number.isFinite(unitsPerSec)) unitsPerSec = 1e6;
        if (unitsPerSec > 1e6) this.summary.nanosecond = true;
      } else if (code === 14 && len >= 8) {
        const hi = this.le ? data.readInt32LE(o + 8) : data.readInt32BE(o + 4);
        const lo = this.le ? data.readUInt32LE(o + 4) : data.readUInt32BE(o + 8);
        tsOffset = hi * 4294967296 + lo;
      }
      o += 4 + Math.ceil(len / 4) * 4;
    }
    this.sectionIfaces.push(this.summary.interfaces.length);
    this.summary.interfaces.push({ linkType, snaplen, unitsPerSec, tsOffset, section: this.section, bigEndian: !this.le });
    return pos + total;
  }

  private packetBlock(type: number, data: Buffer, pos: number, total: number): number {
    const rec = this.rec;
    let ifId: number;
    let caplen: number;
    let orig: number;
    let dataOff: number;
    let hi = 0;
    let lo = 0;
    let hasTs = true;
    if (type === 6) {
      if (total < 32) return this.badBlock(pos, 'enhanced packet block is too short');
      ifId = this.u32(data, pos + 8);
      hi = this.u32(data, pos + 12);
      lo = this.u32(data, pos + 16);
      caplen = this.u32(data, pos + 20);
      orig = this.u32(data, pos + 24);
      dataOff = pos + 28;
      if (caplen > total - 32) return this.badBlock(pos, `enhanced packet block claims ${caplen} captured bytes but holds only ${total - 32}`);
    } else if (type === 2) {
      if (total < 32) return this.badBlock(pos, 'packet block is too short');
      ifId = this.u16(data, pos + 8);
      hi = this.u32(data, pos + 12);
      lo = this.u32(data, pos + 16);
      caplen = this.u32(data, pos + 20);
      orig = this.u32(data, pos + 24);
      dataOff = pos + 28;
      if (caplen > total - 32) return this.badBlock(pos, `packet block claims ${caplen} captured bytes but holds only ${total - 32}`);
    } else {
      if (total < 16) return this.badBlock(pos, 'simple packet block is too short');
      ifId = 0;
      orig = this.u32(data, pos + 8);
      const itf0 = this.sectionIfaces[0] !== undefined ? this.summary.interfaces[this.sectionIfaces[0]] : undefined;
      const snap = itf0 && itf0.snaplen > 0 ? itf0.snaplen : MAX_SNAPLEN;
      caplen = Math.min(orig, snap, total - 16);
      dataOff = pos + 12;
      hasTs = false;
    }
    const ifIndex = this.sectionIfaces[ifId];
    const itf = ifIndex !== undefined ? this.summary.interfaces[ifIndex] : undefined;
    if (!itf || ifIndex === undefined) {
      return this.badBlock(pos, `packet refers to interface ${ifId}, which the section does not describe`);
    }
    if (caplen > MAX_SNAPLEN) return this.badBlock(pos, `packet claims a captured length of ${caplen} bytes, more than the maximum of ${MAX_SNAPLEN}`);
    rec.buf = data;
    rec.off = dataOff;
    rec.caplen = caplen;
    rec.origLen = orig < caplen ? caplen : orig;
    rec.linkType = itf.linkType;
    rec.iface = ifIndex;
    rec.fileOffset = this.base + pos;
    if (hasTs) this.setTime(hi, lo, itf);
    else {
      rec.sec = 0;
      rec.nsec = 0;
    }
    rec.frame = ++this.summary.packets;
    this.onPacket(rec);
    return pos + total;
  }

  private setTime(hi: number, lo: number, itf: InterfaceInfo): void {
    const rec = this.rec;
    const units = itf.unitsPerSec;
    if (units === 1e6 && hi < 0x200000) {
      const v = hi * 4294967296 + lo;
      const s = Math.floor(v / 1e6);
      rec.sec = s + itf.tsOffset;
      rec.nsec = (v - s * 1e6) * 1000;
      return;
    }
    const v = (BigInt(hi) << 32n) | BigInt(lo);
    if (Number.isInteger(units) && units <= Number.MAX_SAFE_INTEGER) {
      const u = BigInt(units);
      const s = v / u;
      const r = v % u;
      rec.sec = Number(s) + itf.tsOffset;
      rec.nsec = Number((r * 1_000_000_000n) / u);
    } else {
      const secs = Number(v) / units;
      rec.sec = Math.floor(secs) + itf.tsOffset;
      rec.nsec = Math.floor((secs - Math.floor(secs)) * 1e9);
    }
  }

  private badBlock(pos: number, what: string): number {
    const n = this.summary.packets;
    this.fail(`The pcapng block at byte ${this.base + pos} is corrupt: ${what}; ${n} complete packet${n === 1 ? '' : 's'} kept before it.`);
    return pos;
  }
}
