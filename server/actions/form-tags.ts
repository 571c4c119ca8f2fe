/**
 * The tags of an Action form: verodin_tags must exist (verodin or mitre_attack, never file attachment
 * tags); unknown user tags are created for users with tags.edit. Saving replaces the Action's tags
 * but keeps its file attachment tags (the form does not edit them).
 */
import type { Db } from '../db/index';
import { MSG, type ActionFormPayload } from '../../src/api/contracts/action-form';
import { addError, type Errors } from './validation-error';

export const uniq = <T>(xs: readonly T[]) => [...new Set(xs)];

export interface CheckedTags {
  tagIds: number[];
  newUserTags: string[];
}

export async function checkTags(db: Db, errors: Errors, tags: ActionFormPayload['tags'], perms: ReadonlySet<string>): Promise<CheckedTags> {
  const tagIds: number[] = [];
  const newUserTags: string[] = [];
  const verodin = uniq(tags.verodin_tags.map((t) => t.trim()));
  if (verodin.length) {
    const rows = await db.query<{ id: number; name: string; code: string | null; tag_type: string }>(
      `select id, name, code, tag_type from tags where class_name in ('verodin', 'mitre_attack') and (name = any($1::text[]) or code = any($1::text[]))`,
      [verodin],
    );
    for (const name of verodin) {
      const row = rows.find((r) => (r.name === name || r.code === name) && r.tag_type !== 'file_attachment');
      if (row) tagIds.push(row.id);
      else addError(errors, 'tags.verodin_tags', MSG.invalidTag(name));
    }
  }
  const userTags = uniq(tags.user_tags.map((t) => t.trim()));
  if (userTags.length) {
    const rows = await db.query<{ id: number; name: string }>(`select id, name from tags where class_name = 'user' and lower(name) = any($1::text[])`, [
      userTags.map((t) => t.toLowerCase()),
    ]);
    for (const name of userTags) {
      const row = rows.find((r) => r.name.toLowerCase() === name.toLowerCase());
      if (row) tagIds.push(row.id);
      else if (perms.has('tags.edit')) newUserTags.push(name);
      else addError(errors, 'tags.user_tags', MSG.invalidTag(name));
    }
  }
  return { tagIds: uniq(tagIds), newUserTags };
}

/** Replaces an Action's form tags (creating the new user tags), keeping its file attachment tags. */
export async function writeTags(db: Db, actionId: number, checked: CheckedTags): Promise<void> {
  const created: number[] = [];
  for (const name of checked.newUserTags) {
    const [row] = await db.query<{ id: number }>(
      `insert into tags (name, class_name, tag_type, editable) values ($1, 'user', 'user', true)
         on conflict (class_name, name) do update set name = excluded.name returning id`,
      [name],
    );
    if (row) created.push(row.id);
  }
  await db.query(`delete from action_tags where action_id = $1 and tag_id in (select id from tags where tag_type <> 'file_attachment')`, [actionId]);
  const tagIds = uniq([...checked.tagIds, ...created]);
  if (tagIds.length) await db.query('insert into action_tags (action_id, tag_id) select $1, unnest($2::int[]) on conflict do nothing', [actionId, tagIds]);
}
