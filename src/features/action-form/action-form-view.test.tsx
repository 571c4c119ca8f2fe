import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { FORM_LIMITS, MSG, actionFormSchema, type ActionFormPayload, type FormDefinition, type TagsAnswer } from '@/api/contracts/action-form';
import { decodeActionForm, formFieldsOf } from '@/api/contracts/action-form-body';
import type { Permission } from '@/api/contracts/permissions';
import { hotkeyAria, hotkeyText } from '@/commands/hotkey-format';
import { commands, emptyContext } from '@/commands/registry';
import { Toaster } from '@/ui/toaster';
import { clearToasts } from '@/ui/toasts';
import { NewActionPane } from './action-form-pane';
import { actionFormCommands } from './commands';
import { DIMENSION_TYPES } from '@/api/contracts/vocabulary';

const server = useMswServer();

const tree = (type: string, id: number) => ({ id, name: type, param_name: type, children: [{ id: id + 1, name: `${type} one`, param_name: 'one', children: [] }] });
const DEF: FormDefinition = {
  action_types: [
    { value: 'dns', label: 'DNS' },
    { value: 'sleep', label: 'Sleep' },
  ],
  dimension_trees: DIMENSION_TYPES.map((type, i) => ({ type, label: type, required: true, tree: tree(type, i * 10 + 1) })),
  dimension_defaults: {},
  dns_servers: [],
  action_user_profiles: [],
  web_request_profiles: [],
  limits: FORM_LIMITS,
  execution_plan: false,
  flags: { brt_auth: false, protected_theater: false },
  pcap_upload: false,
};
const TAGS: TagsAnswer = { tags: [{ id: 1, name: 'Lab Only', class_name: 'user', tag_type: 'user', code: null, editable: true, field: 'user_tags' }] };

function setPermissions(perms: Permission[]) {
  commands.setContextProvider(() => ({ ...emptyContext(), user: { id: 9, email: 'a@b.c', first_name: '', last_name: '', role: 'operator', permissions: perms }, permissions: new Set(perms), activePane: { kind: 'action-new', params: {} } }));
}

let dispose: () => void = () => undefined;
beforeEach(() => {
  localStorage.clear();
  dispose = commands.registerAll(actionFormCommands);
  server.use(
    http.get(`${API}/manage_sims/actions/form_definition.json`, () => HttpResponse.json(DEF)),
    http.get(`${API}/manage_sims/actions/get_tags.json`, () => HttpResponse.json(TAGS)),
  );
});
afterEach(() => {
  dispose();
  clearToasts();
  commands.setContextProvider(() => emptyContext());
});

