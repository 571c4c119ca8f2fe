/** Adding and removing user tags on Actions, actors and simulations (the calls of routes/tags.ts). */
import type { Db } from '../db/index';
import { HttpError, badRequest, notFound } from '../http-errors';
import { checkTagValue, listModeTags, TAGGABLE_LABELS, type Taggable, type TagChangeReply, type TagOptionRow, type TagOptionsAnswer } from '../../src/api/contracts/tags';

const TABLES: Record<Taggable, { table: string; join: string; fk: string }> = {
  actions: { table: 'actions', join: 'action_tags', fk: 'action_id' },
  nodes: { table: 'nodes', join: 'node_tags', fk: 'node_id' },
  simulations: { table: 'simulations', join: 'simulation_tags', fk: 'simulation_id' },
};

async function replyOf(db: Db, taggable: Taggable, id: number): Promise<TagChangeReply> {
  const t = TABLES[taggable];
  const [row] = await db.query<{ name: string; updated_at: string; user_tags: string[] }>(
    `select x.name, x.updated_at::text,
            array(select tg.name from ${t.join} j join tags tg on tg.id = j.tag_id where j.${t.fk} = x.id and tg.class_name = 'user' order by lower(tg.name)) as user_tags
       from ${t.table} x where x.id = $1`,
    [id],
  );
  if (!row) throw notFound(`${TAGGABLE_LABELS[taggable]} ${id} does not exist.`);
  return { status: 200, data: { user_tags: row.user_tags, threat_actor_reference_id: null, name: row.name, updated_at: row.updated_at } };
}

/** Adds a user tag (made when new); one already there is kept as it is. */
export async function addTag(db: Db, taggable: Taggable, id: number, raw: string): Promise<TagChangeReply> {
  const checked = checkTagValue(raw);
  if (!checked.ok) throw badRequest(checked.message, { errors: { tag: [checked.message] } });
  const t = TABLES[taggable];
  await replyOf(db, taggable, id);
  await db.transaction(async (tx) => {
    await tx.query("insert into tags (name, class_name, tag_type) select $1, 'user', 'user' where not exists (select 1 from tags where class_name = 'user' and lower(name) = lower($1))", [checked.value]);
    await tx.query(`insert into ${t.join} (${t.fk}, tag_id) select $1, id from tags where class_name = 'user' and lower(name) = lower($2) on conflict do nothing`, [id, checked.value]);
    await tx.query(`update ${t.table} set updated_at = now() where id = $1`, [id]);
  });
  return replyOf(db, taggable, id);
}

/** Removes a user tag; a tag marked not editable is refused (MON-076). */
export async function removeTag(db: Db, taggable: Taggable, id: number, raw: string): Promise<TagChangeReply> {
  const name = raw.trim();
  const t = TABLES[taggable];
  const before = await replyOf(db, taggable, id);
  const [tag] = await db.query<{ id: number; editable: boolean; name: string }>("select id, editable, name from tags where class_name = 'user' and lower(name) = lower($1)", [name]);
  if (!tag || !before.data.user_tags.includes(tag.name)) throw notFound(`${before.data.name} has no tag "${name}".`);
  if (!tag.editable) throw new HttpError(403, `The tag "${tag.name}" is not editable.`);
  await db.transaction(async (tx) => {
    await tx.query(`delete from ${t.join} where ${t.fk} = $1 and tag_id = $2`, [id, tag.id]);
    await tx.query(`update ${t.table} set updated_at = now() where id = $1`, [id]);
  });
  return replyOf(db, taggable, id);
}

/**
 * MON-132: the tags of one type offered to what `taggable` names, with how many of them carry each; in
 * list mode the ATT&CK-prefixed product tags of the user and verodin types are left out (MON-112).
 */
export async function tagOptions(db: Db, tagType: string, taggable: Taggable): Promise<TagOptionsAnswer> {
  const t = TABLES[taggable];
  const rows = await db.query<TagOptionRow & { class_name: string }>(
    `select tg.name, tg.editable, tg.class_name, (select count(*)::int from ${t.join} j where j.tag_id = tg.id) as count
       from tags tg where tg.tag_type = $1 order by lower(tg.name), tg.id`,
    [tagType],
  );
  return { data: { [tagType]: listModeTags(rows).map(({ name, editable, count }) => ({ name, editable, count })) } };
}
