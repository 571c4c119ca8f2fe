/**
 * Extracts the replay script of a pcap action from the processed capture its PCAP upload kept
 * (DATA_DIR/pcap/processed/{upload}.pcap): per conversation, in order of appearance, the payload
 * segments of each side in captured order. TCP retransmitted bytes are dropped and consecutive bytes
 * of one side merged (a stream has no segment boundaries); UDP keeps every datagram. Bounded by
 * REPLAY_LIMITS: a bigger capture is refused with the reason, reading stops as soon as it is known.
 */
import fs from 'node:fs';
import type { Db } from '../db/index';
import { CaptureAnalyzer } from '../pcap/analyze';
import { addrText, type Frame } from '../pcap/decode';
import { TCP_ACK, TCP_SYN } from '../pcap/conversations';
import type { PacketRecord } from '../pcap/reader';
import { PcapStore } from '../pcap/store';
import type { SharedFiles } from '../storage/shared-files';
import { REPLAY_LIMITS, type ReplayConversation, type ReplayScript } from '../../src/api/contracts/replay';

/** The capture cannot be replayed; the message says why (the job action ends errored with it). */
export class ReplayScriptError extends Error {}
/**
 * This director keeps no capture for the action (never uploaded, as the demo's catalogue entries, or
 * removed since): like a library file kept without its bytes, this install cannot perform the action,
 * so it ends 'incompatible' and a sequence goes on.
 */
export class CaptureMissingError extends ReplayScriptError {}

type Side = 'client' | 'server';

interface ConvState {
  protocol: 'tcp' | 'udp';
  client: string;
  clientPort: number;
  serverPort: number;
  segments: { from: Side; chunks: Buffer[] }[];
  next: Record<Side, number | null>;
}

class ScriptBuilder {
  private readonly convs: ConvState[] = [];
  private bytes = 0;
  private segmentCount = 0;
  failure: string | null = null;

  onFrame(rec: PacketRecord, f: Frame, row: number): void {
    if (this.failure || row < 0) return;
    if (f.isFragment) return this.fail(`Frame ${rec.frame} completes a fragmented IP datagram; fragmented datagrams cannot be replayed byte for byte.`);
    const tcp = f.proto === 6;
    const src = `${addrText(rec.buf, f.srcOff, f.ipVersion)}|${f.sport}`;
    let c = this.convs[row];
    if (!c) {
      if (row >= REPLAY_LIMITS.maxConversations) return this.fail(`The capture keeps more than ${REPLAY_LIMITS.maxConversations} conversations; a replay plays at most ${REPLAY_LIMITS.maxConversations}.`);
      // The client: the sender of a SYN, the receiver of a SYN/ACK, else the first frame's sender.
      const fromServer = tcp && (f.tcpFlags & (TCP_SYN | TCP_ACK)) === (TCP_SYN | TCP_ACK);
      c = {
        protocol: tcp ? 'tcp' : 'udp',
        client: fromServer ? `${addrText(rec.buf, f.dstOff, f.ipVersion)}|${f.dport}` : src,
        clientPort: fromServer ? f.dport : f.sport,
        serverPort: fromServer ? f.sport : f.dport,
        segments: [],
        next: { client: null, server: null },
      };
      this.convs[row] = c;
    }
    const from: Side = src === c.client ? 'client' : 'server';
    let payload = rec.buf.subarray(f.payloadOff, Math.min(f.payloadOff + f.payloadLen, f.capEnd));
    if (payload.length < f.payloadLen) return this.fail(`Frame ${rec.frame} was captured cut short (snap length); its payload cannot be replayed byte for byte.`);
    if (!tcp) return this.add(c, from, payload, true);
    let seq = f.seq;
    if (f.tcpFlags & TCP_SYN) {
      seq = (seq + 1) >>> 0;
      c.next[from] = seq;
    }
    if (!payload.length) return;
    const expected = c.next[from] ?? seq;
    const rel = (seq - expected) | 0;
    if (rel + payload.length <= 0) return; // retransmitted bytes
    if (rel < 0) payload = payload.subarray(-rel);
    c.next[from] = (seq + f.payloadLen) >>> 0;
    this.add(c, from, payload, false);
  }

  private add(c: ConvState, from: Side, data: Buffer, datagram: boolean): void {
    this.bytes += data.length;
    if (this.bytes > REPLAY_LIMITS.maxBytes) return this.fail(`The capture's conversations carry more than ${REPLAY_LIMITS.maxBytes} bytes of payload; a replay plays at most ${REPLAY_LIMITS.maxBytes}.`);
    const last = c.segments[c.segments.length - 1];
    if (!datagram && last?.from === from) {
      last.chunks.push(Buffer.from(data));
      return;
    }
    if (++this.segmentCount > REPLAY_LIMITS.maxSegments) return this.fail(`The capture's conversations hold more than ${REPLAY_LIMITS.maxSegments} payload segments; a replay plays at most ${REPLAY_LIMITS.maxSegments}.`);
    c.segments.push({ from, chunks: [Buffer.from(data)] });
  }

  private fail(message: string): void {
    this.failure ??= message;
  }

  result(uploadId: number): ReplayScript {
    const conversations: ReplayConversation[] = this.convs
      .filter((c): c is ConvState => Boolean(c))
      .map((c) => ({
        protocol: c.protocol,
        client_port: c.clientPort,
        server_port: c.serverPort,
        segments: c.segments.map((s) => ({ from: s.from, data: Buffer.concat(s.chunks).toString('base64') })),
      }));
    return { upload_id: uploadId, conversations, bytes: this.bytes };
  }
}

/** The script of a processed capture file. */
export async function extractReplayScript(file: string, uploadId: number): Promise<ReplayScript> {
  const builder = new ScriptBuilder();
  const analyzer = new CaptureAnalyzer((rec, f, row) => builder.onFrame(rec, f, row));
  const stream = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream) {
      analyzer.push(chunk as Buffer);
      if (builder.failure || !analyzer.wantsMore) break;
    }
  } finally {
    stream.destroy();
  }
  const summary = analyzer.end();
  if (builder.failure) throw new ReplayScriptError(builder.failure);
  if (summary.reader.error) throw new ReplayScriptError(`The processed capture of PCAP upload ${uploadId} cannot be read: ${summary.reader.error}`);
  const script = builder.result(uploadId);
  if (!script.conversations.length) throw new ReplayScriptError(`The processed capture of PCAP upload ${uploadId} holds no TCP or UDP conversation to replay.`);
  return script;
}

/** A pcap action's details with its replay script (details.replay), from its upload's processed capture. */
export async function withReplayScript(db: Db, files: SharedFiles, details: Record<string, unknown>): Promise<Record<string, unknown>> {
  const uploadId = Number(details.upload);
  if (!Number.isInteger(uploadId) || uploadId <= 0) throw new CaptureMissingError('This pcap action names no PCAP upload to replay.');
  const [upload] = await db.query<{ id: number }>('select id from pcap_uploads where id = $1', [uploadId]);
  if (!upload) throw new CaptureMissingError(`PCAP upload ${uploadId} of this action no longer exists.`);
  // This director's copy, or the one another director of the database wrote.
  const file = await new PcapStore(files).localProcessed(uploadId);
  if (!file) throw new CaptureMissingError(`The processed capture of PCAP upload ${uploadId} is not stored on this director.`);
  return { ...details, replay: await extractReplayScript(file, uploadId) };
}
