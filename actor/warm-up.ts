import { runSource, startTarget } from './perform';
import type { Outcome, PerformOptions } from './types/contract';
import type { WorkPayload } from '../src/api/contracts/engine';

/**
 * Before its first poll an actor performs a small socket action against itself, on a port the system
 * picks: the code the first job's actions run is then compiled, and Node's lazily loaded internals
 * (net's listen and connect paths) are loaded. Without it, the first wave of a job (every actor's first
 * action at once) spent most of its time compiling: a job's first actions took 200-330 ms from
 * scheduled to running against 40 ms afterwards. Nothing leaves the host: the action connects to the
 * actor's own address. Bounded by `ms`; a failure only costs the warm-up.
 */
export async function warmUp(address: string, opts: PerformOptions, ms = 3000): Promise<Outcome> {
  const signal = AbortSignal.timeout(ms);
  const now = new Date().toISOString();
  const base = { work_id: 0, node_id: 0, job_id: 0, job_action_id: 0, name: 'warm-up', timeout_ms: ms, local_address: address, issued_at: now, expires_at: now };
  const details = { comm_type: 'tcp', server_port: 0, steps: [{ data_type: 'ascii', request: 'warm', response: 'up' }] };
  const target = await startTarget({ ...base, role: 'target', action_type: 'socket', details } satisfies WorkPayload, opts);
  try {
    const outcome = await runSource({ ...base, role: 'source', action_type: 'socket', details, peer_address: address, port_map: target.port_map } satisfies WorkPayload, signal, opts);
    target.evidence();
    return outcome;
  } finally {
    await target.close();
  }
}
