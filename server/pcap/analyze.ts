/**
 * One pass over a capture: container reader -> frame decoder -> fragment reassembly -> conversation
 * tracker, with the counts the upload's flags and notifications are made of. Push chunks as they
 * arrive (`push`), then `end()`; memory depends on the number of conversations, not on the size of
 * the capture.
 */
import { CaptureReader, type PacketRecord, type ReaderSummary, type ResumePoint } from './reader';
import { ConversationTracker, type ConversationRow } from './conversations';
import { Frame, Kind, decodeFrame, decodeL4, decodeReassembledTunnel, decodeUdpTunnel, etherTypeName, isUdpTunnel, IP_PROTO_NAMES } from './decode';
import { Reassembler } from './fragments';

export interface FrameCounts {
  /** Every frame the container held. */
  total: number;
  /** Frames counted into TCP/UDP conversations. */
  conversation: number;
  /** Non-IP frames by name (ARP, LLDP, ...). */
  nonIp: Map<string, number>;
  /** Frames of link types we do not decode, by link type. */
  unsupportedLink: Map<number, number>;
  /** IP frames of other protocols (ICMP, ...) by name. */
  ipOther: Map<string, number>;
  /** Frames we could not decode, by reason, with the first frame number. */
  malformed: Map<string, { count: number; firstFrame: number }>;
  /** IP fragments (all), and datagrams never completed. */
  fragments: number;
  incompleteDatagrams: number;
  /** Conversation frames by the link type they were captured with. */
  conversationLinkTypes: Map<number, number>;
  /** Conversation frames that carried VLAN tags, and the VLAN ids seen (first 64). */
  vlanTagged: number;
  /** Conversation frames whose IP was inside PPPoE, MPLS or an IP tunnel, by ENCAP_* bit. */
  decapsulated: Map<number, number>;
  vlanIds: Set<number>;
}

export interface Analysis {
  reader: ReaderSummary;
  counts: FrameCounts;
  rows: ConversationRow[];
  /** Time of the first frame (the reference of relative times). */
  firstFrameTime: [number, number] | null;
}

/** Called for every frame with the row it was counted into (-1 for none). */
export type FrameListener = (rec: PacketRecord, frame: Frame, row: number) => void;

export class CaptureAnalyzer {
  private readonly reader: CaptureReader;
  private readonly tracker = new ConversationTracker();
  private readonly frame = new Frame();
  private readonly reasm = new Reassembler();
  private firstTime: [number, number] | null = null;
  private readonly counts: FrameCounts = {
    total: 0,
    conversation: 0,
    nonIp: new Map(),
    unsupportedLink: new Map(),
    ipOther: new Map(),
    malformed: new Map(),
    fragments: 0,
    incompleteDatagrams: 0,
    conversationLinkTypes: new Map(),
    vlanTagged: 0,
    vlanIds: new Set(),
    decapsulated: new Map(),
  };
  private lastLinkType = -1;
  private lastLinkCount = 0;
  /** The frame inside a VXLAN, GTP-U, Geneve or Teredo tunnel (decoded only for such frames). */
  private innerFrame: Frame | undefined;
  /** The listener already heard of this frame (a tunnel frame: outer and inner). */
  private listenerCalled = false;

  constructor(
    private readonly listener?: FrameListener,
    resume?: ResumePoint,
  ) {
    this.reader = new CaptureReader(
      (rec) => this.onPacket(rec),
      () => {
        // A time-less record (as Wireshark shows it) becomes the time reference if it comes first.
        if (this.firstTime === null) this.firstTime = [0, 0];
        this.tracker.frameTime(0, 0);
      },
      resume,
    );
  }

  /** For a fragment frame (in a listener): the id of its datagram, stable across passes. */
  get lastDatagram(): string {
    return this.reasm.lastDatagram;
  }

  get bytesRead(): number {
    return this.reader.summary.bytes;
  }

  get packets(): number {
    return this.reader.summary.packets;
  }

  /** False once the container is known to be unreadable (no point in reading further). */
  get wantsMore(): boolean {
    return this.reader.wantsMore;
  }

  /** The container error so far (e.g. "not a capture"), available from the first bytes on. */
  get error(): string | null {
    return this.reader.summary.error;
  }

  push(chunk: Buffer): void {
    this.reader.push(chunk);
  }

  end(): Analysis {
    const reader = this.reader.end();
    this.flushLinkCount();
    this.counts.incompleteDatagrams = this.reasm.incomplete;
    return { reader, counts: this.counts, rows: this.tracker.readRows(), firstFrameTime: this.firstTime };
  }

  private flushLinkCount(): void {
    if (this.lastLinkType >= 0 && this.lastLinkCount > 0) {
      const m = this.counts.conversationLinkTypes;
      m.set(this.lastLinkType, (m.get(this.lastLinkType) ?? 0) + this.lastLinkCount);
    }
    this.lastLinkCount = 0;
  }

