import { describe, expect, it } from 'vitest';
import { DISCARD_QUESTION, draftKey, forgetDraft, keepDraft, newScript, readDraft } from './drafts';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

describe('script drafts', () => {
  it('keeps unsaved edits per user and script while they differ from the saved script, and forgets them once equal', () => {
    const s = memoryStorage();
    const saved = { name: 'Cancel stale jobs', body: 'jobs.cancel id=1\n', shared: false };
    const key = draftKey(7, 12);
    expect(key).toBe('vigil.scripts.draft.7.12');
    expect(draftKey(7, null)).toBe('vigil.scripts.draft.7.new');
    keepDraft(s, key, { ...saved, body: 'jobs.cancel id=2\n' }, saved);
    expect(readDraft(s, key)).toEqual({ ...saved, body: 'jobs.cancel id=2\n' });
    expect(readDraft(s, draftKey(8, 12))).toBeNull();
    keepDraft(s, key, saved, saved);
    expect(readDraft(s, key)).toBeNull();
    keepDraft(s, draftKey(7, null), { ...newScript(), name: 'x' }, newScript());
    forgetDraft(s, draftKey(7, null));
    expect(s.length).toBe(0);
  });

  it('ignores unreadable drafts', () => {
    const s = memoryStorage();
    s.setItem('k', '{not json');
    expect(readDraft(s, 'k')).toBeNull();
    s.setItem('k', JSON.stringify({ name: 1 }));
    expect(readDraft(s, 'k')).toBeNull();
  });

  it('closing with unsaved changes asks with named buttons', () => {
    expect(DISCARD_QUESTION.message('Nightly')).toBe('"Nightly" has unsaved changes. Discard them and close the pane?');
    expect(DISCARD_QUESTION.message('')).toBe('This new script has unsaved changes. Discard them and close the pane?');
    expect(DISCARD_QUESTION.wording).toEqual({ title: 'Unsaved Script', confirmLabel: 'Discard Changes', cancelLabel: 'Keep Editing' });
  });
});
