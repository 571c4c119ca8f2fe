/**
 * host_cli's command syntax made real (prompt_regex, sleep_seconds, check_logs, max_timeout_seconds),
 * run-as user profiles and the shells an actor cannot run, between two actors on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandRun } from '../../actor/types/host-cli';
import { resolveRunAs, type RunAsHost } from '../../actor/types/run-as';
import { Incompatible } from '../../actor/types/contract';
import { insertAction, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld({ allowHostCli: true });
});
afterAll(async () => {
  await w?.close();
});

const runAction = async (details: Record<string, unknown>) => {
  const id = await insertAction(w.server.db, 'host_cli', { raw_text: '', cleanup_raw_text: '', separate_cleanup_shell: false, files: [], ...details });
  const res = await w.server.call('POST', `/run/actions/${id}.json`, { as: w.operator, body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, force_unlock: false } });
  expect(res.statusCode, res.body).toBe(201);
  const { actions } = await waitForJob(w.server.db, res.json<{ job_id: number }>().job_id);
  return actions[0]!;
};
const bash = (raw_text: string, extra: Record<string, unknown> = {}) => runAction({ shell: 'bash', raw_text, ...extra });

const commandsOf = (a: { evidence: Record<string, unknown> }) => (a.evidence.source as { commands: CommandRun[] }).commands;

describe('host_cli command parameters', () => {
  it('ACT-077 prompt_regex: the actor waits for the command\'s own prompt, even when it comes late, and later commands go to the program holding it', async () => {
    // The line the regex waits for is printed two seconds after the shell's own prompt is back.
    const late = '(sleep 2; echo vigil-ready) &';
    const waited = await bash(`${late}\n    vigil-ready 0 true 10\n    success_match vigil-ready`);
    expect([waited.status, waited.blocked], waited.blocked_msg ?? '').toEqual(['ran', false]);
    expect(commandsOf(waited)[0]?.output).toContain('vigil-ready');
    // With the 'auto' prompt the same command is judged as soon as the shell is back: the line is not there yet.
    const auto = await bash(`${late}\n    auto 0 true 10\n    success_match vigil-ready`);
    expect(auto.blocked_msg).toBe(`Command 1 (${late}): no success condition matched`);
    // A program's prompt: commands are typed into the python REPL, then exit() returns to the shell.
    const repl = await bash('python3 -i -q\n    ^>>> 0 true 10\nprint(6 * 7)\n    ^>>> 0 true 10\n    success_match ^42$\nexit()\n    auto 0 true 10\n    success_zero');
    expect(repl.blocked, repl.blocked_msg ?? '').toBe(false);
    expect(commandsOf(repl).map((c) => [c.exit_code, c.matched])).toEqual([
      [null, null],
      [null, 'success_match ^42$'],
      [0, 'success_zero'],
    ]);
  });

  it('ACT-077 sleep_seconds: the conditions are read only after the sleep, so output that comes during it counts', async () => {
    const late = '(sleep 2; echo quarantine-notice) &';
    const started = Date.now();
    const slept = await bash(`${late}\n    auto 3 true 10\n    blocked_match quarantine-notice`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(slept.blocked).toBe(true);
    expect(slept.blocked_msg).toBe(`Command 1 (${late}): matched blocked_match quarantine-notice`);
    const hasty = await bash(`${late}\n    auto 0 true 10\n    blocked_match quarantine-notice`);
    expect([hasty.status, hasty.blocked]).toEqual(['ran', false]);
  });

  it('ACT-077 check_logs false keeps no output in the evidence, while its conditions still read it', async () => {
    const a = await bash('echo vigil-secret-$((4700 + 11))\n    auto 0 false 10\n    success_match secret-4711\necho kept-line\n    auto 0 true 10');
    expect([a.status, a.blocked]).toEqual(['ran', false]);
    const [hidden, kept] = commandsOf(a);
    expect(hidden).toMatchObject({ output: '', logged: false, matched: 'success_match secret-4711' });
    expect(kept).toMatchObject({ output: 'kept-line\n', logged: true });
    // The command line is kept; what it printed is not.
    expect(JSON.stringify(a.evidence)).not.toContain('vigil-secret-4711');
  });

  it('ACT-077 max_timeout_seconds: output before the timeout still meets the match conditions; otherwise the command is errored', async () => {
    const seen = await bash('echo access-denied; sleep 30\n    auto 0 true 1\n    blocked_match access-denied');
    expect([seen.status, seen.blocked, seen.blocked_msg]).toEqual(['ran', true, 'Command 1 (echo access-denied; sleep 30): matched blocked_match access-denied']);
    expect(commandsOf(seen)[0]).toMatchObject({ timed_out: true, exit_code: null });
    const hung = await bash('sleep 30\n    auto 0 true 1\n    success_zero');
    expect([hung.status, hung.blocked_msg]).toEqual(['errored', 'Command 1 (sleep 30): timed out after 1 s waiting for the prompt']);
  });
});

describe('host_cli shells an actor cannot run', () => {
  it('cmd ends incompatible off Windows; powershell ends incompatible without pwsh', async () => {
    const cmd = await runAction({ shell: 'cmd', raw_text: 'whoami\n    auto 0 true 10' });
    expect([cmd.status, cmd.blocked_msg]).toEqual(['incompatible', 'cmd exists only on Windows; this actor runs Linux.']);
    const { spawnSync } = await import('node:child_process');
    const ps = await runAction({ shell: 'powershell', raw_text: 'Get-Process\n    auto 0 true 10' });
    const reason = spawnSync('which', ['pwsh']).status === 0 ? 'pwsh is installed, but this actor version does not run powershell scripts yet.' : 'pwsh is not installed on this actor.';
    expect([ps.status, ps.blocked_msg]).toEqual(['incompatible', reason]);
  });
});

describe('host_cli run-as user profiles', () => {
  const profile = async (username: string) => {
    const [row] = await w.server.db.query<{ id: number }>(`insert into action_user_profiles (friendly_name, username) values ($1, $2) returning id`, [`Profile ${username}`, username]);
    return row!.id;
  };

  it.runIf(process.getuid?.() === 0)('ACT-040 an actor running as root runs the script as the profile\'s OS user', async () => {
    const a = await bash('id -un; pwd\n    auto 0 true 10\n    success_match ^nobody$', { action_user_profile_id: await profile('nobody') });
    expect([a.status, a.blocked], a.blocked_msg ?? '').toEqual(['ran', false]);
    expect(a.evidence.source).toMatchObject({ run_as: 'nobody' });
    const py = await runAction({ shell: 'python', raw_text: 'import os, sys\nsys.exit(0 if os.getuid() != 0 else 5)', action_user_profile_id: await profile('nobody') });
    expect([py.status, py.blocked], py.blocked_msg ?? '').toEqual(['ran', false]);
  });

  it('ACT-040 a user missing on the actor, a headless actor asked for an interactive session, and a deleted profile end with the reason', async () => {
    const missing = await bash('id\n    auto 0 true 10', { action_user_profile_id: await profile('vigil-no-such-user') });
    expect([missing.status, missing.blocked_msg]).toEqual(['incompatible', 'User vigil-no-such-user does not exist on this actor.']);
    const saved = { DISPLAY: process.env.DISPLAY, WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY };
    delete process.env.DISPLAY;
    delete process.env.WAYLAND_DISPLAY;
    try {
      const interactive = await bash('id\n    auto 0 true 10', { action_user_profile_id: await profile('nobody'), require_run_as_interactive: true });
      expect([interactive.status, interactive.blocked_msg]).toEqual([
        'incompatible',
        'The action must run as nobody in an interactive session, and this actor is headless (no DISPLAY or WAYLAND_DISPLAY), so it cannot honour require run as interactive.',
      ]);
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
    }
    const gone = await profile('nobody');
    await w.server.db.query('delete from action_user_profiles where id = $1', [gone]);
    const deleted = await bash('id\n    auto 0 true 10', { action_user_profile_id: gone });
    expect([deleted.status, deleted.blocked_msg]).toEqual(['errored', `The run-as user profile ${gone} no longer exists.`]);
  });

  it('ACT-040 an actor not running as root cannot run as another user', () => {
    const host: RunAsHost = { uid: 1000, lookup: (name) => (name === 'alice' ? { uid: 1001, gid: 1001, home: '/home/alice' } : null), env: {} };
    const reason = (details: Record<string, unknown>) => {
      try {
        resolveRunAs(details, host);
        return null;
      } catch (e) {
        expect(e).toBeInstanceOf(Incompatible);
        return (e as Error).message;
      }
    };
    expect(reason({ run_as: { username: 'alice' } })).toBe('The actor is not running as root, so it cannot run as alice.');
    expect(reason({ run_as: { username: 'CORP\\bob' } })).toBe('User CORP\\bob does not exist on this actor.');
    expect(reason({})).toBeNull();
    expect(resolveRunAs({ run_as: { username: 'alice' } }, { ...host, uid: 0 })).toMatchObject({ uid: 1001, gid: 1001, env: { HOME: '/home/alice', USER: 'alice' } });
  });
});