  private onPacket(rec: PacketRecord): void {
    const c = this.counts;
    c.total++;
    const tracker = this.tracker;
    if (this.firstTime === null) this.firstTime = [rec.sec, rec.nsec];
    tracker.frameTime(rec.sec, rec.nsec);
    const f = this.frame;
    let kind = decodeFrame(f, rec.buf, rec.off, rec.caplen, rec.origLen, rec.linkType);
    let row = -1;
    let l4Buf = rec.buf;
    if (kind === Kind.Fragment) {
      c.fragments++;
      const first = this.reasm.add(f);
      if (first && (f.proto === 4 || f.proto === 41 || f.proto === 47)) row = this.onReassembledTunnel(rec, f, first);
      else if (first) {
        l4Buf = first;
        kind = decodeL4(f, first, 0, f.l4Len, first.length);
      }
    }
    switch (kind) {
      case Kind.Tcp:
      case Kind.Udp:
        row = tracker.add(f, l4Buf, true, rec.sec, rec.nsec, rec.origLen, rec.frame, f.macOff);
        c.conversation++;
        if (rec.linkType === this.lastLinkType) this.lastLinkCount++;
        else {
          this.flushLinkCount();
          this.lastLinkType = rec.linkType;
          this.lastLinkCount = 1;
        }
        if (f.encap !== 0) c.decapsulated.set(f.encap, (c.decapsulated.get(f.encap) ?? 0) + 1);
        if (f.vlanCount > 0) {
          c.vlanTagged++;
          for (let i = 0; i < f.vlanCount && i < 8 && c.vlanIds.size < 64; i++) c.vlanIds.add(f.vlanIds[i]!);
        }
        if (kind === Kind.Udp && isUdpTunnel(f)) this.onUdpTunnel(rec, f, row);
        break;
      case Kind.L4Malformed:
        if (f.proto === 6 && f.sport >= 0) tracker.add(f, l4Buf, false, rec.sec, rec.nsec, rec.origLen, rec.frame, -1);
        this.malformed(`${f.proto === 6 ? 'TCP' : 'UDP'}: ${f.problem}`, rec.frame);
        break;
      case Kind.NonIp: {
        const name = f.problem || etherTypeName(f.etherType);
        c.nonIp.set(name, (c.nonIp.get(name) ?? 0) + 1);
        break;
      }
      case Kind.IpOther: {
        const name = IP_PROTO_NAMES[f.proto] ?? `IP protocol ${f.proto}`;
        c.ipOther.set(name, (c.ipOther.get(name) ?? 0) + 1);
        break;
      }
      case Kind.UnsupportedLink:
        c.unsupportedLink.set(rec.linkType, (c.unsupportedLink.get(rec.linkType) ?? 0) + 1);
        break;
      case Kind.Malformed:
        this.malformed(f.problem, rec.frame);
        break;
      default:
        break;
    }
    if (this.listener && !this.listenerCalled) this.listener(rec, f, row);
    this.listenerCalled = false;
  }

  /**
   * A VXLAN, GTP-U, Geneve or Teredo frame also counts in the conversation it carries (as in Wireshark); the listener
   * hears of the outer frame first, then of the inner one with the inner conversation's row.
   */
  private onUdpTunnel(rec: PacketRecord, outer: Frame, outerRow: number): void {
    const inner = (this.innerFrame ??= new Frame());
    let kind = decodeUdpTunnel(inner, outer, rec.buf, rec.off + rec.origLen);
    let l4Buf = rec.buf;
    // A fragment inside the tunnel: the datagram counts in the frame that completes it (as tshark does).
    if (kind === Kind.Fragment) {
      this.counts.fragments++;
      const first = this.reasm.add(inner);
      if (!first) return;
      l4Buf = first;
      kind = decodeL4(inner, first, 0, inner.l4Len, first.length);
    }
    if (kind !== Kind.Tcp && kind !== Kind.Udp) {
      if (kind === Kind.L4Malformed && inner.proto === 6 && inner.sport >= 0) this.tracker.add(inner, l4Buf, false, rec.sec, rec.nsec, rec.origLen, rec.frame, -1);
      return;
    }
    const row = this.tracker.add(inner, l4Buf, true, rec.sec, rec.nsec, rec.origLen, rec.frame, inner.macOff);
    const c = this.counts;
    c.decapsulated.set(inner.encap, (c.decapsulated.get(inner.encap) ?? 0) + 1);
    if (this.listener && row !== outerRow) {
      this.listener(rec, outer, outerRow);
      this.listenerCalled = true;
      this.listener(rec, inner, row);
    }
  }

  /**
   * A tunnel in a fragmented datagram (GRE, IP-in-IP too big for the path), completed by this frame:
   * its inner conversation counts this frame, as in Wireshark. The frame stays the outer fragment.
   */
  private onReassembledTunnel(rec: PacketRecord, outer: Frame, first: Buffer): number {
    const inner = (this.innerFrame ??= new Frame());
    const kind = decodeReassembledTunnel(inner, outer, first, outer.l4Len);
    if (kind !== Kind.Tcp && kind !== Kind.Udp) return -1;
    this.counts.conversation++;
    this.counts.decapsulated.set(inner.encap, (this.counts.decapsulated.get(inner.encap) ?? 0) + 1);
    return this.tracker.add(inner, first, true, rec.sec, rec.nsec, rec.origLen, rec.frame, -1);
  }

  private malformed(reason: string, frame: number): void {
    const m = this.counts.malformed;
    const e = m.get(reason);
    if (e) e.count++;
    else if (m.size < 32) m.set(reason, { count: 1, firstFrame: frame });
  }
}

/** Analyzes a whole capture held in memory (tests, small files). */
export function analyzeBuffer(buf: Buffer, listener?: FrameListener): Analysis {
  const a = new CaptureAnalyzer(listener);
  a.push(buf);
  return a.end();
}
