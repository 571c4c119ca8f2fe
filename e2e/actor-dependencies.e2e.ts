import { describe, expect, inject, it } from 'vitest';
import { signIn, useBrowser } from './browser';
import { useOwnDirector } from './own-director';
import { localActorsOnline } from './local-actors';
import { eventually, panel, runCommand, lookAt } from './workbench';
import type { DependencyActor } from '../src/api/contracts/actor-dependencies';

/**
 * Issue 20: installing dependencies on a local actor from the integrations menu (JOB-061, JOB-097,
 * JOB-108, JOB-109). A director of its own with the two local actors; they only look for the programs
 * (LOCAL_ACTORS_INSTALL_DEPS=0), so the test installs no system package on this host.
 */
const director = useOwnDirector({ LOCAL_ACTORS: '1', LOCAL_ACTORS_INSTALL_DEPS: '0' });
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

describe('actor dependency installs', () => {
  const b = useBrowser(() => director().url);

  it('JOB-061 JOB-097 JOB-109 JOB-108 an administrator installs dependencies on a local actor from the palette; the actor reports what it found', async () => {
    const { page } = b;
    await signIn(page, inject('adminEmail'), inject('adminPassword'), '/integrations');
    const pane = panel(page, 'Integrations');
    await pane.waitFor();
    const actors = await localActorsOnline(page);
    const actor = actors.find((a) => a.name === 'local-actor-1')!;
    const table = pane.getByRole('table', { name: 'Actor dependencies' });
    const row = table.getByRole('row', { name: /^local-actor-1 / });
    await eventually(() => row.getByText('Not installed').count(), 1, 'a freshly registered actor is Not installed', 20_000);

    await runCommand(page, 'Install Dependencies on actor');
    const form = page.getByRole('form', { name: 'Arguments for Install Dependencies on actor' });
    const pick = form.getByRole('combobox', { name: 'Actor' });
    await pick.fill('local-actor-1');
    await form.getByRole('option', { name: /local-actor-1/ }).waitFor();
    await pick.press('Enter');
    await pick.press('Enter');

    // The actor reports; the director keeps its report.
    let reported: DependencyActor | undefined;
    await eventually(
      async () => {
        const res = await page.request.get(`/topology/nodes/${actor.id}/dependencies.json`, { headers: XHR });
        reported = ((await res.json()) as { data: DependencyActor }).data;
        return reported.install?.status === 'done' || reported.install?.status === 'failed';
      },
      true,
      'the actor reported its dependencies',
      30_000,
    );
    const install = reported!.install!;
    expect(install.dependencies!.map((d) => d.program)).toEqual(expect.arrayContaining(['ssh', 'scp', 'sshd', 'openssl', 'bzip2']));
    if (install.status === 'done') {
      const toast = page.getByRole('status').filter({ hasText: 'Dependencies on local-actor-1 successfully installed.' });
      await toast.waitFor();
      expect(await toast.innerText()).toContain('Install Dependencies on actor');
      await eventually(() => row.getByText('Installed', { exact: true }).count(), 1, 'the row says Installed');
    } else {
      // This host lacks a program an action type needs: the error toast carries the actor's report.
      b.allowConsole(/Missing:/);
      await page.getByRole('alert').filter({ hasText: install.message! }).waitFor();
      await row.getByRole('button', { name: 'Failed: check the version of local-actor-1' }).waitFor();
    }
    // The actor's report, program by program.
    await row.click();
    const report = pane.getByRole('region', { name: 'Dependencies of local-actor-1' });
    await report.getByText(install.message!).waitFor();
    const ssh = install.dependencies!.find((d) => d.program === 'ssh')!;
    // scp reports the version of the ssh beside it: the same text shows once per program.
    if (ssh.version) await eventually(() => report.getByText(ssh.version!).count().then((n) => n >= 1), true, 'ssh\'s version is shown');
    await lookAt(page, { path: 'test-results/actor-dependencies.png' });
  });
});
