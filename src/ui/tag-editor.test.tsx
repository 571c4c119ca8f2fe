import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TagChangeReply } from '@/api/contracts/tags';
import { TagEditor, type TagEditorProps } from './tag-editor';
import { clearToasts, toastStore } from './toasts';

const reply = (user_tags: string[], status = 200): TagChangeReply => ({ status, data: { user_tags, threat_actor_reference_id: null, name: 'WS01', updated_at: '' } });

function setup(over: Partial<TagEditorProps> = {}) {
  const change = vi.fn<TagEditorProps['change']>();
  render(
    <div>
      <p>Outside</p>
      <TagEditor label="Tags of WS01" tags={[{ name: 'Finance', editable: true }, { name: 'Vendor', editable: false }]} options={['Finance', 'HQ']} isEditable change={change} {...over} />
    </div>,
  );
  return { change, chips: () => within(screen.getByRole('list', { name: 'Tags of WS01' })).getAllByRole('listitem').map((li) => li.textContent) };
}

describe('tag editor', () => {
  beforeEach(() => clearToasts());
  it('MON-073 MON-046 an add shows at once (ADDING), then the reply replaces the list; MON-075 an outside click closes the popover', async () => {
    const user = userEvent.setup();
    let resolve: (r: TagChangeReply) => void = () => undefined;
    const { change, chips } = setup();
    change.mockImplementation(() => new Promise((r) => (resolve = r)));
    await user.click(screen.getByRole('button', { name: 'Edit tags' }));
    await user.type(screen.getByLabelText('New tag'), 'Group:Desk{Enter}');
    expect(change).toHaveBeenCalledWith('add', 'Group:Desk');
    expect(chips()).toEqual(['Finance', 'Vendor🔒', 'Group:Desk']);
    expect(within(screen.getByRole('list', { name: 'Tags of WS01' })).getByText('Group:Desk').closest('li')?.getAttribute('aria-busy')).toBe('true');
    resolve(reply(['Finance', 'Group:Desktops', 'Vendor']));
    await screen.findByText('Group:Desktops', { selector: 'li' });
    expect(chips()).toEqual(['Finance', 'Group:Desktops', 'Vendor🔒']);
    await user.click(screen.getByText('Outside'));
    expect(screen.queryByLabelText('New tag')).toBeNull();
  });

  it('MON-074 a reply whose status is not 200 gives its list, and later edits stay local (no call)', async () => {
    const user = userEvent.setup();
    const { change, chips } = setup();
    change.mockResolvedValue({ ...reply(['Finance', 'Vendor'], 422), message: 'Tag limit reached' });
    await user.click(screen.getByRole('button', { name: 'Edit tags' }));
    await user.type(screen.getByLabelText('New tag'), 'One{Enter}');
    await screen.findByRole('alert');
    expect(screen.getByRole('alert').textContent).toBe('Tag limit reached');
    expect(chips()).toEqual(['Finance', 'Vendor🔒']);
    await user.type(screen.getByLabelText('New tag'), 'Two{Enter}');
    expect(change).toHaveBeenCalledTimes(1);
    expect(chips()).toEqual(['Finance', 'Vendor🔒', 'Two']);
  });

  it('MON-076 MON-107 MON-110 a locked tag cannot be removed, an empty value is refused, a duplicate is highlighted and not added; a refusal restores the list', async () => {
    const user = userEvent.setup();
    const { change, chips } = setup();
    change.mockRejectedValue(new Error('The tag "Finance" is not editable.'));
    await user.click(screen.getByRole('button', { name: 'Edit tags' }));
    expect((screen.getByRole('button', { name: 'Remove tag Vendor' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('New tag'), '   {Enter}');
    expect(screen.getByRole('alert').textContent).toBe('The value must not be empty.');
    await user.clear(screen.getByLabelText('New tag'));
    await user.type(screen.getByLabelText('New tag'), 'finance{Enter}');
    expect(change).not.toHaveBeenCalled();
    expect(screen.getByText('Finance', { selector: 'span' }).className).toContain('amber');
    await user.click(screen.getByRole('button', { name: 'Remove tag Finance' }));
    await screen.findByText('The tag "Finance" is not editable.');
    expect(chips()).toEqual(['Finance', 'Vendor🔒']);
    expect(screen.getByText('HQ').closest('label')?.getAttribute('data-status')).toBe('UNCHECKED');
    expect(screen.getByText('Finance', { selector: 'label' }).getAttribute('data-status')).toBe('CHECKED');
  });

  it('MON-108 MON-109 MON-149 a value the rules do not allow is a flash alert; nothing is added and the typed text stays', async () => {
    const user = userEvent.setup();
    const { change, chips } = setup({ rules: { onlyExisting: true, existing: ['Finance', 'HQ'] } });
    await user.click(screen.getByRole('button', { name: 'Edit tags' }));
    await user.type(screen.getByLabelText('New tag'), 'Nope{Enter}');
    expect(toastStore.toasts.map((t) => [t.kind, t.message])).toEqual([['error', '"Nope" is not a valid tag value.']]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(change).not.toHaveBeenCalled();
    expect(chips()).toEqual(['Finance', 'Vendor🔒']);
    expect((screen.getByLabelText('New tag') as HTMLInputElement).value).toBe('Nope');
    // An existing tag (any letter case) passes the same rule and is added.
    change.mockResolvedValue(reply(['Finance', 'Vendor', 'HQ']));
    await user.clear(screen.getByLabelText('New tag'));
    await user.type(screen.getByLabelText('New tag'), 'hq{Enter}');
    expect(change).toHaveBeenCalledWith('add', 'hq');
    expect(toastStore.toasts).toHaveLength(1);
  });

  it('MON-109 a source/destination tag needs every part to start with Src: or Dst:, else the same flash', async () => {
    const user = userEvent.setup();
    const { change } = setup({ rules: { srcDst: true } });
    await user.click(screen.getByRole('button', { name: 'Edit tags' }));
    await user.type(screen.getByLabelText('New tag'), 'Src:Web+DB{Enter}');
    expect(toastStore.toasts.map((t) => t.message)).toEqual(['"Src:Web+DB" is not a valid tag value.']);
    expect(change).not.toHaveBeenCalled();
  });

  it('MON-121 without isEditable the tags are shown read-only', () => {
    setup({ isEditable: false });
    expect(screen.queryByRole('button', { name: 'Edit tags' })).toBeNull();
  });
});
