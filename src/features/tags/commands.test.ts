import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf, type Role } from '@/api/contracts/permissions';
import { checkTagValue, duplicateOf, listModeTags } from '@/api/contracts/tags';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { TAGS_UPDATED_EVENT, tagTargets, type TagTargets } from '@/commands/tag-targets';
import { clearToasts, toastStore } from '@/ui/toasts';
import { tagsCommands } from './commands';

const server = useMswServer();
const twenty = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `Action ${i + 1}` }));

function registry(role: Role, targets?: TagTargets) {
  const r = new CommandRegistry(() => ({
    ...emptyContext(),
    user: { id: 1, email: `${role}@example.com`, first_name: '', last_name: '', role, permissions: permissionsOf(role) },
    permissions: new Set(permissionsOf(role)),
    queryClient: new QueryClient(),
    pane: <T,>(key: { name: string }) => (key.name === tagTargets.name ? (targets as T | undefined) : undefined),
  }));
  r.registerAll(tagsCommands);
  return r;
}

beforeEach(() => clearToasts());

describe('tag rules', () => {
  it('MON-107 MON-108 MON-109 MON-111 not empty, only existing, Src/Dst parts joined by +, prefix added when missing', () => {
    expect(checkTagValue('  ')).toEqual({ ok: false, message: 'The value must not be empty.', refusal: 'empty' });
    expect(checkTagValue('Nope', { onlyExisting: true, existing: ['Finance'] })).toEqual({ ok: false, message: '"Nope" is not a valid tag value.', refusal: 'invalid' });
    expect(checkTagValue('finance', { onlyExisting: true, existing: ['Finance'] })).toEqual({ ok: true, value: 'finance' });
    expect(checkTagValue('Src:Web+Dst:DB', { srcDst: true })).toEqual({ ok: true, value: 'Src:Web+Dst:DB' });
    expect(checkTagValue('Src:Web+Dst:', { srcDst: true })).toEqual({ ok: false, message: '"Src:Web+Dst:" is not a valid tag value.', refusal: 'invalid' });
    expect(checkTagValue('Desktops', { prefix: 'Group:' })).toEqual({ ok: true, value: 'Group:Desktops' });
    expect(checkTagValue('group:Desktops', { prefix: 'Group:' })).toEqual({ ok: true, value: 'group:Desktops' });
  });

  it('MON-110 MON-112 a duplicate is found in any case; ATT&CK product tags are hidden in list mode for user and verodin types', () => {
    expect(duplicateOf(['Group:Desktops'], ' group:desktops ')).toBe('Group:Desktops');
    const tags = [
      { name: 'ATT&CK T1059', class_name: 'verodin' },
      { name: 'ATT&CK T1059', class_name: 'mitre_attack' },
      { name: 'Finance', class_name: 'user' },
    ];
    expect(listModeTags(tags)).toEqual([tags[1], tags[2]]);
  });
});

describe('tags.add and tags.remove', () => {
  it('are offered with tags.edit to a pane that offers targets, and disabled without a selection', () => {
    expect(registry('viewer', { taggable: 'actions', items: () => twenty }).visible().map((c) => c.id)).toEqual([]);
    expect(registry('operator').visible().map((c) => c.id)).toEqual([]);
    expect(registry('operator', { taggable: 'actions', items: () => [] }).state('tags.add', { tag: 'x' })).toMatchObject({ visible: true, disabled: true, reason: 'Select what to tag first' });
  });

  it('tags twenty Actions at once, says so and sends the "tags updated" event; a refusal names the item', async () => {
    const calls: string[] = [];
    server.use(
      http.post(`${API}/tags/actions/:id/add.json`, async ({ params, request }) => {
        const { tag } = (await request.json()) as { tag: string };
        calls.push(`${String(params.id)}:${tag}`);
        if (params.id === '20') return HttpResponse.json({ error: 'Action 20 does not exist.' }, { status: 404 });
        return HttpResponse.json({ status: 200, data: { user_tags: [tag], threat_actor_reference_id: null, name: `Action ${String(params.id)}`, updated_at: '' } });
      }),
    );
    // The unit project runs without a DOM: the document is an event target without a CSRF meta tag here.
    vi.stubGlobal('document', Object.assign(new EventTarget(), { querySelector: () => null }));
    const events: unknown[] = [];
    const listen = (e: Event) => events.push((e as CustomEvent).detail);
    document.addEventListener(TAGS_UPDATED_EVENT, listen);
    const run = registry('operator', { taggable: 'actions', items: () => twenty }).execute('tags.add', { tag: ' Group:Q4 ' }, 'test');
    await expect(run).rejects.toThrow(
      'The tag could not be added to 1 of 20: Action 20: Action 20 does not exist.',
    );
    document.removeEventListener(TAGS_UPDATED_EVENT, listen);
    vi.unstubAllGlobals();
    expect(calls.sort()).toEqual(twenty.map((a) => `${a.id}:Group:Q4`).sort());
    expect(toastStore.toasts.map((t) => t.message)).toContain('Tag "Group:Q4" added to 19 Actions.');
    expect(events).toEqual([{ taggable: 'actions', ids: twenty.map((a) => a.id) }]);
  });
});
