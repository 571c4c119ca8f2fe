import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithQueries, useCommandsAs } from '../../../tests/dom-workbench';
import { API, useMswServer } from '../../../tests/msw';
import type { ActorTask, DependencyActor } from '@/api/contracts/actor-dependencies';
import { commands } from '@/commands/registry';
import { clearToasts, flash, toastStore } from '@/ui/toasts';
import { integrationsCommands } from './commands';
import { DependenciesTable } from './dependencies-table';
import { depsMarkers } from './deps-marker';
import { integrationsStore } from './store';

const server = useMswServer();
useCommandsAs(integrationsCommands);

const task = (id: number, over: Partial<ActorTask> = {}): ActorTask => ({
  id,
  kind: 'install_dependencies',
  status: 'done',
  message: '8 of 8 programs found on lab-1.',
  dependencies: [
    { program: 'ssh', needed_for: 'file_transfer over scp and ssh tunnels (source)', optional: false, found: true, path: '/usr/bin/ssh', version: 'OpenSSH_9.2p1', package: 'openssh-client', installed_now: false, error: null },
    { program: 'rar', needed_for: 'file_transfer rar encoding (non-free: optional)', optional: true, found: false, path: null, version: null, package: 'rar', installed_now: false, error: 'apt-get could not install rar: E: Unable to locate package rar' },
  ],
  requested_at: '2026-11-26T10:00:00.000Z',
  finished_at: '2026-11-26T10:00:05.000Z',
  ...over,
});
const actor = (id: number, name: string, over: Partial<DependencyActor> = {}): DependencyActor => ({ id, name, status: 'online', os: 'Linux 6.1 x64', msi_service_version: '1.0.0', deps_installed: false, task: null, install: null, ...over });

let actors: DependencyActor[];
beforeEach(() => {
  clearToasts();
  localStorage.clear();
  depsMarkers.installing = [];
  Object.assign(integrationsStore, { dependencyActors: [], selectedActorId: null, installRuns: [] });
  actors = [
    actor(1, 'fresh'),
    actor(2, 'ready', { deps_installed: true, install: task(5), task: task(5) }),
    actor(3, 'unknown-version', { msi_service_version: null }),
    actor(4, 'busy', { install: task(6, { status: 'claimed', message: null, dependencies: null, finished_at: null }) }),
  ];
  server.use(http.get(`${API}/integrations/dependency_actors.json`, () => HttpResponse.json({ data: actors })));
});

