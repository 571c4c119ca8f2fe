import net from 'node:net';
import { runSource, startTarget } from './perform';
import type { Outcome, PerformOptions } from './types/contract';
import type { WorkPayload } from '../src/api/contracts/engine';

/**
 * Before its first poll an actor performs small actions against itself: a socket action, and a port scan
 * of one open and one closed port, on ports the system picks. The code the first job's actions run is
 * then compiled, and Node's lazily loaded internals (net's listen, connect and refused-connection paths)
 * are loaded. Without it, the first wave of a job (every actor's first action at once) spent most of its
 * time compiling: a job's first actions took 200-330 ms from scheduled to running against 40 ms
 * afterwards; with the socket action alone, an actor's first port scan still cost 9.3 ms of CPU against
 * 0.9 ms for the next. Nothing leaves the host: the actions connect to the actor's own address. Each is
 * bounded by `ms`; a failure only costs the warm-up.
 */
export async function warmUp(address: string, opts: PerformOptions, ms = 3000): Promise<Outcome[]> {
  const socket = { comm_type: 'tcp', server_port: 0, steps: [{ data_type: 'ascii', request: 'warm', response: 'up' }] };
  const [open, closed] = [await freePort(address), await freePort(address)];
  const scan = { ports_list: `${open},#${closed}`, sleep_timer: 0, randomize_scan: false };
  return [await perform(address, opts, ms, 'socket', socket), await perform(address, opts, ms, 'port_scan', scan)];
}

async function perform(address: string, opts: PerformOptions, ms: number, type: string, details: Record<string, unknown>): Promise<Outcome> {
  const signal = AbortSignal.timeout(ms);
  const now = new Date().toISOString();
  const base = { work_id: 0, node_id: 0, job_id: 0, job_action_id: 0, name: 'warm-up', timeout_ms: ms, local_address: address, issued_at: now, expires_at: now, action_type: type, details };
  const target = await startTarget({ ...base, role: 'target' } satisfies WorkPayload, opts);
  try {
    const outcome = await runSource({ ...base, role: 'source', peer_address: address, port_map: target.port_map } satisfies WorkPayload, signal, opts);
    target.evidence();
    return outcome;
  } finally {
    await target.close();
  }
}

/** A port nothing listens on at `address` now (the system's pick, released at once). */
function freePort(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, address, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
