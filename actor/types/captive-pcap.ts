/**
 * captive_ioc_pcap: the byte-for-byte replay of a pcap action (pcap-replay.ts) with both sides on one
 * actor: the actor serves the server side of every kept conversation on its own address (a captive
 * server), then plays the client side against itself. The verdict is the client side's: a refused,
 * reset, timed-out or altered segment is blocked and named; nothing leaves the actor's address.
 */
import type { WorkPayload } from '../../src/api/contracts/engine';
import type { Outcome, PerformOptions } from '../perform';
import { pcapSource, startPcapTarget } from './pcap-replay';

export async function captivePcapSource(w: WorkPayload, signal: AbortSignal, opts: PerformOptions): Promise<Outcome> {
  const own = w.local_address;
  const server = await startPcapTarget(w, opts);
  try {
    const mapped = (port: number) => server.port_map[String(port)] ?? port;
    const outcome = await pcapSource({ ...w, port_map: server.port_map, port_failures: server.port_failures }, own, signal, mapped);
    return { ...outcome, evidence: { ...outcome.evidence, captive_server: server.evidence() } };
  } finally {
    await server.close();
  }
}