function renderPane(params: Record<string, string> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <NewActionPane params={params} setParams={() => undefined} />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('the Add Action form', () => {
  it('ACT-083 without create_action_permission there are no Cancel, Reset and Save buttons', async () => {
    setPermissions([]);
    renderPane({ action_type: 'dns' });
    await screen.findByRole('heading', { name: 'Add Action' });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('ACT-094 ACT-106 posts the payload and maps the server errors onto the fields', async () => {
    setPermissions(['create_action_permission']);
    let sent: ActionFormPayload | null = null;
    server.use(
      http.post(`${API}/manage_sims/actions.json`, async ({ request }) => {
        // The spec's form data, read back as the director does (decoded, then cast by the same schema).
        sent = actionFormSchema('dns').cast(decodeActionForm(formFieldsOf(new URLSearchParams(await request.text())))) as ActionFormPayload;
        return HttpResponse.json({ error: MSG.saveFailed, errors: { 'dns_action.domain': ['is on the deny list'], 'sim_action.name': ['has already been taken'] } }, { status: 400 });
      }),
    );
    renderPane({ action_type: 'dns', domain: 'c2.example-bad.com', dns_name: 'Lookup', dns_desc: 'Looks it up' });
    await screen.findByRole('heading', { name: 'Add Action' });
    // The dimension pickers: choose the one value of each tree.
    await userEvent.click(screen.getByRole('button', { name: /Tags\/Dimensions/ }));
    for (const type of DIMENSION_TYPES) {
      await userEvent.click(screen.getByRole('button', { name: new RegExp(`^${type}`) }));
      await userEvent.click(await screen.findByRole('treeitem', { name: `${type} one` }));
    }
    await userEvent.click(screen.getAllByRole('button', { name: 'Save' })[0]!);
    await waitFor(() => expect(sent).not.toBeNull());
    expect(sent!.sim_action).toMatchObject({ name: 'Lookup', desc: 'Looks it up', action_type: 'dns' });
    expect(sent!.dns_action).toEqual({ query_type: 'A', domain: 'c2.example-bad.com', dns_server_id: null });
    expect(sent!.trees.map((t) => t.id)).toEqual(DIMENSION_TYPES.map((_, i) => i * 10 + 2));
    expect(Object.keys(sent!)).not.toContain('sleep_action');
    expect(await screen.findByText(MSG.saveFailed)).toBeTruthy();
    // The wizard moves to the first step with an error (step 1: the name), then step 2 shows the domain error.
    expect(await screen.findByText('has already been taken')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Action Details/ }));
    expect(await screen.findByText('is on the deny list')).toBeTruthy();
  });

  it.each([
    [false, 0],
    [true, 1],
  ])('MON-125 ACT-087 host_cli shows the protected-actor options only with the protected_theater flag (flag %s)', async (protectedTheater, groups) => {
    setPermissions(['create_action_permission']);
    const def: FormDefinition = { ...DEF, action_types: [...DEF.action_types, { value: 'host_cli', label: 'Host CLI' }], flags: { brt_auth: false, protected_theater: protectedTheater } };
    server.use(http.get(`${API}/manage_sims/actions/form_definition.json`, () => HttpResponse.json(def)));
    renderPane({ action_type: 'host_cli' });
    await screen.findByRole('heading', { name: 'Add Action' });
    await userEvent.click(screen.getByRole('button', { name: /Action Details/ }));
    await screen.findByLabelText('Shell');
    expect(screen.queryAllByRole('group', { name: 'Protected actor' })).toHaveLength(groups);
    expect(screen.queryAllByText('Require Protected Theater')).toHaveLength(groups);
  });

  it.each([false, true])('MON-125 the brt_auth flag shapes the form: the VID Override field is there only with it (flag %s)', async (brtAuth) => {
    setPermissions(['create_action_permission']);
    const def: FormDefinition = { ...DEF, flags: { brt_auth: brtAuth, protected_theater: false } };
    server.use(http.get(`${API}/manage_sims/actions/form_definition.json`, () => HttpResponse.json(def)));
    renderPane();
    await screen.findByRole('heading', { name: 'Add Action' });
    expect(screen.getByLabelText('Description')).toBeTruthy();
    expect(screen.queryAllByLabelText(/VID Override/)).toHaveLength(brtAuth ? 1 : 0);
  });

  it('ACT-072 Save with no type says Select an Action Type (the Save button itself stays disabled)', async () => {
    setPermissions(['create_action_permission']);
    renderPane();
    await screen.findByRole('heading', { name: 'Add Action' });
    await userEvent.type(screen.getByLabelText('Name'), 'n');
    await userEvent.type(screen.getByLabelText('Description'), 'd');
    expect((screen.getAllByRole('button', { name: 'Save' })[0] as HTMLButtonElement).disabled).toBe(true);
    await commands.execute('action-new.save', undefined, 'hotkey');
    expect(await screen.findByText(MSG.selectType)).toBeTruthy();
    expect(screen.getByText('Select an Action Type.')).toBeTruthy();
  });

  it('the Cancel, Reset, Save, Previous and Continue buttons take their shortcut from the keybinding of their command and run it', async () => {
    setPermissions(['create_action_permission']);
    renderPane({ action_type: 'dns' });
    await screen.findByRole('heading', { name: 'Add Action' });
    const shortcut = (op: string) => {
      const cmd = commands.get(`action-new.${op}`)!;
      const key = cmd.hotkey as string;
      return { aria: hotkeyAria(key), title: `${cmd.title} (${hotkeyText(key)})` };
    };
    const header = screen.getByRole('group', { name: 'Form actions' });
    for (const [name, op] of [['Cancel', 'cancel'], ['Reset', 'reset'], ['Save', 'save']] as const) {
      const button = within(header).getByRole('button', { name });
      expect(button.getAttribute('aria-keyshortcuts')).toBe(shortcut(op).aria);
      // Reset is disabled on an empty form, so its tooltip says why instead.
      if (op !== 'reset') expect(button.getAttribute('title')).toBe(shortcut(op).title);
    }
    expect(within(header).getByRole('button', { name: 'Save' }).getAttribute('aria-keyshortcuts')).toMatch(/^(Control|Meta)\+S$/);
    const previous = await screen.findByRole('button', { name: 'Previous' });
    expect(previous.getAttribute('aria-keyshortcuts')).toBe(shortcut('previous').aria);
    const next = screen.getByRole('button', { name: 'Continue' });
    expect(next.getAttribute('aria-keyshortcuts')).toBe(shortcut('continue').aria);
    const execute = vi.spyOn(commands, 'execute');
    try {
      await userEvent.click(next);
      expect(execute).toHaveBeenCalledWith('action-new.continue', undefined, 'button', {});
      expect(await screen.findByRole('heading', { name: /^2\. Action Details/ })).toBeTruthy();
    } finally {
      execute.mockRestore();
    }
  });
});
