/**
 * Issue 20's real-process proof: a run-as user profile made through the director's call
 * (POST /action_user_profiles.json, with a secret) is the account a host_cli Action really runs as on a
 * local actor: `id -un` prints it. Needs root (the actor drops privileges to the profile's user).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CommandRun } from '../../actor/types/host-cli';
import type { RunAsProfile } from '@/api/contracts/run-as-profiles';
import { insertAction, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';

let w: EngineWorld;
beforeAll(async () => {
  vi.stubEnv('VIGIL_SECRET_KEY', 'engine run-as test key');
  w = await startEngineWorld({ allowHostCli: true });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await w?.close();
});

describe('run-as user profile on a local actor', () => {
  it.runIf(process.getuid?.() === 0)('ACT-040 JOB-005 a profile created by the call runs a host_cli Action as that local user (id -un)', async () => {
    const admin = await w.server.signIn('admin');
    const created = await w.server.call('POST', '/action_user_profiles.json', { as: admin, body: { friendly_name: 'Nobody account', username: 'nobody', secret: 'not-needed-on-linux' } });
    expect(created.statusCode, created.body).toBe(201);
    const profile = created.json<{ data: RunAsProfile }>().data;

    const id = await insertAction(w.server.db, 'host_cli', { shell: 'bash', raw_text: 'id -un\n    auto 0 true 10\n    success_match ^nobody$', cleanup_raw_text: '', separate_cleanup_shell: false, files: [], action_user_profile_id: profile.id });
    const listed = (await w.server.call('GET', '/action_user_profiles.json', { as: admin })).json<{ data: RunAsProfile[] }>().data;
    expect(listed.find((p) => p.id === profile.id)?.action_count).toBe(1);

    const res = await w.server.call('POST', `/run/actions/${id}.json`, { as: w.operator, body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, force_unlock: false } });
    expect(res.statusCode, res.body).toBe(201);
    const { actions } = await waitForJob(w.server.db, res.json<{ job_id: number }>().job_id);
    const a = actions[0]!;
    expect([a.status, a.blocked], a.blocked_msg ?? '').toEqual(['ran', false]);
    const [run] = (a.evidence.source as { commands: CommandRun[] }).commands;
    expect(run?.output.trim()).toBe('nobody');
    expect(JSON.stringify(a.evidence)).not.toContain('not-needed-on-linux');

    // The profile cannot be deleted while the Action runs as it.
    expect((await w.server.call('DELETE', `/action_user_profiles/${profile.id}.json`, { as: admin })).statusCode).toBe(409);
  });
});
