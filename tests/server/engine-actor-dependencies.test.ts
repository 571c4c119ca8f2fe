/**
 * Actor dependency installs and version checks (JOB-061, JOB-097) end to end: the director queues a
 * task, a real loopback actor claims it with its poll, looks for the programs its action types need on
 * this host (and installs missing ones with a package manager), and reports; the director keeps the
 * report, the version and deps_installed. Permissions, CSRF and bad input are answered 4xx.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dependencyState, type ActorTask, type DependencyActor } from '@/api/contracts/actor-dependencies';
import { ACTOR_VERSION } from '@/api/contracts/engine';
import { ActorAgent } from '../../actor/agent';
import { DEPENDENCIES, type Dependency } from '../../actor/deps';
import { findTool } from '../../actor/types/tools';
import { startEngineWorld, type EngineWorld } from './engine-helpers';
import type { Session } from './helpers';

let w: EngineWorld;
let admin: Session;
let probe: ActorAgent;
let bin: string;
const oldPath = process.env.PATH;

// A package manager standing in for apt-get on this host (the tests must not install system packages):
// it "installs" a package by writing a program of that name into a folder on PATH, or refuses while
// the folder holds a .refuse file, with apt-get's own words.
const FAKE_APT = `#!/bin/sh
for pkg; do :; done
if [ -e "$VIGIL_TEST_BIN/.refuse" ] || [ "$pkg" = vigil-absent ]; then echo "E: Unable to locate package $pkg" >&2; exit 100; fi
printf '#!/bin/sh\\necho "%s 2.4.1"\\n' "$pkg" > "$VIGIL_TEST_BIN/$pkg"
chmod +x "$VIGIL_TEST_BIN/$pkg"
`;
const PROBE_DEPS: Dependency[] = [
  { names: ['vigil-probe-tool'], needed_for: 'the test', packages: { 'apt-get': 'vigil-probe-tool' }, versionArgs: ['--version'] },
  { names: ['vigil-absent'], needed_for: 'nothing (optional)', optional: true, packages: { 'apt-get': 'vigil-absent' }, versionArgs: [] },
];

beforeAll(async () => {
  // The world's actors only look (installDeps false): nothing is installed on this host.
  w = await startEngineWorld({ installDeps: false });
  admin = await w.server.signIn('admin');
  bin = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-deps-bin-'));
  fs.writeFileSync(path.join(bin, 'fake-apt-get'), FAKE_APT, { mode: 0o755 });
  process.env.PATH = `${bin}${path.delimiter}${oldPath ?? ''}`;
  process.env.VIGIL_TEST_BIN = bin;
  probe = new ActorAgent({
    director: w.url,
    bulkToken: w.bulkToken,
    name: 'probe',
    address: '127.0.0.4',
    log: () => {},
    pollWaitMs: 2000,
    dependencyOptions: { packageManager: { name: 'apt-get', install: [path.join(bin, 'fake-apt-get'), 'install', '-y'] }, dependencies: PROBE_DEPS },
  });
  await probe.start();
}, 60_000);
afterAll(async () => {
  await probe?.stop();
  await w?.close();
  process.env.PATH = oldPath;
  delete process.env.VIGIL_TEST_BIN;
  fs.rmSync(bin, { recursive: true, force: true });
});

const actorOf = async (id: number) => (await w.server.call('GET', `/topology/nodes/${id}/dependencies.json`, { as: admin })).json<{ data: DependencyActor }>().data;

async function settled(id: number, taskId: number): Promise<DependencyActor> {
  const until = Date.now() + 20_000;
  for (;;) {
    const a = await actorOf(id);
    if (a.task?.id === taskId && (a.task.status === 'done' || a.task.status === 'failed')) return a;
    if (Date.now() > until) throw new Error(`task ${taskId} did not settle: ${JSON.stringify(a.task)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function queue(id: number, kind: 'install_dependencies' | 'version_check'): Promise<ActorTask> {
  const res = await w.server.call('POST', `/topology/nodes/${id}/${kind}.json`, { as: admin });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: ActorTask }>().data;
}

describe('actor dependency installs', () => {
  it('JOB-097 JOB-061 lists the registered actors with their version; a new actor is NOT_INSTALLED until its dependencies are checked', async () => {
    const viewer = await w.server.signIn('viewer');
    const res = await w.server.call('GET', '/integrations/dependency_actors.json', { as: viewer });
    expect(res.statusCode).toBe(200);
    const actors = res.json<{ data: DependencyActor[] }>().data;
    expect(actors.map((a) => a.name)).toEqual(['dst', 'probe', 'src']);
    for (const a of actors) {
      expect(a).toMatchObject({ msi_service_version: ACTOR_VERSION, deps_installed: false, task: null, install: null });
      expect(dependencyState(a, false)).toBe('NOT_INSTALLED');
    }
    expect((await w.server.call('GET', '/integrations/dependency_actors.json')).statusCode).toBe(401);
  });

  it('JOB-061 JOB-097 the actor really looks on its host: every program its action types need, found with its path and version, and deps_installed when every required one is there', async () => {
    const id = w.src.nodeId!;
    const task = await queue(id, 'install_dependencies');
    expect(task).toMatchObject({ kind: 'install_dependencies', status: 'queued' });
    const a = await settled(id, task.id);
    const deps = a.task!.dependencies!;
    expect(deps.map((d) => d.needed_for)).toEqual(DEPENDENCIES.map((d) => d.needed_for));
    for (const [i, d] of DEPENDENCIES.entries()) {
      const here = d.names.map((n) => findTool(n)).find(Boolean) ?? null;
      expect(deps[i]).toMatchObject({ found: !!here, path: here, installed_now: false, optional: d.optional === true });
      if (!here) expect(deps[i]!.error).toBe('Not installed; this actor was started with --no-install-deps.');
    }
    const ssh = deps.find((d) => d.program === 'ssh');
    if (ssh?.found) expect(ssh.version).toMatch(/OpenSSH/);
    // scp has no version flag: its version is the OpenSSH release ssh -V prints.
    const scp = deps.find((d) => d.program === 'scp');
    if (scp?.found && ssh?.found) expect(scp.version).toBe(ssh.version);
    const requiredOk = deps.every((d) => d.found || d.optional);
    expect(a.deps_installed).toBe(requiredOk);
    expect(a.task!.status).toBe(requiredOk ? 'done' : 'failed');
    expect(a.task!.message).toContain(`${deps.filter((d) => d.found).length} of ${deps.length} programs found on ${os.hostname()}`);
    expect(dependencyState(a, false)).toBe(requiredOk ? 'INSTALLED' : 'FAILED');
  });

  it('JOB-061 missing programs are installed with the package manager (one package at a time; an optional one that cannot be had does not fail the install); a refused required one is FAILED with the package manager\'s words', async () => {
    const id = probe.nodeId!;
    const first = await settled(id, (await queue(id, 'install_dependencies')).id);
    expect(first.task!.status).toBe('done');
    expect(first.deps_installed).toBe(true);
    expect(first.task!.dependencies).toEqual([
      { program: 'vigil-probe-tool', needed_for: 'the test', optional: false, found: true, path: path.join(bin, 'vigil-probe-tool'), version: 'vigil-probe-tool 2.4.1', package: 'vigil-probe-tool', installed_now: true, error: null },
      { program: 'vigil-absent', needed_for: 'nothing (optional)', optional: true, found: false, path: null, version: null, package: 'vigil-absent', installed_now: false, error: 'apt-get could not install vigil-absent: E: Unable to locate package vigil-absent' },
    ]);
    expect(first.task!.message).toContain('installed vigil-probe-tool; optional, missing: vigil-absent');
    expect(dependencyState(first, false)).toBe('INSTALLED');
    expect(first.install).toEqual(first.task);

    fs.rmSync(path.join(bin, 'vigil-probe-tool'));
    fs.writeFileSync(path.join(bin, '.refuse'), '');
    try {
      const second = await settled(id, (await queue(id, 'install_dependencies')).id);
      expect(second.task!.status).toBe('failed');
      expect(second.deps_installed).toBe(false);
      expect(second.task!.message).toMatch(/^Missing: vigil-probe-tool \(apt-get could not install vigil-probe-tool: E: Unable to locate package vigil-probe-tool\)\./);
      expect(dependencyState(second, false)).toBe('FAILED');
    } finally {
      fs.rmSync(path.join(bin, '.refuse'));
    }
  });

  it('JOB-061 an unknown service version is FAILED; the version check asks the actor, which reports its version and OS', async () => {
    const id = w.dst.nodeId!;
    await w.server.db.query('update nodes set msi_service_version = null where id = $1', [id]);
    expect(dependencyState(await actorOf(id), false)).toBe('FAILED');
    const a = await settled(id, (await queue(id, 'version_check')).id);
    expect(a.msi_service_version).toBe(ACTOR_VERSION);
    expect(a.task).toMatchObject({ kind: 'version_check', status: 'done', dependencies: null });
    expect(a.install).toBeNull();
    expect(a.task!.message).toBe(`Actor dst runs version ${ACTOR_VERSION} on ${os.type()} ${os.release()} ${os.arch()}.`);
    expect(dependencyState(a, false)).toBe('NOT_INSTALLED');
  });

  it('JOB-097 queueing needs actors.manage and the CSRF token; bad ids are 400, unknown 404, an offline actor or a second open install 409, with the reason', async () => {
    const id = w.src.nodeId!;
    const operator = w.operator;
    const refused = await w.server.call('POST', `/topology/nodes/${id}/install_dependencies.json`, { as: operator });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: string }>().error).toContain('actors.manage');
    expect((await w.server.call('POST', `/topology/nodes/${id}/install_dependencies.json`, { as: admin, csrf: false })).statusCode).toBe(403);
    expect((await w.server.call('POST', `/topology/nodes/${id}/install_dependencies.json`)).statusCode).toBe(403); // signed out: no CSRF token either
    const bad = await w.server.call('POST', '/topology/nodes/abc/install_dependencies.json', { as: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('id must be a number');
    const unknown = await w.server.call('POST', '/topology/nodes/999999/version_check.json', { as: admin });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ error: string }>().error).toBe('Actor 999999 does not exist, is retired, or never registered with this director.');
    const [sleepy] = await w.server.db.query<{ id: number }>(`insert into nodes (name, node_type, status, token_hash) values ('sleepy', 'endpoint', 'offline', 'not-a-real-hash') returning id`);
    const offline = await w.server.call('POST', `/topology/nodes/${sleepy!.id}/install_dependencies.json`, { as: admin });
    expect(offline.statusCode).toBe(409);
    expect(offline.json<{ error: string }>().error).toBe('Actor sleepy is offline: start it (or wait for it to call in), then try again.');
    // Two installs at once: the second is refused while the first is open.
    await w.server.db.query(`insert into actor_tasks (node_id, kind, status) values ($1, 'install_dependencies', 'claimed')`, [sleepy!.id]);
    await w.server.db.query(`update nodes set status = 'online' where id = $1`, [sleepy!.id]);
    const twice = await w.server.call('POST', `/topology/nodes/${sleepy!.id}/install_dependencies.json`, { as: admin });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ error: string }>().error).toBe('Dependencies are already being installed on sleepy.');
    expect(dependencyState(await actorOf(sleepy!.id), false)).toBe('INSTALLING');
  });
});
