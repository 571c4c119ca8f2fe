/**
 * Action types performed by their own actor modules (actor/types/): host_cli, email, file_transfer,
 * dns against the destination actor, and the captive types, between two actors on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActorAgent } from '../../actor/agent';
import { insertAction, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld({ allowHostCli: true });
});
afterAll(async () => {
  await w?.close();
});

const run = async (id: number, src = w.src.nodeId, dst = w.dst.nodeId) => {
  const res = await w.server.call('POST', `/run/actions/${id}.json`, { as: w.operator, body: { attack_node_id_1: src, target_node_id_1: dst, force_unlock: false } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ job_id: number }>().job_id;
};

const runAction = async (type: string, details: Record<string, unknown>, timeoutMs: number | null = null) => {
  const { actions } = await waitForJob(w.server.db, await run(await insertAction(w.server.db, type, details, `${type} test`, timeoutMs)));
  const a = actions[0];
  if (!a) throw new Error('no job action');
  return a;
};

const hostCli = (shell: string, raw_text: string, cleanup_raw_text = '') => ({ shell, raw_text, cleanup_raw_text, separate_cleanup_shell: false, files: [] });

interface CommandEvidence {
  command: string;
  exit_code: number | null;
  stdout: string;
  matched: string | null;
  verdict: string;
}
const commandsOf = (a: { evidence: Record<string, unknown> }) => a.evidence.source as { commands: CommandEvidence[]; cleanup: CommandEvidence[] };

describe('host_cli', () => {
  it('runs the commands in one shell, judges each by its conditions and runs the cleanup', async () => {
    const script = [
      'cd "$(mktemp -d)" && echo kept-state > f.txt',
      '    auto 0 true 10',
      '    success_zero',
      'cat f.txt; echo attack-ok',
      '    auto 0 true 10',
      '    blocked_match denied',
      '    success_match attack-ok',
      'echo cleaning up',
      '    auto 0 true 10',
      '    cleanup',
    ].join('\n');
    const a = await runAction('host_cli', hostCli('bash', script, 'echo cleanup-script-ran\n    auto 3 true 10'));
    expect(a.status).toBe('ran');
    expect(a.blocked).toBe(false);
    const ev = commandsOf(a);
    expect(ev.commands.map((c) => [c.exit_code, c.verdict, c.matched])).toEqual([
      [0, 'passed', 'success_zero'],
      [0, 'passed', 'success_match attack-ok'],
    ]);
    // The second command saw the directory and file of the first: one shell.
    expect(ev.commands[1]?.stdout).toBe('kept-state\nattack-ok\n');
    expect(ev.cleanup.map((c) => c.stdout)).toEqual(['cleaning up\n', 'cleanup-script-ran\n']);
  });

  it('a nonzero exit with blocked_nonzero is blocked; a missing success is blocked; the cleanup still runs', async () => {
    const blocked = await runAction('host_cli', hostCli('sh', 'ls /vigil-no-such-dir\n    auto 0 true 10\n    blocked_nonzero\necho never\n    auto 0 true 10', 'echo tidy\n    auto 0 true 10'));
    expect(blocked.status).toBe('ran');
    expect(blocked.blocked).toBe(true);
    expect(blocked.blocked_msg).toBe('Command 1 (ls /vigil-no-such-dir): matched blocked_nonzero');
    expect(commandsOf(blocked).commands).toHaveLength(1);
    expect(commandsOf(blocked).cleanup[0]?.stdout).toBe('tidy\n');
    const missing = await runAction('host_cli', hostCli('bash', 'echo quarantined\n    auto 0 true 10\n    success_match ^done$'));
    expect(missing.blocked).toBe(true);
    expect(missing.blocked_msg).toBe('Command 1 (echo quarantined): no success condition matched');
  });

  it('error and incompatible conditions end the action so; a command past its timeout is errored', async () => {
    const err = await runAction('host_cli', hostCli('bash', 'echo "fatal: broken"\n    auto 0 true 10\n    error_match fatal'));
    expect([err.status, err.blocked_msg]).toEqual(['errored', 'Command 1 (echo "fatal: broken"): matched error_match fatal']);
    const inc = await runAction('host_cli', hostCli('bash', 'exit 3\n    auto 0 true 10\n    incompatible_nonzero'));
    expect(inc.status).toBe('incompatible');
    const slow = await runAction('host_cli', hostCli('bash', 'sleep 30\n    auto 0 true 1'));
    expect(slow.status).toBe('errored');
    expect(slow.blocked_msg).toBe('Command 1 (sleep 30): timed out');
  });

  it('python scripts run as one program; a shell that is not installed is incompatible with the reason', async () => {
    const py = await runAction('host_cli', hostCli('python', 'import sys\nprint("py-ran")\nsys.exit(2)'));
    expect(py.status).toBe('ran');
    expect(py.blocked).toBe(true);
    expect(py.blocked_msg).toBe('The python script ended with exit code 2');
    expect(commandsOf(py).commands[0]?.stdout).toBe('py-ran\n');
    const ps = await runAction('host_cli', hostCli('powershell', 'Get-Process\n    auto 0 true 10'));
    expect(ps.status).toBe('incompatible');
    expect(ps.blocked_msg).toBe('The powershell shell is not installed on this actor.');
  });

  it('an actor started without --allow-host-cli does not advertise host_cli and its host_cli work is incompatible', async () => {
    const plain = new ActorAgent({ director: w.url, bulkToken: w.bulkToken, name: 'plain', address: '127.0.0.4', log: () => {}, pollWaitMs: 2000 });
    await plain.start();
    try {
      expect(plain.capabilities).not.toContain('host_cli');
      const [row] = await w.server.db.query<{ types: string[] }>(`select capabilities->'types' as types from nodes where id = $1`, [plain.nodeId]);
      expect(row?.types).not.toContain('host_cli');
      const id = await insertAction(w.server.db, 'host_cli', hostCli('bash', 'id\n    auto 0 true 10'));
      const { actions } = await waitForJob(w.server.db, await run(id, plain.nodeId, w.dst.nodeId));
      expect(actions[0]?.status).toBe('incompatible');
      expect(actions[0]?.blocked_msg).toBe('Actor plain cannot perform host_cli actions.');
    } finally {
      await plain.stop();
    }
  });
});
