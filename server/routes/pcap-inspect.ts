/**
 * Packet View calls (/manage_sims/pcaps/inspect/{pcap_library_id} is the pane): the captures a user may
 * open, pages of packets of a stored capture and one packet's bytes. The capture shown is the processed one once an Action was
 * made from the upload (what the Action replays), else the upload as received.
 */
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { badRequest, notFound, validate } from '../http-errors';
import { firstPacketTime, packetCount, processedInfo, readPackets, summarizePacket, type PcapStore, type StoredCaptureInfo } from '../pcap/store';
import { listCaptures, loadUpload } from '../pcap/uploads';
import { capturesQuerySchema, packetsQuerySchema, type PcapCapturesAnswer, type PcapPacketBytesAnswer, type PcapPacketsAnswer } from '../../src/api/contracts/pcap';
import type { ActiveSession } from '../auth/sessions';

function parseId(raw: unknown, what: string): number {
  const m = /^(\d{1,9})(\.json)?$/.exec(String(raw ?? ''));
  if (!m || Number(m[1]) < 1) throw badRequest(`"${String(raw ?? '')}" is not a ${what}.`);
  return Number(m[1]);
}

export async function pcapInspectRoutes(app: FastifyInstance, opts: { store: PcapStore }) {
  const { store } = opts;

  const source = async (session: ActiveSession, id: number) => {
    const u = await loadUpload(app.db, id, session);
    if (u.pcap_library_id === null) throw notFound(`Packet capture ${id} is not stored${u.percent_complete < 100 ? ' yet: it is still being processed' : ''}.`);
    // This director's copies, or the ones another director of the database stored.
    const processed = u.action_id !== null ? await store.localProcessed(u.id) : null;
    if (processed) {
      const s = u.summary.capture as Partial<StoredCaptureInfo> | undefined;
      const base = processedInfo(s?.nanosecond === true, 0, null);
      const first = await firstPacketTime(processed, `${processed}.idx`, base);
      return { u, file: processed, info: { ...base, firstFrameTime: first }, kind: 'processed' as const };
    }
    const stored = u.summary.capture as StoredCaptureInfo | undefined;
    const file = stored ? await store.localUpload(u.id) : null;
    if (!stored || !file) throw notFound(`The capture of PCAP upload ${id} is no longer stored on this director.`);
    // Times in the Packet View count from the first packet (not from a time-less pcapng block).
    const first = await firstPacketTime(file, `${file}.idx`, stored);
    return { u, file, info: { ...stored, firstFrameTime: first }, kind: 'upload' as const };
  };

  // The captures the user may open (the Packet View's and the conversation commands' pick list).
  app.get('/manage_sims/pcaps.json', async (req): Promise<PcapCapturesAnswer> => {
    const session = requireUser(req);
    const q = validate(capturesQuerySchema, req.query ?? {});
    return { data: await listCaptures(app.db, session, q.q, q.limit) };
  });

  app.get('/manage_sims/pcaps/:id/packets.json', async (req): Promise<PcapPacketsAnswer> => {
    const session = requireUser(req);
    const id = parseId((req.params as { id?: string }).id, 'capture id');
    const q = validate(packetsQuerySchema, req.query ?? {});
    const { u, file, info, kind } = await source(session, id);
    const total = await packetCount(`${file}.idx`);
    const packets = q.offset < total ? await readPackets(file, `${file}.idx`, info, q.offset, q.limit) : [];
    return {
      data: {
        pcap_library_id: u.id,
        orig_filename: u.orig_filename,
        source: kind,
        total,
        offset: q.offset,
        packets: packets.map((p) => summarizePacket(p, info.firstFrameTime)),
      },
    };
  });

  app.get('/manage_sims/pcaps/:id/packets/:no', async (req): Promise<PcapPacketBytesAnswer> => {
    const session = requireUser(req);
    const params = req.params as { id?: string; no?: string };
    const id = parseId(params.id, 'capture id');
    const no = parseId(params.no, 'packet number');
    const { file, info } = await source(session, id);
    const total = await packetCount(`${file}.idx`);
    if (no > total) throw notFound(`Packet ${no} does not exist: the capture holds ${total} packet${total === 1 ? '' : 's'}.`);
    const [p] = await readPackets(file, `${file}.idx`, info, no - 1, 1);
    if (!p) throw notFound(`Packet ${no} could not be read.`);
    return { data: { no: p.no, caplen: p.caplen, length: p.origLen, link_type: p.linkType, bytes_base64: p.bytes.toString('base64') } };
  });
}