const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name} `) });

describe('actor dependency installs', () => {
  it('JOB-061 JOB-097 lists the actors with their version and dependency state: Not installed, Installed, Failed (version unknown), Installing… (an install runs)', async () => {
    renderWithQueries(<DependenciesTable />);
    await screen.findByRole('cell', { name: 'fresh' });
    expect(within(row('fresh')).getByText('Not installed')).toBeTruthy();
    expect(within(row('ready')).getByText('Installed')).toBeTruthy();
    expect(within(row('ready')).getByText('1 of 2 found; missing rar')).toBeTruthy();
    expect(within(row('unknown-version')).getByText('Unknown')).toBeTruthy();
    expect(within(row('unknown-version')).getByRole('button', { name: 'Failed: check the version of unknown-version' })).toBeTruthy();
    expect(within(row('busy')).getByText('Installing…')).toBeTruthy();
    expect((within(row('busy')).getByRole('button', { name: 'Install Dependencies on busy' }) as HTMLButtonElement).disabled).toBe(true);
    // The selected actor's report: every program, found or missing with the reason.
    await userEvent.click(screen.getByRole('cell', { name: 'ready' }));
    const report = screen.getByRole('region', { name: 'Dependencies of ready' });
    expect(within(report).getByText('OpenSSH_9.2p1')).toBeTruthy();
    expect(within(report).getByText('apt-get could not install rar: E: Unable to locate package rar')).toBeTruthy();
  });

  it("JOB-061 JOB-109 Install Dependencies shows INSTALLING while the call runs (a local marker kept across reloads), then the toast 'Install Dependencies on actor': 'Dependencies on {name} successfully installed.'", async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.post(`${API}/topology/nodes/1/install_dependencies.json`, async () => {
        await gate;
        return HttpResponse.json({ data: task(9, { status: 'queued', dependencies: null, message: null, finished_at: null }) }, { status: 201 });
      }),
      http.get(`${API}/topology/nodes/1/dependencies.json`, () => {
        actors = actors.map((a) => (a.id === 1 ? { ...a, deps_installed: true, task: task(9), install: task(9) } : a));
        return HttpResponse.json({ data: actors[0] });
      }),
    );
    renderWithQueries(<DependenciesTable />);
    await userEvent.click(await screen.findByRole('button', { name: 'Install Dependencies on fresh' }));
    await waitFor(() => expect(within(row('fresh')).getByText('Installing…')).toBeTruthy());
    expect(JSON.parse(localStorage.getItem('vigil.dependencyInstalls')!)).toEqual([1]);
    release();
    await waitFor(() => expect(toastStore.toasts.map((t) => [t.title, t.message])).toEqual([['Install Dependencies on actor', 'Dependencies on fresh successfully installed.']]));
    expect(localStorage.getItem('vigil.dependencyInstalls')).toBe('[]');
    await waitFor(() => expect(within(row('fresh')).getByText('Installed')).toBeTruthy());
  });

  it("JOB-108 a failed install: an error toast with the server's error, the actor's report when the install itself failed, else 'Could not install the dependencies on actor'", async () => {
    commands.setErrorReporter((message) => flash('alert', message));
    try {
      server.use(http.post(`${API}/topology/nodes/1/install_dependencies.json`, () => HttpResponse.json({ error: 'Actor fresh is offline: start it (or wait for it to call in), then try again.' }, { status: 409 })));
      renderWithQueries(<DependenciesTable />);
      await userEvent.click(await screen.findByRole('button', { name: 'Install Dependencies on fresh' }));
      await waitFor(() => expect(toastStore.toasts.map((t) => [t.kind, t.message])).toEqual([['error', 'Actor fresh is offline: start it (or wait for it to call in), then try again.']]));
      clearToasts();

      server.use(http.post(`${API}/topology/nodes/1/install_dependencies.json`, () => HttpResponse.error()));
      await userEvent.click(screen.getByRole('button', { name: 'Install Dependencies on fresh' }));
      await waitFor(() => expect(toastStore.toasts.map((t) => t.message)).toEqual(['Could not install the dependencies on actor']));
      clearToasts();

      const failed = task(11, { status: 'failed', message: 'Missing: sshd (apt-get could not install openssh-server: E: Unable to locate package openssh-server).' });
      server.use(
        http.post(`${API}/topology/nodes/1/install_dependencies.json`, () => HttpResponse.json({ data: { ...failed, status: 'queued' } }, { status: 201 })),
        http.get(`${API}/topology/nodes/1/dependencies.json`, () => HttpResponse.json({ data: { ...actors[0], task: failed, install: failed } })),
      );
      await userEvent.click(screen.getByRole('button', { name: 'Install Dependencies on fresh' }));
      await waitFor(() => expect(toastStore.toasts.map((t) => t.message)).toEqual([failed.message]));
      expect(localStorage.getItem('vigil.dependencyInstalls')).toBe('[]');
    } finally {
      commands.setErrorReporter(null);
    }
  });

  it('JOB-061 clicking Failed forces a version check; the actor reporting its version clears the marker', async () => {
    localStorage.setItem('vigil.dependencyInstalls', '[3]');
    depsMarkers.installing = [3];
    integrationsStore.installRuns = [3]; // as if the install call still ran in this page
    const checked = task(12, { kind: 'version_check', message: 'Actor unknown-version runs version 1.0.0 on Linux.', dependencies: null });
    const calls: string[] = [];
    server.use(
      http.post(`${API}/topology/nodes/3/version_check.json`, ({ request }) => (calls.push(new URL(request.url).pathname), HttpResponse.json({ data: { ...checked, status: 'queued' } }, { status: 201 }))),
      http.get(`${API}/topology/nodes/3/dependencies.json`, () => HttpResponse.json({ data: { ...actors[2], msi_service_version: '1.0.0', task: checked } })),
    );
    renderWithQueries(<DependenciesTable />);
    await screen.findByRole('cell', { name: 'unknown-version' });
    expect(within(row('unknown-version')).getByText('Installing…')).toBeTruthy();
    integrationsStore.installRuns = [];
    await commands.execute('integrations.checkActorVersion', { actor: 3 }, 'test');
    expect(calls).toEqual(['/topology/nodes/3/version_check.json']);
    expect(depsMarkers.installing).toEqual([]);
    expect(toastStore.toasts.map((t) => t.message)).toEqual(['Actor unknown-version runs version 1.0.0 on Linux.']);
  });

  it('JOB-061 a marker left by a reload shows INSTALLING until the list shows that install settled', async () => {
    localStorage.setItem('vigil.dependencyInstalls', '[1]');
    depsMarkers.installing = [1];
    actors[0] = { ...actors[0]!, install: task(20, { status: 'claimed', dependencies: null, finished_at: null }) };
    const { client } = renderWithQueries(<DependenciesTable />);
    await screen.findByRole('cell', { name: 'fresh' });
    expect(within(row('fresh')).getByText('Installing…')).toBeTruthy();
    expect(depsMarkers.installing).toEqual([1]);
    actors[0] = { ...actors[0], deps_installed: true, install: task(20) };
    await client.refetchQueries();
    await waitFor(() => expect(within(row('fresh')).getByText('Installed')).toBeTruthy());
    expect(depsMarkers.installing).toEqual([]);
  });
});
